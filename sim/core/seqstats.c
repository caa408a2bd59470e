#include "seqstats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

#include "stats.h"

size_t seqstats_mser(const double *x, size_t n, size_t w)
{
    size_t m = n / w;
    if (m < 2)
        return 0;
    double *z = malloc(m * sizeof *z);
    if (!z)
        return 0;
    size_t kept = 0;
    for (size_t j = 0; j < m; j++) {
        double sum = 0;
        unsigned c = 0;
        for (size_t i = w * j; i < w * j + w; i++)
            if (!isnan(x[i])) {
                sum += x[i];
                c++;
            }
        z[kept++] = c ? sum / c : NAN;
    }
    /* Suffix sums from the end; batches without a sample (NaN) are skipped. Two
     * passes would be exact, but the suffix form with a shifted origin is enough:
     * values are shifted by the last batch mean so the sums stay small. */
    double shift = 0;
    for (size_t j = m; j-- > 0;)
        if (!isnan(z[j])) {
            shift = z[j];
            break;
        }
    double s = 0, s2 = 0, best = INFINITY;
    size_t cnt = 0, best_d = 0;
    for (size_t j = m; j-- > 0;) {
        if (!isnan(z[j])) {
            double v = z[j] - shift;
            s += v;
            s2 += v * v;
            cnt++;
        }
        if (j > m / 2 || cnt < 2)
            continue;
        double sse = s2 - s * s / (double)cnt;
        double stat = (sse < 0 ? 0 : sse) / ((double)cnt * (double)cnt);
        if (stat <= best) { /* ties: the earlier cut (less deleted) wins, as j goes down */
            best = stat;
            best_d = j;
        }
    }
    free(z);
    return w * best_d;
}

size_t seqstats_mser5(const double *x, size_t n) { return seqstats_mser(x, n, 5); }

size_t seqstats_mser_limit(size_t n, size_t w) { return n / w < 2 ? 0 : w * (n / w / 2); }

/* The k batch means of x (sample i in batch i*k/n), NaN samples left out; the grand
 * mean, the variance sum and the lag-1 sum. Returns false when a batch is empty. */
static bool batch_means(const double *x, size_t n, unsigned k, double *means)
{
    for (unsigned b = 0; b < k; b++) {
        size_t from = stats_batch_start(b, n, k), to = stats_batch_start(b + 1, n, k);
        double sum = 0;
        size_t c = 0;
        for (size_t i = from; i < to; i++)
            if (!isnan(x[i])) {
                sum += x[i];
                c++;
            }
        if (!c)
            return false;
        means[b] = sum / (double)c;
    }
    return true;
}

static void summarize(const double *means, unsigned k, struct batch_plan *out)
{
    double grand = 0, sq = 0, lag = 0;
    for (unsigned i = 0; i < k; i++)
        grand += means[i] / k;
    for (unsigned i = 0; i < k; i++) {
        sq += (means[i] - grand) * (means[i] - grand);
        if (i + 1 < k)
            lag += (means[i] - grand) * (means[i + 1] - grand);
    }
    out->batches = k;
    out->mean = grand;
    out->half = gsl_cdf_tdist_Pinv(0.975, k - 1) * sqrt(sq / (k - 1) / k);
    out->relative = grand != 0 ? out->half / fabs(grand) : NAN;
    out->correlation = sq > 0 ? lag / sq : 0;
    out->uncorrelated = out->correlation < 1.645 / sqrt((double)k);
}

bool seqstats_batches(const double *x, size_t n, unsigned kmin, unsigned kmax, size_t min_size,
                      struct batch_plan *out)
{
    *out = (struct batch_plan){ .mean = NAN, .half = NAN, .relative = NAN, .correlation = NAN };
    const unsigned split = SEQSTATS_TEST_SPLIT;
    if (kmin < 2 || n < (size_t)split * kmin * min_size)
        return false;
    unsigned k = kmax;
    while (k > kmin && (size_t)split * k * min_size > n)
        k /= 2;
    if (k < kmin)
        k = kmin;
    double *means = malloc((size_t)split * k * sizeof *means);
    if (!means)
        return false;
    bool ok = false;
    for (;; k /= 2) {
        if (k < kmin)
            k = kmin;
        /* The test on split * k batches: their lag-1 correlation has split times the
         * samples of k batch means' (a test on 20 batch means passes a true correlation
         * of 0.3 more often than not), and the interval's batches, split times as long,
         * are correlated about split times less than the ones tested. */
        struct batch_plan test;
        if (batch_means(x, n, split * k, means)) {
            summarize(means, split * k, &test);
            if (batch_means(x, n, k, means)) {
                summarize(means, k, out);
                out->correlation = test.correlation;
                out->uncorrelated = test.uncorrelated;
                ok = true;
                if (out->uncorrelated)
                    break;
            }
        }
        if (k == kmin)
            break;
    }
    free(means);
    return ok;
}

bool seqstats_met(const struct batch_plan *plan, double target)
{
    return plan->batches >= 2 && plan->uncorrelated && plan->relative <= target;
}
