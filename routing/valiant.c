/* Valiant's randomised routing: every packet goes to an intermediate node drawn
 * uniformly (from its source's routing stream) by dimension order, then to its
 * destination by dimension order.  On the flit routers the two phases use separate
 * halves of the virtual channels (each split into dateline classes on a torus), which
 * keeps the whole deadlock-free; store-and-forward needs no classes (its queues are
 * unbounded).  It balances any permutation at the price of twice the mean distance.
 * The intermediate node is per-packet state, so only an engine that keeps it runs it
 * (ENGINE_ROUTES_ADAPTIVELY: store-and-forward; wormhole and cut-through, whose simple
 * router draws both phases when the message is created; routing.router = iq).  Each
 * engine says how it draws the intermediate node (engine_ops.valiant_mids), from which
 * the analytic side pushes both phases' flows (analytic/valiant_loads.c). */
#include <stdio.h>

#include "engine.h"
#include "flit_params.h"
#include "routing.h"
#include "vc_classes.h"

bool valiant_has_dimension_order(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    if (t->ops->channel_dimension || (t->ops->traits & TOPO_NO_DIMENSIONS)) /* the canonical route otherwise */
        return true;
    cfg_blame(cfg, "routing.algorithm", err, "valiant routes both phases by dimension order, which %s does not "
              "have (it runs on hypercube, kary-ncube, torus and spanning-bus-hypercube)", cfg->network.topology);
    return false;
}

bool valiant_vcs_fit(const struct config *cfg, const struct topo *t, const char *router, struct cfg_error *err)
{
    int64_t vcs = flit_params_of(cfg)->virtual_channels;
    if ((t->ops->traits & TOPO_KARY_NCUBE) && t->lattice.radix <= 2) {
        cfg_blame(cfg, "network.radix", err, "valiant on the %s router needs a radix of 3 or more", router);
        return false;
    }
    if (vcs < 2) { /* phase 0 would have no VC at all: not a deadlock, a routing that cannot run */
        cfg_blame(cfg, "routing.virtual_channels", err, "valiant needs 2 virtual channels or more, one for each of its "
                  "two phases (got %lld)", (long long)vcs);
        return false;
    }
    return true;
}

static uint32_t any_node(const struct topo *t, uint32_t src, uint32_t pick)
{
    (void)t;
    (void)src;
    return pick;
}

void valiant_mids_any_node(const struct topo *t, struct valiant_mids *out)
{
    *out = (struct valiant_mids){ .picks = t->nodes, .mid = any_node };
}

void valiant_fix(const struct config *cfg, const struct topo *t, char *buf, size_t size)
{
    bool torus = (t->ops->traits & TOPO_KARY_NCUBE) && t->lattice.wrap;
    int64_t need = torus ? 4 : 2, vcs = flit_params_of(cfg)->virtual_channels;
    if (vcs < need)
        snprintf(buf, size, "the fix: routing.virtual_channels = %lld (Valiant needs %s)", (long long)need,
                 torus ? "two phases of dateline classes" : "a class for each of its two phases");
    else
        snprintf(buf, size, "the fix: more virtual channels (routing.virtual_channels: a class per phase%s)",
                 torus ? ", each with two dateline classes" : "");
}

static bool check(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    (void)t;
    const struct engine_ops *e = engine_select(cfg);
    if (!e || !(e->traits & ENGINE_ROUTES_ADAPTIVELY)) {
        cfg_blame(cfg, "routing.algorithm", err, "valiant keeps each packet's intermediate node: it runs on "
                  "routing.switching = store-and-forward, wormhole or cut-through");
        return false;
    }
    return true;
}

const struct route_ops route_valiant = {
    .name = "valiant",
    .help = "Valiant: dimension order to a random intermediate node, then to the destination (flit switching: each "
            "phase on its own half of the VCs)",
    .traits = ROUTE_VALIANT,
    .check = check,
};
