/* Message length distributions, in length units (a channel moves `bandwidth` of
 * them per time unit; flit-level engines count whole flits, msg_flits(), whose mean
 * each distribution's mean_flits gives exactly for a rate in flits).  Each keeps what its
 * draws read in a state of its own, made once per run by create() from its key block
 * and workload.mean_length: a draw reads that state and the stream, never the config. */
#include <math.h>
#include <float.h>
#include <stddef.h>
#include <stdlib.h>

#include "../sim/core/message.h"
#include "../sim/core/params.h"

#include "workload.h"

/* --- exponential, fixed: the mean is all they read --- */

static void *create_mean(const void *params, const struct config *cfg)
{
    (void)params;
    double *mean = malloc(sizeof *mean);
    if (mean)
        *mean = cfg->workload.mean_length;
    return mean;
}

static double draw_exponential(const void *state, struct rng *r)
{
    const double *mean = state;
    return rng_exponential(r, *mean);
}

static double draw_fixed(const void *state, struct rng *r)
{
    (void)r;
    const double *mean = state;
    return *mean;
}

/* X = L / bandwidth is exponential with mean mu, and X > 0, so max(1, ceil X) = ceil X
 * and E[min(C, ceil X)] = sum_{k=0}^{C-1} P(X > k) = sum_k e^(-k/mu)
 * = (1 - e^(-C/mu)) / (1 - e^(-1/mu)), C = MSG_FLITS_MAX: 1 / (1 - e^(-1/mu)) unless
 * mu is near C. */
static double flits_exponential(const void *state, double bandwidth)
{
    const double *mean = state;
    double mu = *mean / bandwidth;
    return expm1(-(double)MSG_FLITS_MAX / mu) / expm1(-1 / mu);
}

static double flits_fixed(const void *state, double bandwidth)
{
    const double *mean = state;
    return msg_flits(*mean, bandwidth);
}

/* --- geometric --- */

/* P(L = j) = (1 - q) q^(j-1), j >= 1, q = 1 - 1/mean: by inversion, L - 1 =
 * floor(log U / log q) has P(L - 1 >= j) = q^j.  log q is taken once, here. */
struct geometric {
    bool always_one; /* mean 1 (q = 0): every length is 1, and no draw takes a number */
    double log_q;
};

static void *create_geometric(const void *params, const struct config *cfg)
{
    (void)params;
    struct geometric *g = malloc(sizeof *g);
    if (!g)
        return NULL;
    double q = 1 - 1 / cfg->workload.mean_length;
    *g = (struct geometric){ .always_one = q <= 0, .log_q = q <= 0 ? 0 : log(q) };
    return g;
}

static double draw_geometric(const void *state, struct rng *r)
{
    const struct geometric *g = state;
    if (g->always_one)
        return 1;
    return 1 + floor(log(rng_uniform(r)) / g->log_q);
}

/* Most terms flits_geometric sums for a bandwidth that is not whole: some 40 per flit
 * of the mean message, so means past about 10^5 flits go unsummed (NaN). */
enum { GEOMETRIC_TERMS_MAX = 1 << 22 };

/* L is whole, P(L > n) = q^n for whole n >= 0, so with b = bandwidth
 * E[min(C, ceil(L / b))] = sum_{k=0}^{C-1} P(L > k b) = sum_k q^floor(k b), which for a
 * whole b is (1 - q^(C b)) / (1 - q^b) and otherwise is summed until what is left,
 * at most q^floor(k b) / (q (1 - q^b)), is below 1e-17 of the sum. */
static double flits_geometric(const void *state, double bandwidth)
{
    const struct geometric *g = state;
    if (g->always_one)
        return msg_flits(1, bandwidth);
    double b = bandwidth, log_q = g->log_q;
    if (b == floor(b) && b <= 0x1p53)
        return expm1((double)MSG_FLITS_MAX * b * log_q) / expm1(b * log_q);
    double left = 1 / (exp(log_q) * -expm1(b * log_q)), sum = 0;
    for (uint32_t k = 0; k < MSG_FLITS_MAX && k < GEOMETRIC_TERMS_MAX; k++) {
        double term = exp(floor((double)k * b) * log_q);
        sum += term;
        if (term * left < 1e-17 * sum)
            return sum;
    }
    return NAN;
}

