/* Workload registries: adding an arrival process, destination pattern or length
 * distribution is one file (or function) and one line here. */
#include "../sim/registry.h"
#include "workload.h"

extern const struct arrival_ops arrival_poisson;
extern const struct dest_ops dest_uniform;
extern const struct length_ops length_exponential, length_constant;

static const struct arrival_ops *const arrivals[] = {
    &arrival_poisson,
};
static const struct dest_ops *const destinations[] = {
    &dest_uniform,
};
static const struct length_ops *const lengths[] = {
    &length_exponential,
    &length_constant,
};

REGISTRY_DEFINE(struct arrival_ops, arrivals, arrival_find, arrival_choices);
REGISTRY_DEFINE(struct dest_ops, destinations, dest_find, dest_choices);
REGISTRY_DEFINE(struct length_ops, lengths, length_find, length_choices);
