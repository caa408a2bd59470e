/* Uniform destinations: every node other than the source, with equal probability. */
#include "workload.h"

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    uint32_t x = (uint32_t)rng_below(r, d->topo->terminals - 1);
    return x >= src ? x + 1 : x;
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    return src == dst ? 0.0 : 1.0 / (d->topo->terminals - 1);
}

const struct dest_ops dest_uniform = {
    .name = "uniform",
    .help = "uniform over the other terminals",
    .traits = DEST_UNIFORM | DEST_TRANSLATION_INVARIANT,
    .pick = pick,
    .prob = prob,
};

/* Uniform over every node, the source included: a self-addressed message is
 * delivered at once with 0 hops (and counted) by the network. */
static uint32_t pick_with_self(const struct destinations *d, uint32_t src, struct rng *r)
{
    (void)src;
    return (uint32_t)rng_below(r, d->topo->terminals);
}

static double prob_with_self(const struct destinations *d, uint32_t src, uint32_t dst)
{
    (void)src;
    (void)dst;
    return 1.0 / d->topo->terminals;
}

const struct dest_ops dest_uniform_with_self = {
    .name = "uniform-with-self",
    .help = "uniform over all terminals, the source included (self-addressed: delivered at once, 0 hops)",
    .traits = DEST_TRANSLATION_INVARIANT | DEST_MAY_PICK_SOURCE,
    .pick = pick_with_self,
    .prob = prob_with_self,
};
