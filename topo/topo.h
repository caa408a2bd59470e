/* Topologies: the structure of a network as pure functions.
 *
 * Promise: after build(), nodes are 0..nodes-1 and channels 0..channels-1, with no
 * gaps.  A channel is one server: a link direction (full-duplex links), a whole
 * half-duplex link shared by its two ends, or a bus shared by several nodes.  A hop
 * names the channel taken and the node it leads to, since a shared channel reaches
 * several nodes (a message on a bus goes straight to the addressed member).
 *
 * minimal_hops() lists the first hops of every shortest path from cur to dst
 * (cur != dst), the topology's canonical (seed) rule first, at most `max` of them;
 * routing algorithms choose among them.  distance() is the shortest-path distance,
 * which the canonical rule always achieves (tests check both against breadth-first
 * search); on the dragonfly, whose minimal routes take at most one global link (Kim et
 * al.), it is the length of those routes, and every listed hop gets one closer in it.  Channels fall into classes (hypercube: one per dimension) used for
 * per-class figures, bandwidths and load factors.  A family declares what it is as
 * trait bits (enum topo_traits), so that routing and the models ask for a capability
 * instead of a name.  Registered by one line in topo/registry.c.
 */
#ifndef TOPO_TOPO_H
#define TOPO_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../sim/core/config_value.h"

enum { TOPO_MAX_CLASSES = 64, TOPO_MAX_NODES = 1u << 30 };

enum channel_kind {
    CHANNEL_LINK_DIRECTION, /* one direction of a full-duplex point-to-point link */
    CHANNEL_HALF_DUPLEX,    /* a point-to-point link, one server for both directions */
    CHANNEL_BUS             /* a bus: one server, several attached senders */
};

/* What a family is, for every value of its keys (struct topo_ops.traits). */
enum topo_traits {
    TOPO_BINARY_HYPERCUBE = 1u << 0, /* the flat binary n-cube: one link per dimension at every node */
    /* A k-ary n-cube lattice of network.radix and network.dimension; its rings close
     * (wrap-around links) exactly when network.wrap is true, which the family
     * enforces when it always wraps (torus). */
    TOPO_KARY_NCUBE = 1u << 1,
    /* Binary hypercube clusters of 2^cluster_dimension nodes whose interface nodes are
     * joined by a level-2 network (seed 000's hierarchical networks); then exactly one
     * TOPO_LEVEL2_* bit says what that network is, and channel class TOPO_LEVEL2_CLASS
     * holds the level-2 channels. */
    TOPO_HYPERCUBE_CLUSTERS = 1u << 2,
    TOPO_LEVEL2_HYPERCUBE = 1u << 3,  /* a binary hypercube of the clusters */
    TOPO_LEVEL2_RING = 1u << 4,       /* a bidirectional ring */
    TOPO_LEVEL2_COMPLETE = 1u << 5,   /* every pair of clusters linked */
    TOPO_LEVEL2_CCC = 1u << 6,        /* cube-connected cycles */
    /* No dimensions to correct in order (a fat tree, a graph): ecube is refused there;
     * routing.algorithm = minimal takes the family's canonical minimal route. */
    TOPO_NO_DIMENSIONS = 1u << 7,
    /* Its canonical minimal route (minimal_hops()'s first hop) has no cyclic channel
     * dependency, so a wormhole router needs no VC classes for it (HyperX's dimension
     * order, a fat tree's up-then-down). */
    TOPO_MINIMAL_ACYCLIC = 1u << 8,
    /* The family attaches network.concentration terminals per router itself (HyperX,
     * Slim Fly, the dragonfly).  Without it, topo_build() gives a hypercube or a k-ary
     * n-cube of concentration above 1 its terminals (topo/concentrated.c) and refuses
     * concentration above 1 on the other families. */
    TOPO_OWN_TERMINALS = 1u << 9,
};

enum { TOPO_LEVEL2_CLASS = 0 };

struct hop {
    uint32_t channel;
    uint32_t next; /* node reached over that channel */
};

struct topo;
struct topo_ops;
struct rng;

/* A pure path function: the next hop from cur towards dst (cur != dst) on t, a
 * function of its arguments and of the draws it takes from r (NULL for a
 * deterministic path selection, which draws nothing).  Path selection provides it
 * (routing/routing.h); the analytic models walk routes with it. */
typedef struct hop (*path_next_fn)(const struct topo *t, uint32_t cur, uint32_t dst, struct rng *r);
/* The hops among which a path function that draws chooses at cur towards dst (cur !=
 * dst), each with probability 1/count whatever the message's past: at most max of them
 * into out, the count returned (at least 1).  The analytic side splits a node's flow
 * equally over them. */
