/* Seed 002's formulas: see kary_limits.h for the contract and note 002 for the readings
 * (fixed-bisection T_b read as (s + N^(1/2-1/n)), §9 item 1; W not rounded, §2.5). */
#include <math.h>
#include <string.h>

#include "../sim/core/registry.h"
#include "kary_limits.h"

struct named {
    const char *name, *help;
};

static const struct named wire_planar = { "planar", "longest wire of a planar embedding, N^(1/2 - 1/n) T^w(2)" };
static const struct named wire_unit = { "unit", "every wire T^w(2): wire growth ignored (seed 002 Fig. 11(a))" };
static const struct named wire_3d = { "3d", "embedding in 3-D space, N^(1/3 - 1/n) T^w(2)" };
static const struct named *const wires[] = { &wire_planar, &wire_unit, &wire_3d };
static const struct named *wire_find(const char *name);
REGISTRY_DEFINE(struct named, wires, wire_find, kary_wire_choices);

static const struct named fixed_width = { "fixed-width", "channel width W = network.bandwidth for every n" };
static const struct named fixed_bisection = { "fixed-bisection",
                                              "physical.bisection_per_node wires per node cross the bisection" };
static const struct named fixed_node_size = { "fixed-node-size", "physical.node_pins signal wires per node" };
static const struct named *const constraints[] = { &fixed_width, &fixed_bisection, &fixed_node_size };
static const struct named *constraint_find(const char *name);
REGISTRY_DEFINE(struct named, constraints, constraint_find, kary_constraint_choices);

enum kary_wire kary_wire_of(const char *name)
{
    const struct named *w = wire_find(name);
    return w == &wire_unit ? KARY_WIRE_UNIT : w == &wire_3d ? KARY_WIRE_3D : KARY_WIRE_PLANAR;
}

enum kary_constraint kary_constraint_of(const char *name)
{
    const struct named *c = constraint_find(name);
    return c == &fixed_bisection ? KARY_FIXED_BISECTION : c == &fixed_node_size ? KARY_FIXED_NODE_SIZE
                                                                                 : KARY_FIXED_WIDTH;
}

enum kary_variant kary_variant_of(const struct topo *t)
{
    if (!t->lattice.wrap)
        return KARY_MESH;
    return t->lattice.both_ways ? KARY_TWO_WAY_TORUS : KARY_ONE_WAY_TORUS;
}

double kary_kd(enum kary_variant v, double k)
{
    switch (v) {
    case KARY_ONE_WAY_TORUS:
        return (k - 1) / 2;
    case KARY_TWO_WAY_TORUS: {
        bool odd = k == floor(k) && fmod(k, 2) == 1;
        return odd ? (k - 1 / k) / 4 : k / 4;
    }
    case KARY_MESH:
        return (k - 1 / k) / 3;
    }
    return NAN;
}

double kary_kd_local(enum kary_variant v, double k, double n, double l)
{
    double side = pow(l, 1 / n) * k; /* at least the source itself */
    return l >= 1 ? kary_kd(v, k) : side < 1 ? 0 : (side - 1) / 2;
}

double kary_wire_factor(enum kary_wire w, double N, double n)
{
    switch (w) {
    case KARY_WIRE_PLANAR:
        return pow(N, 0.5 - 1 / n);
    case KARY_WIRE_UNIT:
        return 1;
    case KARY_WIRE_3D:
        return pow(N, 1.0 / 3 - 1 / n);
    }
    return NAN;
}

double kary_channel_width(enum kary_constraint c, enum kary_variant v, double k, double n, double width,
                          double bisection_per_node, double pins)
{
    double directions = v == KARY_ONE_WAY_TORUS ? 1 : 2;
    switch (c) {
    case KARY_FIXED_WIDTH:
        return width;
    case KARY_FIXED_BISECTION: /* b N wires over the 2N/k (4N/k) channels crossing the bisection */
        return bisection_per_node * k / (v == KARY_TWO_WAY_TORUS ? 4 : 2);
    case KARY_FIXED_NODE_SIZE: /* n output and n input channels per direction */
        return pins / (2 * n * directions);
    }
    return NAN;
}

double kary_utilization(enum kary_variant v, double m, double B, double kd)
{
    return m * B * kd / (v == KARY_ONE_WAY_TORUS ? 1 : 2);
}

double kary_contention(double rho, double B, double kd, double n)
{
    if (rho <= 0)
        return 0;
    return B * rho / (1 - rho) * (kd - 1) / (kd * kd) * (1 + 1 / n);
}

double kary_contention_exact(double rho, double B, double kd, double n)
{
    if (rho <= 0)
        return 0;
    double ri = rho / (n * kd), rs = (rho - ri) / kd, rc = (rho - ri) * (kd - 1) / kd;
    return B * (rc * rs + rs * ri + ri * rc) / (rho * (1 - rho));
}

double kary_latency_cycles(enum kary_variant v, double m, double B, double kd, double n, double p, bool exact_v)
{
    double rho = kary_utilization(v, m, B, kd);
    if (rho >= 1)
        return INFINITY;
    if (kd < 1 && rho > 0)
        return NAN;
    double w = exact_v ? kary_contention_exact(rho, B, kd, n) : kary_contention(rho, B, kd, n);
    return n * kd * (p + w) + B;
}

double kary_saturation_rate(enum kary_variant v, double B, double kd)
{
    return (v == KARY_ONE_WAY_TORUS ? 1 : 2) / (B * kd);
}

void kary_physical_eval(const struct kary_physical *p, double N, double n, struct kary_point *o)
{
    o->k = pow(N, 1 / n);
    o->kd = kary_kd_local(p->variant, o->k, n, p->locality);
    o->W = kary_channel_width(p->constraint, p->variant, o->k, n, p->width, p->bisection_per_node, p->pins);
    o->B = p->message_bits / o->W;
    o->wire = kary_wire_factor(p->wire, N, n);
    o->clock = p->switch_delay + o->wire;
    o->rho = kary_utilization(p->variant, p->rate, o->B, o->kd);
    o->base = o->clock * (n * o->kd + o->B);
    double cycles = kary_latency_cycles(p->variant, p->rate, o->B, o->kd, n, 1, false);
    o->w = o->rho < 1 && !isnan(cycles) ? kary_contention(o->rho, o->B, o->kd, n) : NAN;
    o->latency = o->clock * cycles;
}

int kary_best_dimension(const struct kary_physical *p, double N, bool base, double *latency)
{
    int best = 0;
    double best_latency = INFINITY;
    for (int n = 2; n <= (int)floor(log2(N) + 1e-9); n++) {
        struct kary_point pt;
        kary_physical_eval(p, N, n, &pt);
        double t = base ? pt.base : pt.latency;
        if (t < best_latency) { /* NaN and INFINITY never win */
            best_latency = t;
            best = n;
        }
    }
    if (latency)
        *latency = best_latency;
    return best;
}

double kary_indirect_contention(double rho, double B, double k)
{
    return rho * B / (2 * (1 - rho)) * (1 - 1 / k);
}

double kary_indirect_latency(double m, double clock, double stages, double k, double B)
{
    double rho = m * B;
    if (rho >= 1)
        return INFINITY;
    return clock * (stages * (1 + kary_indirect_contention(rho, B, k)) + B);
}
