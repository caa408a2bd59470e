/* Minimal adaptive routing.  On the flit routers the header takes, among the minimal
 * next hops, the channel with the most free room on its adaptive virtual channels (the
 * iq router: the most credits of its free VCs; the simple router: the most free
 * adaptive VCs), ties at random; when none is free it may take an escape virtual
 * channel, which follows dimension order (Duato's condition makes the whole
 * deadlock-free).  Under store-and-forward a message takes, among the minimal next
 * hops, the channel with the shortest queue (the access protocol's count; ties at
 * random).  The choice depends on the network's state, so only an engine that routes
 * hop by hop runs it (ENGINE_ROUTES_ADAPTIVELY: store-and-forward, wormhole and
 * cut-through on either router), which does the choosing; it has no next() for the
 * analytic side, whose channel loads it leaves unknown. */
#include <string.h>

#include "engine.h"
#include "routing.h"

static bool check(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    (void)t;
    const struct engine_ops *e = engine_select(cfg);
    if (!e || !(e->traits & ENGINE_ROUTES_ADAPTIVELY)) {
        cfg_blame(cfg, "routing.algorithm", err, "adaptive-minimal chooses each hop from the network's state: it runs "
                  "on routing.switching = store-and-forward, wormhole or cut-through");
        return false;
    }
    return true;
}

const struct route_ops route_adaptive_minimal = {
    .name = "adaptive-minimal",
    .help = "minimal adaptive: the minimal next hop with the shortest queue (store-and-forward) or the most free "
            "room on its adaptive VCs (flit switching: the iq router counts their credits, the simple router its "
            "free VCs), escape VCs on the canonical route (dimension order on lattices)",
    .traits = ROUTE_ADAPTIVE,
    .check = check,
};