typedef unsigned (*path_split_fn)(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max);

/* A path function's tables derived from one topology (routing/up_down.c): owner says
 * whose they are, free releases them with the topology. */
struct topo_derived {
    const void *owner;
    void *tables;
    void (*free)(void *tables);
};

struct topo {
    const struct topo_ops *ops;
    uint32_t nodes;
    /* Nodes 0..terminals-1 are terminals: they create and receive messages (workloads,
     * traces, --nodes and the per-node figures name them).  The others are routers
     * without terminals.  A family that leaves it 0 has every node a terminal and a
     * router (the seeds' networks): topo_build() then sets terminals and routers to nodes
     * and router_degree and router_diameter to degree and diameter. */
    uint32_t terminals;
    uint32_t routers;        /* switching nodes: nodes, or nodes - terminals when terminals hang off routers */
    unsigned router_degree;  /* most router-to-router links at one router */
    /* Terminals per group for group-shift traffic: terminals g*group_terminals .. (g+1)*
     * group_terminals - 1 form group g (a dragonfly's group, a HyperX's dimension-0 row,
     * a fat tree's leaf, a hierarchical network's cluster); 0: no groups. */
    uint32_t group_terminals;
    unsigned router_diameter; /* in router-to-router hops */
    uint32_t channels;       /* servers */
    uint64_t links;          /* as the seed counts them (replicated level-2 links count r times) */
    unsigned degree;         /* most links (or buses) at one node */
    unsigned max_hops;       /* most hops out of one node: sizes arrays for neighbors() */
    unsigned diameter;
    unsigned dimension;
    unsigned classes;        /* channel classes, <= TOPO_MAX_CLASSES */
    enum channel_kind kind;
    uint32_t cluster_size;   /* nodes per cluster (ids c*size .. c*size+size-1); 0: no clusters */
    /* A k-ary n-cube lattice (TOPO_KARY_NCUBE, and the binary hypercube as k = 2) as its
     * family built it, so that routing, workloads and models need not read the family's
     * keys: node x = sum of digits d_i k^i; wrap: each ring closes (a torus); both_ways:
     * links run both ways round each ring.  radix 0 for every other family. */
    struct {
        uint32_t radix;
        bool wrap, both_ways;
    } lattice;
    bool uniform_bandwidth;  /* every class has class_bandwidth[0] */
    bool transitive;         /* ops->translate is valid: every node sees the same network */
    /* Under a workload invariant under translate() and the canonical routing, every
     * channel of a class carries the same load, so loads follow from one node. */
    bool uniform_class_loads;
    double class_bandwidth[TOPO_MAX_CLASSES]; /* length units per time unit */
    char label[192];         /* e.g. "4-ary 3-cube torus, half-duplex links" */
    /* Tables a pure path function derives from the topology alone, built on first use
     * through a const topology and freed with it (topo_build allocates the slot; NULL on a
     * topology built otherwise). */
    struct topo_derived *derived;
    void *impl;              /* topology-specific tables, if any */
};

struct topo_ops {
    const char *name, *help;
    unsigned traits; /* enum topo_traits */
    const struct cfg_param_table *params; /* its keys (sim/core/params.h); NULL: none */
    bool (*build)(struct topo *t, const struct config *cfg, struct cfg_error *err);
    void (*free)(struct topo *t);
    unsigned (*minimal_hops)(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max);
    unsigned (*distance)(const struct topo *t, uint32_t a, uint32_t b);
    /* Every hop out of `node` (a bus gives one hop per other member). */
    unsigned (*neighbors)(const struct topo *t, uint32_t node, struct hop *out, unsigned max);
    /* The nodes that may send on the channel, in their order of position on it. */
    unsigned (*senders)(const struct topo *t, uint32_t channel, uint32_t *out, unsigned max);
    unsigned (*channel_class)(const struct topo *t, uint32_t channel);
    /* Optional: the dimension whose digit a hop over the channel changes (NULL when the
     * topology has no dimension order to follow; used by descending e-cube). */
    unsigned (*channel_dimension)(const struct topo *t, uint32_t channel);
    uint64_t (*channels_in_class)(const struct topo *t, unsigned cls);
    /* Writes the class's name (e.g. "dim3") into buf. */
    void (*class_name)(const struct topo *t, unsigned cls, char *buf, unsigned size);
    /* An automorphism that maps node 0 to `to`, applied to `node`; only called when
     * t->transitive. */
    uint32_t (*translate)(const struct topo *t, uint32_t node, uint32_t to);
    /* Optional: the channel's latency in cycles when the topology sets it (the dragonfly's
     * network.global_latency), 0 when it takes the engine's routing.link_latency.  Only
     * the iq router honours it; the other engines refuse a topology that sets one
     * (topo_sets_latencies()). */
    unsigned (*channel_latency)(const struct topo *t, uint32_t channel);
    /* Optional: whether a wormhole route crossing the channel takes the next VC class
     * (the dragonfly's global links: Kim et al.'s classes for deadlock freedom). */
    bool (*raises_vc_class)(const struct topo *t, uint32_t channel);
    /* Optional: mean distance over ordered pairs of distinct terminals, in closed form
     * (used for topologies that are not transitive, and required where terminals hang
     * off routers). */
    double (*mean_distance)(const struct topo *t);
    /* Optional: the side (0 or 1) of node x in the family's bisection, a cut into two
     * halves of equally many terminals that is a minimum one for the family (the
     * standard cut of the papers it follows: docs/models.md); -1 when the family has
     * none in closed form for these parameters (an odd radix). */
    int (*bisection_side)(const struct topo *t, uint32_t x);
};

