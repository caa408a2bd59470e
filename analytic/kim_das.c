/* Seed 003's formulas (see kim_das.h for the contract and note 003 §2 for the
 * reconstruction of the OCR-damaged equations). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_poly.h>
#include <gsl/gsl_sf_gamma.h>

#include "kim_das.h"

/* C(a, b), 0 outside 0 <= b <= a. */
static double choose(int a, int b)
{
    return b < 0 || a < 0 || b > a ? 0.0 : gsl_sf_choose((unsigned)a, (unsigned)b);
}

/* P_k / C(n,k): the rate one particular node k hops away receives, per λ_n; 0 past n. */
static double per_node(const struct kd_traffic *t, int k)
{
    return k < 1 || k > (int)t->n ? 0.0 : t->p[k] / choose((int)t->n, k);
}

static double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }

void kd_uniform(unsigned n, double *p)
{
    double others = ldexp(1.0, (int)n) - 1;
    p[0] = 0;
    for (unsigned k = 1; k <= n; k++)
        p[k] = choose((int)n, (int)k) / others;
}

/* Eq. (1), Lemma 1: transit messages on channel s, per λ_n. */
static double transit_rate(const struct kd_traffic *t, int s)
{
    int n = (int)t->n;
    double sum = 0;
    for (int k = 2; k <= n; k++) {
        int lo = k - n + s + 1 > 2 ? k - n + s + 1 : 2, hi = s + 1 < k ? s + 1 : k;
        for (int j = lo; j <= hi; j++)
            sum += choose(s, j - 1) * choose(n - s - 1, k - j) * per_node(t, k);
    }
    return sum;
}

/* Eq. (3), Lemma 3: new messages whose first channel is s, per λ_n. */
static double fresh_rate(const struct kd_traffic *t, int s)
{
    int n = (int)t->n;
    double sum = 0;
    for (int k = 1; k <= n - s; k++)
        sum += choose(n - s - 1, k - 1) * per_node(t, k);
    return sum;
}

/* Σ_{k=0}^{s} Σ_{m=lo}^{hi} w(m) C(s,k) C(above,m) P_{k+m+extra}/C(n,k+m+extra): the
 * paths through channel s with k hops before it and m after (Appendix, A1, A2, 7). */
static double path_sum(const struct kd_traffic *t, int s, int above, int lo, int hi, int extra, bool weighted,
                       bool fresh_only)
{
    double sum = 0;
    for (int k = 0; k <= (fresh_only ? 0 : s); k++)
        for (int m = lo; m <= hi; m++)
            sum += (weighted ? m + 1 : 1) * choose(s, k) * choose(above, m) * per_node(t, k + m + extra);
    return sum;
}

bool kd_traffic_init(struct kd_traffic *t, unsigned n, const double *p)
{
    if (n < 1 || n > KD_DIM_MAX)
        return false;
    double total = 0;
    for (unsigned k = 1; k <= n; k++) {
        if (!(p[k] >= 0))
            return false;
        total += p[k];
    }
    if (fabs(total - 1) > 1e-9)
        return false;
    memset(t, 0, sizeof *t);
    t->n = n;
    for (unsigned k = 1; k <= n; k++) {
        t->p[k] = p[k];
        t->hops_mean += k * p[k];
    }
    t->channel = t->hops_mean / n;
    int N = (int)n;
    for (int s = 0; s < N; s++) {
        t->transit[s] = transit_rate(t, s);
        t->fresh[s] = fresh_rate(t, s);
        int above = N - s - 1;
        /* eq. (6): (A1) / (A2) */
        t->ends[s] = ratio(path_sum(t, s, above, 0, 0, 1, false, false), path_sum(t, s, above, 0, above, 1, false, false));
        t->fresh_ends[s] = ratio(per_node(t, 1), path_sum(t, s, above, 0, above, 1, false, true));
        double continuing = path_sum(t, s, above, 1, above, 1, false, false);
        double fresh_continuing = path_sum(t, s, above, 1, above, 1, false, true);
        for (int j = s + 1; j < N; j++) {
            int beyond = N - j - 1;
            t->onward[s][j] = ratio(path_sum(t, s, beyond, 0, beyond, 2, true, false), continuing);
            t->fresh_onward[s][j] = ratio(path_sum(t, s, beyond, 0, beyond, 2, true, true), fresh_continuing);
        }
    }
    return true;
}

