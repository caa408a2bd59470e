/* Uniform destinations: every node other than the source, with equal probability. */
#include "workload.h"

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    uint32_t x = (uint32_t)rng_below(r, d->topo->nodes - 1);
    return x >= src ? x + 1 : x;
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    return src == dst ? 0.0 : 1.0 / (d->topo->nodes - 1);
}

const struct dest_ops dest_uniform = {
    .name = "uniform",
    .help = "uniform over the other nodes",
    .translation_invariant = true,
    .pick = pick,
    .prob = prob,
};
