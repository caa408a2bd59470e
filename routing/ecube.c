/* E-cube (dimension-order) routing: always the first minimal hop in the topology's
 * canonical order, i.e. dimensions corrected in a fixed order.  Deterministic.
 * routing.dimension_order = descending corrects the highest differing dimension
 * first instead (on topologies that number their dimensions), keeping the
 * topology's own rule for the direction within a dimension. */
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

struct ecube_params {
    const char *dimension_order;
};

static const struct cfg_key ecube_keys[] = {
    { "routing", "dimension_order", CFG_CHOICE, offsetof(struct ecube_params, dimension_order), "ascending", 0, 0, false, &dimension_order_choices,
      "ecube: order in which dimensions are corrected" },
};
static CFG_PARAM_TABLE(ecube_param_table, struct ecube_params, ecube_keys);

const struct route_ops route_ecube = {
    .name = "ecube",
    .help = "dimension-order routing: correct differing dimensions in a fixed order (routing.dimension_order)",
    .params = &ecube_param_table,
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
