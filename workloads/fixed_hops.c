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

/* What it keeps: the nodes h hops away, from node 0 (translated to each source) or
 * per source. */
struct fixed_hops {
    uint32_t hops;   /* h */
    uint32_t count;  /* from node 0: length of table */
    uint32_t *table; /* the nodes h hops away, from node 0 or per source */
    uint32_t *start; /* per source: its slice of table; NULL when translated from node 0 */
};

static void release(void *impl)
{
    struct fixed_hops *f = impl;
    free(f->table);
    free(f->start);
    free(f);
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

static bool init(struct destinations *d, const void *params, const struct config *cfg, struct cfg_error *err)
{
    const struct topo *t = d->topo;
    if (t->terminals != t->nodes) { /* distances between nodes are its unit */
        cfg_blame(cfg, "workload.destination", err, "fixed-hops needs a network whose every node is a terminal");
        return false;
    }
    struct fixed_hops *f = calloc(1, sizeof *f);
    if (!f)
        goto out_of_memory;
    d->impl = f;
    f->hops = (uint32_t)((const struct fixed_hops_params *)params)->hops;
    if (t->transitive) {
        f->count = collect(t, 0, f->hops, NULL);
        if (f->count == 0) {
            cfg_blame(cfg, "workload.hops", err, "no node is exactly %u hops away (the diameter is %u)", f->hops,
                      t->diameter);
            return false;
        }
        f->table = malloc((size_t)f->count * sizeof *f->table);
        if (!f->table)
            goto out_of_memory;
        collect(t, 0, f->hops, f->table);
        return true;
    }
    if (t->nodes > FIXED_HOPS_MAX_NODES) {
        cfg_blame(cfg, "workload.destination", err,
                  "fixed-hops on %s (not vertex-transitive) is limited to %d nodes", t->ops->name,
                  FIXED_HOPS_MAX_NODES);
        return false;
    }
    f->start = malloc(((size_t)t->nodes + 1) * sizeof *f->start);
    if (!f->start)
        goto out_of_memory;
    f->start[0] = 0;
    for (uint32_t s = 0; s < t->nodes; s++) {
        uint32_t c = collect(t, s, f->hops, NULL);
        if (c == 0) {
            cfg_blame(cfg, "workload.hops", err, "no node is exactly %u hops from node %u", f->hops, s);
            return false;
        }
        f->start[s + 1] = f->start[s] + c;
    }
    f->table = malloc((size_t)f->start[t->nodes] * sizeof *f->table);
    if (!f->table)
        goto out_of_memory;
    for (uint32_t s = 0; s < t->nodes; s++)
        collect(t, s, f->hops, f->table + f->start[s]);
    return true;

out_of_memory:
    cfg_blame(cfg, "workload.destination", err, "out of memory");
    return false;
}

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    const struct fixed_hops *f = d->impl;
    const struct topo *t = d->topo;
    if (!f->start)
        return t->ops->translate(t, f->table[rng_below(r, f->count)], src);
    uint32_t first = f->start[src];
    return f->table[first + rng_below(r, f->start[src + 1] - first)];
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    const struct fixed_hops *f = d->impl;
    const struct topo *t = d->topo;
    if (t->ops->distance(t, src, dst) != f->hops)
        return 0;
    return 1.0 / (f->start ? f->start[src + 1] - f->start[src] : f->count);
}

const struct dest_ops dest_fixed_hops = {
    .name = "fixed-hops",
    .help = "uniform over the nodes exactly workload.hops hops away",
    .params = &fixed_hops_param_table,
    .traits = DEST_FIXED_DISTANCE | DEST_TRANSLATION_INVARIANT,
    .init = init,
    .pick = pick,
    .prob = prob,
    .free = release,
};
