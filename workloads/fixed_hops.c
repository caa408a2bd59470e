/* Fixed hop count (seed 004 §4.3.3.2): the destination is uniform over the nodes
 * exactly workload.hops hops away.  On a vertex-transitive topology one list, from
 * node 0, is translated to each source; otherwise every source has its own list
 * (built by enumerating pairs, so limited to FIXED_HOPS_MAX_NODES nodes). */
#include <stdlib.h>
#include <stddef.h>

#include "../sim/core/params.h"
#include "workload.h"

struct fixed_hops_params {
    int64_t hops;
};

static const struct cfg_key fixed_hops_keys[] = {
    { "workload", "hops", CFG_INT, offsetof(struct fixed_hops_params, hops), "2", 1, 1 << 20, false, NULL,
      "fixed-hops: every destination exactly this many hops away" },
};
static CFG_PARAM_TABLE(fixed_hops_param_table, struct fixed_hops_params, fixed_hops_keys);

/* This plug-in's own key values. */
static const struct fixed_hops_params *fixed_hops_params_of(const struct config *cfg)
{
    return cfg_params(cfg, &fixed_hops_param_table);
}

enum { FIXED_HOPS_MAX_NODES = 4096 };

static uint32_t collect(const struct topo *t, uint32_t src, uint32_t h, uint32_t *out)
{
    uint32_t count = 0;
    for (uint32_t x = 0; x < t->nodes; x++)
        if (t->ops->distance(t, src, x) == h) {
            if (out)
                out[count] = x;
            count++;
        }
    return count;
}

static bool init(struct destinations *d, const struct config *cfg, struct cfg_error *err)
{
    const struct topo *t = d->topo;
    d->hops = (uint32_t)fixed_hops_params_of(cfg)->hops;
    if (t->transitive) {
        d->count = collect(t, 0, d->hops, NULL);
        if (d->count == 0) {
            cfg_blame(cfg, "workload.hops", err, "no node is exactly %u hops away (the diameter is %u)", d->hops,
                      t->diameter);
            return false;
        }
        d->table = malloc((size_t)d->count * sizeof *d->table);
        if (!d->table)
            goto out_of_memory;
        collect(t, 0, d->hops, d->table);
        return true;
    }
    if (t->nodes > FIXED_HOPS_MAX_NODES) {
        cfg_blame(cfg, "workload.destination", err,
                  "fixed-hops on %s (not vertex-transitive) is limited to %d nodes", t->ops->name,
                  FIXED_HOPS_MAX_NODES);
        return false;
    }
    d->start = malloc(((size_t)t->nodes + 1) * sizeof *d->start);
    if (!d->start)
        goto out_of_memory;
    d->start[0] = 0;
    for (uint32_t s = 0; s < t->nodes; s++) {
        uint32_t c = collect(t, s, d->hops, NULL);
        if (c == 0) {
            cfg_blame(cfg, "workload.hops", err, "no node is exactly %u hops from node %u", d->hops, s);
            return false;
        }
        d->start[s + 1] = d->start[s] + c;
    }
    d->table = malloc((size_t)d->start[t->nodes] * sizeof *d->table);
    if (!d->table)
        goto out_of_memory;
    for (uint32_t s = 0; s < t->nodes; s++)
        collect(t, s, d->hops, d->table + d->start[s]);
    return true;

out_of_memory:
    cfg_blame(cfg, "workload.destination", err, "out of memory");
    return false;
}

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    const struct topo *t = d->topo;
    if (!d->start)
        return t->ops->translate(t, d->table[rng_below(r, d->count)], src);
    uint32_t first = d->start[src];
    return d->table[first + rng_below(r, d->start[src + 1] - first)];
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    const struct topo *t = d->topo;
    if (t->ops->distance(t, src, dst) != d->hops)
        return 0;
    return 1.0 / (d->start ? d->start[src + 1] - d->start[src] : d->count);
}

const struct dest_ops dest_fixed_hops = {
    .name = "fixed-hops",
    .help = "uniform over the nodes exactly workload.hops hops away",
    .params = &fixed_hops_param_table,
    .traits = DEST_FIXED_DISTANCE | DEST_TRANSLATION_INVARIANT,
    .init = init,
    .pick = pick,
    .prob = prob,
};
