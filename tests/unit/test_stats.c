#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>

#include "../../sim/core/rng.h"
#include "../../sim/core/seqstats.h"
#include "../../sim/core/stats.h"
#include "../common/test.h"

/* stats_add() finds a value's bin from a logarithm instead of GSL's binary search: the
 * same bin for every value, bin edges and their neighbours included. */
START_TEST(histogram_bins_are_gsl_bins)
{
    struct sample_stats s;
    ck_assert(stats_init(&s, 0, 0));
    gsl_histogram *ref = gsl_histogram_clone(s.hist);
    ck_assert_ptr_nonnull(ref);
    size_t n = s.hist->n;
    struct rng r;
    rng_seed_stream(&r, 7, 0, 0);
    for (int k = 0; k < 200000; k++) { /* log-uniform over the whole range */
        double x = STATS_HIST_MIN * pow(STATS_HIST_MAX / STATS_HIST_MIN, rng_uniform(&r));
        stats_add(&s, 0, x);
        if (x >= ref->range[0] && x < ref->range[n])
            gsl_histogram_increment(ref, x);
        else
            ref->bin[x < ref->range[0] ? 0 : n - 1] += 1;
    }
    for (size_t i = 0; i <= n; i += 7) { /* every seventh edge, and the doubles either side */
        double edge = ref->range[i], xs[3] = { nextafter(edge, 0), edge, nextafter(edge, INFINITY) };
        for (int j = 0; j < 3; j++) {
            stats_add(&s, 0, xs[j]);
            if (xs[j] >= ref->range[0] && xs[j] < ref->range[n])
                gsl_histogram_increment(ref, xs[j]);
            else
                ref->bin[xs[j] < ref->range[0] ? 0 : n - 1] += 1;
        }
    }
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(s.hist->bin[i] == ref->bin[i], "bin %zu: %g against GSL's %g", i, s.hist->bin[i], ref->bin[i]);
    gsl_histogram_free(ref);
    stats_free(&s);
}
END_TEST

START_TEST(known_data_set_moments)
{
    struct sample_stats s;
    ck_assert(stats_init(&s, 8, 2));
    const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
    for (int i = 0; i < 8; i++)
        stats_add(&s, (uint64_t)i, x[i]);
    struct stats_summary sum;
    stats_summarize(&s, &sum);
    ck_assert_uint_eq(sum.count, 8);
    ck_assert_double_eq_tol(sum.mean, 5.0, 1e-12);
    ck_assert_double_eq_tol(sum.variance, 32.0 / 7.0, 1e-12);
    ck_assert_double_eq_tol(sum.stddev, sqrt(32.0 / 7.0), 1e-12);
    ck_assert_double_eq(sum.min, 2);
    ck_assert_double_eq(sum.max, 9);
    stats_free(&s);
}
END_TEST

START_TEST(variance_survives_a_large_offset)
{
    struct sample_stats s;
    ck_assert(stats_init(&s, 4, 2));
    const double x[] = { 4, 7, 13, 16 };
    for (int i = 0; i < 4; i++)
        stats_add(&s, (uint64_t)i, 1e9 + x[i]);
    struct stats_summary sum;
    stats_summarize(&s, &sum);
    ck_assert_double_eq_tol(sum.mean, 1e9 + 10, 1e-6);
    ck_assert_double_eq_tol(sum.variance, 30.0, 1e-6);
    stats_free(&s);
}
END_TEST

/* Quantiles of 1..100000 within the stated relative error. */
START_TEST(quantiles_within_relative_error)
{
    enum { N = 100000 };
    struct sample_stats s;
    ck_assert(stats_init(&s, N, 20));
    for (int i = 1; i <= N; i++)
        stats_add(&s, (uint64_t)i - 1, (double)i);
    const double p[] = { 0.5, 0.9, 0.99, 0.999, 0.00001 };
    for (int k = 0; k < 5; k++) {
        double exact = ceil(p[k] * N);
        double got = stats_quantile(&s, p[k]);
        ck_assert_msg(fabs(got - exact) / exact <= STATS_QUANTILE_REL_ERROR, "p%g: %g vs %g", p[k], got, exact);
    }
    ck_assert_double_eq(stats_quantile(&s, 1.0), N); /* clamped to the exact max */
    stats_free(&s);
}
END_TEST

