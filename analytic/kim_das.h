/* Seed 003's formulas (Kim & Das, "Hypercube communication delay with wormhole
 * routing", IEEE TC 43(7), 1994), with plain arguments: no config, no topology.
 * Readings of the OCR-damaged equations are those of note 003 §2 (variant A of eq. 5,
 * d_{n-1} = l/2, the conditional 1-hop fraction in eq. 8, per-channel acceptance in
 * eq. 10, t_avg/2 in eq. 12).
 *
 * Binary n-cube, channel s = the s-th dimension in the fixed correction order of LR
 * (e-cube) routing; P_k = probability that a message travels k hops (destination then
 * uniform among the C(n,k) nodes at that distance).  Rates are per node and relative
 * to the accepted rate λ_n unless said otherwise; lengths in flits, times in t_u.
 *
 * LR wormhole: d_s (eq. 5) depends only on P_b,j and d_j for j > s, and P_b,s only on
 * d_s (eq. 9, with eq. 10 per channel in finite mode), so the paper's fixed point is
 * reached exactly by one backward pass s = n-1 .. 0 (its iteration converges to the
 * same values after n sweeps); finite mode solves P = x (1 - P) as P = x / (1 + x).
 * Random wormhole: the quadratics of eqs. (12)-(14), solved with GSL.
 */
#ifndef ANALYTIC_KIM_DAS_H
#define ANALYTIC_KIM_DAS_H

#include <stdbool.h>

enum { KD_DIM_MAX = 64 };

/* Traffic and path statistics of LR routing: eqs. (1)-(4), (6), (7), (8)'s factors. */
struct kd_traffic {
    unsigned n;
    double p[KD_DIM_MAX + 1];     /* P_k, k = 1..n (p[0] = 0) */
    double hops_mean;             /* h_a = Σ k P_k */
    double channel;               /* λ_c,s / λ_n = h_a / n, every s (eq. 4) */
    double transit[KD_DIM_MAX];   /* λ_t,s / λ_n (eq. 1) */
    double fresh[KD_DIM_MAX];     /* λ_n,s / λ_n: new messages whose first channel is s (eq. 3) */
    double ends[KD_DIM_MAX];      /* P_t,s: a message crossing s ends right after it (eq. 6) */
    double fresh_ends[KD_DIM_MAX];/* P^g_t,s: the same for messages generated on s (eq. 8) */
    /* H{j|s} (eq. 7) and H^g{j|s} (eq. 8): hops still travelled from channel j on, by
     * a message that continues after s and takes j next; [s][j], 0 unless j > s. */
    double onward[KD_DIM_MAX][KD_DIM_MAX];
    double fresh_onward[KD_DIM_MAX][KD_DIM_MAX];
};

/* Fills t from P_k (p[k] for k = 1..n, summing to 1).  False when n is out of
 * 1..KD_DIM_MAX or the p[k] are negative or do not sum to 1 (within 1e-9). */
bool kd_traffic_init(struct kd_traffic *t, unsigned n, const double *p);

/* P_k of uniform destinations: C(n,k) / (2^n - 1), k = 1..n (p[0] = 0). */
void kd_uniform(unsigned n, double *p);

/* Eq. (5): blocking lengths d_s (flits) from the blocking probabilities pb. */
void kd_blocking_lengths(const struct kd_traffic *t, double mean_length, const double *pb, double *d);

struct kd_result {
    bool saturated;      /* no fixed point below 1 (infinite buffer) or no positive root */
    double blocking[KD_DIM_MAX]; /* P_b,s (random routing and VCT: the same on every s) */
    double length[KD_DIM_MAX];   /* d_s (VCT: l/2) */
    double delay[KD_DIM_MAX];    /* D_s: flits moved by a message generated on s (eq. 8) */
    double delay_mean;           /* t_avg (eq. 11, weighted by λ_n,s; random: eqs. 12-14) */
    double delay_simple;         /* eq. (11) with the simple average of D_s (Fig. 6) */
    double acceptance;           /* accepted / generated: Σ_s (λ_n,s/λ_n)(1 - P_b,s); 1 with infinite buffers */
};

/* LR (e-cube) wormhole, eqs. (5)-(11).  rate = λ_g per node per t_u, mean_length = l
 * in flits; finite: a new message is refused when its first channel is busy (eq. 10). */
void kd_wormhole_lr(const struct kd_traffic *t, double mean_length, double rate, bool finite,
                    struct kd_result *out);

/* Virtual cut-through under LR routing: P_b = λ_c l t_u on every channel (finite: with
 * eq. 10, x / (1 + x)).  The paper gives no VCT delay; delay_mean completes it with
 * eqs. (8), (11) and d_j = l/2 (note 003 §2.6), an assumption of ours. */
void kd_cut_through(const struct kd_traffic *t, double mean_length, double rate, bool finite,
                    struct kd_result *out);

/* Random shortest-path wormhole, eqs. (12)-(14): one P_b for every channel; infinite
 * buffer eq. (13), finite buffer (12) with (14), the smallest positive root. */
void kd_wormhole_random(const struct kd_traffic *t, double mean_length, double rate, bool finite,
                        struct kd_result *out);

#endif
