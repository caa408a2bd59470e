/* The model input from the registries; see model_input.h. */
#include "model_input.h"

#include "../../protocols/protocol.h"
#include "../../routing/engine.h"
#include "../../routing/routing.h"

/* The access traits the models ask for: the protocol's own, and the priority's queue
 * discipline. */
static unsigned access_traits(const struct config *cfg, const struct proto_ops *proto)
{
    unsigned traits = proto ? proto->traits : 0;
    if (priority_discipline(cfg->protocol.priority) == QUEUE_FIFO)
        traits |= ACCESS_FIFO_QUEUES;
    return traits;
}

bool model_input(struct model_in *in, const struct config *cfg, const struct topo *t, struct channel_loads *loads)
{
    const struct route_ops *route = route_select(cfg);
    const struct engine_ops *sw = switch_find(cfg->routing.switching);
    /* The switching's traits, and the router model's when it is not the switching's own. */
    const struct engine_ops *runs = sw ? engine_select(cfg) : NULL;
    unsigned router = runs ? runs->traits & SWITCH_INPUT_QUEUED : 0;
    const struct proto_ops *proto = proto_find(cfg->protocol.link);
    *in = (struct model_in){
        .cfg = cfg,
        .topo = t,
        .next = route ? route->next : NULL,
        .route = route ? route->traits : 0,
        .switching = sw ? sw->traits | router : 0,
        .access = access_traits(cfg, proto),
        .capacity = proto && proto->capacity ? proto->capacity(cfg_params(cfg, proto->params)) : 1.0,
    };
    if (!loads)
        return true;
    bool known = loads_compute(in, loads);
    in->loads = loads;
    return known;
}
