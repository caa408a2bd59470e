#include "run_config.h"

#include "../../analytic/model.h"
#include "../../protocols/protocol.h"
#include "../../routing/routing.h"
#include "../../topo/topo.h"
#include "../../workloads/workload.h"

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
