/* The model input from the registries; see model_input.h. */
#include "model_input.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../protocols/protocol.h"
#include "../../routing/engine.h"
#include "../../routing/routing.h"
#include "../../workloads/workload.h"

/* A side blind to every length is blind to fresh ones. */
static unsigned with_fresh(unsigned traits)
{
    return traits & ACCESS_ORDER_BLIND_TO_LENGTH ? traits | ACCESS_ORDER_BLIND_TO_FRESH_LENGTH : traits;
}

/* The access traits the models ask for: what both the protocol and the queue
 * discipline keep (sim/core/traits.h); blind to fresh lengths is blind to lengths when
 * every hop draws its length afresh. */
static unsigned access_traits(const struct config *cfg, const struct proto_ops *proto)
{
    const unsigned order = ACCESS_WORK_CONSERVING | ACCESS_FIFO_ORDER | ACCESS_ORDER_BLIND_TO_LENGTH |
                           ACCESS_ORDER_BLIND_TO_FRESH_LENGTH;
    unsigned both = with_fresh(proto ? proto->traits : 0) &
                    with_fresh(priority_discipline(cfg->protocol.priority)->traits) & order;
    if (cfg->run.redraw_length_per_hop && (both & ACCESS_ORDER_BLIND_TO_FRESH_LENGTH))
        both |= ACCESS_ORDER_BLIND_TO_LENGTH;
    return both;
}

/* Sets up the destination distribution on t for in->prob, or says in in->dest_why
 * why it cannot. */
static void destinations_input(struct model_in *in, const struct config *cfg, const struct topo *t)
{
    struct destinations *d = malloc(sizeof *d);
    struct cfg_error err;
    if (!d) {
        snprintf(in->dest_why, sizeof in->dest_why, "out of memory");
        return;
    }
    if (!dest_init(d, cfg, t, &err)) {
        snprintf(in->dest_why, sizeof in->dest_why, "%s", err.message);
        free(d);
        return;
    }
    in->dest = d;
    in->prob = d->ops->prob;
}

bool model_input(struct model_in *in, const struct config *cfg, const struct topo *t, struct channel_loads *loads)
{
    const struct route_ops *route = route_select(cfg);
    const struct engine_ops *sw = switch_find(cfg->routing.switching);
    /* The switching's traits, and the router model's when it is not the switching's own. */
    const struct engine_ops *runs = sw ? engine_select(cfg) : NULL;
    /* The path as the engine runs it: its own keys may change how it breaks ties. */
    if (route && runs && runs->follows)
        route = runs->follows(cfg, t, route);
    unsigned router = runs ? runs->traits & SWITCH_INPUT_QUEUED : 0;
    const struct proto_ops *proto = proto_find(cfg->protocol.link);
    const struct arrival_ops *arrival = arrival_find(cfg->workload.arrival);
    const struct dest_ops *dest = dest_find(cfg->workload.destination);
    const struct length_ops *length = length_find(cfg->workload.length);
    *in = (struct model_in){
        .cfg = cfg,
        .topo = t,
        .next = route ? route->next : NULL,
        .split = route ? route->split : NULL,
        .route = route ? route->traits : 0,
        .switching = sw ? sw->traits | router : 0,
        .access = access_traits(cfg, proto),
        .capacity = proto && proto->capacity ? proto->capacity(cfg_params(cfg, proto->params)) : 1.0,
        .arrival = arrival ? arrival->traits : 0,
        .destination = dest ? dest->traits : 0,
        .length = length ? length->traits : 0,
    };
    in->takes_self_addressed = runs && (runs->traits & ENGINE_TAKES_SELF_ADDRESSED);
    if (route && (route->traits & ROUTE_VALIANT) && runs && runs->valiant_mids) {
        runs->valiant_mids(t, &in->mids);
        in->has_mids = true;
        const struct route_ops *phase = route_canonical_minimal();
        if (runs->follows)
            phase = runs->follows(cfg, t, phase);
        in->phase_next = phase->next;
        in->phase_split = phase->split;
    }
    const struct reply_params *rp = reply_params_of(cfg);
    if (rp) {
        in->reply.on = true;
        in->reply.closed = rp->max_outstanding > 0;
        in->reply.request_length = rp->request_length;
        in->reply.reply_length = rp->reply_length;
    }
    in->mean_flits = NAN;
    struct lengths lengths;
    if (length && length_init(&lengths, cfg)) {
        in->mean_flits = length_mean_flits(&lengths, t->class_bandwidth[0]);
        length_free(&lengths);
    }
    if (!runs || !runs->zero_load)
        snprintf(in->zero_load_why, sizeof in->zero_load_why, "the %s engine declares no zero-load delay",
                 runs ? runs->name : cfg->routing.switching);
    else
        in->has_zero_load = runs->zero_load(cfg, t, &in->zero_load, in->zero_load_why, sizeof in->zero_load_why);
    if (dest)
        destinations_input(in, cfg, t);
    else
        snprintf(in->dest_why, sizeof in->dest_why, "no destination distribution '%s'", cfg->workload.destination);
    if (!loads)
        return true;
    bool known = loads_compute(in, loads);
    in->loads = loads;
    return known;
}

void model_input_free(struct model_in *in)
{
    if (in->dest)
        dest_free(in->dest);
    free(in->dest);
    in->dest = NULL;
    in->prob = NULL;
}
