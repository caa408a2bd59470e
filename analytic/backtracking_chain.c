/* Seed 001's imbedded Markov chain (see backtracking_chain.h).  One evaluation of
 * the balance function builds P = D·R·A for a trial P_t and solves Π = ΠP with GSL's
 * LU decomposition; Brent's method (GSL) finds the root of the balance equation. */
#include "backtracking_chain.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bt_chain_phase_counts(unsigned n, unsigned buffers, double *f, double *fp)
{
    unsigned w = n + 1;
    memset(f, 0, (size_t)(buffers + 1) * w * sizeof *f);
    f[0] = 1;
    /* f_{i+1,j} = f_{i,j} j/n + f_{i,j−1} (n−j+1)/n: the (i+1)-th message picks one
     * of the j channels already taken, or one of the n − j + 1 free ones (A1). */
    for (unsigned i = 0; i < buffers; i++)
        for (unsigned j = 1; j <= n; j++)
            f[(i + 1) * w + j] = f[i * w + j] * j / n + f[i * w + j - 1] * (n - j + 1) / n;
    /* After phase 2 the node sends max(j, n − M + i) messages (eq. 3, A2). */
    memset(fp, 0, (size_t)(buffers + 1) * w * sizeof *fp);
    for (unsigned i = 0; i <= buffers; i++) {
        long forced = (long)n - (long)buffers + (long)i; /* sends needed to keep n buffers free */
        for (unsigned j = 0; j <= n && j <= i; j++) {
            if ((long)j > forced)
                fp[i * w + j] += f[i * w + j];
            else if (forced >= 0 && forced <= (long)n)
                fp[i * w + (unsigned)forced] += f[i * w + j];
        }
    }
}

void bt_chain_hops(unsigned n, double q, double *h)
{
    /* e_i = h_i − h_{i−1}; e_n = 1 (from state n every move goes down), then
     * backwards: e_i = (1 + q(n−i)/(n−1) e_{i+1}) / (p + q(i−1)/(n−1)). */
    double e[BT_CHAIN_MAX_DIMENSION + 2];
    double p = 1 - q;
    e[n] = 1;
    for (unsigned k = n; k > 1; k--) { /* i = n - 1 down to 1; none when n <= 1 */
        unsigned i = k - 1;
        double up = n > 1 ? q * (n - i) / (n - 1) : 0;
        double down = p + (n > 1 ? q * (i - 1) / (n - 1) : 0);
        e[i] = (1 + up * e[i + 1]) / down;
    }
    h[0] = 0;
    for (unsigned i = 1; i <= n; i++)
        h[i] = h[i - 1] + e[i];
}

struct chain_work {
    unsigned n, m;
    double lambda, alpha;
    double *f, *fp;
    gsl_matrix *d, *r, *a, *dr, *p, *lhs;
    gsl_vector *rhs, *pi;
    gsl_permutation *perm;
    double dist[BT_CHAIN_MAX_DIMENSION + 1]; /* d_i: a new header has i one-bits */
    /* results of the last evaluation */
    double u, u1, q, hbar, h[BT_CHAIN_MAX_DIMENSION + 1];
    bool failed;
};

/* Π for transit probability pt, then u, u1, q, h̄; returns λ(1 − π_M) − n u / h̄. */
static double balance(double pt, void *arg)
{
    struct chain_work *w = arg;
    unsigned n = w->n, m = w->m;
    gsl_matrix_set_zero(w->r);
    double t[BT_CHAIN_MAX_DIMENSION + 1];
    for (unsigned s = 0; s <= n; s++)
        t[s] = gsl_sf_choose(n, s) * pow(pt, s) * pow(1 - pt, n - s);
    for (unsigned j = 0; j <= m; j++)
        for (unsigned s = 0; s <= n && j + s <= m; s++)
            gsl_matrix_set(w->r, j, j + s, t[s]);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, w->d, w->r, 0.0, w->dr);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, w->dr, w->a, 0.0, w->p);
    /* (Pᵀ − I) π = 0 with the last equation replaced by Σ π_i = 1. */
    for (unsigned i = 0; i <= m; i++)
        for (unsigned j = 0; j <= m; j++)
            gsl_matrix_set(w->lhs, i, j, i == m ? 1.0 : gsl_matrix_get(w->p, j, i) - (i == j));
    gsl_vector_set_zero(w->rhs);
    gsl_vector_set(w->rhs, m, 1.0);
    int sign;
    if (gsl_linalg_LU_decomp(w->lhs, w->perm, &sign) != GSL_SUCCESS ||
        gsl_linalg_LU_solve(w->lhs, w->perm, w->rhs, w->pi) != GSL_SUCCESS) {
        w->failed = true;
        return NAN;
    }
    double u = 0, u1 = 0;
    for (unsigned i = 1; i <= m; i++) {
        double pi = gsl_vector_get(w->pi, i);
        for (unsigned j = 1; j <= n && j <= i; j++) {
            u += pi * w->fp[i * (n + 1) + j] * j / n;
            u1 += pi * w->f[i * (n + 1) + j] * j / n;
        }
    }
    w->u = u;
    w->u1 = u1;
    w->q = u > 0 ? 1 - u1 / u : 0;
    bt_chain_hops(n, w->q, w->h);
    w->hbar = 0;
    for (unsigned i = 1; i <= n; i++)
        w->hbar += w->dist[i] * w->h[i];
    return w->lambda * (1 - gsl_vector_get(w->pi, m)) - n * u / w->hbar;
}