/* The channels crossing the family's bisection, each way. */
struct topo_bisection {
    uint64_t channels[2];  /* from side 0 to side 1, and back; a shared channel (half-duplex, bus) both ways */
    double bandwidth[2];   /* their total bandwidth each way; a shared channel crossing both ways gives half its own */
    /* The family has no cut in closed form: this one was found by search, so the minimum
     * bisection is at most this (topo_bisection_search). */
    bool searched;
};
/* Counts them (O(nodes · degree)) across the family's cut, or across the one
 * topo_bisection_search() finds when the family has none in closed form; false with a
 * reason when there is no cut, it does not halve the terminals, or memory runs out. */
bool topo_bisection(const struct topo *t, struct topo_bisection *out, char *why, size_t why_size);
enum { BISECTION_SEARCH_MAX_NODES = 4096 };
/* A cut into halves of T/2 terminals each with few channels across (side[x] 0 or 1 for
 * every node), by a deterministic Fiduccia-Mattheyses search (topo/bisection_search.c);
 * false over BISECTION_SEARCH_MAX_NODES nodes, with an odd number of terminals, or out
 * of memory. */
bool topo_bisection_search(const struct topo *t, int8_t *side);

const struct topo_ops *topo_find(const char *name);
extern const struct cfg_choices topo_choices, link_choices;

/* Builds the topology named in cfg; false with *err set on impossible parameters. */
bool topo_build(struct topo *t, const struct config *cfg, struct cfg_error *err);
void topo_free(struct topo *t);

static inline double topo_channel_bandwidth(const struct topo *t, uint32_t channel)
{
    return t->uniform_bandwidth ? t->class_bandwidth[0] : t->class_bandwidth[t->ops->channel_class(t, channel)];
}

/* Mean distance over ordered pairs of distinct terminals (every node, on the seeds'
 * networks): from node 0 if the topology is vertex-transitive, else its closed form if it
 * has one, else by enumerating every pair when there are at most `max_pairs_nodes`
 * nodes.  Returns a negative value when not computed. */
double topo_mean_distance(const struct topo *t, uint32_t max_pairs_nodes);

/* Shared by senders(): the two ends of a half-duplex link, lower position first. */
static inline unsigned topo_link_ends(uint32_t *out, unsigned max, uint32_t lower, uint32_t upper)
{
    out[0] = lower;
    if (max < 2)
        return 1;
    out[1] = upper;
    return 2;
}

/* Gives the built lattice t (a hypercube or a k-ary n-cube) cfg's network.concentration
 * terminals per router (topo/concentrated.c); false with *err when it cannot. */
bool topo_concentrate(struct topo *t, const struct config *cfg, struct cfg_error *err);

/* The lattice of routers under a concentrated hypercube or k-ary n-cube (one that
 * topo_concentrate() built), with *first_router the node id of its router 0 (router r
 * of the lattice is node *first_router + r, and the lattice's channels keep their
 * ids); NULL for every other topology.  What sees through the concentration: the simple
 * router's dateline classes (routing/flit_classes.c). */
const struct topo *topo_router_lattice(const struct topo *t, uint32_t *first_router);

/* Whether some channel of t has a latency of its own (topo_ops.channel_latency). */
bool topo_sets_latencies(const struct topo *t);

/* Shared by the builders: sets every class's bandwidth to `bw`. */
void topo_set_uniform_bandwidth(struct topo *t, double bw);
/* Reads network.links into *half.  Fails (blaming the key) when a topology without
 * point-to-point links is asked for half-duplex ones. */
bool topo_read_links(const struct config *cfg, bool has_links, bool *half, struct cfg_error *err);

#endif
