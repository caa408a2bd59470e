/* Seed 001's Markov-chain model: note 001's worked example (§2.7) to the printed
 * digits, the structural identities of §5, the limiting cases, and the shapes of
 * the paper's Figs. 6–10 (the seed prints no figure data, only the shapes). */
#include <math.h>
#include <string.h>

#include "../../analytic/backtracking_chain.h"
#include "../common/checks.h"
#include "../common/test.h"

static struct bt_chain solve(unsigned n, unsigned m, double lambda)
{
    struct bt_chain c;
    char why[256];
    ck_assert_msg(bt_chain_solve(n, m, lambda, &c, why, sizeof why), "n=%u M=%u λ=%g: %s", n, m, lambda, why);
    return c;
}

/* Note 001 §2.7: n = 6, M = 10, λ = 1.0, every printed figure at its printed digits. */
START_TEST(worked_example_matches_every_printed_digit)
{
    struct bt_chain c = solve(6, 10, 1.0);
    ck_assert_double_eq_tol(c.transit_probability, 0.3418379979, 5e-11);
    ck_assert_double_eq_tol(c.utilization, 0.5053203979, 5e-11);
    ck_assert_double_eq_tol(c.utilization_phase1, 0.5005923520, 5e-11);
    ck_assert_double_eq_tol(c.phase2_fraction, 0.0093565309, 5e-11);
    ck_assert_double_eq_tol(c.hops_mean, 3.0909773641, 5e-11);
    ck_assert_double_eq_tol(c.acceptance, 0.9808944001, 5e-11);
    ck_assert_double_eq_tol(c.occupancy_mean, 4.1901458371, 5e-11);
    ck_assert_double_eq_tol(c.delay_mean, 4.2717603818, 5e-11);
    ck_assert_double_eq_tol(c.throughput, 62.7772, 5e-5);
    ck_assert_double_eq_tol(c.forward_probability, 0.5018, 5e-5);
    ck_assert_double_eq_tol(c.backtrack_probability, 0.00354, 5e-6);
    ck_assert_double_eq_tol(c.net_progress, 0.4982, 5e-5);
    ck_assert_double_eq_tol(c.power, 14.4151, 5e-5);
    static const double pi[] = { 0.015125, 0.067109, 0.140600, 0.188659, 0.187804, 0.152656,
                                 0.107030, 0.066163, 0.036741, 0.019007, 0.019106 };
    for (unsigned i = 0; i <= 10; i++)
        ck_assert_double_eq_tol(c.pi[i], pi[i], 5e-7);
    static const double h[] = { 0, 1.01903307, 2.03420190, 3.04553562, 4.05306305, 5.05681268, 6.05681268 };
    for (unsigned i = 0; i <= 6; i++)
        ck_assert_double_eq_tol(c.h[i], h[i], 5e-9);
}
END_TEST

/* Eq. 2 and 3: every row of f and f' is a probability distribution; phase 2
 * leaves at most M − n messages. */
START_TEST(phase_counts_are_distributions)
{
    enum { N = 6, M = 9 };
    double f[(M + 1) * (N + 1)], fp[(M + 1) * (N + 1)];
    bt_chain_phase_counts(N, M, f, fp);
    for (unsigned i = 0; i <= M; i++) {
        double sf = 0, sfp = 0;
        for (unsigned j = 0; j <= N; j++) {
            sf += f[i * (N + 1) + j];
            sfp += fp[i * (N + 1) + j];
            if (fp[i * (N + 1) + j] > 0)
                ck_assert_int_le(i - (j < i ? j : i), M - N);
        }
        ck_assert_double_eq_tol(sf, 1, 1e-12);
        ck_assert_double_eq_tol(sfp, 1, 1e-12);
    }
    /* A1: with two messages, one channel is used with probability 1/n. */
    ck_assert_double_eq_tol(f[2 * (N + 1) + 1], 1.0 / N, 1e-15);
    /* Eq. 2 itself (OCR-repaired) for i = 5, j = 3. */
    double direct = 20 * (pow(3.0 / N, 5) - 3 * pow(2.0 / N, 5) + 3 * pow(1.0 / N, 5));
    ck_assert_double_eq_tol(f[5 * (N + 1) + 3], direct, 1e-15);
}
END_TEST