static void work_free(struct chain_work *w)
{
    free(w->f);
    free(w->fp);
    gsl_matrix *mats[] = { w->d, w->r, w->a, w->dr, w->p, w->lhs };
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
        if (mats[i])
            gsl_matrix_free(mats[i]);
    if (w->rhs)
        gsl_vector_free(w->rhs);
    if (w->pi)
        gsl_vector_free(w->pi);
    if (w->perm)
        gsl_permutation_free(w->perm);
}

static bool work_init(struct chain_work *w, unsigned n, unsigned m, double lambda)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    w->m = m;
    w->lambda = lambda;
    w->alpha = lambda / (1 + lambda);
    size_t k = (size_t)m + 1;
    w->f = malloc(k * (n + 1) * sizeof *w->f);
    w->fp = malloc(k * (n + 1) * sizeof *w->fp);
    w->d = gsl_matrix_calloc(k, k);
    w->r = gsl_matrix_calloc(k, k);
    w->a = gsl_matrix_calloc(k, k);
    w->dr = gsl_matrix_alloc(k, k);
    w->p = gsl_matrix_alloc(k, k);
    w->lhs = gsl_matrix_alloc(k, k);
    w->rhs = gsl_vector_alloc(k);
    w->pi = gsl_vector_alloc(k);
    w->perm = gsl_permutation_alloc(k);
    if (!w->f || !w->fp || !w->d || !w->r || !w->a || !w->dr || !w->p || !w->lhs || !w->rhs || !w->pi || !w->perm)
        return false;
    bt_chain_phase_counts(n, m, w->f, w->fp);
    /* D: X = i → Y = i − j when j messages leave (eq. 5). */
    for (unsigned i = 0; i <= m; i++)
        for (unsigned j = 0; j <= n && j <= i; j++)
            gsl_matrix_set(w->d, i, i - j, w->fp[i * (n + 1) + j]);
    /* A: Z = k → X' = l, truncated geometric admission (eq. 7). */
    for (unsigned kk = 0; kk <= m; kk++) {
        for (unsigned l = kk; l < m; l++)
            gsl_matrix_set(w->a, kk, l, (1 - w->alpha) * pow(w->alpha, l - kk));
        gsl_matrix_set(w->a, kk, m, pow(w->alpha, m - kk));
    }
    double nodes = ldexp(1.0, (int)n);
    for (unsigned i = 1; i <= n; i++)
        w->dist[i] = gsl_sf_choose(n, i) / (nodes - 1);
    return true;
}

bool bt_chain_solve(unsigned n, unsigned buffers, double lambda, struct bt_chain *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (n < 1 || n > BT_CHAIN_MAX_DIMENSION || buffers < n || buffers > BT_CHAIN_MAX_BUFFERS ||
        !(lambda > 0) || !isfinite(lambda)) {
        snprintf(why, why_size, "needs 1 <= n <= %d, n <= M <= %d and a rate > 0", BT_CHAIN_MAX_DIMENSION,
                 BT_CHAIN_MAX_BUFFERS);
        return false;
    }
    gsl_error_handler_t *saved = gsl_set_error_handler_off();
    struct chain_work w;
    bool ok = work_init(&w, n, buffers, lambda);
    double root = NAN;
    if (ok) {
        /* F > 0 as P_t → 0 (little transit traffic), F < 0 as P_t → 1 (note §2.3). */
        double lo = 1e-12, hi = 1 - 1e-12;
        double flo = balance(lo, &w), fhi = balance(hi, &w);
        ok = !w.failed && flo > 0 && fhi < 0;
        if (ok) {
            gsl_function fn = { balance, &w };
            gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
            ok = s && gsl_root_fsolver_set(s, &fn, lo, hi) == GSL_SUCCESS;
            for (int iter = 0; ok && iter < 200; iter++) {
                ok = gsl_root_fsolver_iterate(s) == GSL_SUCCESS;
                lo = gsl_root_fsolver_x_lower(s);
                hi = gsl_root_fsolver_x_upper(s);
                if (gsl_root_test_interval(lo, hi, 1e-15, 1e-13) == GSL_SUCCESS)
                    break;
            }
            root = ok ? gsl_root_fsolver_root(s) : NAN;
            if (s)
                gsl_root_fsolver_free(s);
        }
    }
    if (ok) {
        out->balance_residual = balance(root, &w);
        ok = !w.failed;
    }
    if (!ok) {
        snprintf(why, why_size, "the balance equation has no root in (0, 1) for n = %u, M = %u, rate %g", n, buffers,
                 lambda);
        work_free(&w);
        gsl_set_error_handler(saved);
        return false;
    }
    double nodes = ldexp(1.0, (int)n);
    out->n = n;
    out->buffers = buffers;
    out->lambda = lambda;
    out->transit_probability = root;
    out->utilization = w.u;
    out->utilization_phase1 = w.u1;
    out->phase2_fraction = w.q;
    out->distance_mean = n * nodes / 2 / (nodes - 1);
    out->hops_mean = w.hbar;
    for (unsigned i = 0; i <= buffers; i++) {
        out->pi[i] = gsl_vector_get(w.pi, i);
        out->occupancy_mean += i * out->pi[i];
    }
    memcpy(out->h, w.h, (n + 1) * sizeof out->h[0]);
    out->acceptance = 1 - out->pi[buffers];
    out->throughput = nodes * lambda * out->acceptance;
    out->delay_mean = out->occupancy_mean / (lambda * out->acceptance);
    out->backtrack_probability = w.u / 2 * (1 - out->distance_mean / w.hbar);
    out->forward_probability = w.u / 2 * (1 + out->distance_mean / w.hbar);
    out->net_progress = w.u * out->distance_mean / w.hbar;
    out->power = out->throughput * out->acceptance / out->delay_mean;
    work_free(&w);
    gsl_set_error_handler(saved);
    return true;
}
