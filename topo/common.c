/* What every topology shares: building by name, bandwidths, mean distance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"

bool topo_build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    memset(t, 0, sizeof *t);
    t->ops = topo_find(cfg->network.topology);
    topo_set_uniform_bandwidth(t, cfg->network.bandwidth);
    if (!t->ops->build(t, cfg, err))
        return false;
    if (cfg->network.concentration > 1 && !(t->ops->traits & TOPO_OWN_TERMINALS)) {
        if (!(t->ops->traits & (TOPO_BINARY_HYPERCUBE | TOPO_KARY_NCUBE))) {
            cfg_blame(cfg, "network.concentration", err, "%s takes no terminals of its own: 1 only (hypercubes, "
                      "k-ary n-cubes, hyperx, slim-fly and the dragonfly take more)", t->ops->name);
            topo_free(t);
            return false;
        }
        if (!topo_concentrate(t, cfg, err)) {
            topo_free(t);
            return false;
        }
    }
    t->derived = calloc(1, sizeof *t->derived);
    if (!t->derived) {
        cfg_blame(cfg, "network.topology", err, "out of memory");
        topo_free(t);
        return false;
    }
    if (!t->terminals) { /* every node a terminal and a router (the seeds' networks) */
        t->terminals = t->routers = t->nodes;
        t->group_terminals = t->cluster_size < t->nodes ? t->cluster_size : 0; /* clusters, if any */
        t->router_degree = t->degree;
        t->router_diameter = t->diameter;
    }
    return true;
}

void topo_free(struct topo *t)
{
    if (t->ops && t->ops->free)
        t->ops->free(t);
    t->impl = NULL;
    if (t->derived && t->derived->free)
        t->derived->free(t->derived->tables);
    free(t->derived);
    t->derived = NULL;
}

bool topo_sets_latencies(const struct topo *t)
{
    for (uint32_t ch = 0; t->ops->channel_latency && ch < t->channels; ch++)
        if (t->ops->channel_latency(t, ch))
            return true;
    return false;
}

void topo_set_uniform_bandwidth(struct topo *t, double bw)
{
    for (unsigned c = 0; c < TOPO_MAX_CLASSES; c++)
        t->class_bandwidth[c] = bw;
    t->uniform_bandwidth = true;
}

double topo_mean_distance(const struct topo *t, uint32_t max_pairs_nodes)
{
    if (t->nodes < 2)
        return 0;
    double sum = 0;
    if (t->transitive) { /* every node sees the same distances */
        for (uint32_t d = 1; d < t->nodes; d++)
            sum += t->ops->distance(t, 0, d);
        return sum / (t->nodes - 1);
    }
    if (t->ops->mean_distance)
        return t->ops->mean_distance(t);
    if (t->nodes > max_pairs_nodes)
        return -1;
    for (uint32_t s = 0; s < t->nodes; s++)
        for (uint32_t d = 0; d < t->nodes; d++)
            sum += t->ops->distance(t, s, d);
    return sum / ((double)t->nodes * (t->nodes - 1));
}

bool topo_bisection(const struct topo *t, struct topo_bisection *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    int8_t *side = malloc(t->nodes);
    if (!side) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    bool closed = t->ops->bisection_side && t->ops->bisection_side(t, 0) >= 0;
    for (uint32_t x = 0; closed && x < t->nodes; x++)
        side[x] = (int8_t)t->ops->bisection_side(t, x);
    if (!closed && !topo_bisection_search(t, side)) {
        snprintf(why, why_size, "none in closed form %s, and none searched for (%s)",
                 t->ops->bisection_side ? "for these parameters" : "for this family",
                 t->terminals % 2 ? "an odd number of terminals" : "over 4096 nodes, or out of memory");
        free(side);
        return false;
    }
    out->searched = !closed;
    uint64_t upper = 0;
    for (uint32_t x = 0; x < t->terminals; x++)
        upper += side[x] == 1;
    if (2 * upper != t->terminals) {
        snprintf(why, why_size, "the family's cut leaves %llu of %u terminals on one side", (unsigned long long)upper,
                 t->terminals);
        free(side);
        return false;
    }
    /* A channel crosses from side s when a node on side s reaches, over it, a node on the
     * other side; a shared channel (half-duplex link, bus) may cross both ways. */
    unsigned char *crosses = calloc(t->channels, 1);
    struct hop *hops = malloc((size_t)(t->max_hops ? t->max_hops : 1) * sizeof *hops);
    if (!crosses || !hops) {
        free(crosses);
        free(hops);
        free(side);
        snprintf(why, why_size, "out of memory");
        return false;
    }
    for (uint32_t x = 0; x < t->nodes; x++) {
        unsigned n = t->ops->neighbors(t, x, hops, t->max_hops);
        for (unsigned i = 0; i < n; i++)
            if (side[hops[i].next] != side[x])
                crosses[hops[i].channel] |= (unsigned char)(1u << side[x]);
    }
    for (uint32_t c = 0; c < t->channels; c++)
        for (int s = 0; s < 2; s++)
            if (crosses[c] & (1u << s)) { /* a channel serving both ways gives each half its bandwidth */
                out->channels[s]++;
                out->bandwidth[s] += topo_channel_bandwidth(t, c) / (crosses[c] == 3 ? 2 : 1);
            }
    free(crosses);
    free(hops);
    free(side);
    return true;
}
