/* UGAL-L (Singh's universal globally adaptive load-balanced routing, local variant, as
 * the dragonfly paper evaluates it: Kim, Dally, Scott & Abts 2008): at the source's
 * router each packet takes the minimal route or Valiant's
 * through a random intermediate group,
 * whichever has the smaller product of the queue on its first output port and its hop
 * count (minimal on a tie).  The queue is the flits held downstream of that port (its
 * VCs' used credits), so only the input-queued router runs it, on a network whose
 * global links raise a packet's VC class (the dragonfly: 3 classes). */
#include "engine.h"
#include "flit_params.h"
#include "routing.h"

static bool check(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    const struct engine_ops *e = engine_select(cfg);
    if (!e || !(e->traits & SWITCH_INPUT_QUEUED) || !t->ops->raises_vc_class) {
        cfg_blame(cfg, "routing.algorithm", err, "ugal compares the source router's credit counts: it runs on the "
                  "iq router (routing.switching = wormhole, routing.router = iq) on a dragonfly");
        return false;
    }
    return true;
}

const struct route_ops route_ugal = {
    .name = "ugal",
    .help = "UGAL-L: at the source's router, minimal or Valiant through a random group, by queue times hops "
            "(iq router, dragonfly)",
    .traits = ROUTE_SOURCE_ADAPTIVE,
    .check = check,
};
