/* E-cube (dimension-order) routing: always the first minimal hop in the topology's
 * canonical order, i.e. dimensions corrected in a fixed order.  Deterministic. */
#include "routing.h"

static struct hop next(const struct topo *t, uint32_t cur, uint32_t dst, struct rng *r)
{
    (void)r;
    struct hop h;
    t->ops->minimal_hops(t, cur, dst, &h, 1);
    return h;
}

const struct route_ops route_ecube = {
    .name = "ecube",
    .help = "dimension-order routing: correct differing dimensions lowest first",
    .deterministic = true,
    .next = next,
};
