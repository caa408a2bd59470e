/* Uniform destinations: every node other than the source, with equal probability. */
#include "workload.h"

static uint32_t pick(const struct topo *t, uint32_t src, struct rng *r)
{
    uint32_t d = (uint32_t)rng_below(r, t->nodes - 1);
    return d >= src ? d + 1 : d;
}

static double prob(const struct topo *t, uint32_t src, uint32_t dst)
{
    return src == dst ? 0.0 : 1.0 / (t->nodes - 1);
}

const struct dest_ops dest_uniform = {
    .name = "uniform",
    .help = "uniform over the other nodes",
    .translation_invariant = true,
    .pick = pick,
    .prob = prob,
};
