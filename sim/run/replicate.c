#include "replicate.h"

#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "collect.h"
#include "model_input.h"
#include "netrace_run.h"
#include "observe.h"
#include "run_config.h"
#include "wallclock.h"

/* Event times are doubles: once the largest time a run reaches is 2^40 times its
 * smallest step, only ~12 bits remain below that step, and beyond it adding a
 * service time stops changing a time at all (delays come out wrong, silently). */
#define TIME_RESOLUTION_LIMIT 1099511627776.0 /* 2^40 */

/* Refuses a run whose simulated times would outgrow the resolution of its smallest
 * step (see TIME_RESOLUTION_LIMIT).  The largest time is estimated from the config:
 * time mode's window end, a replayed trace's last time, or else the messages the run
 * creates over the network's arrival rate. */
static bool time_resolution_check(const struct network *net, struct cfg_error *err)
{
    const struct config *cfg = net->cfg;
    const struct topo *t = &net->topo;
    double fastest = t->class_bandwidth[0], slowest = t->class_bandwidth[0];
    for (unsigned c = 1; !t->uniform_bandwidth && c < t->classes; c++) {
        fastest = fmax(fastest, t->class_bandwidth[c]);
        slowest = fmin(slowest, t->class_bandwidth[c]);
    }
    bool replay = (net->arrival->traits & ARRIVAL_REPLAY) && cfg->run.duration <= 0;
    /* A replayed trace's lengths are known: its shortest transmission is the step, and a
     * long message moves the largest time as a late one does (a length of 1e300 once ran). */
    double shortest = INFINITY, trace_end = 0;
    for (size_t i = 0; replay && i < net->trace.count; i++) {
        const struct trace_record *r = &net->trace.records[i];
        shortest = fmin(shortest, r->length);
        trace_end = fmax(trace_end, r->time + r->length / slowest);
    }
    if (replay && net->netrace) { /* a Netrace trace: its scan's shortest packet and last cycle */
        shortest = net->netrace->scan.shortest;
        trace_end = (double)net->netrace->scan.last_cycle + 72.0 / slowest;
    }
    double step = replay ? shortest / fastest : cfg->workload.mean_length / fastest;
    const char *step_is = replay ? "the trace's shortest transmission, its shortest length over the fastest bandwidth"
                                 : "a mean transmission, workload.mean_length over the fastest bandwidth";
    if ((net->engine->traits & (ENGINE_SLOTTED | SWITCH_PIPELINED)) && step > 1) {
        step = 1;
        step_is = "a cycle";
    }
    if (net->node_service > 0 && net->node_service < step) {
        step = net->node_service;
        step_is = "a node service, 1/node.service_rate";
    }
    double largest;
    const char *key, *advice;
    if (cfg->run.duration > 0) {
        largest = cfg->run.warmup_time + cfg->run.duration;
        key = cfg->run.duration >= cfg->run.warmup_time ? "run.duration" : "run.warmup_time";
        advice = "shorten run.warmup_time + run.duration or lengthen the step";
    } else if (replay) { /* the last message created, or the end of the longest's first transmission */
        largest = trace_end;
        key = "workload.trace";
        advice = "replay a trace of a shorter span or lengthen the step";
    } else {
        double messages = (double)cfg->run.warmup_messages + (double)cfg->run.messages;
        largest = messages / ((double)t->terminals * cfg_message_rate(cfg));
        key = "workload.rate";
        advice = "raise workload.rate or lower run.warmup_messages and run.messages";
    }
    if (largest / step <= TIME_RESOLUTION_LIMIT)
        return true;
    char reach[48];
    if (isfinite(largest))
        snprintf(reach, sizeof reach, "about %.3g", largest);
    else
        snprintf(reach, sizeof reach, "past the largest double");
    cfg_blame(cfg, key, err,
              "simulated time would reach %s, more than 2^40 times the smallest step (%.3g, %s), so event times "
              "could no longer resolve that step; %s",
              reach, step, step_is, advice);
    return false;
}

