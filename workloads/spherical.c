/* Spherical traffic (seed 003, §1.6 of its note): the distance h of a destination is
 * drawn with probability P_h proportional to w_h = workload.distance_weights[h-1]
 * (distances past the list weigh 0; an empty list weighs every distance 1..diameter
 * equally, the note's reading P_h = 1/n on the n-cube), then the destination is
 * uniform over the nodes exactly h hops away.  From a source that has no node at some
 * distance (a mesh corner's farthest ones exist, its centre's do not) the weights of
 * the distances it has are renormalised.  So p(s, d) = P_s(h) / |{x : dist(s,x) = h}|
 * with h = dist(s, d), and the distance distribution is P exactly.
 * Vertex-transitive topologies keep one sorted list, from node 0, translated to each
 * source; the others keep one per source, so they are limited to
 * SPHERICAL_MAX_NODES nodes. */
#include <stdlib.h>
#include <float.h>
#include <stddef.h>

#include "../sim/core/params.h"
#include "workload.h"

struct spherical_params {
    struct cfg_list distance_weights;
};

static const struct cfg_key spherical_keys[] = {
    { "workload", "distance_weights", CFG_LIST, offsetof(struct spherical_params, distance_weights), "", 0, DBL_MAX, false, NULL,
      "spherical: weights of distances 1, 2, ... (missing ones 0); empty: every distance up to the diameter "
      "equally likely" },
};
static CFG_PARAM_TABLE(spherical_param_table, struct spherical_params, spherical_keys);

enum { SPHERICAL_MAX_NODES = 1024 };

/* What it keeps, per row (node 0 when translated, else every source): the other nodes
 * sorted by distance, where each distance starts (diameter + 2 per row), and the
 * probability of each distance with its alias table (diameter + 1 per row). */
struct spherical {
    uint32_t *by_distance, *distance_start, *distance_alias;
    double *distance_prob, *distance_threshold;
    bool per_source;
};

static void release(void *impl)
{
    struct spherical *sp = impl;
    free(sp->by_distance);
    free(sp->distance_start);
    free(sp->distance_prob);
    free(sp->distance_threshold);
    free(sp->distance_alias);
    free(sp);
}

/* Walker's alias method (Vose's construction): column j of n is kept with
 * probability threshold[j], else replaced by alias[j]; column j then comes out with
 * probability p[j] overall, from one uniform and no search. */
static bool build_alias(const double *p, unsigned n, double *threshold, uint32_t *alias)
{
    unsigned *small = malloc(2 * (size_t)n * sizeof *small), *large = small + n, ns = 0, nl = 0;
    if (!small)
        return false;
    for (unsigned j = 0; j < n; j++) {
        threshold[j] = p[j] * n;
        alias[j] = j;
        if (threshold[j] < 1)
            small[ns++] = j;
        else
            large[nl++] = j;
    }
    while (ns > 0 && nl > 0) {
        unsigned s = small[--ns], l = large[nl - 1];
        alias[s] = l;
        threshold[l] -= 1 - threshold[s];
        if (threshold[l] < 1) {
            nl--;
            small[ns++] = l;
        }
    }
    while (nl > 0) /* rounding leftovers (columns of positive mass): exactly 1 */
        threshold[large[--nl]] = 1;
    while (ns > 0)
        threshold[small[--ns]] = 1;
    free(small);
    return true;
}

/* Fills row `row` (source src): its nodes by distance, where each distance starts,
 * P_src(h) and its alias table.  False when no distance of positive weight exists
 * from src (*no_weight set) or out of memory. */
static bool fill_row(struct spherical *d, const struct topo *t, const struct cfg_list *w, uint32_t row, uint32_t src,
                     bool *no_weight)
{
    unsigned diameter = t->diameter;
    uint32_t *start = d->distance_start + (size_t)row * (diameter + 2);
    uint32_t *nodes = d->by_distance + (size_t)row * (t->nodes - 1);
    double *p = d->distance_prob + (size_t)row * (diameter + 1);
    double *threshold = d->distance_threshold + (size_t)row * (diameter + 1);
    uint32_t *alias = d->distance_alias + (size_t)row * (diameter + 1);
    for (unsigned h = 0; h <= diameter + 1; h++)
        start[h] = 0;
    for (uint32_t x = 0; x < t->nodes; x++) /* counts, one place up */
        if (x != src)
            start[t->ops->distance(t, src, x) + 1]++;
    for (unsigned h = 1; h <= diameter + 1; h++) /* start[h] = nodes closer than h */
        start[h] += start[h - 1];
    for (uint32_t x = 0; x < t->nodes; x++) /* start[h] as a cursor: ends at the start of h + 1 */
        if (x != src)
            nodes[start[t->ops->distance(t, src, x)]++] = x;
    for (unsigned h = diameter + 1; h >= 1; h--)
        start[h] = start[h - 1];
    start[0] = 0;
    double total = 0;
    for (unsigned h = 1; h <= diameter; h++) {
        double weight = w->count == 0 ? 1 : h <= w->count ? w->value[h - 1] : 0;
        p[h] = start[h + 1] > start[h] ? weight : 0;
        total += p[h];
    }
    *no_weight = !(total > 0);
    if (*no_weight)
        return false;
    p[0] = 0;
    for (unsigned h = 1; h <= diameter; h++)
        p[h] /= total;
    return build_alias(p + 1, diameter, threshold + 1, alias + 1);
}

