/* The saturation verdict from the run's backlog (sim/core/backlog.h): its samples stay
 * equally spaced over any window in fixed memory; a backlog rising at a steady pace is
 * saturated, one filling up and flattening or wandering about a level is not; and a
 * store-and-forward network whose stability no analysis predicts gets the verdict. */
#include <math.h>
#include <string.h>

#include "../../sim/core/backlog.h"
#include "../common/test.h"

static void trace_of(struct backlog_trace *t, uint32_t at_open, uint64_t created, double (*level)(double))
{
    backlog_init(t, at_open);
    for (uint64_t x = 1; x <= created; x++)
        backlog_add(t, x, (uint32_t)lround(level((double)x)));
}

START_TEST(samples_stay_equally_spaced)
{
    static const uint64_t counts[] = { 5, 64, 65, 1000, 123457 };
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        struct backlog_trace t;
        backlog_init(&t, 0);
        for (uint64_t x = 1; x <= counts[c]; x++)
            backlog_add(&t, x, (uint32_t)x);
        ck_assert_uint_le(t.n, BACKLOG_SAMPLES);
        ck_assert_uint_ge(t.n, counts[c] < BACKLOG_SAMPLES ? counts[c] : BACKLOG_SAMPLES / 2);
        for (uint32_t i = 0; i < t.n; i++) {
            ck_assert_uint_eq(t.created[i], t.stride * (i + 1));
            ck_assert_uint_eq(t.level[i], t.created[i]); /* each sample is the level at its creation */
        }
        ck_assert_uint_le(counts[c] - t.created[t.n - 1], t.stride - 1); /* the last one is recent */
    }
}
END_TEST

static double rising(double x) { return 100 + 0.2 * x; }
static double filling(double x) { return 600 * (1 - exp(-x / 2000)); }
static double wandering(double x) { return 600 + 60 * sin(x / 700) + 25 * sin(x / 130); }
static double slow(double x) { return 600 + 0.01 * x; }
/* A steady rise buried in noise: a fixed pseudo-random sequence, uniform on [-300, 300). */
static double noisy(double x)
{
    double u = sin(x * 12.9898) * 43758.5453;
    return 600 + 0.05 * x + 600 * (u - floor(u) - 0.5);
}
static double late(double x) { return x < 20000 ? 600 : 600 + 0.2 * (x - 20000); }

START_TEST(steady_rise_is_saturated)
{
    struct backlog_trace t;
    struct backlog_verdict v;
    trace_of(&t, 100, 50000, rising);
    backlog_judge(&t, 64, &v);
    ck_assert(v.known && v.saturated);
    /* A straight line is fitted exactly (levels rounded to whole messages). */
    ck_assert_double_eq_tol(v.growth, 0.2 * v.created_half, 0.5);
    ck_assert_double_eq_tol(v.middle, rising((double)t.created[0] + v.created_half), 0.5);
    /* The same rise, but by fewer than one message per source: not saturated. */
    backlog_judge(&t, 20000, &v);
    ck_assert(v.known && !v.saturated);
}
END_TEST

START_TEST(filling_up_or_wandering_is_not)
{
    struct backlog_trace t;
    struct backlog_verdict v;
    trace_of(&t, 0, 20000, filling);
    backlog_judge(&t, 64, &v);
    ck_assert(v.known && !v.saturated);
    /* Fill-up seen only early (a window as short as the approach): still rising fast,
     * but slowing down to less than half the first half's rise. */
    trace_of(&t, 0, 3000, filling);
    backlog_judge(&t, 64, &v);
    ck_assert(v.known && !v.saturated);
    ck_assert(v.growth > 64 && v.growth > BACKLOG_GROWTH * v.created_half);
    trace_of(&t, 600, 40000, wandering);
    backlog_judge(&t, 64, &v);
    ck_assert(v.known && !v.saturated);
    /* Each rule alone: a rise by under 2% of the creations (0.01 a message; by more
     * than a message per source, and steady); a rise of 0.05 a message (about 1,000
     * over the half) in noise of about 170 (a tenth of the rise is 100); a rise that
     * starts only halfway (the first half flat). */
    trace_of(&t, 600, 40000, slow);
    backlog_judge(&t, 64, &v);
    ck_assert(v.known && !v.saturated && v.growth > 64 && v.growth < BACKLOG_GROWTH * v.created_half);
    trace_of(&t, 600, 40000, noisy);
    backlog_judge(&t, 64, &v);
    ck_assert_msg(v.known && !v.saturated && v.growth > 800 && v.spread > 130, "growth %g spread %g", v.growth,
                  v.spread);
    trace_of(&t, 600, 40000, late);
    backlog_judge(&t, 64, &v);
    ck_assert(v.known && !v.saturated && v.growth > 3000 && v.spread < 1);
    /* Too few samples to judge. */
    trace_of(&t, 0, 10, rising);
    backlog_judge(&t, 1, &v);
    ck_assert(!v.known && !v.saturated);
}
END_TEST

/* Store-and-forward adaptive routing: no channel loads, so no predicted stability. */
static void adaptive_run(const char *rate, struct run_report *r)
{
    const char *settings[] = { "routing.algorithm=adaptive-minimal", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    struct cfg_error err;
    ck_assert(cfg_set(&cfg, "workload", "rate", rate, "override", 1, &err));
    ck_assert(cfg_set(&cfg, "run", "messages", "20000", "override", 1, &err));
    ck_assert(cfg_set(&cfg, "run", "warmup_messages", "2000", "override", 1, &err));
    ck_assert(test_run(&cfg, r) == KERNEL_DONE);
}

START_TEST(unpredicted_network_judged_by_its_backlog)
{
    struct run_report r;
    adaptive_run("3.0", &r); /* dimension order saturates at 1.97 on this 6-cube */
    ck_assert(!r.stability.known && r.stability.saturated);
    ck_assert_msg(strstr(r.stability.why, "backlog grew") != NULL, "%s", r.stability.why);
    ck_assert(r.backlog_end > r.backlog_start + 5000);
    adaptive_run("1.2", &r);
    ck_assert(!r.stability.known && !r.stability.saturated);
    ck_assert_msg(strstr(r.stability.why, "not computed") != NULL, "%s", r.stability.why);
}
END_TEST

Suite *backlog_suite(void)
{
    Suite *s = suite_create("backlog");
    TCase *tc = tcase_create("verdict");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, samples_stay_equally_spaced);
    tcase_add_test(tc, steady_rise_is_saturated);
    tcase_add_test(tc, filling_up_or_wandering_is_not);
    tcase_add_test(tc, unpredicted_network_judged_by_its_backlog);
    suite_add_tcase(s, tc);
    return s;
}
