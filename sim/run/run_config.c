#include "run_config.h"

#include "../../analytic/model.h"
#include "../../protocols/protocol.h"
#include "../../routing/engine.h"
#include "../../routing/routing.h"
#include "../../topo/topo.h"
#include "../../workloads/workload.h"
#include "../core/registry.h"

/* workload.rate_unit: plain names, the framework's own. */
struct rate_unit {
    const char *name, *help;
};
static const struct rate_unit messages_unit = { "messages", "messages per node per time unit" };
static const struct rate_unit flits_unit = { "flits", "flits per node per time unit (cycle), as NoC papers state "
                                                      "offered load" };
static const struct rate_unit *const rate_units[] = { &messages_unit, &flits_unit };
REGISTRY_DEFINE(struct rate_unit, rate_units, rate_unit_find, rate_unit_choices);

/* The order of this list is the order of the plug-ins' keys in --list, the config
 * echo and sweeps (within each section, after the framework's own keys). */
static const struct cfg_registry registries[] = {
    { "network.topology", &topo_choices },
    { "network.links", &link_choices },
    { "routing.algorithm", &route_choices },
    { "routing.switching", &switch_choices },
    { "protocol.link", &proto_choices },
    { "protocol.priority", &priority_choices },
    { "workload.destination", &dest_choices },
    { "workload.length", &length_choices },
    { "workload.arrival", &arrival_choices },
    { "workload.rate_unit", &rate_unit_choices },
    { NULL, &model_choices }, /* every model applies itself: no key chooses one */
};
static const struct cfg_schema schema = { registries, sizeof registries / sizeof registries[0] };

const struct cfg_schema *run_config_schema(void)
{
    return &schema;
}

void run_config_defaults(struct config *cfg)
{
    cfg_defaults(cfg, &schema);
}

bool run_config_load(struct config *cfg, const char *path, const char *const *overrides, size_t n_overrides,
                     struct cfg_error *err)
{
    if (!cfg_load(cfg, path, overrides, n_overrides, &schema, err))
        return false;
    for (size_t i = 0; i < model_registry_count; i++)
        if (model_registry[i]->check && !model_registry[i]->check(cfg, err))
            return false;
    return workload_check(cfg, err);
}

const char *run_engine_name(const struct config *cfg)
{
    const struct engine_ops *e = engine_select(cfg);
    return e ? e->name : "";
}