static bool init(struct destinations *dests, const void *params, const struct config *cfg, struct cfg_error *err)
{
    const struct topo *t = dests->topo;
    const struct cfg_list *w = &((const struct spherical_params *)params)->distance_weights;
    if (w->count > t->diameter) {
        cfg_blame(cfg, "workload.distance_weights", err, "%u weights, but the diameter is %u", w->count,
                  t->diameter);
        return false;
    }
    if (t->nodes < 2) {
        cfg_blame(cfg, "workload.destination", err, "spherical needs at least two nodes");
        return false;
    }
    if (t->terminals != t->nodes) { /* distances between nodes are its unit */
        cfg_blame(cfg, "workload.destination", err, "spherical needs a network whose every node is a terminal");
        return false;
    }
    struct spherical *d = calloc(1, sizeof *d);
    if (!d) {
        cfg_blame(cfg, "workload.destination", err, "out of memory");
        return false;
    }
    dests->impl = d;
    d->per_source = !t->transitive;
    if (d->per_source && t->nodes > SPHERICAL_MAX_NODES) {
        cfg_blame(cfg, "workload.destination", err, "spherical on %s (not vertex-transitive) is limited to %d nodes",
                  t->ops->name, SPHERICAL_MAX_NODES);
        return false;
    }
    size_t rows = d->per_source ? t->nodes : 1;
    d->by_distance = malloc(rows * (t->nodes - 1) * sizeof *d->by_distance);
    d->distance_start = malloc(rows * (t->diameter + 2) * sizeof *d->distance_start);
    d->distance_prob = malloc(rows * (t->diameter + 1) * sizeof *d->distance_prob);
    d->distance_threshold = malloc(rows * (t->diameter + 1) * sizeof *d->distance_threshold);
    d->distance_alias = malloc(rows * (t->diameter + 1) * sizeof *d->distance_alias);
    if (!d->by_distance || !d->distance_start || !d->distance_prob || !d->distance_threshold ||
        !d->distance_alias) {
        cfg_blame(cfg, "workload.destination", err, "out of memory");
        return false;
    }
    for (uint32_t row = 0; row < rows; row++) {
        bool no_weight;
        if (fill_row(d, t, w, row, row, &no_weight))
            continue;
        if (no_weight)
            cfg_blame(cfg, "workload.distance_weights", err, "node %u has no node at a distance of positive weight",
                      row);
        else
            cfg_blame(cfg, "workload.destination", err, "out of memory");
        return false;
    }
    return true;
}

static uint32_t pick(const struct destinations *dests, uint32_t src, struct rng *r)
{
    const struct spherical *d = dests->impl;
    const struct topo *t = dests->topo;
    uint32_t row = d->per_source ? src : 0;
    const double *threshold = d->distance_threshold + (size_t)row * (t->diameter + 1) + 1;
    const uint32_t *alias = d->distance_alias + (size_t)row * (t->diameter + 1) + 1;
    const uint32_t *start = d->distance_start + (size_t)row * (t->diameter + 2);
    double u = rng_uniform(r) * t->diameter; /* a column and, from the same uniform, whether to keep it */
    uint32_t column = (uint32_t)u;
    if (column >= t->diameter)
        column = t->diameter - 1;
    unsigned h = 1 + (u - column < threshold[column] ? column : alias[column]);
    uint32_t first = start[h];
    uint32_t x = d->by_distance[(size_t)row * (t->nodes - 1) + first + rng_below(r, start[h + 1] - first)];
    return d->per_source ? x : t->ops->translate(t, x, src);
}

static double prob(const struct destinations *dests, uint32_t src, uint32_t dst)
{
    const struct spherical *d = dests->impl;
    const struct topo *t = dests->topo;
    if (src == dst)
        return 0;
    uint32_t row = d->per_source ? src : 0;
    unsigned h = t->ops->distance(t, src, dst);
    const uint32_t *start = d->distance_start + (size_t)row * (t->diameter + 2);
    return d->distance_prob[(size_t)row * (t->diameter + 1) + h] / (start[h + 1] - start[h]);
}

const struct dest_ops dest_spherical = {
    .name = "spherical",
    .help = "distance h with probability proportional to workload.distance_weights[h] (default: all distances "
            "equal), then uniform over the nodes h hops away",
    .params = &spherical_param_table,
    .traits = DEST_DISTANCE_WEIGHTS | DEST_TRANSLATION_INVARIANT,
    .init = init,
    .pick = pick,
    .prob = prob,
    .free = release,
};
