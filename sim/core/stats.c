#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool stats_init(struct sample_stats *s, uint64_t expected, unsigned batches)
{
    *s = (struct sample_stats){ .min = INFINITY, .max = -INFINITY, .expected = expected, .batches = batches };
    size_t bins = (size_t)ceil(log(STATS_HIST_MAX / STATS_HIST_MIN) / log(STATS_HIST_RATIO));
    double *ranges = malloc((bins + 1) * sizeof *ranges);
    s->hist = gsl_histogram_alloc(bins);
    s->batch_sum = calloc(batches ? batches : 1, sizeof *s->batch_sum);
    s->batch_count = calloc(batches ? batches : 1, sizeof *s->batch_count);
    s->batch_skipped = calloc(batches ? batches : 1, sizeof *s->batch_skipped);
    bool per_batch = batches && expected / batches < UINT32_MAX;
    if (per_batch) {
        s->batch_bins = calloc((size_t)batches * bins, sizeof *s->batch_bins);
        s->batch_zeros = calloc(batches, sizeof *s->batch_zeros);
    }
    if ((per_batch && (!s->batch_bins || !s->batch_zeros)) || !ranges || !s->hist || !s->batch_sum || !s->batch_count || !s->batch_skipped) {
        free(ranges);
        stats_free(s);
        return false;
    }
    for (size_t i = 0; i <= bins; i++)
        ranges[i] = STATS_HIST_MIN * pow(STATS_HIST_RATIO, (double)i);
    gsl_histogram_set_ranges(s->hist, ranges, bins + 1);
    free(ranges);
    return true;
}

void stats_free(struct sample_stats *s)
{
    if (s->hist)
        gsl_histogram_free(s->hist);
    free(s->batch_sum);
    free(s->batch_count);
    free(s->batch_skipped);
    free(s->batch_bins);
    free(s->batch_zeros);
    s->batch_bins = s->batch_zeros = NULL;
    s->batch_skipped = NULL;
    s->hist = NULL;
    s->batch_sum = NULL;
    s->batch_count = NULL;
}

/* The bin gsl_histogram_increment() would find (range[i] <= x < range[i + 1], for x
 * inside the ranges), without its binary search: the ranges are geometric, so a
 * logarithm lands on it or next to it, and the exact ranges settle the rest. */
static size_t bin_of(const gsl_histogram *h, size_t last, double x)
{
    double guess = log(x / STATS_HIST_MIN) / log(STATS_HIST_RATIO);
    size_t i = guess <= 0 ? 0 : guess >= (double)last ? last : (size_t)guess;
    while (i > 0 && x < h->range[i])
        i--;
    while (i < last && x >= h->range[i + 1])
        i++;
    return i;
}

void stats_add(struct sample_stats *s, uint64_t index, double x)
{
    s->count++;
    double d = x - s->mean;
    s->mean += d / (double)s->count;
    s->m2 += d * (x - s->mean);
    if (x < s->min)
        s->min = x;
    if (x > s->max)
        s->max = x;
    size_t bin = SIZE_MAX; /* SIZE_MAX: an exact zero */
    if (x <= 0) {
        s->zeros++;
    } else {
        /* Out-of-range values go to the end bins; min and max stay exact. */
        size_t last = s->hist->n - 1;
        if (x < s->hist->range[0])
            bin = 0;
        else if (x >= s->hist->range[last + 1])
            bin = last;
        else
            bin = bin_of(s->hist, last, x);
        s->hist->bin[bin] += 1;
    }
    if (s->batches && index < s->expected) {
        unsigned b = (unsigned)((index * (__uint128_t)s->batches) / s->expected);
        s->batch_sum[b] += x;
        s->batch_count[b]++;
        if (s->batch_bins) {
            if (bin == SIZE_MAX)
                s->batch_zeros[b]++;
            else
                s->batch_bins[(size_t)b * s->hist->n + bin]++;
        }
    }
}

void stats_skip(struct sample_stats *s, uint64_t index)
{
    if (s->batches && index < s->expected)
        s->batch_skipped[(unsigned)((index * (__uint128_t)s->batches) / s->expected)]++;
}

/* Smallest value v with at least ceil(p*count) of the counted samples <= v: zeros,
 * then each bin at its geometric middle, clamped to [lo, hi]. */
static double bins_quantile(double p, uint64_t count, uint64_t zeros, const gsl_histogram *h, const uint64_t *bins,
                            double lo, double hi)
{
    if (count == 0)
        return NAN;
    double rank = ceil(p * (double)count);
    if (rank < 1)
        rank = 1;
    if (rank >= (double)count && !bins) /* a section's largest is its own, found below */
        return hi;
    double seen = (double)zeros;
    if (seen >= rank)
        return 0.0;
    for (size_t i = 0; i < h->n; i++) {
        seen += bins ? (double)bins[i] : h->bin[i];
        if (seen >= rank) {
            double v = sqrt(h->range[i] * h->range[i + 1]);
            return v < lo ? lo : v > hi ? hi : v;
        }
    }
    return hi;
}

