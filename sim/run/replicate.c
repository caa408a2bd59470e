#include "replicate.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "collect.h"
#include "model_input.h"
#include "wallclock.h"

/* What one run works on: too large for the stack, and a run is a value (no statics). */
struct replication_scratch {
    struct network net;
    struct config cfg;
    struct run_report one;
};

static int replicate(struct replication_scratch *scratch, const struct config *cfg, int progress,
                     struct run_report *report, enum kernel_stop *why, struct cfg_error *err)
{
    struct network *net = &scratch->net;
    struct config *rep_cfg = &scratch->cfg;
    *rep_cfg = *cfg;
    if (!net_create(net, rep_cfg, err))
        return RUN_BAD_INPUT;
    /* Loads, model and stability depend on the config, not on the seed: once. */
    struct channel_loads loads;
    struct model_in in;
    model_input(&in, cfg, &net->topo, &loads);
    struct model_result model;
    model_predict(&in, &model);
    struct stability stab;
    stability_check(cfg, &net->topo, &loads, &stab);
    if (stab.saturated && !cfg->run.allow_unstable) {
        cfg_blame(cfg, stab.blame, err, "unstable: %s; lower the load or set run.allow_unstable = true", stab.why);
        loads_free(&loads);
        net_free(net);
        return RUN_BAD_INPUT;
    }
    if (progress < 0)
        progress = isatty(STDERR_FILENO);
    unsigned replications = (unsigned)cfg->run.replications;
    double wall_used = 0; /* run.max_wall_seconds bounds all replications together */
    for (unsigned r = 0; r < replications; r++) {
        if (r > 0) {
            rep_cfg->run.seed = rng_replication_seed(cfg->run.seed, r);
            rep_cfg->write_trace = NULL; /* the trace is replication 0's */
            if (!net_create(net, rep_cfg, err)) {
                loads_free(&loads);
                return RUN_BAD_INPUT;
            }
        }
        double limit = cfg->run.max_wall_seconds;
        if (limit > 0)
            limit = limit > wall_used ? limit - wall_used : 1e-9;
        struct wallclock *wc = wallclock_attach(net, progress, limit);
        if (!wc) {
            fputs("sim: cannot start the libev loop\n", stderr);
            net_free(net);
            loads_free(&loads);
            return 1;
        }
        *why = net_run(net);
        double wall = wallclock_elapsed(wc);
        wall_used += wall;
        wallclock_detach(wc);
        if (net->fatal[0]) { /* e.g. a wormhole deadlock: no figures are meaningful */
            fprintf(stderr, "sim: %s\n", net->fatal);
            net_free(net);
            loads_free(&loads);
            return RUN_DEADLOCK;
        }
        struct run_report *one = &scratch->one;
        report_collect(one, net, &loads, &model, *why, wall);
        one->cfg = cfg;
        report_add_replication(report, one, r);
        net_free(net);
        if (*why != KERNEL_DONE)
            break;
    }
    report_finish_replications(report);
    loads_free(&loads);
    return 0;
}

int run_replications(const struct config *cfg, int progress, struct run_report *report, enum kernel_stop *why,
                     struct cfg_error *err)
{
    struct replication_scratch *scratch = calloc(1, sizeof *scratch);
    if (!scratch) {
        fputs("sim: out of memory\n", stderr);
        return 1;
    }
    int status = replicate(scratch, cfg, progress, report, why, err);
    free(scratch);
    return status;
}


int run_check(const struct config *cfg, struct run_report *unstable, struct cfg_error *err)
{
    struct network *net = calloc(1, sizeof *net);
    if (!net) {
        snprintf(err->message, sizeof err->message, "out of memory");
        return RUN_BAD_INPUT;
    }
    if (!net_create(net, cfg, err)) {
        free(net);
        return RUN_BAD_INPUT;
    }
    struct channel_loads loads;
    struct model_in in;
    model_input(&in, cfg, &net->topo, &loads);
    struct stability stab;
    stability_check(cfg, &net->topo, &loads, &stab);
    int status = 0;
    if (stab.saturated && !cfg->run.allow_unstable) {
        struct model_result model;
        model_predict(&in, &model);
        report_collect(unstable, net, &loads, &model, KERNEL_RUNNING, 0);
        unstable->interrupted = false;
        unstable->stop_reason = "unstable: not run";
        status = RUN_UNSTABLE;
    }
    loads_free(&loads);
    net_free(net);
    free(net);
    return status;
}