static bool check_geometric(const void *params, const struct config *cfg, struct cfg_error *err)
{
    (void)params;
    if (cfg->workload.mean_length < 1) {
        cfg_blame(cfg, "workload.mean_length", err, "geometric lengths are whole flits >= 1: the mean must be "
                                                      "at least 1 (got %g)", cfg->workload.mean_length);
        return false;
    }
    return true;
}

/* --- bimodal --- */

struct bimodal_params {
    double short_length, long_length, long_fraction;
};

static const struct cfg_key bimodal_keys[] = {
    { "workload", "short_length", CFG_REAL, offsetof(struct bimodal_params, short_length), "1", 0, DBL_MAX, true, NULL,
      "bimodal: the short length" },
    { "workload", "long_length", CFG_REAL, offsetof(struct bimodal_params, long_length), "16", 0, DBL_MAX, true, NULL,
      "bimodal: the long length" },
    { "workload", "long_fraction", CFG_REAL, offsetof(struct bimodal_params, long_fraction), "0.1", 0, 1, false, NULL,
      "bimodal: probability that a message is long" },
};
static CFG_PARAM_TABLE(bimodal_param_table, struct bimodal_params, bimodal_keys);

/* Its state is a copy of its key values. */
static void *create_bimodal(const void *params, const struct config *cfg)
{
    (void)cfg;
    struct bimodal_params *b = malloc(sizeof *b);
    if (b)
        *b = *(const struct bimodal_params *)params;
    return b;
}

static double draw_bimodal(const void *state, struct rng *r)
{
    const struct bimodal_params *b = state;
    return rng_uniform(r) < b->long_fraction ? b->long_length : b->short_length;
}

static double flits_bimodal(const void *state, double bandwidth)
{
    const struct bimodal_params *b = state;
    double short_flits = msg_flits(b->short_length, bandwidth), long_flits = msg_flits(b->long_length, bandwidth);
    return short_flits + b->long_fraction * (long_flits - short_flits);
}

static double mean_bimodal(const void *params)
{
    const struct bimodal_params *p = params;
    return (1 - p->long_fraction) * p->short_length + p->long_fraction * p->long_length;
}

/* --- empirical --- */

struct empirical_params {
    struct cfg_list lengths, weights;
};

static const struct cfg_key empirical_keys[] = {
    { "workload", "empirical_lengths", CFG_LIST, offsetof(struct empirical_params, lengths), "", 0, DBL_MAX, true, NULL,
      "empirical: the possible lengths" },
    { "workload", "empirical_weights", CFG_LIST, offsetof(struct empirical_params, weights), "", 0, DBL_MAX, false, NULL,
      "empirical: their weights (relative frequencies, one per length)" },
};
static CFG_PARAM_TABLE(empirical_param_table, struct empirical_params, empirical_keys);

/* The lengths and their cumulative probabilities, exactly 1 from the last length of
 * positive weight on, so that inversion with u < 1 never passes it. */
struct empirical {
    uint32_t count;
    double length[CFG_LIST_MAX], cdf[CFG_LIST_MAX];
};

/* From a checked block (check_empirical): one weight per length, a positive total. */
static void *create_empirical(const void *params, const struct config *cfg)
{
    (void)cfg;
    const struct empirical_params *p = params;
    const struct cfg_list *l = &p->lengths, *w = &p->weights;
    struct empirical *e = malloc(sizeof *e);
    if (!e)
        return NULL;
    double total = 0, sum = 0;
    uint32_t last = 0;
    for (uint32_t i = 0; i < w->count; i++) {
        total += w->value[i];
        if (w->value[i] > 0)
            last = i;
    }
    e->count = l->count;
    for (uint32_t i = 0; i < CFG_LIST_MAX; i++) {
        sum += i < w->count ? w->value[i] : 0;
        e->cdf[i] = i >= last ? 1 : sum / total;
        e->length[i] = i < l->count ? l->value[i] : 0;
    }
    return e;
}

