/* The M/M/1 network model (analytic/mm1_network.c): the closed form on the default
 * configuration, what it declines, and a store-and-forward simulation of every network
 * family against it (tests/common/checks.c; 200,000 messages here, 2,000,000 in
 * tests/validate). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/checks.h"
#include "../common/test.h"

/* Default config: T = h / (μ - λc) with h = 6·32/63, λc = 1.2·32/63, μ = 1. */
START_TEST(mm1_network_delay_matches_closed_form)
{
    const char *set[] = { "network.dimension=6", "workload.rate=1.2", NULL };
    struct analysed a;
    analyse(&a, set);
    ck_assert_str_eq(a.model.model, "mm1-network");
    ck_assert(!a.model.exact);
    double h = 6.0 * 32 / 63, lc = 1.2 * 32 / 63;
    ck_assert_double_eq_tol(a.model.delay_mean, h / (1 - lc), 1e-12);
    ck_assert_double_eq_tol(a.model.delay_mean, 7.804878049, 1e-9);
    release(&a);
    /* Bandwidth 2 and mean length 3: service 1.5 per hop. */
    const char *scaled[] = { "network.dimension=6", "workload.rate=0.5", "network.bandwidth=2",
                             "workload.mean_length=3", "run.redraw_length_per_hop=true", NULL };
    analyse(&a, scaled);
    ck_assert(a.model.exact);
    double rho = 0.5 * 32 / 63 * 1.5;
    ck_assert_double_eq_tol(a.model.delay_mean, h * 1.5 / (1 - rho), 1e-12);
    release(&a);
}
END_TEST

START_TEST(mm1_network_declines_what_it_does_not_model)
{
    const char *constant[] = { "workload.length=constant", NULL };
    struct analysed a;
    analyse(&a, constant);
    ck_assert_ptr_null(a.model.model);
    ck_assert_msg(strstr(a.model.why, "exponential message lengths"), "%s", a.model.why);
    release(&a);

    const char *unstable[] = { "workload.rate=2", NULL };
    analyse(&a, unstable);
    ck_assert_str_eq(a.model.model, "mm1-network");
    ck_assert(a.model.unstable);
    ck_assert_double_eq_tol(a.model.max_utilization, 2.0 * 32 / 63, 1e-12);
    release(&a);
}
END_TEST

START_TEST(family_matches_the_open_network_model)
{
    check_family_matches_the_open_network_model(_i, 200000);
}
END_TEST

Suite *model_mm1_suite(void)
{
    Suite *s = suite_create("model_mm1");
    TCase *closed = tcase_create("closed-form");
    tcase_add_test(closed, mm1_network_delay_matches_closed_form);
    tcase_add_test(closed, mm1_network_declines_what_it_does_not_model);
    suite_add_tcase(s, closed);
    TCase *tc = tcase_create("simulation");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, family_matches_the_open_network_model, 0, families_count);
    suite_add_tcase(s, tc);
    return s;
}
