/* Message length distributions, in length units (a channel moves `bandwidth` of
 * them per time unit; flit-level engines count whole flits). */
#include <math.h>
#include <float.h>
#include <stddef.h>

#include "../sim/core/params.h"

#include "workload.h"

static double draw_exponential(const struct config *cfg, const void *params, struct rng *r)
{
    (void)params;
    return rng_exponential(r, cfg->workload.mean_length);
}

static double draw_fixed(const struct config *cfg, const void *params, struct rng *r)
{
    (void)params;
    (void)r;
    return cfg->workload.mean_length;
}

/* P(L = j) = (1 - q) q^(j-1), j >= 1, q = 1 - 1/mean: by inversion, L - 1 =
 * floor(log U / log q) has P(L - 1 >= j) = q^j. */
static double draw_geometric(const struct config *cfg, const void *params, struct rng *r)
{
    (void)params;
    double q = 1 - 1 / cfg->workload.mean_length;
    if (q <= 0)
        return 1;
    return 1 + floor(log(rng_uniform(r)) / log(q));
}

static bool check_geometric(struct config *cfg, struct cfg_error *err)
{
    if (cfg->workload.mean_length < 1) {
        cfg_blame(cfg, "workload.mean_length", err, "geometric lengths are whole flits >= 1: the mean must be "
                                                      "at least 1 (got %g)", cfg->workload.mean_length);
        return false;
    }
    return true;
}

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

static double draw_bimodal(const struct config *cfg, const void *params, struct rng *r)
{
    (void)cfg;
    const struct bimodal_params *p = params;
    return rng_uniform(r) < p->long_fraction ? p->long_length : p->short_length;
}

static double mean_bimodal(const struct config *cfg)
{
    const struct bimodal_params *p = cfg_params(cfg, &bimodal_param_table);
    return (1 - p->long_fraction) * p->short_length + p->long_fraction * p->long_length;
}

struct empirical_params {
    struct cfg_list lengths, weights;
    /* Not a key: the cumulative probabilities check_empirical() derives, exactly 1
     * from the last length of positive weight on, so that inversion with u < 1 never
     * passes it. */
    double cdf[CFG_LIST_MAX];
};

static const struct cfg_key empirical_keys[] = {
    { "workload", "empirical_lengths", CFG_LIST, offsetof(struct empirical_params, lengths), "", 0, DBL_MAX, true, NULL,
      "empirical: the possible lengths" },
    { "workload", "empirical_weights", CFG_LIST, offsetof(struct empirical_params, weights), "", 0, DBL_MAX, false, NULL,
      "empirical: their weights (relative frequencies, one per length)" },
};
static CFG_PARAM_TABLE(empirical_param_table, struct empirical_params, empirical_keys);

/* Inversion on the cumulative probabilities (tables are short, at most CFG_LIST_MAX
 * entries: a linear scan, bounded even if never checked). */
static double draw_empirical(const struct config *cfg, const void *params, struct rng *r)
{
    (void)cfg;
    const struct empirical_params *p = params;
    double u = rng_uniform(r);
    uint32_t i = 0;
    while (i + 1 < p->lengths.count && u >= p->cdf[i])
        i++;
    return p->lengths.value[i];
}

static bool check_empirical(struct config *cfg, struct cfg_error *err)
{
    struct empirical_params *p = cfg_params_mut(cfg, &empirical_param_table);
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
    double total = 0, sum = 0;
    uint32_t last = 0;
    for (uint32_t i = 0; i < w->count; i++) {
        total += w->value[i];
        if (w->value[i] > 0)
            last = i;
    }
    if (!(total > 0)) {
        cfg_blame(cfg, "workload.empirical_weights", err, "the weights add up to 0");
        return false;
    }
    for (uint32_t i = 0; i < CFG_LIST_MAX; i++) {
        sum += i < w->count ? w->value[i] : 0;
        p->cdf[i] = i >= last ? 1 : sum / total;
    }
    return true;
}

static double mean_empirical(const struct config *cfg)
{
    const struct empirical_params *p = cfg_params(cfg, &empirical_param_table);
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
    .draw = draw_exponential,
};

const struct length_ops length_fixed = {
    .name = "fixed",
    .help = "every message exactly workload.mean_length long",
    .traits = LENGTH_FIXED,
    .draw = draw_fixed,
};

/* The name before `fixed`: kept so that existing configurations (seed 004's) still read. */
const struct length_ops length_constant = {
    .name = "constant",
    .help = "the same as fixed",
    .traits = LENGTH_FIXED,
    .draw = draw_fixed,
};

const struct length_ops length_geometric = {
    .name = "geometric",
    .help = "whole flits: P(L = j) = (1-q) q^(j-1), j >= 1, q = 1 - 1/workload.mean_length (mean >= 1)",
    .draw = draw_geometric,
    .check = check_geometric,
};

const struct length_ops length_bimodal = {
    .name = "bimodal",
    .help = "workload.long_length with probability workload.long_fraction, else workload.short_length "
            "(mean_length follows)",
    .params = &bimodal_param_table,
    .draw = draw_bimodal,
    .implied_mean = mean_bimodal,
};

const struct length_ops length_empirical = {
    .name = "empirical",
    .help = "workload.empirical_lengths[i] with probability proportional to workload.empirical_weights[i] "
            "(mean_length follows)",
    .params = &empirical_param_table,
    .draw = draw_empirical,
    .check = check_empirical,
    .implied_mean = mean_empirical,
};
