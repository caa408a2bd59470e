/* Poisson arrivals: exponential inter-arrival times of mean 1 / workload.rate; in
 * slotted time a Poisson count of mean workload.rate per cycle. */
#include <math.h>

#include "workload.h"

static double interarrival(const struct config *cfg, struct rng *r)
{
    return rng_exponential(r, 1.0 / cfg_message_rate(cfg));
}

/* Knuth's product of uniforms: O(rate) draws, and per-cycle rates are small.
 * Rates beyond ~700 would underflow exp(-rate); the key's range keeps them out. */
static uint32_t per_cycle(const struct config *cfg, struct rng *r)
{
    double limit = exp(-cfg_message_rate(cfg)), product = rng_uniform(r);
    uint32_t count = 0;
    while (product > limit) {
        product *= rng_uniform(r);
        count++;
    }
    return count;
}

const struct arrival_ops arrival_poisson = {
    .name = "poisson",
    .help = "each node creates messages as a Poisson process of rate workload.rate",
    .traits = ARRIVAL_POISSON,
    .interarrival = interarrival,
    .per_cycle = per_cycle,
};
