#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>

#include "../../sim/core/rng.h"
#include "../common/test.h"

START_TEST(same_coordinates_give_same_sequence)
{
    struct rng a, b;
    rng_seed_stream(&a, 7, RNG_ARRIVAL, 12);
    rng_seed_stream(&b, 7, RNG_ARRIVAL, 12);
    int differ = 0; /* one assertion, not one per draw: each costs a write to Check's pipe */
    for (int i = 0; i < 10000; i++)
        differ += rng_next(&a) != rng_next(&b);
    ck_assert_int_eq(differ, 0);
}
END_TEST

START_TEST(each_coordinate_changes_the_stream)
{
    struct rng base, seed, purpose, index;
    rng_seed_stream(&base, 1, RNG_ARRIVAL, 0);
    rng_seed_stream(&seed, 2, RNG_ARRIVAL, 0);
    rng_seed_stream(&purpose, 1, RNG_DESTINATION, 0);
    rng_seed_stream(&index, 1, RNG_ARRIVAL, 1);
    uint64_t b = rng_next(&base);
    ck_assert_uint_ne(b, rng_next(&seed));
    ck_assert_uint_ne(b, rng_next(&purpose));
    ck_assert_uint_ne(b, rng_next(&index));
}
END_TEST

/* Drawing from one stream must not move another (common random numbers). */
START_TEST(streams_do_not_share_state)
{
    struct rng a, b1, b2;
    rng_seed_stream(&a, 3, RNG_LENGTH, 5);
    rng_seed_stream(&b1, 3, RNG_LENGTH, 6);
    rng_seed_stream(&b2, 3, RNG_LENGTH, 6);
    for (int i = 0; i < 100; i++) {
        rng_next(&a); /* a neighbouring stream drawn from in between */
        ck_assert_uint_eq(rng_next(&b1), rng_next(&b2));
        rng_next(&b2);
        rng_next(&b1);
    }
}
END_TEST

/* Neighbouring streams (the per-node case) are uncorrelated: |r| < 4.5 / sqrt(n). */
START_TEST(neighbouring_streams_are_uncorrelated)
{
    enum { N = 200000 };
    for (uint64_t node = 0; node < 8; node++) {
        struct rng a, b;
        rng_seed_stream(&a, 99, RNG_ARRIVAL, node);
        rng_seed_stream(&b, 99, RNG_ARRIVAL, node + 1);
        double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
        for (int i = 0; i < N; i++) {
            double x = rng_uniform(&a), y = rng_uniform(&b);
            sa += x, sb += y, saa += x * x, sbb += y * y, sab += x * y;
        }
        double cov = sab / N - (sa / N) * (sb / N);
        double r = cov / sqrt((saa / N - (sa / N) * (sa / N)) * (sbb / N - (sb / N) * (sb / N)));
        ck_assert_msg(fabs(r) < 4.5 / sqrt(N), "streams %d,%d: r = %g", (int)node, (int)node + 1, r);
    }
}
END_TEST

START_TEST(uniform_is_uniform_and_open)
{
    enum { N = 1000000, BINS = 100 };
    unsigned counts[BINS] = { 0 };
    struct rng r;
    rng_seed_stream(&r, 5, RNG_TEST, 0);
    int outside = 0;
    for (int i = 0; i < N; i++) {
        double u = rng_uniform(&r);
        if (!(u > 0 && u < 1)) {
            outside++;
            continue;
        }
        counts[(int)(u * BINS)]++;
    }
    ck_assert_int_eq(outside, 0);
    double chi2 = 0, e = (double)N / BINS;
    for (int b = 0; b < BINS; b++)
        chi2 += (counts[b] - e) * (counts[b] - e) / e;
    ck_assert_msg(gsl_cdf_chisq_Q(chi2, BINS - 1) > 1e-4, "chi2 = %g", chi2);
}
END_TEST

START_TEST(below_is_unbiased)
{
    enum { N = 600000, K = 6 };
    unsigned counts[K] = { 0 };
    struct rng r;
    rng_seed_stream(&r, 11, RNG_TEST, 0);
    int outside = 0;
    for (int i = 0; i < N; i++) {
        uint64_t v = rng_below(&r, K);
        if (v >= K) {
            outside++;
            continue;
        }
        counts[v]++;
    }
    ck_assert_int_eq(outside, 0);
    double chi2 = 0, e = (double)N / K;
    for (int b = 0; b < K; b++)
        chi2 += (counts[b] - e) * (counts[b] - e) / e;
    ck_assert_msg(gsl_cdf_chisq_Q(chi2, K - 1) > 1e-4, "chi2 = %g", chi2);
}
END_TEST

/* Mean and variance of the exponential within 5 standard errors. */
START_TEST(exponential_has_the_right_moments)
{
    enum { N = 1000000 };
    struct rng r;
    rng_seed_stream(&r, 13, RNG_TEST, 0);
    double mean = 2.5, s = 0, ss = 0;
    int outside = 0;
    for (int i = 0; i < N; i++) {
        double x = rng_exponential(&r, mean);
        outside += !(x > 0 && isfinite(x));
        s += x;
        ss += x * x;
    }
    ck_assert_int_eq(outside, 0);
    double m = s / N, var = ss / N - m * m;
    ck_assert_double_eq_tol(m, mean, 5 * mean / sqrt(N));
    ck_assert_double_eq_tol(var, mean * mean, 5 * mean * mean * sqrt(8.0 / N));
}
END_TEST

START_TEST(gsl_view_draws_from_the_stream)
{
    struct rng r, copy;
    rng_seed_stream(&r, 17, RNG_TEST, 3);
    copy = r;
    gsl_rng view;
    rng_gsl_view(&r, &view);
    ck_assert_uint_eq(gsl_rng_get(&view), rng_next(&copy) >> 32);
    ck_assert_double_eq(gsl_rng_uniform(&view), (double)(rng_next(&copy) >> 11) * 0x1.0p-53);
    double x = gsl_ran_exponential(&view, 1.0);
    ck_assert(x >= 0);
    rng_next(&copy);
    ck_assert_uint_eq(rng_next(&r), rng_next(&copy)); /* both advanced together */
}
END_TEST

Suite *rng_suite(void)
{
    Suite *s = suite_create("rng");
    TCase *tc = tcase_create("streams");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, same_coordinates_give_same_sequence);
    tcase_add_test(tc, each_coordinate_changes_the_stream);
    tcase_add_test(tc, streams_do_not_share_state);
    tcase_add_test(tc, neighbouring_streams_are_uncorrelated);
    tcase_add_test(tc, uniform_is_uniform_and_open);
    tcase_add_test(tc, below_is_unbiased);
    tcase_add_test(tc, exponential_has_the_right_moments);
    tcase_add_test(tc, gsl_view_draws_from_the_stream);
    suite_add_tcase(s, tc);
    return s;
}
