/* Small vertex-transitive graphs: the level-2 networks of the hierarchical topologies
 * (binary hypercube, bidirectional ring, complete connection, cube-connected cycles)
 * and the whole network of the `ccc` topology.  Internal to topo/.
 *
 * Promise: node u has `degree` out-slots; graph_neighbor(u, s) is the node slot s
 * leads to.  graph_minimal_slots() lists the slots on shortest paths to v in
 * canonical order (hypercube: lowest dimension first; ring: + before - on a tie;
 * CCC: cube, cycle+, cycle-).  Undirected links are numbered 0..links-1 by
 * graph_link(); graph_link_ends() gives a link's ends, lower position first.
 * graph_translate(x, to) is an automorphism taking node 0 to `to`, under which
 * slots keep their kind, so canonical routing commutes with it.
 */
#ifndef TOPO_GRAPHS_H
#define TOPO_GRAPHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum graph_kind { GRAPH_HYPERCUBE, GRAPH_RING, GRAPH_COMPLETE, GRAPH_CCC };
enum { GRAPH_CCC_MAX_DIMENSION = 20 };

struct graph {
    enum graph_kind kind;
    uint32_t nodes;
    unsigned dim;        /* hypercube: dimension; CCC: cycle length n (n 2^n nodes) */
    unsigned degree;     /* out-slots per node */
    unsigned diameter;
    uint64_t links;      /* undirected */
    double distance_sum; /* sum of distances from node 0 to every node */
    uint8_t *ccc_distance; /* CCC: distance from node 0 */
};

/* size: hypercube dimension, ring or complete node count, CCC dimension.  False
 * with a reason in why[] if the graph is degenerate or too large. */
bool graph_init(struct graph *g, enum graph_kind kind, uint32_t size, char *why, size_t why_size);
void graph_free(struct graph *g);

uint32_t graph_neighbor(const struct graph *g, uint32_t u, unsigned slot);
unsigned graph_distance(const struct graph *g, uint32_t u, uint32_t v);
unsigned graph_minimal_slots(const struct graph *g, uint32_t u, uint32_t v, unsigned *slots);
uint32_t graph_link(const struct graph *g, uint32_t u, unsigned slot);
void graph_link_ends(const struct graph *g, uint32_t link, uint32_t *a, uint32_t *b);
uint32_t graph_translate(const struct graph *g, uint32_t x, uint32_t to);

/* Name of a slot kind, for channel classes: hypercube one per dimension, ring + and
 * -, complete one, CCC cube / cycle+ / cycle-. */
const char *graph_slot_kind_name(const struct graph *g, unsigned kind, char *buf, size_t size);
/* Undirected link kinds: the slot kinds with + and - merged. */
unsigned graph_link_kind(const struct graph *g, uint32_t link);
uint64_t graph_links_of_kind(const struct graph *g, unsigned kind);
const char *graph_link_kind_name(const struct graph *g, unsigned kind, char *buf, size_t size);

#endif
