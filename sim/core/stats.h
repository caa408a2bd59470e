/* Sample statistics for one measured quantity (message delay, by default).
 *
 * Promise: exact running mean and variance (Welford), exact min and max, quantiles
 * from a log-bucketed histogram whose relative error is at most STATS_QUANTILE_REL_ERROR
 * for values in [STATS_HIST_MIN, STATS_HIST_MAX] (zeros are counted exactly), and a 95%
 * confidence interval of the mean by the method of batch means: sample number i of
 * `expected` goes to batch i * batches / expected, so batches are contiguous in the
 * order the caller numbers samples (creation order, for messages), or, after
 * stats_close_batches(), sample i goes to batch i (slices of time: expected = batches).  Each batch also
 * keeps its own histogram (the same bins), so the p50, p90 and p99 get 95% intervals by
 * sectioning: the whole sample's quantile, plus or minus the Student t half-width of
 * the quantiles of the complete batches merged in order into at most STATS_SECTIONS (Asmussen and Glynn, Stochastic Simulation,
 * IV.5).  That costs 4 bytes per bin per batch (about 19 KB a batch); when a batch
 * could outgrow 32-bit counts (expected / batches > 2^32 - 1) the quantile intervals
 * are NaN.
 * Needs: GSL (histogram, Student t quantile).
 */
#ifndef SIM_STATS_H
#define SIM_STATS_H

#include <gsl/gsl_histogram.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#define STATS_HIST_MIN 1e-9
#define STATS_HIST_MAX 1e12
#define STATS_HIST_RATIO 1.01 /* bin width ratio: relative error sqrt(1.01)-1 < 0.5% */
#define STATS_QUANTILE_REL_ERROR 0.005

struct sample_stats {
    uint64_t count;
    double mean, m2; /* Welford accumulators */
    double min, max;
    uint64_t zeros;  /* exact zeros (self-addressed messages): kept out of the log bins */
    gsl_histogram *hist;
    uint64_t expected; /* samples the run will number 0..expected-1 */
    unsigned batches;
    double *batch_sum;
    uint64_t *batch_count;
    uint64_t *batch_skipped; /* numbers that will never have a sample (refused messages) */
    uint32_t *batch_bins;    /* batches x hist->n counts; NULL: no quantile intervals */
    uint32_t *batch_zeros;
    /* Slices (stats_close_batches): batches are spans of time, not of numbered samples,
     * so no count says one is complete; the caller says how many leading ones are. */
    bool sliced;
    unsigned closed;
};

enum { STATS_QUANTILE_CIS = 3, /* p50, p90, p99 */
       STATS_SECTIONS = 20 /* at most this many sections for the quantile intervals */ };

struct stats_summary {
    uint64_t count;
    double mean, variance, stddev, min, max;
    double p50, p90, p99, p999;
    double ci95[2];     /* NaN when fewer than two complete batches */
    unsigned batches_used;
    /* Lag-1 autocorrelation of consecutive batch means: near 0 when batches are long
     * enough to be independent; large values mean the interval is too narrow. */
    double batch_correlation;
    /* 95% intervals of p50, p90, p99 (sectioning over the same complete batches as
     * ci95); NaN when fewer than two. */
    double quantile_ci95[STATS_QUANTILE_CIS][2];
};

/* Running mean and variance only (Welford), for secondary figures. */
struct moments {
    uint64_t count;
    double mean, m2;
};

static inline void moments_add(struct moments *m, double x)
{
    m->count++;
    double d = x - m->mean;
    m->mean += d / (double)m->count;
    m->m2 += d * (x - m->mean);
}

/* Sample variance (n - 1); NaN below two samples. */
static inline double moments_variance(const struct moments *m)
{
    return m->count > 1 ? m->m2 / (double)(m->count - 1) : (double)NAN;
}

/* The first number of batch b of k over n numbers (number i is in batch i * k / n):
 * ceil(b * n / k). */
static inline uint64_t stats_batch_start(uint64_t b, uint64_t n, unsigned k)
{
    return (uint64_t)(((__uint128_t)b * n + k - 1) / k);
}

bool stats_init(struct sample_stats *s, uint64_t expected, unsigned batches);
void stats_free(struct sample_stats *s);
/* index: the sample's number in 0..expected-1 (decides its batch). */
void stats_add(struct sample_stats *s, uint64_t index, double x);
/* Number `index` will have no sample (e.g. a message refused at its source): its
 * batch is complete without it. */
void stats_skip(struct sample_stats *s, uint64_t index);
/* Batches as slices of time (index = the slice): the first `closed` hold every sample
 * they will ever hold, whatever their counts; the rest are left out of the intervals
 * (an interrupted run's unfinished slices).  Without this call a batch is complete when
 * every number in it has a sample or was skipped. */
void stats_close_batches(struct sample_stats *s, unsigned closed);
double stats_quantile(const struct sample_stats *s, double p);
void stats_summarize(const struct sample_stats *s, struct stats_summary *out);

#endif
