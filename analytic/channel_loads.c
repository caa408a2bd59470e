#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../routing/routing.h"
#include "../workloads/workload.h"
#include "model.h"

/* Adds `weight` to every channel on the path src -> dst: per class (counts) or per channel. */
static void walk_path(const struct topo *t, const struct route_ops *route, uint32_t src, uint32_t dst, double weight,
                      double *per_class, double *per_channel)
{
    uint32_t at = src;
    while (at != dst) {
        struct hop h = route->next(t, at, dst, NULL);
        if (per_class)
            per_class[t->ops->channel_class(t, h.channel)] += weight;
        if (per_channel)
            per_channel[h.channel] += weight;
        at = h.next;
    }
}

static void finish(const struct config *cfg, const struct topo *t, struct channel_loads *l)
{
    double class_busy[TOPO_MAX_CLASSES] = { 0 };
    uint64_t class_channels[TOPO_MAX_CLASSES] = { 0 };
    l->max_utilization = 0;
    for (size_t i = 0; i < l->n_groups; i++) {
        const struct load_group *g = &l->groups[i];
        double u = g->rate * cfg->workload.mean_length / g->bandwidth;
        class_busy[g->cls] += u * (double)g->channels;
        class_channels[g->cls] += g->channels;
        if (u > l->max_utilization) {
            l->max_utilization = u;
            l->busiest_class = g->cls;
        }
    }
    for (unsigned c = 0; c < t->classes; c++)
        l->class_utilization[c] = class_channels[c] ? class_busy[c] / (double)class_channels[c] : 0;
}

static bool compute(const struct config *cfg, const struct topo *t, struct channel_loads *l, bool use_classes)
{
    memset(l, 0, sizeof *l);
    const struct route_ops *route = route_find(cfg->routing.algorithm);
    const struct dest_ops *dest = dest_find(cfg->workload.destination);
    double lambda = cfg->workload.rate;
    l->message_rate = lambda * t->nodes;
    if (!route->deterministic) {
        snprintf(l->why, sizeof l->why, "channel loads are computed for deterministic routing only");
        return false;
    }
    if (use_classes && t->ops->uniform_class_loads && dest->translation_invariant) {
        double class_hops[TOPO_MAX_CLASSES] = { 0 };
        for (uint32_t d = 1; d < t->nodes; d++)
            walk_path(t, route, 0, d, dest->prob(t, 0, d), class_hops, NULL);
        l->groups = calloc(t->classes, sizeof *l->groups);
        if (!l->groups)
            return false;
        for (unsigned c = 0; c < t->classes; c++) {
            uint64_t n = t->ops->channels_in_class(t, c);
            l->groups[c] = (struct load_group){ l->message_rate * class_hops[c] / (double)n, t->bandwidth, n, c };
            l->mean_hops += class_hops[c];
        }
        l->n_groups = t->classes;
    } else if (t->nodes <= LOADS_ENUMERATION_MAX_NODES) {
        double *rate = calloc(t->channels, sizeof *rate);
        l->groups = calloc(t->channels, sizeof *l->groups);
        if (!rate || !l->groups) {
            free(rate);
            return false;
        }
        double hops = 0;
        for (uint32_t s = 0; s < t->nodes; s++)
            for (uint32_t d = 0; d < t->nodes; d++) {
                double p = dest->prob(t, s, d);
                if (p > 0 && s != d) {
                    walk_path(t, route, s, d, lambda * p, NULL, rate);
                    hops += p * t->ops->distance(t, s, d);
                }
            }
        for (uint32_t ch = 0; ch < t->channels; ch++)
            l->groups[ch] = (struct load_group){ rate[ch], t->bandwidth, 1, t->ops->channel_class(t, ch) };
        l->n_groups = t->channels;
        l->mean_hops = hops / t->nodes;
        free(rate);
    } else {
        snprintf(l->why, sizeof l->why, "channel loads of an irregular network of more than %d nodes are not computed",
                 LOADS_ENUMERATION_MAX_NODES);
        return false;
    }
    finish(cfg, t, l);
    l->known = true;
    return true;
}

bool loads_compute(const struct config *cfg, const struct topo *t, struct channel_loads *l)
{
    return compute(cfg, t, l, true);
}

bool loads_compute_enumerated(const struct config *cfg, const struct topo *t, struct channel_loads *l)
{
    return compute(cfg, t, l, false);
}

void loads_free(struct channel_loads *l)
{
    free(l->groups);
    l->groups = NULL;
    l->n_groups = 0;
}