/* q = 0: no backtracking, h_i = i.  Otherwise h_i solves the birth–death equations (A3). */
START_TEST(hops_solve_the_birth_death_chain)
{
    double h[BT_CHAIN_MAX_DIMENSION + 1];
    bt_chain_hops(8, 0, h);
    for (unsigned i = 0; i <= 8; i++)
        ck_assert_double_eq_tol(h[i], i, 1e-15);
    const unsigned n = 8;
    const double q = 0.3, p = 1 - q;
    bt_chain_hops(n, q, h);
    for (unsigned i = 1; i < n; i++) {
        double rhs = (p + q * (i - 1) / (n - 1)) * h[i - 1] + q * (n - i) / (n - 1) * h[i + 1] + 1;
        ck_assert_double_eq_tol(h[i], rhs, 1e-12);
    }
    ck_assert_double_eq_tol(h[n], h[n - 1] + 1, 1e-12);
}
END_TEST

/* §2.3 and §5: at the root, P_t = u (1 − 1/h̄) and n u = n P_t + λ P_A. */
START_TEST(flow_balance_identities_hold_at_the_root)
{
    static const struct {
        unsigned n, m;
        double lambda;
    } cases[] = { { 6, 6, 0.5 }, { 6, 10, 1.0 }, { 6, 20, 3.0 }, { 4, 5, 0.2 }, { 10, 30, 5.0 }, { 8, 12, 1.5 } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct bt_chain c = solve(cases[k].n, cases[k].m, cases[k].lambda);
        ck_assert_double_eq_tol(c.balance_residual, 0, 1e-10);
        ck_assert_double_eq_tol(c.transit_probability, c.utilization * (1 - 1 / c.hops_mean), 1e-9);
        ck_assert_double_eq_tol(c.n * c.utilization, c.n * c.transit_probability + c.lambda * c.acceptance, 1e-9);
        ck_assert_double_eq_tol(c.forward_probability + c.backtrack_probability, c.utilization, 1e-12);
        double total = 0;
        for (unsigned i = 0; i <= c.buffers; i++)
            total += c.pi[i];
        ck_assert_double_eq_tol(total, 1, 1e-12);
    }
}
END_TEST

/* M = n: every message leaves every cycle, so T = h̄ exactly (§5). */
START_TEST(no_spare_buffers_make_delay_equal_hops)
{
    for (unsigned n = 3; n <= 8; n++) {
        struct bt_chain c = solve(n, n, 0.8);
        ck_assert_double_eq_tol(c.delay_mean, c.hops_mean, 1e-9 * c.hops_mean);
    }
}
END_TEST

/* Large M, light load: no rejection, no backtracking, u = λ d̄ / n. */
START_TEST(large_buffers_at_light_load_approach_infinite_buffers)
{
    struct bt_chain c = solve(6, 60, 0.05);
    ck_assert_double_eq_tol(c.acceptance, 1, 1e-12);
    ck_assert_double_eq_tol(c.hops_mean, c.distance_mean, 1e-6);
    ck_assert_double_eq_tol(c.utilization, 0.05 * c.distance_mean / 6, 1e-6);
    ck_assert_double_eq_tol(c.distance_mean, 6 * 32.0 / 63, 1e-15);
}
END_TEST

/* The paper's findings (§3.1): P_A falls with λ and rises with M; γ rises with λ
 * and stays below N n / d̄; delay vs M is U-shaped at high load and flat at low
 * load; power has an interior peak in λ. */
