/* Sequential output analysis on a series of delays in creation order: MSER-5 warm-up
 * deletion and the batch-size rule of precision-driven runs.
 *
 * Promise: pure functions of the series (no state, deterministic).
 * - seqstats_mser5(x, n): the warm-up to delete, in samples (a multiple of 5), by
 *   White's MSER-5 (1997): the series is cut into batch means of 5 consecutive
 *   samples z_0 .. z_{m-1} (a last partial batch is left out), and the cut d
 *   minimises the squared standard error of the rest,
 *   sum_{j>=d} (z_j - mean_d)^2 / (m - d)^2, over d in [0, m/2] (a later cut would
 *   keep too little to judge: a cut at that limit means the run had not settled).  NaN samples
 *   (numbers without a sample, e.g. refused messages) are left out of their batch.
 * - seqstats_batches(x, n, kmin, kmax, out): the batch means interval over k batches
 *   (sample i in batch i*k/n, as sample_stats numbers them): k is the largest of
 *   kmax, kmax/2, ... >= kmin (and <= n / (SEQSTATS_TEST_SPLIT min_size)) such that the
 *   lag-1 correlation of the means of SEQSTATS_TEST_SPLIT * k batches, a quarter as
 *   long, is below the 5% one-sided critical value 1.645/sqrt(SEQSTATS_TEST_SPLIT k) of
 *   uncorrelated means; when none is, k = kmin and `uncorrelated` is false.  Testing
 *   the k interval batches themselves let correlated ones through: on an 8-cube at
 *   rho = 0.8 from empty, 28 of 40 intervals held the exact mean.  The relative
 *   half-width is the 95% Student t half-width over |grand mean|.
 * Needs: GSL (Student t quantile).
 */
#ifndef SIM_SEQSTATS_H
#define SIM_SEQSTATS_H

#include <stdbool.h>
#include <stddef.h>

/* The correlation test is on this many times the interval's batches. */
enum { SEQSTATS_TEST_SPLIT = 4 };

struct batch_plan {
    unsigned batches;     /* k, the batches used */
    double mean, half;    /* grand mean and 95% half-width */
    double relative;      /* half / |mean| (NaN when undefined) */
    double correlation;   /* lag-1 correlation of the SEQSTATS_TEST_SPLIT * k test batch means */
    bool uncorrelated;    /* the correlation test passed */
};

size_t seqstats_mser5(const double *x, size_t n);
/* The same on batch means of w samples (MSER-w). */
size_t seqstats_mser(const double *x, size_t n, size_t w);
/* The largest cut MSER-w searches on n samples (half the batches): a cut there means
 * the series had not settled. */
size_t seqstats_mser_limit(size_t n, size_t w);
/* The test's batches hold at least min_size samples (lag-1 correlation of very short
 * batches hides a long memory); false when n < SEQSTATS_TEST_SPLIT * kmin * min_size (no
 * interval). */
bool seqstats_batches(const double *x, size_t n, unsigned kmin, unsigned kmax, size_t min_size,
                      struct batch_plan *out);
/* The stopping rule: the plan is valid, uncorrelated and its relative half-width at most target. */
bool seqstats_met(const struct batch_plan *plan, double target);

#endif
