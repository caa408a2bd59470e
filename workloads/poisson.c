/* Poisson arrivals: exponential inter-arrival times of mean 1 / workload.rate. */
#include "workload.h"

static double interarrival(const struct config *cfg, struct rng *r)
{
    return rng_exponential(r, 1.0 / cfg->workload.rate);
}

const struct arrival_ops arrival_poisson = {
    .name = "poisson",
    .help = "each node creates messages as a Poisson process of rate workload.rate",
    .poisson = true,
    .interarrival = interarrival,
};