START_TEST(shapes_of_the_papers_figures)
{
    static const unsigned buffers[] = { 6, 7, 8, 10, 12, 15, 20, 30 };
    const unsigned nb = sizeof buffers / sizeof buffers[0];
    for (unsigned b = 0; b < nb; b++) {
        double last_pa = 2, last_gamma = 0, best_power = 0, power_at_end = 0;
        unsigned peak = 0, k = 0;
        for (double lambda = 0.1; lambda <= 5.0001; lambda += 0.1, k++) {
            struct bt_chain c = solve(6, buffers[b], lambda);
            ck_assert_msg(c.acceptance < last_pa || c.acceptance > 1 - 1e-12, "P_A not falling at M=%u λ=%g", buffers[b], lambda);
            ck_assert_msg(c.throughput > last_gamma, "γ not rising at M=%u λ=%g", buffers[b], lambda);
            ck_assert(c.throughput < 64 * 6 / c.distance_mean);
            if (b > 0) {
                struct bt_chain smaller = solve(6, buffers[b - 1], lambda);
                ck_assert_msg(c.acceptance > smaller.acceptance || c.acceptance > 1 - 1e-12, "P_A(M=%u) %.15g <= P_A(M=%u) %.15g at λ=%g", buffers[b], c.acceptance, buffers[b - 1], smaller.acceptance, lambda);
            }
            if (c.power > best_power) {
                best_power = c.power;
                peak = k;
            }
            power_at_end = c.power;
            last_pa = c.acceptance;
            last_gamma = c.throughput;
        }
        ck_assert_msg(peak > 0 && power_at_end < best_power, "power has no interior peak at M=%u", buffers[b]);
    }
    /* Fig. 8: at λ = 0.2 the delay does not depend on M from M = n + 2 on, and M = n (all
     * forced out every cycle) is slower; at λ = 3 the delay is U-shaped in M. */
    double t6 = solve(6, 6, 0.2).delay_mean, t8 = solve(6, 8, 0.2).delay_mean, t30 = solve(6, 30, 0.2).delay_mean;
    ck_assert_double_eq_tol(t8, t30, 0.001 * t30);
    ck_assert(t6 > 1.02 * t8);
    double low = solve(6, 6, 3).delay_mean, mid = solve(6, 7, 3).delay_mean, high = solve(6, 30, 3).delay_mean;
    ck_assert(mid < low && mid < high);
}
END_TEST

START_TEST(out_of_range_arguments_are_refused)
{
    struct bt_chain c;
    char why[256];
    ck_assert(!bt_chain_solve(6, 5, 1.0, &c, why, sizeof why));
    ck_assert(!bt_chain_solve(6, 10, 0, &c, why, sizeof why));
    ck_assert(!bt_chain_solve(21, 30, 1, &c, why, sizeof why));
    ck_assert(!bt_chain_solve(6, BT_CHAIN_MAX_BUFFERS + 1, 1, &c, why, sizeof why));
}
END_TEST

/* The engine against the chain on the paper's 6-cube.  The seed claims an "extremely
 * good" match without a number.  Where backtracking is rare (M >= 10 at moderate
 * load, or M = 20) the two agree within about 1% on P_A, γ, T, h̄ and u, so 2% is
 * asserted there.  With few spare buffers and heavy load the mean-field model's delay
 * is up to 8% high (README, Validation): reported, not asserted, and not tuned. */
START_TEST(simulation_agrees_with_the_chain)
{
    check_simulation_agrees_with_the_chain("run.duration=30000"); /* tests/common/checks.c */
}
END_TEST

Suite *model_backtracking_chain_suite(void)
{
    Suite *s = suite_create("model_backtracking_chain");
    TCase *tc = tcase_create("chain");
    tcase_set_timeout(tc, 300); /* the simulation runs; slower under the sanitizers */
    tcase_add_test(tc, worked_example_matches_every_printed_digit);
    tcase_add_test(tc, phase_counts_are_distributions);
    tcase_add_test(tc, hops_solve_the_birth_death_chain);
    tcase_add_test(tc, flow_balance_identities_hold_at_the_root);
    tcase_add_test(tc, no_spare_buffers_make_delay_equal_hops);
    tcase_add_test(tc, large_buffers_at_light_load_approach_infinite_buffers);
    tcase_add_test(tc, shapes_of_the_papers_figures);
    tcase_add_test(tc, out_of_range_arguments_are_refused);
    tcase_add_test(tc, simulation_agrees_with_the_chain);
    suite_add_tcase(s, tc);
    return s;
}
