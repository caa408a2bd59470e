/* Seed 001 (Horng & Kleinrock): the imbedded Markov chain of one node of a binary
 * n-cube running the timestamp/backtracking algorithm with M shared buffers and
 * geometric batch input of mean λ per cycle (note 001 §2, eqs. 1–26, with the
 * note's repairs A1–A4).
 *
 * Contract: bt_chain_solve() finds the transit probability P_t by flow balance
 * (eq. 17, a single sign change on (0, 1)) and returns every performance measure of
 * §2.4–2.5.  Pure: no config, no simulation.  n ≤ BT_CHAIN_MAX_DIMENSION,
 * n ≤ M ≤ BT_CHAIN_MAX_BUFFERS, λ > 0. */
#ifndef ANALYTIC_BACKTRACKING_CHAIN_H
#define ANALYTIC_BACKTRACKING_CHAIN_H

#include <stdbool.h>
#include <stddef.h>

enum { BT_CHAIN_MAX_DIMENSION = 20, BT_CHAIN_MAX_BUFFERS = 256 };

struct bt_chain {
    unsigned n, buffers;
    double lambda;
    double transit_probability; /* P_t: an incoming channel carries a transit message */
    double utilization;         /* u, eq. 9: a channel carries a message in a cycle */
    double utilization_phase1;  /* u1, eq. 10 */
    double phase2_fraction;     /* q = 1 − u1/u: transmissions that are forced (phase 2) */
    double distance_mean;       /* d̄ = n 2^(n−1) / (2^n − 1), shortest path */
    double hops_mean;           /* h̄, eq. 12: hops actually travelled */
    double acceptance;          /* P_A = 1 − π_M, eq. 15 */
    double throughput;          /* γ = N λ P_A, eq. 18: accepted messages per cycle, network */
    double occupancy_mean;      /* q̄, eq. 19 */
    double delay_mean;          /* T = q̄ / (λ P_A), eq. 20, cycles */
    double forward_probability; /* P_f, eq. 25 */
    double backtrack_probability; /* P_r, eq. 24 */
    double net_progress;        /* P_f − P_r, eq. 26 */
    double power;               /* γ P_A / T (Kleinrock's power with blocking) */
    double balance_residual;    /* λ(1 − π_M) − n u / h̄ at the root (≈ 0) */
    double pi[BT_CHAIN_MAX_BUFFERS + 1]; /* occupancy at the start of a cycle */
    double h[BT_CHAIN_MAX_DIMENSION + 1]; /* h_i: hops to deliver a message with i one-bits */
};

/* Returns false with `why` filled when the arguments are out of range or the
 * linear algebra fails. */
bool bt_chain_solve(unsigned n, unsigned buffers, double lambda, struct bt_chain *out, char *why, size_t why_size);

/* The pieces, exposed for tests.  f[i*(n+1)+j], i = 0..M, j = 0..n: phase-1 success
 * counts (eq. 2 via its recursion); fp: after phase 2 (eq. 3, repaired). */
void bt_chain_phase_counts(unsigned n, unsigned buffers, double *f, double *fp);
/* h_0..h_n for a forced fraction q (backward recursion of A3/A4); q < 1. */
void bt_chain_hops(unsigned n, double q, double *h);

#endif
