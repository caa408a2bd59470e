/* Message length distributions, in length units (a channel moves `bandwidth` of
 * them per time unit). */
#include "workload.h"

static double draw_exponential(double mean, struct rng *r) { return rng_exponential(r, mean); }
static double draw_constant(double mean, struct rng *r)
{
    (void)r;
    return mean;
}

const struct length_ops length_exponential = {
    .name = "exponential",
    .help = "exponentially distributed with mean workload.mean_length",
    .exponential = true,
    .draw = draw_exponential,
};

const struct length_ops length_constant = {
    .name = "constant",
    .help = "every message exactly workload.mean_length long",
    .exponential = false,
    .draw = draw_constant,
};
