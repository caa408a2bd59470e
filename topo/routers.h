/* Networks described by their routers: the families of today's machines (fat tree,
 * HyperX, ...) list their router-to-router channels and how terminals attach; this
 * module numbers nodes and channels, finds distances by breadth-first search over the
 * routers, and serves the topo_ops functions they share.  Internal to topo/.
 *
 * Promise:
 *  - Nodes.  With terminals of their own (an indirect network, or concentration above
 *    1), terminals are nodes 0..T-1 and router r is node T + r; terminal i hangs off
 *    router attach[i] by a full-duplex terminal link.  Without (concentration 1 on a
 *    direct network), router r is node r and its own terminal: no terminal links.
 *  - Channels.  Router channels 0..E-1 grouped by source router, in the order the
 *    family added them within each router; then, with terminals of their own,
 *    terminal i's injection channel E + i (terminal to router) and ejection channel
 *    E + T + i (router to terminal).  Classes: the family's 0..K-1, then K for
 *    injection channels and K + 1 for ejection channels.
 *  - Routes.  minimal_hops() from a terminal is its injection channel; to a terminal of
 *    the router it is at, that terminal's ejection channel; otherwise the router
 *    channels on shortest paths to the destination's router, in the family's order
 *    (the first is the canonical hop), or the one the family's `canonical` picks first.
 *    distance() counts terminal links too.  A family whose minimal routes are not all
 *    the shortest paths (the dragonfly's take at most one global link) gives its own
 *    router-level `distance` and `hops`; then no table is built, and routes and
 *    distances follow the family's metric instead of breadth-first search.
 *  - A family's impl struct starts with a struct router_net, so these functions read
 *    it from t->impl.
 */
#ifndef TOPO_ROUTERS_H
#define TOPO_ROUTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topo.h"

enum { ROUTERS_MAX = 8192, ROUTER_PORTS_MAX = 256 };

struct router_net {
    uint32_t routers, terminals; /* terminals: 0 when every router is its own terminal */
    unsigned classes;            /* the family's classes */
    uint32_t links;              /* router channels added so far (E once finished) */
    uint32_t cap;
    uint32_t *from, *to;         /* per router channel */
    uint8_t *cls;
    uint32_t *first;             /* routers + 1: channels of router r are first[r]..first[r+1]-1 */
    uint32_t *attach;            /* per terminal: its router */
    uint32_t *term_first, *term; /* routers + 1, terminals: the terminals of router r, ascending */
    uint8_t *dist;               /* routers x routers hop counts */
    uint64_t class_count[TOPO_MAX_CLASSES];
    /* Optional: the index among hops[0..n-1] (router channels on shortest paths from
     * router node `at` towards node dst) of the family's canonical hop. */
    unsigned (*canonical)(const struct topo *t, uint32_t at, uint32_t dst, const struct hop *hops, unsigned n);
    /* Optional, together: the family's router-level metric (routers a, b: 0..R-1) and
     * the router channels that get one closer in it from router a towards router b
     * (a != b), canonical first, at most max, as struct hops with node ids. */
    unsigned (*distance)(const struct router_net *rn, uint32_t a, uint32_t b);
    unsigned (*hops)(const struct router_net *rn, uint32_t a, uint32_t b, struct hop *out, unsigned max);
};

/* Starts a network of `routers` routers whose channels fall into `classes` classes. */
bool router_net_init(struct router_net *rn, uint32_t routers, unsigned classes);
/* Adds a channel from router a to router b of class cls; false when out of memory. */
bool router_net_add(struct router_net *rn, uint32_t a, uint32_t b, unsigned cls);
/* Attaches `per_router` terminals to every router, router-major (terminal i at router
 * i / per_router), as nodes of their own; not called: routers are their own terminals. */
bool router_net_attach(struct router_net *rn, uint32_t per_router);
/* Numbers the channels, finds the distances and fills t's counts (nodes, terminals,
 * routers, channels, links, degree, max_hops, diameter, classes, kind).  False with a
 * reason in why[] when the routers are not connected or a router has too many ports. */
bool router_net_finish(struct router_net *rn, struct topo *t, char *why, size_t why_size);
void router_net_free(struct router_net *rn);

/* The router index (0..R-1) of node x: its own, or a terminal's router's. */
uint32_t router_net_router_index(const struct router_net *rn, uint32_t x);
/* The router node of node x (x itself for a router). */
uint32_t router_net_router_of(const struct router_net *rn, uint32_t x);

/* topo_ops.free for a family whose impl starts with its router_net and holds nothing
 * else to free: frees both and leaves t->impl NULL (also a failed build's clean-up). */
void router_net_free_impl(struct topo *t);

/* The topo_ops members every family built on a router_net shares. */
#define ROUTER_NET_OPS                                                                                           \
    .free = router_net_free_impl, .minimal_hops = router_net_minimal_hops, .distance = router_net_distance,    \
    .neighbors = router_net_neighbors, .senders = router_net_senders, .channel_class = router_net_channel_class, \
    .channels_in_class = router_net_channels_in_class, .mean_distance = router_net_mean_distance

/* topo_ops functions for families built on a router_net. */
unsigned router_net_minimal_hops(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max);
unsigned router_net_distance(const struct topo *t, uint32_t a, uint32_t b);
unsigned router_net_neighbors(const struct topo *t, uint32_t node, struct hop *out, unsigned max);
unsigned router_net_senders(const struct topo *t, uint32_t channel, uint32_t *out, unsigned max);
unsigned router_net_channel_class(const struct topo *t, uint32_t channel);
uint64_t router_net_channels_in_class(const struct topo *t, unsigned cls);
/* Mean distance over ordered pairs of distinct terminals. */
double router_net_mean_distance(const struct topo *t);
/* "inject" and "eject" for the two terminal classes; false for the family's own. */
bool router_net_class_name(const struct topo *t, unsigned cls, char *buf, unsigned size);

#endif
