/* The store-and-forward network against exact queueing theory on larger cubes and
 * higher loads than tests/unit/test_network.c. */
#include <math.h>
#include <stdio.h>

#include "../common/checks.h"
#include "../common/test.h"

/* Longer runs, larger cubes, higher loads. */
START_TEST(validate_larger_cubes_and_loads)
{
    /* ρ = 0.8: an M/M/1 queue relaxes in about 1/(μ(1-√ρ)^2) = 90 time units, so batches
     * must be much longer than that: 10 batches of 300,000 messages = 730 time units each. */
    const char *jackson[] = { "network.dimension=8", "workload.rate=1.6", "run.redraw_length_per_hop=true",
                              "run.warmup_messages=200000", "run.messages=3000000", "run.batches=10", NULL };
    /* λc = 1.6·128/255, h = 8·128/255 */
    double lc = 1.6 * 128 / 255, h = 8.0 * 128 / 255;
    int covered = test_coverage(jackson, 20, h / (1 - lc));
    ck_assert_msg(covered >= 17, "8-cube Jackson: %d of 20", covered);
    const char *ten[] = { "network.dimension=10", "workload.rate=1.2", "run.messages=2000000", NULL };
    struct config cfg;
    test_config(&cfg, ten);
    struct run_report r;
    test_run(&cfg, &r);
    double diff = (r.delay.mean - r.model.delay_mean) / r.model.delay_mean;
    ck_assert_msg(fabs(diff) < 0.03, "10-cube: %+.2f%%", 100 * diff);
}
END_TEST

/* sim --channels on a 6-cube (384 channels) under uniform traffic at the default load:
 * every channel within its interval over 10 seeds of the analytic load, and 90% of
 * the channels' 95% intervals covering it (issue 19). */
START_TEST(validate_channels_match_the_analytic_load)
{
    check_channel_loads(6, 10, 400000, 0.90);
}
END_TEST

/* How many of the outcomes' 95% intervals (mean: q < 0; p50, p90, p99: q = 0, 1, 2)
 * hold `exact` (misses are printed). */
static int covering(const struct test_outcome *o, int runs, int q, double exact, const char *what)
{
    int in = 0;
    for (int i = 0; i < runs; i++) {
        const double *ci = q < 0 ? o[i].delay.ci95 : o[i].delay.quantile_ci95[q];
        if (ci[0] <= exact && exact <= ci[1])
            in++;
        else
            fprintf(stderr, "  %s, seed %d: [%.5f, %.5f] misses %.5f\n", what, o[i].seed, ci[0], ci[1], exact);
    }
    return in;
}

/* run.precision = 0.02, 100 independent runs each: every run meets the target (its
 * interval's relative half-width at most 0.02, batches uncorrelated by the rule) and at
 * least 90 intervals hold the exact mean.  M/M/1: 1/(μ - λ) = 2 at λ = 0.5; the 4-cube
 * Jackson network of tests/unit/test_network.c at λc = 0.5: 64/15. */
static void check_precision_runs(const char *const *set, double exact, const char *what)
{
    enum { RUNS = 100 };
    struct test_outcome o[RUNS];
    test_outcomes(set, RUNS, 2, o);
    double most = 0;
    for (int i = 0; i < RUNS; i++) {
        ck_assert_int_eq(o[i].stop, KERNEL_DONE);
        ck_assert_msg(o[i].precision_met == 1, "%s, seed %d: target not met (%.4f)", what, o[i].seed,
                      o[i].precision_reached);
        ck_assert(o[i].precision_reached <= 0.02);
        most = o[i].delay.count > most ? (double)o[i].delay.count : most;
    }
    int in = covering(o, RUNS, -1, exact, what);
    fprintf(stderr, "  %s: exact mean inside %d of %d; at most %.0f messages\n", what, in, RUNS, most);
    ck_assert_msg(in >= 90, "%s: exact mean inside %d of %d", what, in, RUNS);
}

