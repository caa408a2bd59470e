#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

bool stats_init(struct sample_stats *s, uint64_t expected, unsigned batches)
{
    *s = (struct sample_stats){ .min = INFINITY, .max = -INFINITY, .expected = expected, .batches = batches };
    size_t bins = (size_t)ceil(log(STATS_HIST_MAX / STATS_HIST_MIN) / log(STATS_HIST_RATIO));
    double *ranges = malloc((bins + 1) * sizeof *ranges);
    s->hist = gsl_histogram_alloc(bins);
    s->batch_sum = calloc(batches ? batches : 1, sizeof *s->batch_sum);
    s->batch_count = calloc(batches ? batches : 1, sizeof *s->batch_count);
    s->batch_skipped = calloc(batches ? batches : 1, sizeof *s->batch_skipped);
    if (!ranges || !s->hist || !s->batch_sum || !s->batch_count || !s->batch_skipped) {
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
    if (x <= 0) {
        s->zeros++;
    } else {
        /* Out-of-range values go to the end bins; min and max stay exact. */
        size_t last = s->hist->n - 1;
        if (x < s->hist->range[0])
            s->hist->bin[0] += 1;
        else if (x >= s->hist->range[last + 1])
            s->hist->bin[last] += 1;
        else
            s->hist->bin[bin_of(s->hist, last, x)] += 1;
    }
    if (s->batches && index < s->expected) {
        unsigned b = (unsigned)((index * (__uint128_t)s->batches) / s->expected);
        s->batch_sum[b] += x;
        s->batch_count[b]++;
    }
}

void stats_skip(struct sample_stats *s, uint64_t index)
{
    if (s->batches && index < s->expected)
        s->batch_skipped[(unsigned)((index * (__uint128_t)s->batches) / s->expected)]++;
}

double stats_quantile(const struct sample_stats *s, double p)
{
    if (s->count == 0)
        return NAN;
    /* Smallest value v with at least ceil(p*count) samples <= v. */
    double rank = ceil(p * (double)s->count);
    if (rank < 1)
        rank = 1;
    if (rank >= (double)s->count)
        return s->max;
    double seen = (double)s->zeros;
    if (seen >= rank)
        return 0.0;
    for (size_t i = 0; i < s->hist->n; i++) {
        seen += s->hist->bin[i];
        if (seen >= rank) {
            double v = sqrt(s->hist->range[i] * s->hist->range[i + 1]);
            return v < s->min ? s->min : v > s->max ? s->max : v;
        }
    }
    return s->max;
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
    unsigned used = 0;
    for (unsigned b = 0; means && b < s->batches; b++) {
        uint64_t full = (((uint64_t)b + 1) * s->expected) / s->batches - ((uint64_t)b * s->expected) / s->batches;
        if (s->batch_count[b] != 0 && s->batch_count[b] + s->batch_skipped[b] == full)
            means[used++] = s->batch_sum[b] / (double)s->batch_count[b];
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
    free(means);
}
