/* Seed 002's contention model in cycles (eqs. 7-10) for the configured k-ary n-cube:
 *   ρ = m B k_d (halved with channels both ways),  w = B ρ/(1-ρ) (k_d-1)/k_d² (1 + 1/n),
 *   T_c = n k_d (p + w) + B,
 * m = workload.rate per node per cycle, B = mean_length / bandwidth flits (constant
 * lengths), p = router_delay + link_latency cycles per hop (1 by default, as in the
 * paper), and k_d the
 * mean hops per dimension of the configured destinations, by flow conservation
 * (channel_loads): (k-1)/2 on a one-way torus with the source a possible destination,
 * N/(N-1) times that without it (note 002 §8), (S-1)/2 with a locality region of side S.
 * It applies to pipelined switching (cut-through, the seed's buffered network, or wormhole)
 * and predicts the simulated delay counted from the creation instant: T_c - 1 + (creation
 * to first offer). */
#include <math.h>
#include <stdio.h>

#include "kary_limits.h"
#include "model.h"

/* Cycles a header spends per hop in an unloaded pipelined switch (the paper's p = 1). */
static double hop_cycles(const struct config *cfg)
{
    return (double)(cfg_int(cfg, "routing.router_delay") + cfg_int(cfg, "routing.link_latency"));
}

/* Mean cycles from a message's creation to the cycle boundary where its header is first
 * offered (routing/flit.h: floor(t) + 1).  The seed counts from the cycle a packet is
 * generated in, i.e. a full cycle; a Poisson creation instant lies uniformly inside its
 * cycle, so the simulator's latency starts half a cycle later on average. */
static double creation_offset(const struct model_in *in)
{
    return (in->arrival & ARRIVAL_POISSON) ? 0.5 : 1;
}

static const char *applies(const struct model_in *in)
{
    const struct config *cfg = in->cfg;
    const struct channel_loads *l = in->loads;
    if (!(in->topo->ops->traits & TOPO_KARY_NCUBE))
        return "needs a k-ary n-cube (topology kary-ncube or torus)";
    if (!(in->switching & SWITCH_PIPELINED))
        return "needs pipelined switching (cut-through or wormhole)";
    if (in->switching & SWITCH_INPUT_QUEUED)
        return "models the seeds' router, not the input-queued one (routing.router = iq)";
    if (!(in->route & ROUTE_DIMENSION_ORDER))
        return "needs dimension-ordered routing (ecube)";
    if (!(in->length & LENGTH_FIXED))
        return "needs messages of a fixed length (B flits)";
    if (!l->known)
        return l->why;
    if (l->mean_hops / (double)cfg->network.dimension < 1)
        return "needs k_d >= 1 hop per dimension (k >= 3): with fewer the continuing share ρ_c is negative";
    return NULL;
}

static bool predict(const struct model_in *in, struct model_result *out)
{
    const struct config *cfg = in->cfg;
    const struct channel_loads *l = in->loads;
    const char *why = applies(in);
    if (why) {
        snprintf(out->why, sizeof out->why, "kary-contention %.200s", why);
        return false;
    }
    enum kary_variant v = kary_variant_of(in->topo);
    double n = (double)cfg->network.dimension, m = cfg_message_rate(cfg);
    double B = cfg->workload.mean_length / cfg->network.bandwidth, kd = l->mean_hops / n, p = hop_cycles(cfg);
    double rho = kary_utilization(v, m, B, kd);
    bool saturated = rho >= 1;
    double latency = kary_latency_cycles(v, m, B, kd, n, p, false);
    model_add(out, "kd", kd);
    model_add(out, "flits", B);
    model_add(out, "utilization", rho);
    model_add(out, "saturation_rate", kary_saturation_rate(v, B, kd));
    model_add(out, "contention.per_hop", saturated ? NAN : kary_contention(rho, B, kd, n));
    model_add(out, "contention.per_hop_exact_v", saturated ? NAN : kary_contention_exact(rho, B, kd, n));
    model_add(out, "latency.base", n * kd * p + B);
    model_add(out, "latency", latency);
    model_add(out, "latency.exact_v", kary_latency_cycles(v, m, B, kd, n, p, true));
    out->mean_hops = l->mean_hops;
    out->max_utilization = l->max_utilization;
    if (saturated) {
        out->unstable = true;
        snprintf(out->why, sizeof out->why, "unstable: channel utilisation m B k_d = %.4g reaches 1", rho);
        return true;
    }
    out->delay_mean = latency - 1 + creation_offset(in);
    snprintf(out->why, sizeof out->why,
             "seed 002 eq. (10): output queues, synchronised arrivals%s; k_d = %.4g measured by flow conservation; "
             "from creation (%g cycle to the first offer)",
             in->switching & SWITCH_HOLDS_CHANNELS ? " (wormhole blocking not modelled)" : "", kd,
             creation_offset(in));
    return true;
}

const struct model_ops model_kary_contention = {
    .name = "kary-contention",
    .help = "seed 002's buffered k-ary n-cube contention model, eq. (10), in cycles",
    .predict = predict,
};
