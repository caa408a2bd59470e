/* Distance locality (seed 002, Sec. V-A): a source's destinations are uniform over a
 * region of S^n nodes of the k-ary n-cube, S = round(l^(1/n) k) clamped to 1..k,
 * l = workload.locality_fraction, so the effective fraction is (S/k)^n.  The region
 * is anchored at the source and extends in the + direction (note 002 §9 item 18):
 * digits d_i + j, j = 0..S-1, modulo k with end-around links; on a mesh the region
 * is moved back inside, starting at min(d_i, k - S), so it always holds S^n nodes
 * and the source.  The source is one of them (seed 002's uniform traffic includes
 * it): a self-addressed message is delivered at once with 0 hops.
 * With end-around links the region is node 0's translated to the source, so its S^n
 * nodes are listed once (d->table) and pick() costs one translate(); a mesh's region
 * depends on where the source is, and is computed digit by digit. */
#include <math.h>
#include <stdlib.h>
#include <stddef.h>

#include "../sim/core/params.h"
#include "workload.h"

struct distance_locality_params {
    double locality_fraction;
};

static const struct cfg_key distance_locality_keys[] = {
    { "workload", "locality_fraction", CFG_REAL, offsetof(struct distance_locality_params, locality_fraction), "0.5", 0, 1, true, NULL,
      "distance-locality: l, the fraction of the nodes in a source's region (side round(l^(1/n) k))" },
};
static CFG_PARAM_TABLE(distance_locality_param_table, struct distance_locality_params, distance_locality_keys);

/* This plug-in's own key values. */
static const struct distance_locality_params *distance_locality_params_of(const struct config *cfg)
{
    return cfg_params(cfg, &distance_locality_param_table);
}

static bool init(struct destinations *d, const struct config *cfg, struct cfg_error *err)
{
    if (!dest_lattice(d, cfg)) {
        cfg_blame(cfg, "workload.destination", err, "distance-locality is defined on k-ary n-cubes (hypercube, "
                  "torus, kary-ncube), not on %s", cfg->network.topology);
        return false;
    }
    double side = round(pow(distance_locality_params_of(cfg)->locality_fraction, 1.0 / d->dims) * d->radix);
    d->side = side < 1 ? 1 : side > d->radix ? d->radix : (uint32_t)side;
    d->count = 1;
    for (uint32_t i = 0; i < d->dims; i++)
        d->count *= d->side;
    if (!d->wrap || !d->topo->transitive)
        return true;
    d->table = malloc((size_t)d->count * sizeof *d->table);
    if (!d->table) {
        cfg_blame(cfg, "workload.destination", err, "out of memory");
        return false;
    }
    for (uint32_t j = 0; j < d->count; j++) { /* offsets as base-S digits -> base-k digits */
        uint32_t y = 0, place = 1, offsets = j;
        for (uint32_t i = 0; i < d->dims; i++, place *= d->radix, offsets /= d->side)
            y += offsets % d->side * place;
        d->table[j] = y;
    }
    return true;
}

/* First digit of the region along one dimension, for a source digit c. */
static uint32_t region_origin(const struct destinations *d, uint32_t c)
{
    return d->wrap || c + d->side <= d->radix ? c : d->radix - d->side;
}

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    if (d->table)
        return d->topo->ops->translate(d->topo, d->table[rng_below(r, d->count)], src);
    uint32_t offsets = (uint32_t)rng_below(r, d->count); /* S^n <= N: the n offsets as base-S digits */
    uint32_t y = 0, place = 1, k = d->radix;
    for (uint32_t i = 0; i < d->dims; i++, place *= k) {
        uint32_t c = src % k;
        y += (region_origin(d, c) + offsets % d->side) % k * place;
        src /= k;
        offsets /= d->side;
    }
    return y;
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    uint32_t k = d->radix;
    for (uint32_t i = 0; i < d->dims; i++) {
        uint32_t from = region_origin(d, src % k), e = dst % k;
        if ((e + k - from) % k >= d->side)
            return 0;
        src /= k;
        dst /= k;
    }
    return 1.0 / d->count;
}

const struct dest_ops dest_distance_locality = {
    .name = "distance-locality",
    .help = "k-ary n-cubes: uniform over S^n nodes, S = round(l^(1/n) k), l = workload.locality_fraction, "
            "anchored at the source in the + direction (source included)",
    .params = &distance_locality_param_table,
    .traits = DEST_TRANSLATION_INVARIANT | DEST_MAY_PICK_SOURCE,
    .init = init,
    .pick = pick,
    .prob = prob,
};
