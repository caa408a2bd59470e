/* Group-shift destinations: every terminal of group i sends to a terminal of group
 * i + 1 (mod the number of groups), uniformly: the dragonfly's adversarial pattern
 * (Kim et al. 2008, "worst case"), where minimal routing puts a whole group's traffic
 * on one global link.  Groups are the topology's (struct topo's group_terminals): a
 * dragonfly's groups, a HyperX's dimension-0 rows, a fat tree's leaves, a hierarchical
 * network's clusters (a hypercube's subcubes of cluster_dimension). */
#include <stdlib.h>

#include "workload.h"

static bool init(struct destinations *d, const void *params, const struct config *cfg, struct cfg_error *err)
{
    (void)params;
    const struct topo *t = d->topo;
    if (t->group_terminals == 0 || t->terminals % t->group_terminals != 0 || t->terminals / t->group_terminals < 2) {
        cfg_blame(cfg, "workload.destination", err, "group-shift needs a network of two or more groups of terminals "
                  "(dragonfly, hyperx, fat-tree, or clusters), not %s", t->label);
        return false;
    }
    return true;
}

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    const struct topo *t = d->topo;
    uint32_t size = t->group_terminals, groups = t->terminals / size, next = (src / size + 1) % groups;
    return next * size + (uint32_t)rng_below(r, size);
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    const struct topo *t = d->topo;
    uint32_t size = t->group_terminals, groups = t->terminals / size;
    return dst / size == (src / size + 1) % groups ? 1.0 / size : 0.0;
}

const struct dest_ops dest_group_shift = {
    .name = "group-shift",
    .help = "uniform over the next group's terminals (dragonfly groups, hyperx rows, fat-tree leaves, clusters)",
    .init = init,
    .pick = pick,
    .prob = prob,
};
