/* Geometric batches (seed 001): each cycle a node creates G messages with
 * P(G = i) = (1 − α) α^i, i ≥ 0, α = λ / (1 + λ), so E[G] = λ = workload.rate.
 * Slotted only: there is no inter-arrival time to give an event-driven engine. */
#include <math.h>

#include "workload.h"

static uint32_t per_cycle(const struct config *cfg, struct rng *r)
{
    double alpha = cfg_message_rate(cfg) / (1.0 + cfg_message_rate(cfg));
    /* Inversion: G = floor(log U / log α) has P(G ≥ i) = α^i. */
    double g = floor(log(rng_uniform(r)) / log(alpha));
    return g >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)g;
}

const struct arrival_ops arrival_batch_geometric = {
    .name = "batch-geometric",
    .help = "slotted: each cycle a node creates a geometric batch, P(i) = (1-a) a^i, a = rate/(1+rate), mean workload.rate",
    .traits = ARRIVAL_GEOMETRIC_BATCHES | ARRIVAL_WHOLE_TIMES,
    .interarrival = NULL,
    .per_cycle = per_cycle,
};
