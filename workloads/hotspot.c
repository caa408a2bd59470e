/* Hotspot: with probability f = workload.hotspot_fraction a message goes to node
 * h = workload.hotspot_node, otherwise uniformly to a node other than its source.
 * The hotspot's own messages are uniform over the other nodes.  So for s != h:
 * p(s, h) = f + (1-f)/(N-1), p(s, d) = (1-f)/(N-1) for d != s, h; p(h, d) = 1/(N-1). */
#include <stddef.h>
#include <stdlib.h>

#include "../sim/core/params.h"
#include "workload.h"

struct hotspot_params {
    int64_t hotspot_node;
    double hotspot_fraction;
};

static const struct cfg_key hotspot_keys[] = {
    { "workload", "hotspot_node", CFG_INT, offsetof(struct hotspot_params, hotspot_node), "0", 0, (double)TOPO_MAX_NODES - 1, false, NULL,
      "hotspot: the node that draws the extra traffic" },
    { "workload", "hotspot_fraction", CFG_REAL, offsetof(struct hotspot_params, hotspot_fraction), "0.1", 0, 1, false, NULL,
      "hotspot: probability that a message goes to the hotspot node" },
};
static CFG_PARAM_TABLE(hotspot_param_table, struct hotspot_params, hotspot_keys);

/* What it keeps: the hotspot and its fraction. */
struct hotspot {
    uint32_t node;
    double fraction;
};

static bool init(struct destinations *d, const void *params, const struct config *cfg, struct cfg_error *err)
{
    const struct hotspot_params *p = params;
    if ((uint64_t)p->hotspot_node >= d->topo->terminals) {
        cfg_blame(cfg, "workload.hotspot_node", err, "terminal %lld does not exist (the network has %u)",
                  (long long)p->hotspot_node, d->topo->terminals);
        return false;
    }
    struct hotspot *h = malloc(sizeof *h);
    if (!h) {
        cfg_blame(cfg, "workload.destination", err, "out of memory");
        return false;
    }
    *h = (struct hotspot){ (uint32_t)p->hotspot_node, p->hotspot_fraction };
    d->impl = h;
    return true;
}

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    const struct hotspot *h = d->impl;
    if (src != h->node && rng_uniform(r) < h->fraction)
        return h->node;
    uint32_t x = (uint32_t)rng_below(r, d->topo->terminals - 1);
    return x >= src ? x + 1 : x;
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    const struct hotspot *h = d->impl;
    double others = d->topo->terminals - 1.0;
    if (src == dst)
        return 0;
    if (src == h->node)
        return 1 / others;
    double f = h->fraction;
    return (dst == h->node ? f : 0) + (1 - f) / others;
}

const struct dest_ops dest_hotspot = {
    .name = "hotspot",
    .help = "workload.hotspot_node with probability workload.hotspot_fraction, else uniform over the other nodes "
            "(the hotspot's own messages: uniform)",
    .params = &hotspot_param_table,
    .traits = 0, /* the hotspot is one node: not translation invariant */
    .init = init,
    .pick = pick,
    .prob = prob,
    .free = free,
};