START_TEST(quantiles_count_zeros_exactly)
{
    struct sample_stats s;
    ck_assert(stats_init(&s, 1000, 10));
    for (int i = 0; i < 1000; i++)
        stats_add(&s, (uint64_t)i, i < 600 ? 0.0 : 3.0);
    ck_assert_double_eq(stats_quantile(&s, 0.5), 0.0);
    ck_assert_double_eq(stats_quantile(&s, 0.6), 0.0);
    ck_assert_double_eq(stats_quantile(&s, 0.61), 3.0);
    ck_assert_double_eq(stats_quantile(&s, 0.9), 3.0);
    stats_free(&s);
}
END_TEST

/* Four batches with means 1, 2, 3, 4: the interval is 2.5 ± t(0.975, 3) sqrt(5/3) / 2. */
START_TEST(batch_means_interval_is_exact_for_known_batches)
{
    struct sample_stats s;
    ck_assert(stats_init(&s, 100, 4));
    for (uint64_t i = 0; i < 100; i++)
        stats_add(&s, i, (double)(i / 25 + 1));
    struct stats_summary sum;
    stats_summarize(&s, &sum);
    double half = gsl_cdf_tdist_Pinv(0.975, 3) * sqrt(5.0 / 3.0) / 2;
    ck_assert_uint_eq(sum.batches_used, 4);
    ck_assert_double_eq_tol(sum.ci95[0], 2.5 - half, 1e-12);
    ck_assert_double_eq_tol(sum.ci95[1], 2.5 + half, 1e-12);
    ck_assert_double_eq_tol(half, 2.05426, 1e-5); /* t = 3.182446 */
    /* deviations -1.5, -0.5, 0.5, 1.5: lag-1 sum 0.75 - 0.25 + 0.75 = 1.25 over 5 */
    ck_assert_double_eq_tol(sum.batch_correlation, 0.25, 1e-12);
    stats_free(&s);
}
END_TEST

START_TEST(incomplete_batches_are_left_out)
{
    struct sample_stats s;
    ck_assert(stats_init(&s, 100, 4));
    for (uint64_t i = 0; i < 60; i++)
        stats_add(&s, i, 1.0);
    struct stats_summary sum;
    stats_summarize(&s, &sum);
    ck_assert_uint_eq(sum.batches_used, 2);
    ck_assert_double_eq_tol(sum.ci95[0], 1.0, 1e-12);
    stats_free(&s);
}
END_TEST

/* For independent normal samples the 95% interval covers the mean in 181..199 of 200
 * fixed replications (binomial(200, 0.95) ± 3 standard deviations). */
START_TEST(batch_means_interval_covers_95_percent)
{
    gsl_rng view;
    struct rng r;
    rng_seed_stream(&r, 2024, RNG_TEST, 0);
    rng_gsl_view(&r, &view);
    int covered = 0;
    double mean_correlation = 0;
    for (int rep = 0; rep < 200; rep++) {
        struct sample_stats s;
        ck_assert(stats_init(&s, 2000, 20));
        for (uint64_t i = 0; i < 2000; i++)
            stats_add(&s, i, 3.0 + gsl_ran_gaussian_ziggurat(&view, 2.0));
        struct stats_summary sum;
        stats_summarize(&s, &sum);
        covered += sum.ci95[0] <= 3.0 && 3.0 <= sum.ci95[1];
        mean_correlation += sum.batch_correlation / 200;
        stats_free(&s);
    }
    ck_assert_msg(covered >= 181 && covered <= 199, "covered %d of 200", covered);
    /* Independent batches: the lag-1 estimate averages about -1/B = -0.05 (its bias), sd 0.22/sqrt(200). */
    ck_assert_msg(fabs(mean_correlation + 0.05) < 0.05, "mean lag-1 correlation %g", mean_correlation);
}
END_TEST
/* MSER-5 on a constructed series: 400 samples at 0 then 1600 alternating 9, 11 (mean
 * 10): the cut is the transient exactly; a stationary series is not cut; a cut never
 * passes half the series. */
START_TEST(mser5_finds_a_constructed_transient)
{
    enum { N = 2000 };
    static double x[N];
    for (int i = 0; i < N; i++)
        x[i] = i < 400 ? 0 : (i % 2 ? 9 : 11);
    ck_assert_uint_eq(seqstats_mser5(x, N), 400);
    for (int i = 0; i < N; i++)
        x[i] = i % 2 ? 9 : 11;
    ck_assert_uint_eq(seqstats_mser5(x, N), 0);
    for (int i = 0; i < N; i++) /* a ramp all the way: the cut stops at half */
        x[i] = i;
    ck_assert_uint_eq(seqstats_mser5(x, N), seqstats_mser_limit(N, 5)); /* not settled */
    ck_assert_uint_eq(seqstats_mser_limit(N, 5), 5 * (N / 5 / 2));
    x[0] = NAN; /* a number without a sample is left out of its batch */
    for (int i = 1; i < N; i++)
        x[i] = i < 100 ? 50 : 10 + (i % 3);
    ck_assert_uint_eq(seqstats_mser5(x, N), 100);
    ck_assert_uint_eq(seqstats_mser(x, N, 20), 100);
}
END_TEST

