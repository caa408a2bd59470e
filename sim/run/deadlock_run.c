/* sim --check-deadlock (contract in deadlock_run.h). */
#include "deadlock_run.h"

#include <string.h>

#include "../../routing/deadlock_protocol.h"
#include "../../routing/engine.h"
#include "../../routing/routing.h"
#include "../../workloads/workload.h"
#include "network.h"

/* The check of one class's relation, amended for request-reply's reply queue. */
static bool check_with_classes(const struct config *cfg, const struct topo *t, const struct engine_ops *engine,
                               bool force, struct dl_result *r)
{
    const struct reply_params *rp = reply_params_of(cfg);
    return dl_check_classes(cfg, t, engine, force, rp ? (uint32_t)rp->reply_queue : 0, r);
}

bool net_check_deadlock(const struct config *cfg, struct dl_result *r, struct cfg_error *err)
{
    memset(r, 0, sizeof *r);
    const struct engine_ops *engine = engine_select(cfg);
    const struct arrival_ops *arrival = arrival_find(cfg->workload.arrival);
    struct topo t;
    struct destinations dest = { 0 };
    bool dest_made = false, ok = false;
    if (!topo_build(&t, cfg, err) || !route_check(cfg, &t, err) || !(dest_made = dest_init(&dest, cfg, &t, err)))
        goto done;
    const struct engine_spec spec = {
        .cfg = cfg,
        .topo = &t,
        .arrivals_per_cycle = arrival->per_cycle != NULL,
        .destinations_may_pick_source = dest.ops->traits & DEST_MAY_PICK_SOURCE,
        .reply_queue = reply_params_of(cfg) ? (uint32_t)reply_params_of(cfg)->reply_queue : 0,
    };
    if (engine->check && !engine->check(&spec, err))
        goto done;
    if (!check_with_classes(cfg, &t, engine, true, r)) {
        cfg_blame(cfg, "routing.deadlock_check", err, "out of memory for the static deadlock check");
        goto done;
    }
    ok = true;
    if (r->verdict == DL_REFUSED)
        cfg_blame(cfg, r->key, err, "the routing can deadlock: %s", r->note);
done:
    if (dest_made)
        dest_free(&dest);
    topo_free(&t);
    return ok;
}

bool net_deadlock_line(const struct config *cfg, const struct topo *t, char *buf, size_t size)
{
    const struct engine_ops *engine = engine_select(cfg);
    const struct engine_spec spec = { .cfg = cfg, .topo = t };
    struct cfg_error err;
    struct dl_result r;
    if (!(engine->traits & SWITCH_PIPELINED) || !route_check(cfg, t, &err) ||
        (engine->check && !engine->check(&spec, &err)) || !check_with_classes(cfg, t, engine, false, &r))
        return false; /* a configuration the run refuses says so when it runs */
    dl_summary(&r, buf, size);
    return true;
}

bool net_deadlock_verdict(struct network *net, const struct config *cfg, struct cfg_error *err)
{
    if (!(net->engine->traits & SWITCH_PIPELINED))
        return true;
    if (!check_with_classes(cfg, &net->topo, net->engine, false, &net->deadlock)) {
        cfg_blame(cfg, "routing.deadlock_check", err, "out of memory for the static deadlock check (it can be "
                  "turned off: routing.deadlock_check = off)");
        return false;
    }
    return true;
}

bool net_deadlock_refused(const struct network *net, const struct config *cfg, struct cfg_error *err)
{
    if (net->deadlock.verdict != DL_REFUSED)
        return false;
    cfg_blame(cfg, net->deadlock.key, err, "the routing can deadlock: %s", net->deadlock.note);
    return true;
}

