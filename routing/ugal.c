/* UGAL-L (Singh's universal globally adaptive load-balanced routing, local variant, as
 * the dragonfly paper evaluates it: Kim, Dally, Scott & Abts 2008): at the source's
 * router each packet takes the minimal route or Valiant's (through a random
 * intermediate group on the dragonfly, a random router elsewhere), whichever has the
 * smaller product of the queue on its first output port and its hop count (minimal on
 * a tie).  The queue is the flits held downstream of that port (its
 * VCs' used credits), so only the input-queued router runs it, on the router networks
 * (the dragonfly: 3 VC classes, raised at each global link; hyperx, fat-tree: 2, by phase;
 * slim-fly and graphs: a class per router-to-router hop, twice the router diameter). */
#include "engine.h"
#include "flit_params.h"
#include "routing.h"

static bool check(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    const struct engine_ops *e = engine_select(cfg);
    bool router_net = !(t->ops->traits & (TOPO_BINARY_HYPERCUBE | TOPO_KARY_NCUBE));
    if (!e || !(e->traits & SWITCH_INPUT_QUEUED) || !router_net) {
        cfg_blame(cfg, "routing.algorithm", err, "ugal compares the source router's credit counts: it runs on the "
                  "iq router (routing.switching = wormhole, routing.router = iq) on router networks (dragonfly, "
                  "hyperx, fat-tree, slim-fly, graph)");
        return false;
    }
    return true;
}

const struct route_ops route_ugal = {
    .name = "ugal",
    .help = "UGAL-L: at the source's router, minimal or Valiant, by queue times hops (iq router; dragonfly, hyperx, "
            "fat-tree, slim-fly, graph)",
    .traits = ROUTE_SOURCE_ADAPTIVE,
    .check = check,
};
