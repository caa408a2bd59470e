/* Deterministic arrivals: every node creates a message each 1/workload.rate time
 * units.  Its first message comes at a phase drawn uniformly in (0, 1/rate) from the
 * node's own arrival stream, so nodes are not synchronised (workload.first_at_zero =
 * true synchronises them at 0).  Event-driven only: the counts of successive cycles
 * are not independent, so there is no per_cycle. */
#include "workload.h"

static double interarrival(const struct config *cfg, struct rng *r)
{
    (void)r;
    return 1 / cfg_message_rate(cfg);
}

static double first(const struct config *cfg, struct rng *r) { return rng_uniform(r) / cfg_message_rate(cfg); }

const struct arrival_ops arrival_deterministic = {
    .name = "deterministic",
    .help = "a message every 1/workload.rate at each node; each node's phase uniform in (0, 1/rate) from its own "
            "stream",
    .interarrival = interarrival,
    .first = first,
};
