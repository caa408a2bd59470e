/* Seed 001's model beside the backtracking engine: the chain of
 * backtracking_chain.c for the configured n, M and λ.  Its figures carry the names of
 * the engine's report fields, so every run prints model and simulation side by side. */
#include <stdio.h>

#include "backtracking_chain.h"
#include "model.h"

static bool predict(const struct model_in *in, struct model_result *out)
{
    const struct config *cfg = in->cfg; /* the chain needs no channel loads: every node is alike */
    const char *why = NULL;
    if (!(in->route & ROUTE_BACKTRACKS))
        why = "needs routing.algorithm = backtracking";
    else if (!(in->topo->ops->traits & TOPO_BINARY_HYPERCUBE))
        why = "needs the binary hypercube";
    else if (!(in->arrival & ARRIVAL_GEOMETRIC_BATCHES))
        why = "needs geometric batch arrivals (workload.arrival = batch-geometric)";
    else if (!(in->destination & DEST_UNIFORM))
        why = "needs uniform destinations over the other nodes";
    if (why) {
        snprintf(out->why, sizeof out->why, "backtracking-chain %s", why);
        return false;
    }
    struct bt_chain c;
    char reason[200];
    unsigned buffers = (unsigned)cfg_int(cfg, "routing.buffers");
    if (!bt_chain_solve((unsigned)cfg->network.dimension, buffers, cfg_message_rate(cfg), &c, reason, sizeof reason)) {
        snprintf(out->why, sizeof out->why, "backtracking-chain %s", reason);
        return false;
    }
    out->exact = false;
    out->delay_mean = c.delay_mean;
    out->mean_hops = c.hops_mean;
    out->max_utilization = c.utilization;
    snprintf(out->why, sizeof out->why,
             "seed 001's Markov chain: independent nodes, phase-1 choices uniform over all n channels (mean field)");
    double nodes = (double)(1u << c.n);
    model_add(out, "backtracking.acceptance", c.acceptance);
    model_add(out, "backtracking.throughput", c.throughput);
    model_add(out, "backtracking.throughput_per_node", c.throughput / nodes);
    model_add(out, "backtracking.occupancy_mean", c.occupancy_mean);
    model_add(out, "backtracking.full_fraction", c.pi[c.buffers]);
    model_add(out, "backtracking.forward_probability", c.forward_probability);
    model_add(out, "backtracking.backtrack_probability", c.backtrack_probability);
    model_add(out, "backtracking.backtrack_fraction", c.backtrack_probability / c.utilization);
    model_add(out, "backtracking.forced_fraction", c.phase2_fraction);
    model_add(out, "channels.utilization_mean", c.utilization);
    model_add(out, "transit_probability", c.transit_probability);
    model_add(out, "net_progress", c.net_progress);
    model_add(out, "backtracking.power", c.power);
    model_add(out, "power_per_buffer", c.power / c.buffers);
    return true;
}

const struct model_ops model_backtracking_chain = {
    .name = "backtracking-chain",
    .help = "seed 001: imbedded Markov chain of a node with M shared buffers (Horng & Kleinrock)",
    .predict = predict,
};
