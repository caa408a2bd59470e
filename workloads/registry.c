/* Workload registries: adding an arrival process, destination pattern or length
 * distribution is one file (or function) and one line here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/core/registry.h"
#include "workload.h"

extern const struct arrival_ops arrival_poisson, arrival_bernoulli, arrival_batch_geometric, arrival_deterministic,
    arrival_trace, arrival_on_off, arrival_netrace;
extern const struct dest_ops dest_uniform, dest_uniform_with_self, dest_cluster_locality, dest_fixed_hops,
    dest_spherical, dest_distance_locality, dest_hotspot, dest_complement, dest_reversal, dest_transpose,
    dest_shuffle, dest_tornado, dest_neighbor, dest_random_permutation, dest_group_shift;
extern const struct length_ops length_exponential, length_fixed, length_constant, length_geometric, length_bimodal,
    length_empirical;

static const struct arrival_ops *const arrivals[] = {
    &arrival_poisson, &arrival_bernoulli, &arrival_batch_geometric, &arrival_deterministic, &arrival_trace,
    &arrival_on_off, &arrival_netrace,
};
static const struct dest_ops *const destinations[] = {
    &dest_uniform,    &dest_uniform_with_self, &dest_cluster_locality, &dest_fixed_hops, &dest_spherical,
    &dest_distance_locality, &dest_hotspot,   &dest_complement,       &dest_reversal,   &dest_transpose,
    &dest_shuffle,    &dest_tornado,           &dest_neighbor,         &dest_random_permutation, &dest_group_shift,
};
static const struct length_ops *const lengths[] = {
    &length_exponential, &length_fixed, &length_constant, &length_geometric, &length_bimodal, &length_empirical,
};

REGISTRY_DEFINE_PLUGINS(struct arrival_ops, arrivals, arrival_find, arrival_choices);
REGISTRY_DEFINE_PLUGINS(struct dest_ops, destinations, dest_find, dest_choices);
REGISTRY_DEFINE_PLUGINS(struct length_ops, lengths, length_find, length_choices);

bool workload_check(const struct config *cfg, double *mean_length, struct cfg_error *err)
{
    const struct arrival_ops *arrival = arrival_find(cfg->workload.arrival);
    const struct length_ops *length = length_find(cfg->workload.length);
    const void *length_params = cfg_params(cfg, length->params);
    if (length->check && !length->check(length_params, cfg, err))
        return false;
    *mean_length = cfg->workload.mean_length;
    if (length->implied_mean) {
        double mean = length->implied_mean(length_params);
        if (cfg_is_set(cfg, "workload.mean_length") && fabs(mean - cfg->workload.mean_length) > 1e-12 * mean) {
            cfg_blame(cfg, "workload.mean_length", err, "%s lengths have mean %.17g; leave mean_length out or "
                      "set it to that", cfg->workload.length, mean);
            return false;
        }
        *mean_length = mean;
    }
    if ((arrival->traits & ARRIVAL_REPLAY) && !cfg_text(cfg, "workload.trace")[0]) {
        cfg_blame(cfg, "workload.arrival", err, "%s arrivals need workload.trace = FILE", arrival->name);
        return false;
    }
    if (!(arrival->traits & ARRIVAL_REPLAY) && cfg_text(cfg, "workload.trace")[0]) {
        cfg_blame(cfg, "workload.trace", err, "a trace is replayed only with workload.arrival = trace or netrace");
        return false;
    }
    return true;
}

bool workload_check_arrival(const struct config *cfg, struct cfg_error *err)
{
    const struct arrival_ops *arrival = arrival_find(cfg->workload.arrival);
    return !arrival->check || arrival->check(cfg, err);
}

bool dest_lattice(const struct topo *t, const struct config *cfg, struct dest_lattice *out)
{
    unsigned traits = t->ops->traits;
    if (traits & TOPO_BINARY_HYPERCUBE)
        *out = (struct dest_lattice){ .radix = 2, .wrap = true };
    else if (traits & TOPO_KARY_NCUBE) /* the torus family refuses wrap = false */
        *out = (struct dest_lattice){ .radix = t->lattice.radix, .wrap = t->lattice.wrap };
    else
        return false;
    out->dims = (uint32_t)cfg->network.dimension;
    return true;
}

bool dest_init(struct destinations *d, const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    *d = (struct destinations){ .ops = dest_find(cfg->workload.destination), .topo = t };
    if (d->ops->init && !d->ops->init(d, cfg_params(cfg, d->ops->params), cfg, err)) {
        dest_free(d);
        return false;
    }
    return true;
}

void dest_free(struct destinations *d)
{
    if (d->impl)
        d->ops->free(d->impl);
    d->impl = NULL;
}

bool length_init(struct lengths *l, const struct config *cfg)
{
    *l = (struct lengths){ .ops = length_find(cfg->workload.length) };
    l->state = l->ops->create(cfg_params(cfg, l->ops->params), cfg);
    return l->state != NULL;
}

double length_mean_flits(const struct lengths *l, double bandwidth)
{
    return l->ops->mean_flits ? l->ops->mean_flits(l->state, bandwidth) : NAN;
}

void length_free(struct lengths *l)
{
    if (l->state)
        l->ops->free(l->state);
    l->state = NULL;
}
