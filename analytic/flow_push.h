/* Flow conservation towards one destination, the step channel loads are built from
 * (analytic/channel_loads.c, analytic/valiant_loads.c).  The caller sets the messages
 * per time unit each node starts towards dst (tree.flow); flow_push() moves them hop by
 * hop from the farthest nodes inwards along next() (or split evenly over split()'s
 * hops), so every node is visited once per destination.  Each message's choice at a
 * node must not depend on how it got there, and every hop must get one closer to dst.
 * Needs: topo.
 */
#ifndef ANALYTIC_FLOW_PUSH_H
#define ANALYTIC_FLOW_PUSH_H

#include <stdbool.h>
#include <stdint.h>

#include "../topo/topo.h"

/* Scratch space for the flows towards one destination. */
struct flow_tree {
    double *flow;     /* messages per time unit at each node, bound for the destination */
    uint32_t *order;  /* nodes, farthest from the destination first */
    uint32_t *dist;
    uint32_t *bucket; /* diameter + 2 counters */
};

bool flow_tree_alloc(struct flow_tree *tr, const struct topo *t);
void flow_tree_free(struct flow_tree *tr);

/* Where flow_push() adds what it moves; NULL members are not kept. */
struct flow_sums {
    double *per_class;   /* TOPO_MAX_CLASSES: messages crossing a channel of each class */
    double *per_channel; /* t->channels */
    /* t->nodes: messages visiting each node: where they start (when count_origins), every
     * node a hop reaches, and dst, less dst_uncounted there (the flow that starts at dst
     * and is delivered at once: it visits nothing). */
    double *per_node;
    bool count_origins;
    double dst_uncounted;
};

/* Pushes tr->flow (set by the caller for every node) towards dst along next, or split
 * when it is not NULL, adding to sums.  False if a hop does not get one closer to dst
 * (the route is not minimal), which the tests rule out. */
bool flow_push(const struct topo *t, path_next_fn next, path_split_fn split, uint32_t dst, struct flow_tree *tr,
               const struct flow_sums *sums);

#endif
