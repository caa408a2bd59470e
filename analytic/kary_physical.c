/* Seed 002's physical analysis in units of T^w(2), the wire delay of a 2-D mesh:
 * clock = s + longest wire (physical.switch_delay, physical.wire_delay), channel width
 * W from physical.constraint (fixed-width: network.bandwidth), B = L/W flits with
 * L = workload.mean_length bits, and
 *   base latency  T_b = clock (n k_d + B)                       (eq. 2)
 *   with load     T_c = clock (n k_d (1 + w) + B)               (eq. 12)
 * at m = workload.rate, for N = physical.nodes (or the network's k^n) and n =
 * physical.dimension (or network.dimension), k = N^(1/n) possibly fractional, locality
 * l = physical.locality_fraction.  Also the best dimension for that N (least T_b, and
 * least T_c at m), and with physical.indirect_radix an indirect network of k x k
 * switches (eqs. 13-14; clock restored as s + N^(1/2 - 1/stages), note 002 §9 item 11).
 * Applies when the configuration sets any [physical] key.  Never the delay model: its
 * latencies are in T^w(2), not simulated cycles. */
#include <math.h>
#include <stdio.h>

#include "kary_limits.h"
#include "model.h"

/* Only on request: a k-ary n-cube run that never mentions [physical] gets no T^w(2) figures. */
static bool physical_requested(const struct config *cfg)
{
    for (int id = KEY_PHYSICAL_SWITCH_DELAY; id <= KEY_PHYSICAL_INDIRECT_RADIX; id++)
        if (cfg->origin[id].file)
            return true;
    return false;
}

static bool predict(const struct model_in *in, struct model_result *out)
{
    const struct config *cfg = in->cfg;
    const char *why = NULL;
    if (!(in->topo->ops->traits & TOPO_KARY_NCUBE))
        why = "needs a k-ary n-cube (topology kary-ncube or torus)";
    else if (!physical_requested(cfg))
        why = "is evaluated when the configuration sets a [physical] key";
    if (why) {
        snprintf(out->why, sizeof out->why, "kary-physical %s", why);
        return false;
    }
    struct kary_physical p = {
        .variant = kary_variant_of(cfg),
        .wire = kary_wire_of(cfg->physical.wire_delay),
        .constraint = kary_constraint_of(cfg->physical.constraint),
        .switch_delay = cfg->physical.switch_delay,
        .message_bits = cfg->workload.mean_length,
        .width = cfg->network.bandwidth,
        .bisection_per_node = cfg->physical.bisection_per_node,
        .pins = cfg->physical.node_pins,
        .locality = cfg->physical.locality_fraction,
        .rate = cfg->workload.rate,
    };
    double N = cfg->physical.nodes ? (double)cfg->physical.nodes : (double)in->topo->nodes;
    double n = (double)(cfg->physical.dimension ? cfg->physical.dimension : cfg->network.dimension);
    struct kary_point pt;
    kary_physical_eval(&p, N, n, &pt);
    double directions = p.variant == KARY_ONE_WAY_TORUS ? 1 : 2;
    double crossing = (p.variant == KARY_TWO_WAY_TORUS ? 4 : 2) * N / pt.k; /* channels across the bisection */
    model_add(out, "nodes", N);
    model_add(out, "dimension", n);
    model_add(out, "radix", pt.k);
    model_add(out, "kd", pt.kd);
    model_add(out, "channel_width", pt.W);
    model_add(out, "bisection_per_node", pt.W * crossing / N);
    model_add(out, "node_pins", 2 * n * directions * pt.W);
    model_add(out, "flits", pt.B);
    model_add(out, "wire", pt.wire);
    model_add(out, "clock", pt.clock);
    model_add(out, "utilization", pt.rho);
    model_add(out, "saturation_rate", kary_saturation_rate(p.variant, pt.B, pt.kd));
    model_add(out, "contention.per_hop", pt.w);
    model_add(out, "latency.base", pt.base);
    model_add(out, "latency", pt.latency);
    double best_base_latency, best_latency;
    int best_base = kary_best_dimension(&p, N, true, &best_base_latency);
    int best = kary_best_dimension(&p, N, false, &best_latency);
    model_add(out, "best_dimension.base", best_base);
    model_add(out, "best_dimension.base_latency", best_base_latency);
    model_add(out, "best_dimension", best ? best : NAN);
    model_add(out, "best_dimension.latency", best_latency);
    if (cfg->physical.indirect_radix >= 2) {
        double k = (double)cfg->physical.indirect_radix, stages = log(N) / log(k);
        double W = p.constraint == KARY_FIXED_NODE_SIZE ? p.pins / (2 * k) : p.width, B = p.message_bits / W;
        double clock = p.switch_delay + kary_wire_factor(p.wire, N, stages);
        model_add(out, "indirect.stages", stages);
        model_add(out, "indirect.switches", stages * N / k);
        model_add(out, "indirect.channel_width", W);
        model_add(out, "indirect.flits", B);
        model_add(out, "indirect.clock", clock);
        model_add(out, "indirect.saturation_rate", 1 / B);
        model_add(out, "indirect.latency.base", clock * (stages + B));
        model_add(out, "indirect.latency", kary_indirect_latency(p.rate, clock, stages, k, B));
    }
    snprintf(out->why, sizeof out->why, "seed 002 eqs. (2), (12): latencies in units of T^w(2)");
    return true;
}

const struct model_ops model_kary_physical = {
    .name = "kary-physical",
    .help = "seed 002's latency with switch and wire delays under width, bisection or node-size limits, in T^w(2)",
    .predict = predict,
};
