/* The first network against exact queueing theory. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../common/test.h"

/* A 1-cube is one M/M/1 queue per direction: mean delay 1/(μ-λ) = 2 at λ = 0.5, μ = 1. */
START_TEST(one_cube_is_mm1_exactly)
{
    const char *set[] = { "network.dimension=1", "workload.rate=0.5", "run.warmup_messages=2000",
                          "run.messages=100000", "run.batches=20", NULL };
    int covered = test_coverage(set, 20, 2.0);
    ck_assert_msg(covered >= 17, "exact mean inside the CI for %d of 20 seeds", covered);
}
END_TEST

/* Time mode (run.duration): the batches are equal slices of the window, each complete
 * when the window closes, so the interval exists and covers the exact 2. */
START_TEST(one_cube_in_time_mode_has_its_interval)
{
    const char *set[] = { "network.dimension=1", "workload.rate=0.5", "run.warmup_time=100",
                          "run.duration=20000", "run.batches=20", NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct run_report r;
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert_uint_eq(r.delay.batches_used, 20);
    ck_assert(r.delay.ci95[0] < r.delay.mean && r.delay.mean < r.delay.ci95[1]);
    for (int q = 0; q < STATS_QUANTILE_CIS; q++)
        ck_assert(r.delay.quantile_ci95[q][0] < r.delay.quantile_ci95[q][1]);
    int covered = test_coverage(set, 10, 2.0);
    ck_assert_msg(covered >= 8, "exact mean inside the CI for %d of 10 seeds", covered);
}
END_TEST

/* Per-hop re-draw makes the n-cube a product-form network: T = h / (μ - λc).
 * 4-cube at λ = 0.9375: λc = 0.5, h = 32/15, T = 64/15. */
START_TEST(ncube_with_redraw_is_jackson_exactly)
{
    const char *set[] = { "network.dimension=4", "workload.rate=0.9375", "run.redraw_length_per_hop=true",
                          "run.warmup_messages=5000", "run.messages=100000", NULL };
    int covered = test_coverage(set, 20, 64.0 / 15.0);
    ck_assert_msg(covered >= 17, "exact mean inside the CI for %d of 20 seeds", covered);
}
END_TEST

/* run.precision = 0.02 on M/M/1: every run meets the target with the precision it
 * reports, and the exact mean 2 and quantiles -ln(1 - p)/(μ - λ) are inside their
 * intervals for most of 10 seeds (100 seeds in make validate). */
START_TEST(precision_runs_reach_their_target_and_cover)
{
    const char *set[] = { "network.dimension=1", "workload.rate=0.5", "run.precision=0.02",
                          "run.messages=2000000", NULL };
    int covered = 0, quantiles = 0;
    for (int seed = 1; seed <= 10; seed++) {
        struct config cfg;
        test_config(&cfg, set);
        cfg.run.seed = (uint64_t)seed;
        struct run_report r;
        ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
        ck_assert_int_eq(r.precision_met, 1);
        ck_assert(r.precision_reached <= 0.02);
        ck_assert_double_eq_tol(r.precision_reached, (r.delay.ci95[1] - r.delay.ci95[0]) / 2 / r.delay.mean, 1e-12);
        ck_assert(r.precision_batches >= 20);
        ck_assert(r.delay.count < 2000000); /* it stopped early */
        covered += r.delay.ci95[0] <= 2 && 2 <= r.delay.ci95[1];
        for (int q = 0; q < 3; q++) {
            double exact = -log(1 - (double[]){ 0.5, 0.9, 0.99 }[q]) / 0.5;
            quantiles += r.delay.quantile_ci95[q][0] <= exact && exact <= r.delay.quantile_ci95[q][1];
        }
    }
    ck_assert_msg(covered >= 8, "exact mean inside %d of 10", covered);
    ck_assert_msg(quantiles >= 25, "exact quantiles inside %d of 30", quantiles);
    /* same config and seed: the same stop, byte for byte */
    struct config cfg;
    test_config(&cfg, set);
    struct run_report a, b;
    test_run(&cfg, &a);
    test_run(&cfg, &b);
    ck_assert_uint_eq(a.delay.count, b.delay.count);
    ck_assert(a.delay.mean == b.delay.mean);
}
END_TEST

/* run.warmup = auto from an empty 4-cube with per-hop re-draw (λc = 0.8): MSER's cut
 * is reported, the statistics count only the retained messages, and the exact
 * T = h / (μ - λc) = (32/15) / 0.2 is inside the interval for most seeds. */
START_TEST(auto_warmup_removes_the_empty_start)
{
    const char *set[] = { "network.dimension=4", "workload.rate=1.5", "run.redraw_length_per_hop=true",
                          "run.warmup=auto", "run.messages=200000", NULL };
    int covered = test_coverage(set, 10, 32.0 / 15.0 / 0.2);
    ck_assert_msg(covered >= 8, "exact mean inside the CI for %d of 10 seeds", covered);
    struct config cfg;
    test_config(&cfg, set);
    struct run_report r;
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert(r.warmup_messages > 0 && r.warmup_messages <= 100000);
    ck_assert_uint_eq(r.delay.count, 200000 - (uint64_t)r.warmup_messages);
    ck_assert(!r.warmup_unsettled);
    /* A 10-cube at the same load over as many messages is still filling up: MSER cuts the
     * most it may, half, and the report says the run had not settled. */
    const char *short_run[] = { "network.dimension=10", "workload.rate=1.6", "run.redraw_length_per_hop=true",
                                "run.warmup=auto", "run.messages=200000", NULL };
    test_config(&cfg, short_run);
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert_double_eq(r.warmup_messages, 100000);
    ck_assert(r.warmup_unsettled);
}
END_TEST

/* Lengths kept along the path: Kleinrock's approximation within 3% (default config). */
START_TEST(ncube_without_redraw_within_3_percent_of_kleinrock)
{
    const char *set[] = { "network.dimension=6", "workload.rate=1.2", NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct run_report r;
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert_str_eq(r.model.model, "mm1-network");
    double diff = (r.delay.mean - r.model.delay_mean) / r.model.delay_mean;
    ck_assert_msg(fabs(diff) < 0.03, "simulated %.5f vs model %.5f (%+.2f%%)", r.delay.mean, r.model.delay_mean,
                  100 * diff);
    /* Conservation: throughput equals the offered rate, channel utilisation λc x̄ = 0.6095. */
    ck_assert_double_eq_tol(r.throughput, 1.2, 0.02 * 1.2);
    ck_assert_double_eq_tol(r.utilization_mean, 1.2 * 32 / 63, 0.01);
    ck_assert_double_eq_tol(r.hops_mean, 6.0 * 32 / 63, 0.01);
    for (unsigned c = 0; c < r.classes; c++)
        ck_assert_double_eq_tol(r.cls[c].utilization_mean, r.cls[c].analytic_utilization, 0.015);
    ck_assert(r.delay.min > 0 && r.delay.min <= r.delay.p50 && r.delay.p50 <= r.delay.p90 &&
              r.delay.p90 <= r.delay.p99 && r.delay.p99 <= r.delay.p999 && r.delay.p999 <= r.delay.max);
}
END_TEST

/* M/M/1 sojourn is exponential with rate μ-λ: its quantiles are -ln(1-p)/(μ-λ). */
START_TEST(one_cube_delay_quantiles_are_exponential)
{
    const char *set[] = { "network.dimension=1", "workload.rate=0.5", "run.messages=400000", NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct run_report r;
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert_double_eq_tol(r.delay.p50, 2 * log(2.0), 0.03 * 2 * log(2.0));
    ck_assert_double_eq_tol(r.delay.p90, 2 * log(10.0), 0.03 * 2 * log(10.0));
    ck_assert_double_eq_tol(r.delay.p99, 2 * log(100.0), 0.05 * 2 * log(100.0));
    ck_assert_double_eq_tol(r.delay.variance, 4.0, 0.05 * 4.0); /* variance 1/(μ-λ)^2 */
    ck_assert_double_eq_tol(r.utilization_mean, 0.5, 0.01);
}
END_TEST

/* A run is a value: two in one process, same config, same numbers. */
START_TEST(runs_in_one_process_are_identical)
{
    const char *set[] = { "network.dimension=5", "workload.rate=1.0", "run.messages=30000", NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct run_report a, b;
    test_run(&cfg, &a);
    test_run(&cfg, &b);
    ck_assert_double_eq(a.delay.mean, b.delay.mean);
    ck_assert_double_eq(a.delay.variance, b.delay.variance);
    ck_assert_double_eq(a.delay.max, b.delay.max);
    ck_assert_double_eq(a.utilization_max, b.utilization_max);
    ck_assert_uint_eq(a.events, b.events);
}
END_TEST

/* Common random numbers: re-drawing lengths per hop draws from its own streams, so the
 * arrival streams are untouched and message number 5000 (which opens the measurement
 * window) is created at exactly the same instant with and without re-drawing. */
START_TEST(arrival_streams_do_not_depend_on_other_modules)
{
    const char *keep[] = { "network.dimension=4", "workload.rate=0.5", "run.warmup_messages=5000",
                           "run.messages=1", NULL };
    const char *redraw[] = { "network.dimension=4", "workload.rate=0.5", "run.warmup_messages=5000",
                             "run.messages=1", "run.redraw_length_per_hop=true", NULL };
    struct config c1, c2;
    test_config(&c1, keep);
    test_config(&c2, redraw);
    struct run_report a, b;
    test_run(&c1, &a);
    test_run(&c2, &b);
    /* The measured window opens when message number 5000 is created: the same instant. */
    ck_assert_double_eq(a.simulated_time - a.window, b.simulated_time - b.window);
}
END_TEST

/* Networks too large to simulate are refused from their size, one line, exit 2: the
 * channel count a run can number, and the memory the machine (or the process's
 * address-space limit) has.  The figures: 205 bytes a node, 39 a channel. */
START_TEST(too_large_networks_are_refused_from_their_size)
{
    char out[4096], err[4096];
    const char *channels[] = { test_binary(), "-s", "network.topology=torus", "-s", "network.radix=32768", "-s",
                               "network.dimension=2", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(channels, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "command line (-s): network.dimension: a 32768-ary 2-cube has 4294967296 channels: too many "
                          "(at most 4e9 channels)\n");
    /* A ring of 2^30 nodes: about 186 GiB, more than any machine this runs on has
     * (checked: on a larger one the case is skipped). */
    double need = 150.0 * (1u << 30) + 18.0 * 2 * (1u << 30);
    double have = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if (have < need) {
        const char *ring[] = { test_binary(), "-s", "network.topology=torus", "-s", "network.radix=1073741824", "-s",
                               "network.dimension=1", "configs/default.ini", NULL };
        ck_assert_int_eq(test_exec(ring, out, sizeof out, err, sizeof err), 2);
        ck_assert_str_eq(out, "");
        const char *expect = "command line (-s): network.radix: 1073741824 nodes and 2147483648 channels need about "
                             "186.0 GiB to simulate; ";
        ck_assert_msg(strncmp(err, expect, strlen(expect)) == 0 && strchr(err, '\n') == err + strlen(err) - 1, "%s",
                      err);
    }
    /* Under an address-space limit (not for the sanitised binary, whose shadow memory
     * needs the whole address space): a 2^24-node ring needs about 2.9 GiB. */
    if (!strstr(test_binary(), "san")) {
        char command[512];
        snprintf(command, sizeof command,
                 "ulimit -v 2097152 && exec %s -s network.topology=torus -s network.radix=16777216 -s "
                 "network.dimension=1 configs/default.ini",
                 test_binary());
        const char *limited[] = { "/bin/sh", "-c", command, NULL };
        ck_assert_int_eq(test_exec(limited, out, sizeof out, err, sizeof err), 2);
        ck_assert_str_eq(err, "command line (-s): network.radix: 16777216 nodes and 33554432 channels need about "
                              "2.9 GiB to simulate; 2.0 GiB available\n");
    }
}
END_TEST

Suite *network_suite(void)
{
    Suite *s = suite_create("network");
    TCase *tc = tcase_create("theory");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, one_cube_is_mm1_exactly);
    tcase_add_test(tc, one_cube_in_time_mode_has_its_interval);
    tcase_add_test(tc, ncube_with_redraw_is_jackson_exactly);
    tcase_add_test(tc, precision_runs_reach_their_target_and_cover);
    tcase_add_test(tc, auto_warmup_removes_the_empty_start);
    tcase_add_test(tc, ncube_without_redraw_within_3_percent_of_kleinrock);
    tcase_add_test(tc, one_cube_delay_quantiles_are_exponential);
    tcase_add_test(tc, runs_in_one_process_are_identical);
    tcase_add_test(tc, arrival_streams_do_not_depend_on_other_modules);
    tcase_add_test(tc, too_large_networks_are_refused_from_their_size);
    suite_add_tcase(s, tc);
    return s;
}