/* What a run works on: too large for the stack, and a run is a value (no statics). */
struct run_setup {
    const struct config *cfg; /* the caller's: every report points to it */
    struct config rep_cfg;    /* the replication's: its seed, its trace */
    struct network net;
    bool net_built;           /* by the check, for replication 0 */
    struct channel_loads loads;
    struct model_result model;
};

int run_setup_create(const struct config *cfg, struct run_setup **out, struct cfg_error *err)
{
    *out = NULL;
    struct run_setup *s = calloc(1, sizeof *s);
    if (!s) {
        fputs("sim: out of memory\n", stderr);
        return 1;
    }
    s->cfg = cfg;
    s->rep_cfg = *cfg;
    if (stop_signal_held()) { /* before building what may take long */
        free(s);
        return RUN_INTERRUPTED;
    }
    if (!net_create(&s->net, &s->rep_cfg, err)) {
        free(s);
        return RUN_BAD_INPUT;
    }
    if (net_deadlock_refused(&s->net, cfg, err) || !time_resolution_check(&s->net, err)) {
        net_free(&s->net);
        free(s);
        return RUN_BAD_INPUT;
    }
    s->net_built = true;
    /* Loads, model and stability depend on the config, not on the seed: once. */
    struct model_in in;
    model_input(&in, cfg, &s->net.topo, &s->loads);
    model_predict(&in, &s->model);
    model_input_free(&in);
    struct stability stab;
    stability_check(cfg, &s->net.topo, &s->loads, &stab);
    if (stab.saturated && !cfg->run.allow_unstable) {
        cfg_blame(cfg, stab.blame, err, "unstable: %s; lower the load or set run.allow_unstable = true", stab.why);
        run_setup_free(s);
        return RUN_BAD_INPUT;
    }
    *out = s;
    return 0;
}

void run_setup_free(struct run_setup *s)
{
    if (!s)
        return;
    if (s->net_built)
        net_free(&s->net);
    loads_free(&s->loads);
    free(s);
}

int run_setup_replication(struct run_setup *s, unsigned r, bool progress, double max_wall_seconds,
                          struct run_report *one, enum kernel_stop *why, char *fatal, size_t fatal_size,
                          struct cfg_error *err)
{
    struct network *net = &s->net;
    if (r > 0 || !s->net_built) {
        if (s->net_built)
            net_free(net);
        s->net_built = false;
        s->rep_cfg = *s->cfg;
        if (r > 0) {
            s->rep_cfg.run.seed = rng_replication_seed(s->cfg->run.seed, r);
            s->rep_cfg.write_trace = NULL; /* the trace is replication 0's */
        }
        if (!net_create(net, &s->rep_cfg, err))
            return RUN_BAD_INPUT;
    }
    s->net_built = false; /* this replication's from here: freed below whatever happens */
    if (r == 0 && stop_signal_held()) { /* came while the network was built: nothing ran */
        net_free(net);
        return RUN_INTERRUPTED;
    }
    struct wallclock *wc = wallclock_attach(net, progress, max_wall_seconds);
    if (!wc) {
        fputs("sim: cannot start the libev loop\n", stderr);
        net_free(net);
        return 1;
    }
    *why = net_run(net);
    double wall = wallclock_elapsed(wc);
    wallclock_detach(wc);
    if (net->fatal[0]) { /* e.g. a wormhole deadlock: no figures are meaningful */
        snprintf(fatal, fatal_size, "%s", net->fatal);
        net_free(net);
        return RUN_DEADLOCK;
    }
    if (!net_close_trace(net)) { /* replication 0's trace: a lost one is an output error */
        if (!(errno == EPIPE && stop_signals_pipe_closed())) /* a closed pipe: sim ends by SIGPIPE, quietly */
            fprintf(stderr, "sim: cannot write the trace: %s\n", strerror(errno));
        net_free(net);
        return 1;
    }
    report_collect(one, net, &s->loads, &s->model, *why, wall);
    one->cfg = s->cfg;
    if (net->observe && !observe_write(net->observe, net)) { /* --channels and the like: said on stderr */
        net_free(net);
        return 1;
    }
    net_free(net);
    return 0;
}

