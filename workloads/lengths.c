/* Message length distributions, in length units (a channel moves `bandwidth` of
 * them per time unit; flit-level engines count whole flits). */
#include <math.h>

#include "workload.h"

static double draw_exponential(const struct config *cfg, struct rng *r)
{
    return rng_exponential(r, cfg->workload.mean_length);
}

static double draw_fixed(const struct config *cfg, struct rng *r)
{
    (void)r;
    return cfg->workload.mean_length;
}

/* P(L = j) = (1 - q) q^(j-1), j >= 1, q = 1 - 1/mean: by inversion, L - 1 =
 * floor(log U / log q) has P(L - 1 >= j) = q^j. */
static double draw_geometric(const struct config *cfg, struct rng *r)
{
    double q = 1 - 1 / cfg->workload.mean_length;
    if (q <= 0)
        return 1;
    return 1 + floor(log(rng_uniform(r)) / log(q));
}

static bool check_geometric(const struct config *cfg, struct cfg_error *err)
{
    if (cfg->workload.mean_length < 1) {
        cfg_blame(cfg, KEY_WORKLOAD_MEAN_LENGTH, err, "geometric lengths are whole flits >= 1: the mean must be "
                                                      "at least 1 (got %g)", cfg->workload.mean_length);
        return false;
    }
    return true;
}

static double draw_bimodal(const struct config *cfg, struct rng *r)
{
    return rng_uniform(r) < cfg->workload.long_fraction ? cfg->workload.long_length : cfg->workload.short_length;
}

static double mean_bimodal(const struct config *cfg)
{
    double f = cfg->workload.long_fraction;
    return (1 - f) * cfg->workload.short_length + f * cfg->workload.long_length;
}

/* Inversion on the cumulative probabilities workload_check() derived (exactly 1 from
 * the last length of positive weight on, and u < 1, so the scan stops there, never on
 * a length of weight 0); tables are short (at most CFG_LIST_MAX entries): a linear scan. */
static double draw_empirical(const struct config *cfg, struct rng *r)
{
    const struct cfg_list *lengths = &cfg->workload.empirical_lengths;
    double u = rng_uniform(r);
    uint32_t i = 0;
    while (i + 1 < lengths->count && u >= cfg->workload.empirical_cdf[i]) /* bounded even if never checked */
        i++;
    return lengths->value[i];
}

static bool check_empirical(const struct config *cfg, struct cfg_error *err)
{
    const struct cfg_list *l = &cfg->workload.empirical_lengths, *w = &cfg->workload.empirical_weights;
    if (l->count == 0) {
        cfg_blame(cfg, KEY_WORKLOAD_EMPIRICAL_LENGTHS, err, "empirical lengths need a list of lengths");
        return false;
    }
    if (w->count != l->count) {
        cfg_blame(cfg, KEY_WORKLOAD_EMPIRICAL_WEIGHTS, err, "%u weights for %u lengths: give one weight per length",
                  w->count, l->count);
        return false;
    }
    double total = 0;
    for (uint32_t i = 0; i < w->count; i++)
        total += w->value[i];
    if (!(total > 0)) {
        cfg_blame(cfg, KEY_WORKLOAD_EMPIRICAL_WEIGHTS, err, "the weights add up to 0");
        return false;
    }
    return true;
}

static double mean_empirical(const struct config *cfg)
{
    const struct cfg_list *l = &cfg->workload.empirical_lengths, *w = &cfg->workload.empirical_weights;
    double sum = 0, total = 0;
    for (uint32_t i = 0; i < l->count; i++) {
        sum += l->value[i] * w->value[i];
        total += w->value[i];
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
    .draw = draw_bimodal,
    .implied_mean = mean_bimodal,
};

const struct length_ops length_empirical = {
    .name = "empirical",
    .help = "workload.empirical_lengths[i] with probability proportional to workload.empirical_weights[i] "
            "(mean_length follows)",
    .draw = draw_empirical,
    .check = check_empirical,
    .implied_mean = mean_empirical,
};
