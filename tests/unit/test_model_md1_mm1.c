/* Seed 004's model, M/D/1 nodes and M/M/1 links (analytic/md1_mm1_network.c): note
 * 004's worked example, the dual-bus hypercube's two link groups, the stability check on
 * every row of the thesis's Appendix B, and the simulation of the FIFO rows of Table
 * B.1 against it (every other triple of rows, 20 replications; all rows with 50 in
 * tests/validate). */
#include <math.h>
#include <string.h>

#include "../common/checks.h"
#include "../common/test.h"

/* Note 004 §4.6: SBH 4^3, FIFO, λ_N = 1, μ_L = 10, μ_N = 20: ρ_N = 0.1643, ρ_L = 0.3048,
 * E[T_R] = 0.05491, E[T_LW] = 0.04384, E[T] = 0.5092, σ = 0.2992 by eqs. 4.21-4.25 and
 * 0.3187 with the covariances. */
START_TEST(seed004_model_matches_the_worked_example)
{
    const char *set[] = { "network.topology=spanning-bus-hypercube", "network.dimension=3", "network.bandwidth=10",
                          "node.service_rate=20", NULL };
    struct analysed a;
    analyse(&a, set);
    ck_assert_str_eq(a.model.model, "md1-mm1-network");
    /* The note rounds its intermediates to 4 digits: agree to 2e-4. */
    ck_assert_double_eq_tol(a.model.delay_mean, 0.5092, 2e-4);
    ck_assert_double_eq_tol(sqrt(a.model.delay_variance), 0.2992, 2e-4);
    ck_assert_double_eq_tol(sqrt(a.model.delay_variance_correlated), 0.3187, 2e-4);
    double hops = 144.0 / 63, tr = 0.05491, lw = 0.04384;
    ck_assert_double_eq_tol(a.model.node_mean, (1 + hops) * tr, 2e-4);
    ck_assert_double_eq_tol(a.model.link_mean, hops * (lw + 0.1), 2e-4);
    ck_assert_double_eq_tol(a.model.max_utilization, 0.3048, 2e-4);
    /* Closed form of the node part: M/D/1 with λ_NM = (1 + E[δ]) = 207/63, S = 1/20. */
    double rho = 207.0 / 63 / 20, w = rho / 20 / (2 * (1 - rho));
    ck_assert_double_eq_tol(a.model.node_mean, (1 + hops) * (w + 0.05), 1e-12);
    release(&a);
}
END_TEST

/* The dual-bus hypercube has two link groups (primary, and the secondary buses of both
 * dimensions): E[T] = (1 + E[δ]) E[T_R] + E[δ1] E[T_LW1] + E[δ2] E[T_LW2] + E[δ]/μ_L
 * (eq. 4.43), with λ_L1 = E[δ1] λ W, λ_L2 = E[δ2] λ W. */
START_TEST(seed004_model_dual_bus_uses_two_link_groups)
{
    const char *set[] = { "network.topology=dual-bus-hypercube", "network.dimension=3", "network.bandwidth=10",
                          "node.service_rate=20", NULL };
    struct analysed a;
    analyse(&a, set);
    ck_assert_str_eq(a.model.model, "md1-mm1-network");
    /* hops per message by group: class rate × channels / (λ N); 16 primary buses, 8 + 8 secondary */
    double d1 = a.loads.class_rate[0] * 16 / 64, d2 = (a.loads.class_rate[1] + a.loads.class_rate[2]) * 8 / 64;
    ck_assert_double_eq_tol(d1 + d2, 180.0 / 63, 1e-9); /* mean hops 2.857 */
    double mu = 10, r1 = d1 * 4 / mu, r2 = d2 * 4 / mu;
    double lw1 = r1 / (mu * (1 - r1)), lw2 = r2 / (mu * (1 - r2));
    double rho = (1 + d1 + d2) / 20, tr = rho / 20 / (2 * (1 - rho)) + 0.05;
    ck_assert_double_eq_tol(a.model.delay_mean, (1 + d1 + d2) * tr + d1 * lw1 + d2 * lw2 + (d1 + d2) / mu, 1e-12);
    ck_assert(a.model.delay_variance_correlated > a.model.delay_variance);
    release(&a);
    const char *tdm[] = { "network.topology=dual-bus-hypercube", "network.dimension=3", "network.bandwidth=10",
                          "node.service_rate=20", "protocol.link=tdm", NULL };
    analyse(&a, tdm);
    ck_assert_ptr_null(a.model.model);
    ck_assert_msg(strstr(a.model.why, "md1-mm1-network needs FIFO channels"), "%s", a.model.why);
    release(&a);
}
END_TEST

/* Every xxxx row, and only those, is saturated: the check is analytic, so all rows. */
START_TEST(saturated_rows_are_exactly_the_thesis_xxxx)
{
    static struct row rows[200];
    int n = read_rows(rows, 200), saturated = 0;
    ck_assert_int_eq(n, 141);
    for (int i = 0; i < n; i++) {
        static struct config cfg;
        load_row(&rows[i], 1, &cfg);
        struct stability s;
        test_stability(&cfg, &s);
        ck_assert_msg(s.saturated == rows[i].saturated, "%s: saturated %d, thesis %d (%s)", rows[i].id, s.saturated,
                      rows[i].saturated, s.why);
        saturated += s.saturated;
    }
    ck_assert_int_eq(saturated, 16);
}
END_TEST


/* The thesis's own analytic model (md1-mm1-network) against the simulation on the FIFO
 * rows of Table B.1 (tests/common/appendix_b.c). */
START_TEST(fifo_rows_track_the_thesis_model)
{
    check_fifo_rows_track_the_model(false);
}
END_TEST

Suite *model_md1_mm1_suite(void)
{
    Suite *s = suite_create("model_md1_mm1");
    TCase *tc = tcase_create("seed-004");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, seed004_model_matches_the_worked_example);
    tcase_add_test(tc, seed004_model_dual_bus_uses_two_link_groups);
    tcase_add_test(tc, saturated_rows_are_exactly_the_thesis_xxxx);
    tcase_add_test(tc, fifo_rows_track_the_thesis_model);
    suite_add_tcase(s, tc);
    return s;
}
