/* Hotspot: with probability f = workload.hotspot_fraction a message goes to node
 * h = workload.hotspot_node, otherwise uniformly to a node other than its source.
 * The hotspot's own messages are uniform over the other nodes.  So for s != h:
 * p(s, h) = f + (1-f)/(N-1), p(s, d) = (1-f)/(N-1) for d != s, h; p(h, d) = 1/(N-1). */
#include <stddef.h>

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

/* This plug-in's own key values. */
static const struct hotspot_params *hotspot_params_of(const struct config *cfg)
{
    return cfg_params(cfg, &hotspot_param_table);
}

static bool init(struct destinations *d, const struct config *cfg, struct cfg_error *err)
{
    if ((uint64_t)hotspot_params_of(cfg)->hotspot_node >= d->topo->nodes) {
        cfg_blame(cfg, "workload.hotspot_node", err, "node %lld does not exist (the network has %u nodes)",
                  (long long)hotspot_params_of(cfg)->hotspot_node, d->topo->nodes);
        return false;
    }
    d->hotspot = (uint32_t)hotspot_params_of(cfg)->hotspot_node;
    d->hotspot_fraction = hotspot_params_of(cfg)->hotspot_fraction;
    return true;
}

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    if (src != d->hotspot && rng_uniform(r) < d->hotspot_fraction)
        return d->hotspot;
    uint32_t x = (uint32_t)rng_below(r, d->topo->nodes - 1);
    return x >= src ? x + 1 : x;
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    double others = d->topo->nodes - 1.0;
    if (src == dst)
        return 0;
    if (src == d->hotspot)
        return 1 / others;
    double f = d->hotspot_fraction;
    return (dst == d->hotspot ? f : 0) + (1 - f) / others;
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
};
