/* HyperX (Ahn, Binkert, Davis, McLaren & Schreiber, SC 2009): S^L routers, router
 * r = sum d_i S^i; in each dimension i a router links to the S - 1 routers whose digit
 * d_i differs (all-to-all), with `network.concentration` terminals per router.  The
 * flattened butterfly (Kim, Dally & Abts, ISCA 2007) is the case S = concentration.
 *
 * Routers' channels are added dimension by dimension, lowest first, so the canonical
 * minimal hop (routers.h) corrects the lowest differing dimension in one hop:
 * dimension order, which is deadlock-free on one VC (each dimension is one hop and
 * the dimensions are taken in a fixed order).  Classes: one per dimension, then the
 * terminal links' inject and eject when concentration > 1. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "../sim/core/params.h"
#include "routers.h"

static const char *const hyperx_reads[] = { "network.radix", NULL };
static const struct cfg_param_table hyperx_param_table = { NULL, 0, 0, NULL, hyperx_reads };

struct hyperx {
    struct router_net rn; /* first: routers.h reads it from t->impl */
    uint32_t S, L;
};

static bool build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    int64_t concentration = cfg->network.concentration;
    bool half;
    if (!topo_read_links(cfg, true, &half, err))
        return false;
    if (half) {
        cfg_blame(cfg, "network.links", err, "hyperx has full-duplex links only");
        return false;
    }
    uint64_t S = (uint64_t)cfg_int(cfg, "network.radix"), L = (uint64_t)cfg->network.dimension, R = 1;
    for (uint64_t i = 0; i < L && R <= ROUTERS_MAX; i++)
        R *= S;
    if (R > ROUTERS_MAX) {
        cfg_blame(cfg, "network.radix", err, "a hyperx of radix %llu and dimension %llu has more than %d routers",
                  (unsigned long long)S, (unsigned long long)L, ROUTERS_MAX);
        return false;
    }
    struct hyperx *h = calloc(1, sizeof *h);
    if (!h || !router_net_init(&h->rn, (uint32_t)R, (unsigned)L)) {
        free(h);
        cfg_blame(cfg, "network.topology", err, "out of memory");
        return false;
    }
    t->impl = h;
    h->S = (uint32_t)S;
    h->L = (uint32_t)L;
    bool ok = true;
    for (uint32_t r = 0; ok && r < R; r++)
        for (uint32_t i = 0, stride = 1; ok && i < L; i++, stride *= h->S) {
            uint32_t d = r / stride % h->S, base = r - d * stride;
            for (uint32_t v = 0; ok && v < h->S; v++)
                if (v != d)
                    ok = router_net_add(&h->rn, r, base + v * stride, i);
        }
    if (ok && concentration > 1)
        ok = router_net_attach(&h->rn, (uint32_t)concentration);
    char why[128] = "out of memory";
    if (!ok || !router_net_finish(&h->rn, t, why, sizeof why)) {
        cfg_blame(cfg, "network.radix", err, "%s", why);
        router_net_free_impl(t);
        return false;
    }
    t->dimension = h->L;
    t->group_terminals = t->terminals / (h->rn.routers / h->S); /* a dimension-0 row: S routers */
    if (concentration == (int64_t)S && S > 1)
        snprintf(t->label, sizeof t->label, "flattened butterfly: %u-ary %u-flat, %u terminals per router", h->S,
                 h->L + 1, h->S);
    else
        snprintf(t->label, sizeof t->label, "HyperX of %u dimensions of %u routers, %lld terminal%s per router", h->L,
                 h->S, (long long)concentration, concentration == 1 ? "" : "s");
    return true;
}

static unsigned channel_dimension(const struct topo *t, uint32_t ch)
{
    return router_net_channel_class(t, ch); /* terminal links: L and L + 1, past every dimension */
}

static void class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    if (!router_net_class_name(t, cls, buf, size))
        snprintf(buf, size, "dim%u", cls);
}

/* Bisection: routers (and their terminals) by their dimension-0 digit, below S/2 or
 * not, for an even S: (S/2)^2 S^(L-1) links cross (Ahn et al.). */
static int bisection_side(const struct topo *t, uint32_t x)
{
    const struct hyperx *h = t->impl;
    if (h->S % 2)
        return -1;
    return router_net_router_index(&h->rn, x) % h->S >= h->S / 2;
}

const struct topo_ops topo_hyperx = {
    .name = "hyperx",
    .help = "HyperX: radix^dimension routers, all-to-all in each dimension, concentration terminals per router "
            "(flattened butterfly: concentration = radix) (keys: dimension, radix, concentration)",
    .traits = TOPO_MINIMAL_ACYCLIC | TOPO_OWN_TERMINALS,
    .params = &hyperx_param_table,
    .build = build,
    ROUTER_NET_OPS,
    .channel_dimension = channel_dimension,
    .class_name = class_name,
    .bisection_side = bisection_side,
};