/* Eq. (5), variant A: d_s = ½ [l + (1 - P_t,s) Σ_{j>s} P_b,j H{j|s} d_j]. */
static double blocking_length(const struct kd_traffic *t, double mean_length, const double *pb, const double *d,
                              unsigned s)
{
    double downstream = 0;
    for (unsigned j = s + 1; j < t->n; j++)
        downstream += pb[j] * t->onward[s][j] * d[j];
    return 0.5 * (mean_length + (1 - t->ends[s]) * downstream);
}

void kd_blocking_lengths(const struct kd_traffic *t, double mean_length, const double *pb, double *d)
{
    for (unsigned s = t->n; s-- > 0;)
        d[s] = blocking_length(t, mean_length, pb, d, s);
}

/* Eq. (9) with (10): utilisation x of a channel held 2 d flit times; with finite
 * buffers only the accepted fraction 1 - P of the new traffic enters, P = x (1 - P). */
static double blocking_from(double x, bool finite) { return finite ? x / (1 + x) : x; }

/* Eqs. (8) and (11) from P_b,s and d_s. */
static void delays(const struct kd_traffic *t, double mean_length, struct kd_result *out)
{
    double weighted = 0, simple = 0, accepted = 0;
    for (unsigned s = 0; s < t->n; s++) {
        double downstream = 0;
        for (unsigned j = s + 1; j < t->n; j++)
            downstream += t->fresh_onward[s][j] * out->blocking[j] * out->length[j];
        out->delay[s] = mean_length + (1 - t->fresh_ends[s]) * downstream;
        weighted += t->fresh[s] * out->delay[s];
        simple += out->delay[s] / t->n;
        accepted += t->fresh[s] * (1 - out->blocking[s]);
    }
    out->delay_mean = t->hops_mean - 1 + weighted;
    out->delay_simple = t->hops_mean - 1 + simple;
    out->acceptance = accepted;
}

static void clear(struct kd_result *out)
{
    memset(out, 0, sizeof *out);
    out->delay_mean = out->delay_simple = NAN;
    for (unsigned s = 0; s < KD_DIM_MAX; s++)
        out->blocking[s] = out->length[s] = out->delay[s] = NAN;
}

void kd_wormhole_lr(const struct kd_traffic *t, double mean_length, double rate, bool finite, struct kd_result *out)
{
    clear(out);
    /* One backward pass reaches the fixed point: d_s needs only channels above s. */
    for (unsigned s = t->n; s-- > 0;) {
        out->length[s] = blocking_length(t, mean_length, out->blocking, out->length, s);
        out->blocking[s] = blocking_from(2 * out->length[s] * t->channel * rate, finite);
        if (out->blocking[s] >= 1) {
            out->saturated = true;
            return;
        }
    }
    delays(t, mean_length, out);
    if (!finite)
        out->acceptance = 1;
}

void kd_cut_through(const struct kd_traffic *t, double mean_length, double rate, bool finite, struct kd_result *out)
{
    clear(out);
    double pb = blocking_from(t->channel * rate * mean_length, finite);
    for (unsigned s = 0; s < t->n; s++) {
        out->blocking[s] = pb;
        out->length[s] = mean_length / 2;
    }
    if (pb >= 1) {
        out->saturated = true;
        return;
    }
    delays(t, mean_length, out);
    if (!finite)
        out->acceptance = 1;
}

void kd_wormhole_random(const struct kd_traffic *t, double mean_length, double rate, bool finite,
                        struct kd_result *out)
{
    clear(out);
    double n = t->n, h = t->hops_mean, base = mean_length + h - 1, a = rate * h;
    double roots[2];
    int count;
    if (finite) /* (12) with (14): a (3 - h)/2 t² + (n - base a) t - base n = 0 */
        count = gsl_poly_solve_quadratic(a * (3 - h) / 2, n - base * a, -base * n, &roots[0], &roots[1]);
    else        /* (12) with P_b = (h/n) λ_g t: (C_h / 2n) t² - t + base = 0, C_h = h (h-1) λ_g  (13) */
        count = gsl_poly_solve_quadratic(h * (h - 1) * rate / (2 * n), -1, base, &roots[0], &roots[1]);
    double delay = NAN;
    for (int i = 0; i < count && isnan(delay); i++) /* ascending: the smallest positive root */
        if (roots[i] > 0)
            delay = roots[i];
    double pb = finite ? a * delay / (n + a * delay) : t->channel * rate * delay;
    if (isnan(delay) || !(pb < 1)) {
        out->saturated = true;
        return;
    }
    for (unsigned s = 0; s < t->n; s++)
        out->blocking[s] = pb;
    out->delay_mean = delay;
    out->acceptance = finite ? 1 - pb : 1;
}
