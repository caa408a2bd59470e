/* Seed 002's formulas (Agarwal 1991, "Limits on interconnection network performance";
 * note 002): k-ary n-cube latency with switch and wire delays, the Kruskal–Snir-style
 * contention model for buffered direct networks, communication locality, channel widths
 * under fixed-width / fixed-bisection / fixed-node-size constraints, the indirect
 * network comparison and the best dimension for a given N.
 *
 * Pure functions of plain arguments (k and n may be real: the paper's curves hold N
 * fixed and let k = N^(1/n) be fractional).  Units: cycles for the contention model,
 * T^w(2) (the wire delay of a 2-D mesh) for latencies multiplied by the clock factor.
 * A latency is INFINITY when the channel utilisation reaches 1 (saturation) and NaN
 * when the model does not apply (k_d < 1 under load: ρ_c would be negative, §3.8).
 * The two analytic model_ops that read a config are kary_contention.c (cycles, the
 * configured network, printed beside the simulation) and kary_physical.c (T^w(2)).
 */
#ifndef ANALYTIC_KARY_LIMITS_H
#define ANALYTIC_KARY_LIMITS_H

#include <stdbool.h>

#include "../sim/core/config_value.h"
#include "../topo/topo.h"

enum kary_variant { KARY_ONE_WAY_TORUS, KARY_TWO_WAY_TORUS, KARY_MESH };
enum kary_wire { KARY_WIRE_PLANAR, KARY_WIRE_UNIT, KARY_WIRE_3D };
enum kary_constraint { KARY_FIXED_WIDTH, KARY_FIXED_BISECTION, KARY_FIXED_NODE_SIZE };

/* physical.wire_delay and physical.constraint, for the config loader. */
extern const struct cfg_choices kary_wire_choices, kary_constraint_choices;
enum kary_wire kary_wire_of(const char *name);
enum kary_constraint kary_constraint_of(const char *name);
/* The variant of the k-ary n-cube t (TOPO_KARY_NCUBE), as its family built it. */
enum kary_variant kary_variant_of(const struct topo *t);

/* Mean hops per dimension, destinations uniform over all k positions (source included):
 * one-way torus (k-1)/2 (eq. 1); two-way torus k/4 (k even) or (k - 1/k)/4 (k odd);
 * mesh (k - 1/k)/3.  Fractional k uses the even-k torus form. */
double kary_kd(enum kary_variant v, double k);
/* Locality fraction l (Sec. V-A): destinations uniform over a subcube of side l^(1/n) k
 * anchored at the source, k_dl = (l^(1/n) k - 1)/2 (0 when the side is below one node);
 * l = 1 gives kary_kd(v, k). */
double kary_kd_local(enum kary_variant v, double k, double n, double l);

/* Longest wire relative to T^w(2): planar N^(1/2 - 1/n), unit 1, 3-D space N^(1/3 - 1/n). */
double kary_wire_factor(enum kary_wire w, double N, double n);
/* Channel width W in bits: fixed-width: `width`; fixed-bisection: `bisection_per_node`·N
 * wires across the bisection, shared by the channels crossing it (2N/k one-way torus and
 * mesh, 4N/k two-way torus), so W = b·k/2 (b·k/4 two-way); fixed-node-size: `pins` signal
 * wires per node, 2·n·W (one-way) or 4·n·W (two-way channels), so W = pins/(2n) or pins/(4n). */
double kary_channel_width(enum kary_constraint c, enum kary_variant v, double k, double n, double width,
                          double bisection_per_node, double pins);

/* Channel utilisation ρ = m·B·k_d (eq. 7), halved with channels both ways. */
double kary_utilization(enum kary_variant v, double m, double B, double kd);
/* Contention per hop, cycles: eq. (8) w = B ρ/(1-ρ) (k_d - 1)/k_d² (1 + 1/n), and the
 * same from eqs. (3) and (5) with the exact variance, B (ρ_cρ_s + ρ_sρ_i + ρ_iρ_c)/(ρ(1-ρ)). */
double kary_contention(double rho, double B, double kd, double n);
double kary_contention_exact(double rho, double B, double kd, double n);
/* Eq. (10) with a pipeline of p cycles per hop (the paper: p = 1):
 * T_c = n k_d (p + w) + B cycles; exact_v selects the exact-variance w. */
double kary_latency_cycles(enum kary_variant v, double m, double B, double kd, double n, double p, bool exact_v);
/* Saturation request rate (ρ = 1): 1/(B k_d), doubled with channels both ways. */
double kary_saturation_rate(enum kary_variant v, double B, double kd);

/* The physical evaluation of one network: N nodes, n dimensions (k = N^(1/n)). */
struct kary_physical {
    enum kary_variant variant;
    enum kary_wire wire;
    enum kary_constraint constraint;
    double switch_delay;       /* s = T^s / T^w(2) */
    double message_bits;       /* L */
    double width;              /* W under fixed-width */
    double bisection_per_node; /* fixed-bisection: wires across the bisection per node */
    double pins;               /* fixed-node-size: signal wires per node */
    double locality;           /* l, 1 = uniform */
    double rate;               /* m, messages per node per cycle */
};

struct kary_point {
    double k, kd, W, B, wire, clock, rho, w;
    double base;    /* eq. (2) (with locality): clock (n k_d + B), T^w(2) */
    double latency; /* eq. (12): clock (n k_d (1 + w) + B); INFINITY saturated, NaN k_d < 1 under load */
};

void kary_physical_eval(const struct kary_physical *p, double N, double n, struct kary_point *out);
/* The dimension n in [2, log2 N] of least eq. (12) latency (eq. (2) when `base`), ties to
 * the lower n; 0 when every n saturates.  *latency (if not NULL) gets its latency. */
int kary_best_dimension(const struct kary_physical *p, double N, bool base, double *latency);

/* Indirect network of `stages` stages of k×k switches (eqs. 13, 14, note §3.7 with the
 * clock factor restored): ρ = m B, w = ρ B/(2(1-ρ)) (1 - 1/k),
 * T = clock (stages (1 + w) + B); INFINITY when ρ >= 1. */
double kary_indirect_contention(double rho, double B, double k);
double kary_indirect_latency(double m, double clock, double stages, double k, double B);

#endif
