/* E-cube (dimension-order) routing: always the first minimal hop in the topology's
 * canonical order, i.e. dimensions corrected in a fixed order.  Deterministic.
 * routing.dimension_order = descending corrects the highest differing dimension
 * first instead (on topologies that number their dimensions), keeping the
 * topology's own rule for the direction within a dimension.  The input-queued router
 * with tie = random follows a variant of either (ecube_random_ties(), routing.h): a
 * torus's antipodal tie is drawn, half each way, instead of going the negative way. */
#include <stddef.h>

#include "../sim/core/params.h"
#include "routing.h"

enum { MINIMAL_HOPS_MAX = 64 };

static struct hop next(const struct topo *t, uint32_t cur, uint32_t dst, struct rng *r)
{
    (void)r;
    struct hop h;
    t->ops->minimal_hops(t, cur, dst, &h, 1);
    return h;
}

/* minimal_hops() lists dimensions in increasing order, the canonical direction first
 * within each: the first hop of the highest dimension is the descending choice. */
static struct hop next_descending(const struct topo *t, uint32_t cur, uint32_t dst, struct rng *r)
{
    (void)r;
    struct hop hops[MINIMAL_HOPS_MAX];
    unsigned count = t->ops->minimal_hops(t, cur, dst, hops, MINIMAL_HOPS_MAX);
    unsigned best = 0, best_dim = t->ops->channel_dimension(t, hops[0].channel);
    for (unsigned i = 1; i < count; i++) {
        unsigned dim = t->ops->channel_dimension(t, hops[i].channel);
        if (dim > best_dim) {
            best = i;
            best_dim = dim;
        }
    }
    return hops[best];
}

/* The random-ties variants: the hops of the dimension e-cube corrects at cur (the lowest
 * differing one, or the highest when descending), as the topology lists them: one, or
 * the two ways of a tie (negative first). */
static unsigned dimension_hops(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max,
                               bool descending)
{
    struct hop hops[MINIMAL_HOPS_MAX];
    unsigned count = t->ops->minimal_hops(t, cur, dst, hops, MINIMAL_HOPS_MAX);
    if (count == 0) /* cur == dst: no hop (the contract excludes it; no read of an empty list) */
        return 0;
    unsigned dim = t->ops->channel_dimension(t, hops[0].channel);
    for (unsigned i = 1; descending && i < count; i++) {
        unsigned d = t->ops->channel_dimension(t, hops[i].channel);
        dim = d > dim ? d : dim;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < count && n < max; i++)
        if (t->ops->channel_dimension(t, hops[i].channel) == dim)
            out[n++] = hops[i];
    return n;
}

static unsigned split_ascending(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    return dimension_hops(t, cur, dst, out, max, false);
}

static unsigned split_descending(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    return dimension_hops(t, cur, dst, out, max, true);
}

/* A tie goes the positive way when the draw is below 1/2, as the iq router draws it
 * (routing/iq_setup.c); without a stream, the topology's way. */
static struct hop draw_tie(const struct hop *hops, unsigned n, struct rng *r)
{
    return hops[n > 1 && r && rng_uniform(r) < 0.5 ? 1 : 0];
}

static struct hop next_random_ties(const struct topo *t, uint32_t cur, uint32_t dst, struct rng *r)
{
    struct hop hops[2];
    return draw_tie(hops, split_ascending(t, cur, dst, hops, 2), r);
}

static struct hop next_descending_random_ties(const struct topo *t, uint32_t cur, uint32_t dst, struct rng *r)
{
    struct hop hops[2];
    return draw_tie(hops, split_descending(t, cur, dst, hops, 2), r);
}

struct ecube_params {
    const char *dimension_order;
};

static const struct cfg_key ecube_keys[] = {
    { "routing", "dimension_order", CFG_CHOICE, offsetof(struct ecube_params, dimension_order), "ascending", 0, 0, false, &dimension_order_choices,
      "ecube: order in which dimensions are corrected" },
};
static CFG_PARAM_TABLE(ecube_param_table, struct ecube_params, ecube_keys);

static bool has_dimensions(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    if (t->ops->traits & TOPO_NO_DIMENSIONS) {
        cfg_blame(cfg, "routing.algorithm", err, "%s has no dimensions for ecube to correct: use routing.algorithm = "
                  "minimal (its canonical minimal route)", t->ops->name);
        return false;
    }
    return true;
}

const struct route_ops route_ecube = {
    .name = "ecube",
    .help = "dimension-order routing: correct differing dimensions in a fixed order (routing.dimension_order)",
    .params = &ecube_param_table,
    .traits = ROUTE_DETERMINISTIC | ROUTE_DIMENSION_ORDER | ROUTE_OBLIVIOUS,
    .next = next,
    .check = has_dimensions,
};

/* The topology's canonical minimal route: ecube's routes on every family with
 * dimensions (ascending), the family's own rule on the others (a fat tree's
 * destination-mod-k up ports). */
const struct route_ops route_minimal = {
    .name = "minimal",
    .help = "the topology's canonical deterministic minimal route (dimension order where it has dimensions, as "
            "ecube; a fat tree's destination-mod-k up ports then down)",
    .traits = ROUTE_DETERMINISTIC | ROUTE_DIMENSION_ORDER | ROUTE_OBLIVIOUS,
    .next = next,
};

/* Not registered: route_select() gives it for ecube with dimension_order = descending. */
const struct route_ops route_ecube_descending = {
    .name = "ecube",
    .help = "dimension-order routing, highest differing dimension first",
    .traits = ROUTE_DETERMINISTIC | ROUTE_DIMENSION_ORDER | ROUTE_OBLIVIOUS,
    .next = next_descending,
};

/* Not registered: what ecube_random_ties() gives for the two above. */
static const struct route_ops route_ecube_random_ties = {
    .name = "ecube",
    .help = "dimension-order routing, a torus's antipodal ties drawn (the iq router's tie = random)",
    .traits = ROUTE_DIMENSION_ORDER | ROUTE_RANDOM_TIES | ROUTE_OBLIVIOUS,
    .next = next_random_ties,
    .split = split_ascending,
};

static const struct route_ops route_ecube_descending_random_ties = {
    .name = "ecube",
    .help = "dimension-order routing, highest differing dimension first, a torus's antipodal ties drawn",
    .traits = ROUTE_DIMENSION_ORDER | ROUTE_RANDOM_TIES | ROUTE_OBLIVIOUS,
    .next = next_descending_random_ties,
    .split = split_descending,
};

const struct route_ops *ecube_random_ties(const struct route_ops *r, const struct topo *t)
{
    bool ties = (t->ops->traits & TOPO_KARY_NCUBE) && t->lattice.wrap && t->lattice.both_ways &&
                t->lattice.radix > 2 && t->lattice.radix % 2 == 0;
    if (!ties)
        return r;
    return r == &route_ecube || r == &route_minimal ? &route_ecube_random_ties
           : r == &route_ecube_descending ? &route_ecube_descending_random_ties
                                          : r;
}

const struct route_ops *route_canonical_minimal(void)
{
    return &route_minimal;
}
