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

/* What the model relies on of the order, and what it does not.  Theory: at a channel
 * that never idles while a message waits and never interrupts one, with exponential
 * service times that the choice of the next message does not look at, the number of
 * messages present moves exactly as under FIFO: a departure comes at rate μ whenever
 * the channel is busy, whichever message it serves.  So the mean number, and by
 * Little's law the mean delay, are M/M/1's for every such work-conserving,
 * non-preemptive, length-blind order (Kleinrock, Queueing Systems vol. 1, §3.4 and
 * the conservation law of vol. 2 §3.4); shortest-first and longest-first look at the
 * lengths and change them (Conway's formula).  Oldest-first looks at creation times
 * only, which ignore a length drawn afresh at each hop (run.redraw_length_per_hop),
 * but not a kept one: a message that is longer spent longer on its earlier hops, so
 * it is older where it waits (with kept lengths at rate 1.6 it raises the mean 3%
 * over FIFO's; with fresh ones it stays within 0.5%).  Between channels the formula
 * stays Kleinrock's independence approximation: the whole network is product-form
 * (BCMP) only in FIFO order, so only FIFO is called exact. */
START_TEST(mm1_network_applies_to_length_blind_orders)
{
    const char *fifo[] = { "network.dimension=6", "workload.rate=1.2", "run.redraw_length_per_hop=true",
                           "run.messages=200000", NULL };
    const char *oldest[] = { "network.dimension=6", "workload.rate=1.2", "run.redraw_length_per_hop=true",
                             "run.messages=200000", "protocol.priority=oldest-first", NULL };
    struct analysed a;
    analyse(&a, fifo);
    ck_assert_str_eq(a.model.model, "mm1-network");
    ck_assert(a.model.exact);
    double fifo_mean = a.model.delay_mean;
    release(&a);
    analyse(&a, oldest);
    ck_assert_str_eq(a.model.model, "mm1-network");
    ck_assert(!a.model.exact);
    ck_assert_double_eq(a.model.delay_mean, fifo_mean);
    ck_assert_msg(strstr(a.model.why, "length-blind"), "%s", a.model.why);
    /* and the simulation agrees (fixed seed: 7.848, interval 7.729..7.967, model 7.805) */
    struct run_report r;
    test_run(&a.cfg, &r);
    ck_assert_msg(r.delay.ci95[0] <= fifo_mean && fifo_mean <= r.delay.ci95[1], "oldest-first %.4f [%.4f, %.4f]",
                  r.delay.mean, r.delay.ci95[0], r.delay.ci95[1]);
    release(&a);

    /* Orders that read the lengths are refused, and so is oldest-first with kept lengths. */
    const char *refused[][6] = {
        { "network.dimension=6", "workload.rate=1.2", "run.redraw_length_per_hop=true",
          "protocol.priority=shortest-first", "run.messages=200000", NULL },
        { "network.dimension=6", "workload.rate=1.2", "run.redraw_length_per_hop=true",
          "protocol.priority=longest-first", "run.messages=200000", NULL },
        { "network.dimension=6", "workload.rate=1.2", "protocol.priority=oldest-first", NULL },
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        analyse(&a, refused[i]);
        ck_assert_msg(!a.model.model, "case %zu applied", i);
        ck_assert_msg(strstr(a.model.why, "mm1-network needs first-come-first-served queues"), "%s", a.model.why);
        if (i < 2) { /* rightly: the simulated mean is far from the M/M/1 one (6.05 and 11.4) */
            struct run_report rr;
            test_run(&a.cfg, &rr);
            ck_assert_msg(fabs(rr.delay.mean - fifo_mean) > 0.2 * fifo_mean, "case %zu: %.4f", i, rr.delay.mean);
        }
        release(&a);
    }
    /* A channel that may idle with messages waiting (slots) is not M/M/1 at all. */
    const char *tdm[] = { "network.dimension=6", "workload.rate=0.5", "protocol.link=tdm", NULL };
    analyse(&a, tdm);
    ck_assert_msg(strstr(a.model.why, "mm1-network needs FIFO channels"), "%s", a.model.why);
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
    tcase_add_test(closed, mm1_network_applies_to_length_blind_orders);
    suite_add_tcase(s, closed);
    TCase *tc = tcase_create("simulation");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, family_matches_the_open_network_model, 0, families_count);
    suite_add_tcase(s, tc);
    return s;
}
