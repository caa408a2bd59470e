/* On-off (bursty) arrivals: a two-state Markov-modulated Bernoulli source, as the
 * reference simulator's `on_off` injection process.  Each cycle the source's state
 * moves first (off -> on with probability alpha = workload.burst_alpha, on -> off with
 * beta = workload.burst_beta), then, if on, a message arrives with probability
 * r1 = p (alpha + beta) / alpha, so that the long-run rate is p = workload.rate (the
 * source is on a fraction alpha / (alpha + beta) of the cycles; an on period lasts
 * 1/beta cycles on average).  Right after an arrival the source is on, so the gaps
 * between arrivals are independent and identically distributed: each is drawn by
 * walking the chain a geometric run at a time; the first starts from the stationary
 * state.  Event-driven engines only (the counts of successive cycles are dependent). */
#include <math.h>
#include <stddef.h>

#include "../sim/core/params.h"
#include "workload.h"

struct on_off_params {
    double alpha, beta;
};

static const struct cfg_key on_off_keys[] = {
    { "workload", "burst_alpha", CFG_REAL, offsetof(struct on_off_params, alpha), "0.1", 0, 1, true, NULL,
      "on-off: probability per cycle that an off source turns on" },
    { "workload", "burst_beta", CFG_REAL, offsetof(struct on_off_params, beta), "0.1", 0, 1, false, NULL,
      "on-off: probability per cycle that an on source turns off (mean on period 1/beta cycles)" },
};
static CFG_PARAM_TABLE(on_off_param_table, struct on_off_params, on_off_keys);

/* Geometric count of failures before a success of probability 1 - q (q: continue). */
static double failures(double q, struct rng *r)
{
    return q <= 0 ? 0 : floor(log(rng_uniform(r)) / log(q));
}

/* Cycles from a cycle whose state is `on` to the next arrival. */
static double walk(const struct config *cfg, bool on, struct rng *r)
{
    const struct on_off_params *p = cfg_params(cfg, &on_off_param_table);
    double r1 = cfg_message_rate(cfg) * (p->alpha + p->beta) / p->alpha, gap = 0;
    for (;;) {
        if (on) { /* per cycle: stay and no arrival (continue), stay and arrive, or turn off */
            double stay_arrive = (1 - p->beta) * r1, q = (1 - p->beta) * (1 - r1);
            gap += failures(q, r) + 1;
            if (rng_uniform(r) * (1 - q) < stay_arrive)
                return gap;
            on = false;
        } else { /* off until the cycle it turns on, which may already bring an arrival */
            gap += failures(1 - p->alpha, r) + 1;
            if (rng_uniform(r) < r1)
                return gap;
            on = true;
        }
    }
}

static double interarrival(const struct config *cfg, struct rng *r) { return walk(cfg, true, r); }

static double first(const struct config *cfg, struct rng *r)
{
    const struct on_off_params *p = cfg_params(cfg, &on_off_param_table);
    return walk(cfg, rng_uniform(r) * (p->alpha + p->beta) < p->alpha, r);
}

static bool check(const struct config *cfg, struct cfg_error *err)
{
    const struct on_off_params *p = cfg_params(cfg, &on_off_param_table);
    double r1 = cfg_message_rate(cfg) * (p->alpha + p->beta) / p->alpha;
    if (r1 > 1) {
        cfg_blame(cfg, "workload.rate", err, "on-off arrivals: while on a source would need %g messages per cycle "
                  "(rate (alpha + beta) / alpha); at most 1: lower the rate or raise burst_alpha", r1);
        return false;
    }
    return true;
}

const struct arrival_ops arrival_on_off = {
    .name = "on-off",
    .help = "bursty: a two-state Markov-modulated Bernoulli source (burst_alpha off -> on, burst_beta on -> off per "
            "cycle), long-run rate workload.rate; event-driven engines",
    .params = &on_off_param_table,
    .traits = ARRIVAL_WHOLE_TIMES,
    .interarrival = interarrival,
    .first = first,
    .check = check,
};
