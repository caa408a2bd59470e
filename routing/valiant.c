/* Valiant's randomised routing: every packet goes to an intermediate node drawn
 * uniformly (from its source's routing stream) by dimension order, then to its
 * destination by dimension order.  On the iq router the two phases use separate halves
 * of the virtual channels (each split into dateline classes on a torus), which keeps the
 * whole deadlock-free; store-and-forward needs no classes (its queues are unbounded).
 * It balances any permutation at the price of twice the mean distance.  The
 * intermediate node is per-packet state, so only an engine that routes hop by hop runs
 * it (ENGINE_ROUTES_ADAPTIVELY: store-and-forward, routing.router = iq), which keeps that
 * state; its channel loads are left unknown to the analytic side. */
#include "engine.h"
#include "routing.h"

static bool check(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    (void)t;
    const struct engine_ops *e = engine_select(cfg);
    if (!e || !(e->traits & ENGINE_ROUTES_ADAPTIVELY)) {
        cfg_blame(cfg, "routing.algorithm", err, "valiant keeps each packet's intermediate node: it runs on "
                  "routing.switching = store-and-forward, or wormhole with routing.router = iq");
        return false;
    }
    return true;
}

const struct route_ops route_valiant = {
    .name = "valiant",
    .help = "Valiant: dimension order to a random intermediate node, then to the destination (store-and-forward; "
            "routing.router = iq: each phase on its own VCs)",
    .traits = ROUTE_VALIANT,
    .check = check,
};
