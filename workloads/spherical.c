/* Spherical destinations (seed 003, Kim & Das after Reed & Grunwald; note 003 §1.6,
 * the recommended reading of a formula the OCR lost): the distance k is uniform over
 * 1..n, then the destination is uniform among the C(n,k) nodes k hops away.  Binary
 * hypercubes only: the destination is the source with k distinct address bits flipped. */
#include <string.h>

#include <gsl/gsl_sf_gamma.h>

#include "workload.h"

static bool init(struct destinations *d, const struct config *cfg, struct cfg_error *err)
{
    if (strcmp(d->topo->ops->name, "hypercube") != 0) {
        cfg_blame(cfg, KEY_WORKLOAD_DESTINATION, err, "spherical destinations need a hypercube");
        return false;
    }
    return true;
}

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    unsigned n = d->topo->dimension, dims[32];
    unsigned k = 1 + (unsigned)rng_below(r, n);
    for (unsigned i = 0; i < n; i++)
        dims[i] = i;
    uint32_t flip = 0;
    for (unsigned i = 0; i < k; i++) { /* the first k of a partial Fisher-Yates shuffle */
        unsigned j = i + (unsigned)rng_below(r, n - i), x = dims[j];
        dims[j] = dims[i];
        flip |= 1u << x;
    }
    return src ^ flip;
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    unsigned n = d->topo->dimension, k = (unsigned)__builtin_popcount(src ^ dst);
    return k == 0 ? 0.0 : 1.0 / (n * gsl_sf_choose(n, k));
}

const struct dest_ops dest_spherical = {
    .name = "spherical",
    .help = "hypercube: distance uniform over 1..n, then uniform among the nodes at that distance (seed 003)",
    .translation_invariant = true,
    .init = init,
    .pick = pick,
    .prob = prob,
};