void stats_close_batches(struct sample_stats *s, unsigned closed)
{
    s->sliced = true;
    s->closed = closed < s->batches ? closed : s->batches;
}

double stats_quantile(const struct sample_stats *s, double p)
{
    return bins_quantile(p, s->count, s->zeros, s->hist, NULL, s->min, s->max);
}

/* Sectioning: the whole sample's quantile +- t * (sd of the sections' own quantiles) /
 * sqrt(sections), the sections being the complete batches merged, in order, into at
 * most STATS_SECTIONS (a tail quantile of a short batch is too rough to section on). */
static void quantile_intervals(const struct sample_stats *s, struct stats_summary *out, const unsigned *complete,
                               unsigned used)
{
    static const double p[STATS_QUANTILE_CIS] = { 0.50, 0.90, 0.99 };
    const double whole[STATS_QUANTILE_CIS] = { out->p50, out->p90, out->p99 };
    for (int q = 0; q < STATS_QUANTILE_CIS; q++)
        out->quantile_ci95[q][0] = out->quantile_ci95[q][1] = NAN;
    unsigned sections = used < STATS_SECTIONS ? used : STATS_SECTIONS;
    uint64_t *bins = s->batch_bins ? malloc(s->hist->n * sizeof *bins) : NULL;
    if (sections < 2 || !bins) {
        free(bins);
        return;
    }
    struct moments m[STATS_QUANTILE_CIS] = { { 0, 0, 0 } };
    for (unsigned j = 0; j < sections; j++) {
        memset(bins, 0, s->hist->n * sizeof *bins);
        uint64_t count = 0, zeros = 0;
        for (unsigned i = (unsigned)stats_batch_start(j, used, sections); i < stats_batch_start(j + 1, used, sections);
             i++) {
            unsigned b = complete[i];
            const uint32_t *from = s->batch_bins + (size_t)b * s->hist->n;
            for (size_t k = 0; k < s->hist->n; k++)
                bins[k] += from[k];
            count += s->batch_count[b];
            zeros += s->batch_zeros[b];
        }
        for (int q = 0; q < STATS_QUANTILE_CIS; q++)
            moments_add(&m[q], bins_quantile(p[q], count, zeros, s->hist, bins, s->min, s->max));
    }
    free(bins);
    double t = gsl_cdf_tdist_Pinv(0.975, sections - 1);
    for (int q = 0; q < STATS_QUANTILE_CIS; q++) {
        double half = t * sqrt(moments_variance(&m[q]) / sections);
        out->quantile_ci95[q][0] = whole[q] - half;
        out->quantile_ci95[q][1] = whole[q] + half;
    }
}

void stats_summarize(const struct sample_stats *s, struct stats_summary *out)
{
    out->count = s->count;
    out->mean = s->count ? s->mean : NAN;
    out->variance = s->count > 1 ? s->m2 / (double)(s->count - 1) : NAN;
    out->stddev = sqrt(out->variance);
    out->min = s->count ? s->min : NAN;
    out->max = s->count ? s->max : NAN;
    out->p50 = stats_quantile(s, 0.50);
    out->p90 = stats_quantile(s, 0.90);
    out->p99 = stats_quantile(s, 0.99);
    out->p999 = stats_quantile(s, 0.999);

    /* Batch means over the complete batches only (an interrupted run has partial ones);
     * two passes, so the spread of nearly equal batch means is not lost to cancellation. */
    double *means = malloc((s->batches ? s->batches : 1) * sizeof *means);
    unsigned *complete = malloc((s->batches ? s->batches : 1) * sizeof *complete);
    unsigned used = 0;
    for (unsigned b = 0; means && complete && b < s->batches; b++) {
        /* Batch b holds the numbers i with b <= i * batches / expected < b + 1. */
        uint64_t full = stats_batch_start(b + 1, s->expected, s->batches) - stats_batch_start(b, s->expected, s->batches);
        bool done = s->sliced ? b < s->closed : s->batch_count[b] + s->batch_skipped[b] == full;
        if (s->batch_count[b] != 0 && done) {
            complete[used] = b;
            means[used++] = s->batch_sum[b] / (double)s->batch_count[b];
        }
    }
    out->batches_used = used;
    out->ci95[0] = out->ci95[1] = out->batch_correlation = NAN;
    if (used >= 2) {
        double grand = 0, sq = 0, lag = 0;
        for (unsigned i = 0; i < used; i++)
            grand += means[i] / used;
        for (unsigned i = 0; i < used; i++) {
            sq += (means[i] - grand) * (means[i] - grand);
            if (i + 1 < used)
                lag += (means[i] - grand) * (means[i + 1] - grand);
        }
        double half = gsl_cdf_tdist_Pinv(0.975, used - 1) * sqrt(sq / (used - 1) / used);
        out->ci95[0] = grand - half;
        out->ci95[1] = grand + half;
        if (sq > 0)
            out->batch_correlation = lag / sq;
    }
    quantile_intervals(s, out, complete, used);
    free(means);
    free(complete);
}
