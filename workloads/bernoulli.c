/* Bernoulli arrivals: one trial per cycle (time unit) with success probability
 * p = workload.rate <= 1.  Slotted engines: 0 or 1 message per cycle.  Event-driven
 * engines: the gaps are geometric whole cycles, P(G = g) = (1-p)^(g-1) p, g >= 1, so
 * messages appear at integer times, as a slotted run's would. */
#include <math.h>

#include "workload.h"

static double interarrival(const struct config *cfg, struct rng *r)
{
    double p = cfg_message_rate(cfg);
    if (p >= 1)
        return 1;
    /* Inversion: floor(log U / log(1-p)) has P(>= j) = (1-p)^j, the failures before a success. */
    return 1 + floor(log(rng_uniform(r)) / log1p(-p));
}

static uint32_t per_cycle(const struct config *cfg, struct rng *r)
{
    return rng_uniform(r) < cfg_message_rate(cfg);
}

static bool check(const struct config *cfg, struct cfg_error *err)
{
    if (cfg_message_rate(cfg) > 1) {
        cfg_blame(cfg, "workload.rate", err, "bernoulli arrivals: the rate is a probability per cycle, at most 1 "
                                               "(got %g)", cfg_message_rate(cfg));
        return false;
    }
    return true;
}

const struct arrival_ops arrival_bernoulli = {
    .name = "bernoulli",
    .help = "one trial per cycle with probability workload.rate (<= 1); event-driven: geometric whole-cycle gaps, "
            "messages at integer times",
    .traits = ARRIVAL_WHOLE_TIMES,
    .interarrival = interarrival,
    .per_cycle = per_cycle,
    .check = check,
};
