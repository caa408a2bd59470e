/* Cluster locality (seed 000, Sec. III-A): with probability α the destination is
 * uniform over the source's own cluster, the source itself included (a
 * self-addressed message is delivered at once with delay 0); otherwise it is uniform
 * over the nodes of the other clusters.  Clusters come from the topology: the
 * hierarchical networks' own, or the hypercube's subcubes of cluster_dimension. */
#include <stddef.h>
#include <stdlib.h>

#include "../sim/core/params.h"
#include "workload.h"

struct cluster_locality_params {
    double locality;
};

static const struct cfg_key cluster_locality_keys[] = {
    { "workload", "locality", CFG_REAL, offsetof(struct cluster_locality_params, locality), "0.8", 0, 1, false, NULL,
      "cluster-locality: probability α that the destination is in the source's cluster" },
};
/* Clusters are the topology's subcubes of 2^cluster_dimension nodes (a hierarchical network's own key). */
static const char *const cluster_locality_reads[] = { "network.cluster_dimension", NULL };
static CFG_PARAM_TABLE_READS(cluster_locality_param_table, struct cluster_locality_params, cluster_locality_keys,
                             cluster_locality_reads);

/* What it keeps: α and the cluster size, beside each other for pick(). */
struct cluster_locality {
    double locality;
    uint32_t cluster_size, nodes;
};

static bool init(struct destinations *d, const void *params, const struct config *cfg, struct cfg_error *err)
{
    const struct cluster_locality_params *p = params;
    const struct topo *t = d->topo;
    if (t->cluster_size == 0) {
        cfg_blame(cfg, "workload.destination", err,
                  "cluster-locality needs clusters: a bh-* network, or a hypercube with cluster_dimension <= "
                  "dimension");
        return false;
    }
    if (t->cluster_size == t->nodes && p->locality < 1) {
        cfg_blame(cfg, "network.cluster_dimension", err,
                  "cluster-locality with locality < 1 needs at least two clusters (cluster_dimension < dimension)");
        return false;
    }
    struct cluster_locality *c = malloc(sizeof *c);
    if (!c) {
        cfg_blame(cfg, "workload.destination", err, "out of memory");
        return false;
    }
    *c = (struct cluster_locality){ p->locality, t->cluster_size, t->nodes };
    d->impl = c;
    return true;
}

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    const struct cluster_locality *c = d->impl;
    uint32_t n = c->cluster_size, first = src / n * n;
    if (rng_uniform(r) < c->locality)
        return first + (uint32_t)rng_below(r, n);
    uint32_t x = (uint32_t)rng_below(r, c->nodes - n);
    return x >= first ? x + n : x;
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    const struct cluster_locality *c = d->impl;
    uint32_t n = c->cluster_size;
    if (src / n == dst / n)
        return c->locality / n;
    return (1 - c->locality) / (c->nodes - n);
}

const struct dest_ops dest_cluster_locality = {
    .name = "cluster-locality",
    .help = "own cluster (source included) with probability workload.locality, else uniform over the other "
            "clusters",
    .params = &cluster_locality_param_table,
    .traits = DEST_CLUSTER_LOCALITY | DEST_TRANSLATION_INVARIANT | DEST_MAY_PICK_SOURCE,
    .init = init,
    .pick = pick,
    .prob = prob,
    .free = free,
};
