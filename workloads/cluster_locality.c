/* Cluster locality (seed 000, Sec. III-A): with probability α the destination is
 * uniform over the source's own cluster, the source itself included (a
 * self-addressed message is delivered at once with delay 0); otherwise it is uniform
 * over the nodes of the other clusters.  Clusters come from the topology: the
 * hierarchical networks' own, or the hypercube's subcubes of cluster_dimension. */
#include "workload.h"

static bool init(struct destinations *d, const struct config *cfg, struct cfg_error *err)
{
    const struct topo *t = d->topo;
    if (t->cluster_size == 0) {
        cfg_blame(cfg, KEY_WORKLOAD_DESTINATION, err,
                  "cluster-locality needs clusters: a bh-* network, or a hypercube with cluster_dimension <= "
                  "dimension");
        return false;
    }
    if (t->cluster_size == t->nodes && cfg->workload.locality < 1) {
        cfg_blame(cfg, KEY_NETWORK_CLUSTER_DIMENSION, err,
                  "cluster-locality with locality < 1 needs at least two clusters (cluster_dimension < dimension)");
        return false;
    }
    d->locality = cfg->workload.locality;
    return true;
}

static uint32_t pick(const struct destinations *d, uint32_t src, struct rng *r)
{
    uint32_t n = d->topo->cluster_size, first = src / n * n;
    if (rng_uniform(r) < d->locality)
        return first + (uint32_t)rng_below(r, n);
    uint32_t x = (uint32_t)rng_below(r, d->topo->nodes - n);
    return x >= first ? x + n : x;
}

static double prob(const struct destinations *d, uint32_t src, uint32_t dst)
{
    uint32_t n = d->topo->cluster_size;
    if (src / n == dst / n)
        return d->locality / n;
    return (1 - d->locality) / (d->topo->nodes - n);
}

const struct dest_ops dest_cluster_locality = {
    .name = "cluster-locality",
    .help = "own cluster (source included) with probability workload.locality, else uniform over the other "
            "clusters",
    .traits = DEST_CLUSTER_LOCALITY | DEST_TRANSLATION_INVARIANT | DEST_MAY_PICK_SOURCE,
    .init = init,
    .pick = pick,
    .prob = prob,
};
