/* The topology registry: adding a topology is one file and one line here. */
#include "../sim/registry.h"
#include "topo.h"

extern const struct topo_ops topo_hypercube;

static const struct topo_ops *const topologies[] = {
    &topo_hypercube,
};

REGISTRY_DEFINE(struct topo_ops, topologies, topo_find, topo_choices);

bool topo_build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    memset(t, 0, sizeof *t);
    t->ops = topo_find(cfg->network.topology);
    t->bandwidth = cfg->network.bandwidth;
    return t->ops->build(t, cfg, err);
}

void topo_free(struct topo *t)
{
    if (t->ops && t->ops->free)
        t->ops->free(t);
    t->impl = NULL;
}
