/* Routing and switching registries: adding one is one file and one line here. */
#include "../sim/registry.h"
#include "routing.h"

extern const struct route_ops route_ecube, route_random_minimal;
extern const struct switch_ops switch_store_and_forward, switch_cut_through, switch_wormhole;

static const struct route_ops *const algorithms[] = {
    &route_ecube,
    &route_random_minimal,
};
static const struct switch_ops *const switchings[] = {
    &switch_store_and_forward,
    &switch_cut_through,
    &switch_wormhole,
};

REGISTRY_DEFINE(struct route_ops, algorithms, route_find, route_choices);
REGISTRY_DEFINE(struct switch_ops, switchings, switch_find, switch_choices);