/* The stopping rule: independent normals (σ = 1, mean 10) give an uncorrelated plan
 * at the largest batch count, whose half-width is t σ / sqrt(n); an AR(1) series with
 * φ = 0.99 in batches of 1 correlates, so the rule takes longer batches; the target is
 * met only below it. */
START_TEST(batch_rule_stops_on_uncorrelated_precise_batches)
{
    enum { N = 64000 };
    static double x[N];
    struct rng g;
    rng_seed_stream(&g, 3, 0, 0);
    for (int i = 0; i < N; i++)
        x[i] = 10 + gsl_cdf_ugaussian_Pinv(rng_uniform(&g));
    struct batch_plan plan;
    ck_assert(seqstats_batches(x, N, 20, 640, 10, &plan));
    ck_assert(plan.uncorrelated);
    ck_assert_uint_eq(plan.batches, 640);
    ck_assert_double_eq_tol(plan.half, 1.96 / sqrt(N), 0.15 * 1.96 / sqrt(N));
    ck_assert(seqstats_met(&plan, 0.002));   /* half-width 0.0077 on 10 */
    ck_assert(!seqstats_met(&plan, 0.0005));
    ck_assert(!seqstats_batches(x, 100, 20, 640, 10, &plan)); /* under 20 batches of 10 */
    double y = 0;
    for (int i = 0; i < N; i++)
        x[i] = y = 0.99 * y + gsl_cdf_ugaussian_Pinv(rng_uniform(&g));
    ck_assert(seqstats_batches(x, N, 20, 640, 10, &plan));
    ck_assert_uint_lt(plan.batches, 640); /* batches of 100 correlate at lag 1 (about 0.5) */
}
END_TEST

/* Quantile intervals by sectioning: for 20 batches of exponential samples the 95%
 * interval of each quantile covers the exact -ln(1 - p) in about 95% of 200 runs. */
START_TEST(quantile_intervals_cover_exponential_quantiles)
{
    static const double p[STATS_QUANTILE_CIS] = { 0.5, 0.9, 0.99 };
    int covered[STATS_QUANTILE_CIS] = { 0 };
    struct rng g;
    rng_seed_stream(&g, 5, 0, 0);
    for (int run = 0; run < 200; run++) {
        struct sample_stats s;
        ck_assert(stats_init(&s, 20000, 20));
        for (uint64_t i = 0; i < 20000; i++)
            stats_add(&s, i, -log(rng_uniform(&g)));
        struct stats_summary sum;
        stats_summarize(&s, &sum);
        for (int q = 0; q < STATS_QUANTILE_CIS; q++) {
            double exact = -log(1 - p[q]);
            covered[q] += sum.quantile_ci95[q][0] <= exact && exact <= sum.quantile_ci95[q][1];
        }
        stats_free(&s);
    }
    for (int q = 0; q < STATS_QUANTILE_CIS; q++)
        ck_assert_msg(covered[q] >= 176 && covered[q] <= 198, "p%g: %d of 200", 100 * p[q], covered[q]);
}
END_TEST


Suite *stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("summaries");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, histogram_bins_are_gsl_bins);
    tcase_add_test(tc, known_data_set_moments);
    tcase_add_test(tc, variance_survives_a_large_offset);
    tcase_add_test(tc, quantiles_within_relative_error);
    tcase_add_test(tc, quantiles_count_zeros_exactly);
    tcase_add_test(tc, batch_means_interval_is_exact_for_known_batches);
    tcase_add_test(tc, incomplete_batches_are_left_out);
    tcase_add_test(tc, batch_means_interval_covers_95_percent);
    tcase_add_test(tc, mser5_finds_a_constructed_transient);
    tcase_add_test(tc, batch_rule_stops_on_uncorrelated_precise_batches);
    tcase_add_test(tc, quantile_intervals_cover_exponential_quantiles);
    suite_add_tcase(s, tc);
    return s;
}
