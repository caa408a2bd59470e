/* Random shortest path (seeds 000 and 003): at every node, one of the minimal next
 * hops uniformly at random, drawn from the message's routing stream.  Every shortest
 * path is possible; the path depends on the draws, so it is not deterministic. */
#include "routing.h"

enum { MINIMAL_HOPS_MAX = 64 }; /* at most one per dimension (n ≤ 64) or bus member */

static struct hop next(const struct topo *t, uint32_t cur, uint32_t dst, struct rng *r)
{
    struct hop hops[MINIMAL_HOPS_MAX];
    unsigned count = t->ops->minimal_hops(t, cur, dst, hops, MINIMAL_HOPS_MAX);
    return hops[count > 1 ? rng_below(r, count) : 0];
}

static unsigned split(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    return t->ops->minimal_hops(t, cur, dst, out, max);
}

const struct route_ops route_random_minimal = {
    .name = "random-minimal",
    .help = "random shortest path: uniform among the minimal next hops at every node (flit switching with escape VCs: "
            "among those with a free adaptive VC, chosen per hop)",
    .traits = ROUTE_UNIFORM_SPLIT | ROUTE_OBLIVIOUS,
    .next = next,
    .split = split,
};
