/* The store-and-forward network against exact queueing theory on larger cubes and
 * higher loads than tests/unit/test_network.c. */
#include <math.h>

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

Suite *network_suite(void)
{
    Suite *s = suite_create("network");
    TCase *tc = tcase_create("theory");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, validate_larger_cubes_and_loads);
    tcase_add_test(tc, validate_channels_match_the_analytic_load);
    suite_add_tcase(s, tc);
    return s;
}
