/* Flow conservation towards one destination (analytic/flow_push.h).  For a
 * deterministic routing the routes of every source to dst form a tree, for a split one
 * a DAG; either way the flow is pushed from the farthest nodes inwards, sorted by
 * distance with a counting sort, so the cost is one visit per node per destination. */
#include <stdlib.h>
#include <string.h>

#include "flow_push.h"

enum { SPLIT_MAX = 64 }; /* hops a node's flow splits over: one per dimension or bus member */

bool flow_tree_alloc(struct flow_tree *tr, const struct topo *t)
{
    tr->flow = malloc((size_t)t->nodes * sizeof *tr->flow);
    tr->order = malloc((size_t)t->nodes * sizeof *tr->order);
    tr->dist = malloc((size_t)t->nodes * sizeof *tr->dist);
    tr->bucket = calloc((size_t)t->diameter + 2, sizeof *tr->bucket);
    return tr->flow && tr->order && tr->dist && tr->bucket;
}

void flow_tree_free(struct flow_tree *tr)
{
    free(tr->flow);
    free(tr->order);
    free(tr->dist);
    free(tr->bucket);
}

bool flow_push(const struct topo *t, path_next_fn next, path_split_fn split, uint32_t dst, struct flow_tree *tr,
               const struct flow_sums *sums)
{
    unsigned diameter = t->diameter;
    memset(tr->bucket, 0, ((size_t)diameter + 2) * sizeof *tr->bucket);
    for (uint32_t x = 0; x < t->nodes; x++) {
        unsigned d = t->ops->distance(t, x, dst);
        if (d > diameter)
            return false;
        tr->dist[x] = d;
        tr->bucket[diameter - d + 1]++;
        if (sums->per_node && !sums->count_origins)
            sums->per_node[x] -= tr->flow[x];
    }
    for (unsigned b = 1; b <= diameter + 1; b++) /* counting sort, farthest first */
        tr->bucket[b] += tr->bucket[b - 1];
    for (uint32_t x = 0; x < t->nodes; x++)
        tr->order[tr->bucket[diameter - tr->dist[x]]++] = x;
    for (uint32_t i = 0; i < t->nodes; i++) {
        uint32_t x = tr->order[i];
        double f = tr->flow[x];
        if (sums->per_node) /* every message through x (or ending there) visits it once */
            sums->per_node[x] += x == dst ? f - sums->dst_uncounted : f;
        if (x == dst || f == 0)
            continue;
        struct hop hops[SPLIT_MAX];
        unsigned ways = 1;
        if (split)
            ways = split(t, x, dst, hops, SPLIT_MAX);
        else
            hops[0] = next(t, x, dst, NULL);
        double share = f / ways;
        for (unsigned w = 0; w < ways; w++) {
            struct hop h = hops[w];
            if (tr->dist[h.next] + 1 != tr->dist[x])
                return false;
            if (sums->per_class)
                sums->per_class[t->ops->channel_class(t, h.channel)] += share;
            if (sums->per_channel)
                sums->per_channel[h.channel] += share;
            tr->flow[h.next] += share;
        }
    }
    return true;
}
