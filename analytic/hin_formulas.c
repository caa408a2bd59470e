/* Seed 000's static and queueing formulas; see hin_formulas.h and note 000 §4.
 * Where the note repairs the OCR (A3, A4, A20), the repaired form is used; where it
 * gives closed forms for the seed's sums, both are tested against each other. */
#include <gsl/gsl_sf_gamma.h>
#include <math.h>

#include "hin_formulas.h"

struct hin_net hin_net_cube(enum hin_kind kind, unsigned D, unsigned d)
{
    return (struct hin_net){ kind, d, ldexp(1, (int)(D - d)), 0, 1 };
}

struct hin_net hin_net_ccc(unsigned d, unsigned ccc_dimension)
{
    return (struct hin_net){ HIN_CCC, d, ccc_dimension * ldexp(1, (int)ccc_dimension), ccc_dimension, 1 };
}

struct hin_net hin_reference(const struct hin_net *h)
{
    return (struct hin_net){ HIN_FLAT_BH, h->d, h->clusters, 0, 1 };
}

static double cluster_nodes(const struct hin_net *h) { return ldexp(1, (int)h->d); }

double hin_nodes(const struct hin_net *h) { return cluster_nodes(h) * h->clusters; }

double hin_level2_links(const struct hin_net *h)
{
    double K = h->clusters;
    switch (h->kind) {
    case HIN_FLAT_BH: /* the noncluster links: (D - d) 2^(D-1) */
        return log2(K) * hin_nodes(h) / 2;
    case HIN_BH:
        return log2(K) * K / 2;
    case HIN_BR:
        return K; /* eq. 9 counts K links for every K (K = 2 is degenerate, A9) */
    case HIN_CC:
        return K * (K - 1) / 2;
    case HIN_CCC:
        return 3 * h->ccc_dimension * ldexp(1, (int)h->ccc_dimension - 1);
    }
    return NAN;
}

double hin_links(const struct hin_net *h)
{
    double cluster = h->d * hin_nodes(h) / 2; /* d 2^(D-1) */
    if (h->kind == HIN_FLAT_BH)
        return cluster + hin_level2_links(h); /* eq. 1: D 2^(D-1) */
    return cluster + h->replication * hin_level2_links(h);
}

double hin_cluster_exit_links(const struct hin_net *h)
{
    double K = h->clusters;
    switch (h->kind) {
    case HIN_FLAT_BH:
        return cluster_nodes(h) * log2(K);
    case HIN_BH:
        return h->replication * log2(K);
    case HIN_BR:
        return h->replication * 2;
    case HIN_CC:
        return h->replication * (K - 1);
    case HIN_CCC:
        return h->replication * 3;
    }
    return NAN;
}

double hin_level2_distance(const struct hin_net *h)
{
    double K = h->clusters, Dc = h->ccc_dimension;
    if (K <= 1)
        return 0;
    switch (h->kind) {
    case HIN_FLAT_BH: /* (D-d) 2^(D-1) / (2^D - 2^d): eq. 15's noncluster hops, A20 */
    case HIN_BH:      /* (D-d) 2^(D-d-1) / (2^(D-d) - 1): A3, A4 */
        return log2(K) * K / 2 / (K - 1);
    case HIN_BR:
        return K * K / (4 * (K - 1));
    case HIN_CC:
        return 1;
    case HIN_CCC: /* Wittie's formula as the seed prints it (A6) */
        return 1.75 * Dc - 3 + (Dc + 1) / ldexp(1, (int)Dc - 1);
    }
    return NAN;
}

double hin_distance(const struct hin_net *h, double alpha)
{
    double d = h->d, inter = 0;
    if (h->clusters > 1) {
        if (h->kind == HIN_FLAT_BH) /* eq. 4: d/2 cluster hops plus the noncluster ones */
            inter = d / 2 + hin_level2_distance(h);
        else /* eq. 7: up to the interface node, across, down */
            inter = d + hin_level2_distance(h);
    } else {
        alpha = 1; /* one cluster: every message is intracluster (A23) */
    }
    return alpha * d / 2 + (1 - alpha) * inter;
}

double hin_lp_ratio(const struct hin_net *h, double alpha)
{
    struct hin_net ref = hin_reference(h);
    return hin_links(h) * hin_distance(h, alpha) / (hin_links(&ref) * hin_distance(&ref, alpha));
}

