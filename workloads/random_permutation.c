/* Random-permutation destinations: every message of terminal s goes to π(s), one
 * permutation of the terminals drawn uniformly (Fisher-Yates) from the run seed's
 * RNG_PERMUTATION stream, so it is fixed per run seed and the same under every engine.
 * A terminal that π fixes sends to itself (delivered at once, 0 hops). */
#include <stdlib.h>

#include "workload.h"

static bool init(struct destinations *d, const void *params, const struct config *cfg, struct cfg_error *err)
{
    (void)params;
    uint32_t n = d->topo->terminals;
    uint32_t *to = malloc((size_t)n * sizeof *to);
    if (!to) {
        cfg_blame(cfg, "workload.destination", err, "out of memory");
        return false;
    }
    struct rng r;
    rng_seed_stream(&r, cfg->run.seed, RNG_PERMUTATION, 0);
    for (uint32_t i = 0; i < n; i++)
        to[i] = i;
    for (uint32_t i = n; i > 1; i--) { /* Fisher-Yates: position i - 1 from the first i */
        uint32_t j = (uint32_t)rng_below(&r, i), x = to[i - 1];
        to[i - 1] = to[j];
        to[j] = x;
    }
    d->impl = to;
    return true;
}

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    (void)r;
    return ((const uint32_t *)d->impl)[src];
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    return ((const uint32_t *)d->impl)[src] == dst;
}

const struct dest_ops dest_random_permutation = {
    .name = "random-permutation",
    .help = "to π(s), a random permutation of the terminals fixed by the run seed (any topology)",
    .traits = DEST_MAY_PICK_SOURCE,
    .init = init,
    .pick = pick,
    .prob = prob,
    .free = free,
};