int run_replications(const struct config *cfg, int progress, struct run_report *report, enum kernel_stop *why,
                     struct cfg_error *err)
{
    struct run_setup *s;
    int status = run_setup_create(cfg, &s, err);
    if (status != 0)
        return status;
    struct run_report *one = malloc(sizeof *one);
    if (!one) {
        fputs("sim: out of memory\n", stderr);
        run_setup_free(s);
        return 1;
    }
    if (progress < 0)
        progress = isatty(STDERR_FILENO);
    unsigned replications = (unsigned)cfg->run.replications;
    double wall_used = 0; /* run.max_wall_seconds bounds all replications together */
    for (unsigned r = 0; r < replications && status == 0; r++) {
        double limit = cfg->run.max_wall_seconds;
        if (limit > 0)
            limit = limit > wall_used ? limit - wall_used : 1e-9;
        char fatal[512];
        status = run_setup_replication(s, r, progress, limit, one, why, fatal, sizeof fatal, err);
        if (status == RUN_DEADLOCK)
            fprintf(stderr, "sim: %s\n", fatal);
        if (status != 0)
            break;
        wall_used += one->wall_seconds;
        report_add_replication(report, one, r);
        if (*why != KERNEL_DONE)
            break;
    }
    if (status == 0)
        report_finish_replications(report);
    free(one);
    run_setup_free(s);
    return status;
}

/* Builds cfg's network (no run), checks the time resolution, and hands the network
 * and its loads to `use`; 0, or RUN_BAD_INPUT with *err. */
static int with_network(const struct config *cfg, struct cfg_error *err,
                        int (*use)(const struct config *cfg, struct network *net, struct channel_loads *loads,
                                   struct model_in *in, void *ctx),
                        void *ctx)
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
    if (!time_resolution_check(net, err)) {
        net_free(net);
        free(net);
        return RUN_BAD_INPUT;
    }
    struct channel_loads loads;
    struct model_in in;
    model_input(&in, cfg, &net->topo, &loads);
    int status = use(cfg, net, &loads, &in, ctx);
    model_input_free(&in);
    loads_free(&loads);
    net_free(net);
    free(net);
    return status;
}

/* The report of the network not run: structure, stability and model, no figures. */
static void collect_unsimulated(struct run_report *r, struct network *net, struct channel_loads *loads,
                                struct model_in *in, const char *stop_reason)
{
    struct model_result model;
    model_predict(in, &model);
    report_collect(r, net, loads, &model, KERNEL_RUNNING, 0);
    r->interrupted = false;
    r->stop_reason = stop_reason;
}

struct check_ctx {
    struct run_report *not_run;
    bool always;
};

static int check_stability(const struct config *cfg, struct network *net, struct channel_loads *loads,
                           struct model_in *in, void *ctx)
{
    struct check_ctx *c = ctx;
    if (net->deadlock.verdict == DL_REFUSED) { /* a sweep's point: a marked row, never run */
        collect_unsimulated(c->not_run, net, loads, in, "deadlock: refused by the static check");
        return RUN_UNSTABLE;
    }
    struct stability stab;
    stability_check(cfg, &net->topo, loads, &stab);
    bool refused = stab.saturated && !cfg->run.allow_unstable;
    if (refused || c->always)
        collect_unsimulated(c->not_run, net, loads, in, refused ? "unstable: not run" : "not run");
    return refused ? RUN_UNSTABLE : 0;
}

int run_check(const struct config *cfg, struct run_report *not_run, bool always, struct cfg_error *err)
{
    struct check_ctx c = { not_run, always };
    return with_network(cfg, err, check_stability, &c);
}

struct unsimulated_ctx {
    struct run_report *report;
    const char *stop_reason;
};

static int unsimulated(const struct config *cfg, struct network *net, struct channel_loads *loads,
                       struct model_in *in, void *ctx)
{
    (void)cfg;
    struct unsimulated_ctx *c = ctx;
    collect_unsimulated(c->report, net, loads, in, c->stop_reason);
    return 0;
}

int run_report_unsimulated(const struct config *cfg, const char *stop_reason, struct run_report *report,
                           struct cfg_error *err)
{
    struct unsimulated_ctx c = { report, stop_reason };
    return with_network(cfg, err, unsimulated, &c);
}