double hin_nearest_neighbour_locality(double n) { return 1 - 1 / sqrt(n); }

/* Mean sojourn of an M/M/1 link, +inf at or past saturation. */
static double sojourn(double mu, double rate) { return rate < mu ? 1 / (mu - rate) : INFINITY; }

void hin_queue(const struct hin_net *h, double alpha, double lambda, double mu_cluster, double mu_level2,
               struct hin_queue *out)
{
    *out = (struct hin_queue){ 0 };
    unsigned d = h->d;
    double n = cluster_nodes(h), K = h->clusters;
    if (K <= 1)
        alpha = 1; /* A23 */
    double p2 = hin_level2_distance(h);
    /* flow conservation over the directed level-2 links (2 per link, one wire each) */
    out->level2_rate = K > 1 ? hin_nodes(h) * lambda * (1 - alpha) * p2 / (2 * hin_level2_links(h)) : 0;
    out->level2_utilization = out->level2_rate / mu_level2;
    double level2 = sojourn(mu_level2, out->level2_rate);
    out->max_utilization = out->level2_utilization;

    if (h->kind == HIN_FLAT_BH) { /* eq. 15: every cluster link carries λ/2 */
        double cl = sojourn(mu_cluster, lambda / 2);
        for (unsigned j = 1; j <= d; j++) {
            out->cluster_rate[j] = lambda / 2;
            out->cluster_utilization[j] = lambda / 2 / mu_cluster;
        }
        if (d > 0 && lambda / 2 / mu_cluster > out->max_utilization)
            out->max_utilization = lambda / 2 / mu_cluster;
        out->delay = (d > 0 ? d / 2.0 * cl : 0) + (1 - alpha > 0 && K > 1 ? (1 - alpha) * p2 * level2 : 0);
        out->unstable = isinf(out->delay);
        return;
    }
    /* eq. 16 and the j-level terms of eq. 18 */
    double intra = 0, inter = 0; /* Σ_j M_j Δ_j and Σ_j S_j Δ_j */
    for (unsigned j = 1; j <= d; j++) {
        double s = 0; /* S_j: nodes at distance >= j from the interface node */
        for (unsigned k = j; k <= d; k++)
            s += gsl_sf_choose(d, k);
        double m = (d - j + 1) * gsl_sf_choose(d, j - 1); /* j-level links per cluster */
        double rate = alpha * lambda / 2 + (1 - alpha) * lambda * s / m;
        double delta = sojourn(mu_cluster, rate);
        out->cluster_rate[j] = rate;
        out->cluster_utilization[j] = rate / mu_cluster;
        if (rate / mu_cluster > out->max_utilization)
            out->max_utilization = rate / mu_cluster;
        intra += m * delta;
        inter += s * delta;
    }
    double delta_avg = d > 0 ? intra / (d * n / 2) : 0; /* Δ_Avg */
    double delta_cl_avg = inter / n;                    /* Δ_CL-Avg */
    double r = alpha > 0 && d > 0 ? alpha * d / 2 * delta_avg : 0;
    if (alpha < 1)
        r += (1 - alpha) * (2 * delta_cl_avg + p2 * level2);
    out->delay = r; /* eqs. 18-21 */
    out->unstable = isinf(r) || isnan(r);
    if (out->unstable)
        out->delay = INFINITY;
}

double hin_lr_ratio(const struct hin_net *h, double alpha, double lambda, double mu_cluster, double mu_level2)
{
    struct hin_net ref = hin_reference(h);
    struct hin_queue q, qr;
    hin_queue(h, alpha, lambda, mu_cluster, mu_level2, &q);
    hin_queue(&ref, alpha, lambda, mu_cluster, mu_cluster, &qr);
    if (q.unstable || qr.unstable)
        return INFINITY;
    return hin_links(h) * q.delay / (hin_links(&ref) * qr.delay);
}

unsigned hin_replication_below(const struct hin_net *h, double alpha, double lambda, double mu_wire, double target)
{
    struct hin_queue q;
    hin_queue(h, alpha, lambda, mu_wire, mu_wire, &q);
    return (unsigned)floor(q.level2_rate / (target * mu_wire)) + 1;
}
