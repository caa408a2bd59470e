#include "collect.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../analytic/model.h"
#include "../../protocols/protocol.h"
#include "../../routing/engine.h"
#include "netrace_run.h"
#include "request_reply.h"
#include "run_config.h"

_Static_assert((int)TOPO_MAX_CLASSES <= (int)REPORT_MAX_CLASSES, "a report holds every channel class of a topology");

static const char *stop_reason(enum kernel_stop why)
{
    switch (why) {
    case KERNEL_DONE:
        return "completed";
    case KERNEL_INTERRUPTED:
        return "signal";
    case KERNEL_WALL_LIMIT:
        return "max_wall_seconds";
    case KERNEL_EMPTY:
        return "no events left";
    case KERNEL_FAILED:
        return "out of memory";
    case KERNEL_RUNNING:
        break;
    }
    return "running";
}

/* The engine's own figures, then the names of those every report has a column for
 * (engines with ENGINE_COLUMNS_ALWAYS that did not run: a group the running engine
 * reported is not named again). */
static void collect_figures(struct figures *list, const struct network *net)
{
    list->n = 0;
    struct figure_sink sink = figures_sink(list, false);
    if (net->engine->figures)
        net->engine->figures(net->engine_state, &sink);
    if (net->netrace) /* the trace's own: its completion time */
        net_netrace_figures(net->netrace, &sink);
    if (net->reply) /* the classes' delays and the round trip */
        net_reply_figures(net->reply, &sink);
    if (net->engine->traits & SWITCH_PIPELINED) { /* the static deadlock check's verdict */
        char summary[FIGURE_TEXT_MAX];
        dl_summary(&net->deadlock, summary, sizeof summary);
        sink.text(sink.ctx, "deadlock", "deadlock_check", summary, 0);
        sink.line(sink.ctx, "deadlock", FIGURE_PLACE_HEADER, "deadlock     {deadlock_check}");
    }
    unsigned ran = list->n;
    for (size_t i = 0; engine_registered(i); i++) {
        const struct engine_ops *e = engine_registered(i);
        if (!(e->traits & ENGINE_COLUMNS_ALWAYS) || !e->figures)
            continue;
        struct figures named;
        named.n = 0;
        struct figure_sink absent = figures_sink(&named, true);
        e->figures(NULL, &absent);
        for (unsigned k = 0; k < named.n && list->n < FIGURES_MAX; k++) {
            bool reported = false;
            for (unsigned j = 0; j < ran && !reported; j++)
                reported = strcmp(list->item[j].group, named.item[k].group) == 0;
            if (!reported)
                list->item[list->n++] = named.item[k];
        }
    }
}

/* Whether the engine gives a saturation verdict of its own (a flag that withholds the delay). */
static bool engine_judges_saturation(const struct run_report *r)
{
    for (unsigned i = 0; i < r->figures.n; i++)
        if (r->figures.item[i].kind == FIGURE_FLAG && (r->figures.item[i].hints & FIGURE_WITHHOLDS_DELAY))
            return true;
    return false;
}

/* No analysis predicts this network's stability and its engine does not judge it: the
 * run's backlog does (sim/core/backlog.h). */
static void judge_backlog(struct run_report *r, const struct network *net)
{
    struct backlog_verdict v;
    backlog_judge(&net->probe.backlog, r->terminals, &v);
    if (!v.saturated)
        return;
    r->stability.saturated = true;
    snprintf(r->stability.why, sizeof r->stability.why, "the backlog grew from %.0f to %.0f messages over the "
             "window, by %.0f in its second half",
             r->backlog_start, r->backlog_end, v.growth);
}