START_TEST(validate_precision_runs_cover_the_exact_mean)
{
    const char *mm1[] = { "network.dimension=1", "workload.rate=0.5", "run.precision=0.02", "run.messages=4000000",
                          NULL };
    check_precision_runs(mm1, 2.0, "M/M/1");
    const char *jackson[] = { "network.dimension=4", "workload.rate=0.9375", "run.redraw_length_per_hop=true",
                              "run.warmup_messages=5000", "run.precision=0.02", "run.messages=4000000", NULL };
    check_precision_runs(jackson, 64.0 / 15.0, "4-cube Jackson");
}
END_TEST

/* Sectioning: the p50, p90 and p99 intervals of 100 M/M/1 runs (λ = 0.5, μ = 1) hold
 * the exact -ln(1 - p)/(μ - λ) at their nominal 95%, within 5 points: 90 to 100 times. */
START_TEST(validate_quantile_intervals_cover_at_their_nominal_rate)
{
    enum { RUNS = 100 };
    const char *set[] = { "network.dimension=1", "workload.rate=0.5", "run.warmup_messages=2000",
                          "run.messages=200000", "run.batches=20", NULL };
    struct test_outcome o[RUNS];
    test_outcomes(set, RUNS, 2, o);
    static const double p[] = { 0.50, 0.90, 0.99 };
    for (int q = 0; q < 3; q++) {
        char what[16];
        snprintf(what, sizeof what, "p%g", 100 * p[q]);
        int in = covering(o, RUNS, q, -log(1 - p[q]) / 0.5, what);
        fprintf(stderr, "  %s: exact inside %d of %d\n", what, in, RUNS);
        ck_assert_msg(in >= 90 && in <= 100, "%s: exact inside %d of %d", what, in, RUNS);
    }
}
END_TEST

/* run.warmup = auto: an 8-cube started empty at ρ = 0.8 (λ = 1.6, lengths re-drawn per
 * hop: Jackson, T = h / (1 - λc)), its warm-up cut by MSER, holds the exact mean in its
 * interval in at least 18 of 20 runs.  The batches are long enough to be nearly
 * uncorrelated: 10 of about 290,000 messages (700 time units; the queues relax in about
 * 90); the default 20 batches over 200,000 messages have a lag-1 correlation near 0.5. */
START_TEST(validate_auto_warmup_from_empty_covers_jackson)
{
    enum { RUNS = 20 };
    const char *set[] = { "network.dimension=8", "workload.rate=1.6", "run.redraw_length_per_hop=true",
                          "run.warmup=auto", "run.messages=3000000", "run.batches=10", NULL };
    double lc = 1.6 * 128 / 255, h = 8.0 * 128 / 255;
    struct test_outcome o[RUNS];
    test_outcomes(set, RUNS, 2, o);
    double cut = 0, lag = 0;
    for (int i = 0; i < RUNS; i++) {
        ck_assert_int_eq(o[i].stop, KERNEL_DONE);
        ck_assert(o[i].warmup_messages > 0 && o[i].warmup_messages <= 1000000);
        cut += o[i].warmup_messages / RUNS;
        lag += o[i].delay.batch_correlation / RUNS;
    }
    int in = covering(o, RUNS, -1, h / (1 - lc), "8-cube from empty");
    fprintf(stderr, "  8-cube from empty: inside %d of %d; mean cut %.0f messages; mean lag-1 %.2f\n", in, RUNS,
            cut, lag);
    ck_assert_msg(in >= 18, "8-cube from empty: inside %d of %d", in, RUNS);
}
END_TEST

Suite *network_suite(void)
{
    Suite *s = suite_create("network");
    TCase *tc = tcase_create("theory");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, validate_larger_cubes_and_loads);
    tcase_add_test(tc, validate_channels_match_the_analytic_load);
    suite_add_tcase(s, tc);
    /* run.precision, run.warmup = auto and the quantile intervals (CK_RUN_CASE=sequential). */
    TCase *seq = tcase_create("sequential");
    tcase_set_timeout(seq, 1200);
    tcase_add_test(seq, validate_precision_runs_cover_the_exact_mean);
    tcase_add_test(seq, validate_quantile_intervals_cover_at_their_nominal_rate);
    tcase_add_test(seq, validate_auto_warmup_from_empty_covers_jackson);
    suite_add_tcase(s, seq);
    return s;
}
