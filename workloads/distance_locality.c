/* Distance locality (seed 002, Sec. V-A): a source's destinations are uniform over a
 * region of S^n nodes of the k-ary n-cube, S = round(l^(1/n) k) clamped to 1..k,
 * l = workload.locality_fraction, so the effective fraction is (S/k)^n.  The region
 * is anchored at the source and extends in the + direction (note 002 §9 item 18):
 * digits d_i + j, j = 0..S-1, modulo k with end-around links; on a mesh the region
 * is moved back inside, starting at min(d_i, k - S), so it always holds S^n nodes
 * and the source.  The source is one of them (seed 002's uniform traffic includes
 * it): a self-addressed message is delivered at once with 0 hops.
 * With end-around links the region is node 0's translated to the source, so its S^n
 * nodes are listed once (its table) and pick() costs one translate(); a mesh's region
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

/* What it keeps: the lattice, the region's side S and size S^n, and with end-around
 * links node 0's region (NULL on a mesh). */
struct distance_locality {
    struct dest_lattice lattice;
    uint32_t side, count;
    uint32_t *table;
};

static void release(void *impl)
{
    struct distance_locality *l = impl;
    free(l->table);
    free(l);
}

static bool init(struct destinations *d, const void *params, const struct config *cfg, struct cfg_error *err)
{
    struct dest_lattice lat;
    if (!dest_lattice(d->topo, cfg, &lat)) {
        cfg_blame(cfg, "workload.destination", err, "distance-locality is defined on k-ary n-cubes (hypercube, "
                  "torus, kary-ncube), not on %s", cfg->network.topology);
        return false;
    }
    struct distance_locality *l = calloc(1, sizeof *l);
    if (!l) {
        cfg_blame(cfg, "workload.destination", err, "out of memory");
        return false;
    }
    d->impl = l;
    l->lattice = lat;
    const struct distance_locality_params *p = params;
    double side = round(pow(p->locality_fraction, 1.0 / lat.dims) * lat.radix);
    l->side = side < 1 ? 1 : side > lat.radix ? lat.radix : (uint32_t)side;
    l->count = 1;
    for (uint32_t i = 0; i < lat.dims; i++)
        l->count *= l->side;
    if (!lat.wrap || !d->topo->transitive)
        return true;
    l->table = malloc((size_t)l->count * sizeof *l->table);
    if (!l->table) {
        cfg_blame(cfg, "workload.destination", err, "out of memory");
        return false;
    }
    for (uint32_t j = 0; j < l->count; j++) { /* offsets as base-S digits -> base-k digits */
        uint32_t y = 0, place = 1, offsets = j;
        for (uint32_t i = 0; i < lat.dims; i++, place *= lat.radix, offsets /= l->side)
            y += offsets % l->side * place;
        l->table[j] = y;
    }
    return true;
}

/* First digit of the region along one dimension, for a source digit c. */
static uint32_t region_origin(const struct distance_locality *l, uint32_t c)
{
    return l->lattice.wrap || c + l->side <= l->lattice.radix ? c : l->lattice.radix - l->side;
}

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    const struct distance_locality *l = d->impl;
    if (l->table)
        return d->topo->ops->translate(d->topo, l->table[rng_below(r, l->count)], src);
    uint32_t offsets = (uint32_t)rng_below(r, l->count); /* S^n <= N: the n offsets as base-S digits */
    uint32_t y = 0, place = 1, k = l->lattice.radix;
    for (uint32_t i = 0; i < l->lattice.dims; i++, place *= k) {
        uint32_t c = src % k;
        y += (region_origin(l, c) + offsets % l->side) % k * place;
        src /= k;
        offsets /= l->side;
    }
    return y;
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    const struct distance_locality *l = d->impl;
    uint32_t k = l->lattice.radix;
    for (uint32_t i = 0; i < l->lattice.dims; i++) {
        uint32_t from = region_origin(l, src % k), e = dst % k;
        if ((e + k - from) % k >= l->side)
            return 0;
        src /= k;
        dst /= k;
    }
    return 1.0 / l->count;
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
    .free = release,
};