void report_collect(struct run_report *r, const struct network *net, const struct channel_loads *loads,
                    const struct model_result *model, enum kernel_stop why, double wall_seconds)
{
    memset(r, 0, sizeof *r);
    const struct topo *t = &net->topo;
    r->cfg = net->cfg;
    run_config_echo(net->cfg, model, &r->echo);
    char trace[2 * CFG_TEXT_MAX];
    snprintf(r->trace, sizeof r->trace, "%.*s", (int)sizeof r->trace - 1, trace_path(net->cfg, trace, sizeof trace));
    r->nodes = t->nodes;
    r->terminals = t->terminals;
    r->routers = t->routers;
    r->channels = t->channels;
    snprintf(r->network, sizeof r->network, "%s", t->label);
    if (net->proto->describe)
        net->proto->describe(cfg_params(net->cfg, net->proto->params), r->access_detail, sizeof r->access_detail);
    stats_summarize(&net->probe.delay, &r->delay);
    r->replications = 1;
    r->node_mean = net->probe.delay_node.count ? net->probe.delay_node.mean : NAN;
    r->node_variance = moments_variance(&net->probe.delay_node);
    r->link_mean = net->probe.delay_link.count ? net->probe.delay_link.mean : NAN;
    r->link_variance = moments_variance(&net->probe.delay_link);
    struct stability stab;
    stability_check(net->cfg, t, loads, &stab);
    r->stability = (struct report_stability){ stab.known, stab.saturated, stab.node_load, "" };
    snprintf(r->stability.why, sizeof r->stability.why, "%s", stab.why);
    r->window = net->probe.window_end - net->probe.window_start;
    r->backlog_start = net->probe.window_open ? net->probe.in_flight_at_open : NAN;
    r->backlog_end = net->probe.window_open ? net->in_flight : NAN;
    r->node_utilization_mean = r->node_utilization_max = NAN;
    if (net->node && r->window > 0) {
        double sum = 0, max = 0;
        for (uint32_t v = 0; v < t->nodes; v++) {
            double u = net->node[v].busy_time / r->window;
            sum += u;
            if (u > max)
                max = u;
        }
        r->node_utilization_mean = sum / t->nodes;
        r->node_utilization_max = max;
    }
    r->warmup_time = net->probe.window_start;
    const struct probe *pr = &net->probe;
    r->warmup_messages = pr->time_mode ? NAN : pr->spec.warmup_auto ? (double)pr->deleted
                                                                     : (double)pr->spec.warmup_messages;
    r->warmup_unsettled = pr->unsettled;
    r->precision_met = pr->spec.precision > 0 ? pr->target_met || seqstats_met(&pr->plan, pr->spec.precision) : -1;
    r->throughput = r->window > 0 ? (double)net->probe.delivered_in_window / r->window / t->terminals : NAN;
    r->hops_mean = net->probe.delay.count ? (double)net->probe.hops_measured / (double)net->probe.delay.count : NAN;
    r->classes = t->classes;
    double sum = 0, max = 0;
    for (unsigned c = 0; c < t->classes; c++) {
        t->ops->class_name(t, c, r->cls[c].name, sizeof r->cls[c].name);
        r->cls[c].analytic_utilization = loads->known ? loads->class_utilization[c] : NAN;
    }
    for (uint32_t ch = 0; ch < t->channels; ch++) {
        double u = r->window > 0 ? net->chan[ch].busy_time / r->window : NAN;
        struct class_report *cr = &r->cls[t->ops->channel_class(t, ch)];
        cr->channels++;
        cr->utilization_mean += u;
        if (u > cr->utilization_max)
            cr->utilization_max = u;
        sum += u;
        if (u > max)
            max = u;
    }
    for (unsigned c = 0; c < t->classes; c++)
        if (r->cls[c].channels)
            r->cls[c].utilization_mean /= (double)r->cls[c].channels;
    r->utilization_mean = r->window > 0 ? sum / t->channels : NAN;
    r->utilization_max = r->window > 0 ? max : NAN;
    r->model = *model;
    collect_figures(&r->figures, net);
    report_adopt_saturation(r);
    if (!r->stability.known && !r->stability.saturated && !engine_judges_saturation(r))
        judge_backlog(r, net);
    r->slotted = net->engine->traits & ENGINE_SLOTTED;
    r->delivered_total = (double)net->probe.delivered;
    r->interrupted = why != KERNEL_DONE;
    r->stop_reason = stop_reason(why);
    r->simulated_time = net->kernel.now;
    r->messages_created = net->created;
    r->events = net->kernel.events;
    r->wall_seconds = wall_seconds;
    r->events_per_second = wall_seconds > 0 ? (double)r->events / wall_seconds : NAN;
    r->rep_mean = r->rep_stddev = r->rep_max = (struct replication_spread){ NAN, NAN, { NAN, NAN } };
    if (report_delay_withheld(r)) /* a mean of a growing quantity means nothing */
        r->delay.mean = r->delay.ci95[0] = r->delay.ci95[1] = NAN;
    report_set_precision(r);
}
