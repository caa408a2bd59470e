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
#include <stddef.h>

#include "../sim/core/params.h"
#include "kary_limits.h"
#include "model.h"

/* Seed 002's physical analysis; the simulation ignores these keys. */
struct physical_params {
    double switch_delay;
    const char *wire_delay, *constraint;
    double bisection_per_node, node_pins;
    int64_t nodes, dimension;
    double locality_fraction;
    int64_t indirect_radix;
};

#define AT(field) offsetof(struct physical_params, field)
static const struct cfg_key physical_keys[] = {
    { "physical", "switch_delay", CFG_REAL, AT(switch_delay), "4", 0, 1e6, false, NULL,
      "s: switch delay over the wire delay of a 2-D mesh, T^s/T^w(2) (clock = s + longest wire)" },
    { "physical", "wire_delay", CFG_CHOICE, AT(wire_delay), "planar", 0, 0, false, &kary_wire_choices,
      "longest-wire delay model (linear in length)" },
    { "physical", "constraint", CFG_CHOICE, AT(constraint), "fixed-width", 0, 0, false, &kary_constraint_choices,
      "what sets the channel width W in bits (message in flits B = mean_length / W)" },
    { "physical", "bisection_per_node", CFG_REAL, AT(bisection_per_node), "1", 0, 1e9, true, NULL,
      "fixed-bisection: wires across the bisection per node (1: a binary n-cube with 1-bit channels, W = "
      "k/2)" },
    { "physical", "node_pins", CFG_REAL, AT(node_pins), "128", 0, 1e9, true, NULL,
      "fixed-node-size: signal wires per node, 2nW one-way (128: W = 64/n)" },
    { "physical", "nodes", CFG_INT, AT(nodes), "0", 0, 1e15, false, NULL,
      "N of the physical analysis, k = N^(1/n) may be fractional (0: the network's k^n)" },
    { "physical", "dimension", CFG_INT, AT(dimension), "0", 0, 64, false, NULL,
      "n of the physical analysis (0: network.dimension)" },
    { "physical", "locality_fraction", CFG_REAL, AT(locality_fraction), "1", 0, 1, true, NULL,
      "l of the physical analysis: destinations in a subcube of l N nodes anchored at the source (1: "
      "uniform)" },
    { "physical", "indirect_radix", CFG_INT, AT(indirect_radix), "0", 0, 1 << 20, false, NULL,
      "compare with an indirect network of k x k switches, log_k N stages (0: none; 1 is refused)" },
};
#undef AT
static CFG_PARAM_TABLE(physical_param_table, struct physical_params, physical_keys);

/* Only on request: a k-ary n-cube run that never mentions [physical] gets no T^w(2) figures. */
static bool physical_requested(const struct config *cfg)
{
    for (size_t i = 0; i < physical_param_table.count; i++) {
        char key[64];
        snprintf(key, sizeof key, "%s.%s", physical_keys[i].section, physical_keys[i].name);
        if (cfg_is_set(cfg, key))
            return true;
    }
    return false;
}

/* Values the physical analysis can never use, refused whatever the run prints. */
static bool check(const struct config *cfg, struct cfg_error *err)
{
    const struct physical_params *p = cfg_params(cfg, &physical_param_table);
    if (p->indirect_radix == 1) {
        cfg_blame(cfg, "physical.indirect_radix", err, "an indirect network needs switches of at least 2 x 2 "
                                                        "(0: no indirect network)");
        return false;
    }
    if (p->nodes == 1) {
        cfg_blame(cfg, "physical.nodes", err, "a network of one node has no channels (0: the network's k^n)");
        return false;
    }
    if (p->dimension == 1) {
        cfg_blame(cfg, "physical.dimension", err, "seed 002's wire model needs n >= 2 (0: network.dimension)");
        return false;
    }
    return true;
}

static bool predict(const struct model_in *in, struct model_result *out)
{
    const struct config *cfg = in->cfg;
    const struct physical_params *pp = cfg_params(cfg, &physical_param_table);
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
        .variant = kary_variant_of(in->topo),
        .wire = kary_wire_of(pp->wire_delay),
        .constraint = kary_constraint_of(pp->constraint),
        .switch_delay = pp->switch_delay,
        .message_bits = cfg->workload.mean_length,
        .width = cfg->network.bandwidth,
        .bisection_per_node = pp->bisection_per_node,
        .pins = pp->node_pins,
        .locality = pp->locality_fraction,
        .rate = cfg_message_rate(cfg),
    };
    double N = pp->nodes ? (double)pp->nodes : (double)in->topo->nodes;
    double n = (double)(pp->dimension ? pp->dimension : cfg->network.dimension);
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
    if (pp->indirect_radix >= 2) {
        double k = (double)pp->indirect_radix, stages = log(N) / log(k);
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
    .params = &physical_param_table,
    .check = check,
    .predict = predict,
};