/* Inversion on the cumulative probabilities (tables are short, at most CFG_LIST_MAX
 * entries: a linear scan). */
static double draw_empirical(const void *state, struct rng *r)
{
    const struct empirical *e = state;
    double u = rng_uniform(r);
    uint32_t i = 0;
    while (i + 1 < e->count && u >= e->cdf[i])
        i++;
    return e->length[i];
}

/* Each length with the probability its draw has: the step of the cumulative table. */
static double flits_empirical(const void *state, double bandwidth)
{
    const struct empirical *e = state;
    double sum = 0, below = 0;
    for (uint32_t i = 0; i < e->count; i++) {
        sum += (e->cdf[i] - below) * msg_flits(e->length[i], bandwidth);
        below = e->cdf[i];
    }
    return sum;
}

static bool check_empirical(const void *params, const struct config *cfg, struct cfg_error *err)
{
    const struct empirical_params *p = params;
    const struct cfg_list *l = &p->lengths, *w = &p->weights;
    if (l->count == 0) {
        cfg_blame(cfg, "workload.empirical_lengths", err, "empirical lengths need a list of lengths");
        return false;
    }
    if (w->count != l->count) {
        cfg_blame(cfg, "workload.empirical_weights", err, "%u weights for %u lengths: give one weight per length",
                  w->count, l->count);
        return false;
    }
    double total = 0;
    for (uint32_t i = 0; i < w->count; i++)
        total += w->value[i];
    if (!(total > 0)) {
        cfg_blame(cfg, "workload.empirical_weights", err, "the weights add up to 0");
        return false;
    }
    return true;
}

static double mean_empirical(const void *params)
{
    const struct empirical_params *p = params;
    double sum = 0, total = 0;
    for (uint32_t i = 0; i < p->lengths.count; i++) {
        sum += p->lengths.value[i] * p->weights.value[i];
        total += p->weights.value[i];
    }
    return sum / total;
}

const struct length_ops length_exponential = {
    .name = "exponential",
    .help = "continuous, exponentially distributed with mean workload.mean_length",
    .traits = LENGTH_EXPONENTIAL,
    .create = create_mean,
    .draw = draw_exponential,
    .mean_flits = flits_exponential,
    .free = free,
};

const struct length_ops length_fixed = {
    .name = "fixed",
    .help = "every message exactly workload.mean_length long",
    .traits = LENGTH_FIXED,
    .create = create_mean,
    .draw = draw_fixed,
    .mean_flits = flits_fixed,
    .free = free,
};

/* The name before `fixed`: kept so that existing configurations (seed 004's) still read. */
const struct length_ops length_constant = {
    .name = "constant",
    .help = "the same as fixed",
    .traits = LENGTH_FIXED,
    .create = create_mean,
    .draw = draw_fixed,
    .mean_flits = flits_fixed,
    .free = free,
};

const struct length_ops length_geometric = {
    .name = "geometric",
    .help = "whole flits: P(L = j) = (1-q) q^(j-1), j >= 1, q = 1 - 1/workload.mean_length (mean >= 1)",
    .check = check_geometric,
    .create = create_geometric,
    .draw = draw_geometric,
    .mean_flits = flits_geometric,
    .free = free,
};

const struct length_ops length_bimodal = {
    .name = "bimodal",
    .help = "workload.long_length with probability workload.long_fraction, else workload.short_length "
            "(mean_length follows)",
    .params = &bimodal_param_table,
    .implied_mean = mean_bimodal,
    .create = create_bimodal,
    .draw = draw_bimodal,
    .mean_flits = flits_bimodal,
    .free = free,
};

const struct length_ops length_empirical = {
    .name = "empirical",
    .help = "workload.empirical_lengths[i] with probability proportional to workload.empirical_weights[i] "
            "(mean_length follows)",
    .params = &empirical_param_table,
    .check = check_empirical,
    .implied_mean = mean_empirical,
    .create = create_empirical,
    .draw = draw_empirical,
    .mean_flits = flits_empirical,
    .free = free,
};
