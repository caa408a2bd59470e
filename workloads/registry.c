/* Workload registries: adding an arrival process, destination pattern or length
 * distribution is one file (or function) and one line here. */
#include <stdlib.h>

#include "../sim/registry.h"
#include "workload.h"

extern const struct arrival_ops arrival_poisson, arrival_batch_geometric;
extern const struct dest_ops dest_uniform, dest_cluster_locality, dest_fixed_hops, dest_spherical;
extern const struct length_ops length_exponential, length_constant;

static const struct arrival_ops *const arrivals[] = {
    &arrival_poisson,
    &arrival_batch_geometric,
};
static const struct dest_ops *const destinations[] = {
    &dest_uniform,
    &dest_cluster_locality,
    &dest_fixed_hops,
    &dest_spherical,
};
static const struct length_ops *const lengths[] = {
    &length_exponential,
    &length_constant,
};

REGISTRY_DEFINE(struct arrival_ops, arrivals, arrival_find, arrival_choices);
REGISTRY_DEFINE(struct dest_ops, destinations, dest_find, dest_choices);
REGISTRY_DEFINE(struct length_ops, lengths, length_find, length_choices);

bool dest_init(struct destinations *d, const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    *d = (struct destinations){ .ops = dest_find(cfg->workload.destination), .topo = t };
    if (d->ops->init && !d->ops->init(d, cfg, err)) {
        dest_free(d);
        return false;
    }
    return true;
}

void dest_free(struct destinations *d)
{
    free(d->table);
    free(d->start);
    d->table = d->start = NULL;
}
