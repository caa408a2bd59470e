#include "collect.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../routing/backtracking.h"
#include "../../protocols/protocol.h"
#include "../../routing/flit.h"

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

static void collect_backtracking(struct backtracking_report *b, const struct network *net)
{
    struct backtracking_figures f;
    if (!backtracking_figures(net->engine, net->engine_state, &f)) {
        double *all[] = { &b->cycles, &b->generated, &b->accepted, &b->rejected, &b->acceptance, &b->throughput,
                          &b->throughput_per_node, &b->occupancy_mean, &b->full_fraction, &b->backtrack_fraction,
                          &b->forced_fraction, &b->forward_probability, &b->backtrack_probability, &b->in_network,
                          &b->delivered_run, &b->power };
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            *all[i] = NAN;
        return;
    }
    const struct backtracking_counts *w = &f.window;
    double cycles = (double)w->cycles, node_cycles = cycles * f.nodes, channel_cycles = node_cycles * f.dimension;
    double sends = (double)w->sends;
    *b = (struct backtracking_report){
        .on = true,
        .buffers = f.buffers,
        .cycles = cycles,
        .generated = (double)w->generated,
        .accepted = (double)w->accepted,
        .rejected = (double)w->rejected,
        .acceptance = w->generated ? (double)w->accepted / (double)w->generated : NAN,
        .throughput = cycles > 0 ? (double)w->accepted / cycles : NAN,
        .throughput_per_node = cycles > 0 ? (double)w->accepted / node_cycles : NAN,
        .occupancy_mean = cycles > 0 ? (double)w->occupancy / node_cycles : NAN,
        .full_fraction = cycles > 0 ? (double)w->full / node_cycles : NAN,
        .backtrack_fraction = sends > 0 ? (double)w->backtracks / sends : NAN,
        .forced_fraction = sends > 0 ? (double)w->forced_sends / sends : NAN,
        .forward_probability = cycles > 0 ? (sends - (double)w->backtracks) / channel_cycles : NAN,
        .backtrack_probability = cycles > 0 ? (double)w->backtracks / channel_cycles : NAN,
        .in_network = (double)f.in_network,
        .delivered_run = (double)f.run.delivered,
    };
    b->power = net->probe.delay.count ? b->throughput * b->acceptance / net->probe.delay.mean : NAN;
}

/* Sources' backlog growing by more than this share of the messages offered in the
 * window (and by more than one per node) means the offered load is past saturation. */
#define SATURATION_GROWTH 0.02

static void collect_flit(struct run_report *r, const struct network *net)
{
    const struct flit_engine *e = flit_engine_of(net->engine, net->engine_state);
    struct flit_report *f = &r->flit;
    if (!e)
        return;
    const struct topo *t = &net->topo;
    f->on = true;
    uint64_t req = 0, blk = 0, cyc = 0;
    uint64_t creq[TOPO_MAX_CLASSES] = { 0 }, cblk[TOPO_MAX_CLASSES] = { 0 }, ccyc[TOPO_MAX_CLASSES] = { 0 };
    f->blocking_max = NAN;
    for (uint32_t ch = 0; ch < t->channels; ch++) {
        unsigned c = t->ops->channel_class(t, ch);
        creq[c] += e->requests[ch];
        cblk[c] += e->blocked_requests[ch];
        ccyc[c] += e->blocked_cycles[ch];
        req += e->requests[ch];
        blk += e->blocked_requests[ch];
        cyc += e->blocked_cycles[ch];
        double p = e->requests[ch] ? (double)e->blocked_requests[ch] / (double)e->requests[ch] : NAN;
        if (!isnan(p) && (isnan(f->blocking_max) || p > f->blocking_max))
            f->blocking_max = p;
    }
    for (unsigned c = 0; c < t->classes; c++) {
        r->cls[c].blocking = creq[c] ? (double)cblk[c] / (double)creq[c] : NAN;
        r->cls[c].blocked_cycles = creq[c] ? (double)ccyc[c] / (double)creq[c] : NAN;
    }
    (void)cyc;
    f->blocking = req ? (double)blk / (double)req : NAN;
    f->blocked_cycles_mean = e->blocked_per_msg.count ? e->blocked_per_msg.mean : NAN;
    f->acceptance = e->finite && e->offered ? 1 - (double)e->refused / (double)e->offered : NAN;
    f->throughput_flits = r->window > 0 ? (double)e->flits_delivered / r->window / t->nodes : NAN;
    f->backlog_start = e->open_seen ? (double)e->at_source_open : NAN;
    f->backlog_end = e->open_seen ? (double)e->at_source : NAN;
    double growth = f->backlog_end - f->backlog_start;
    if (e->open_seen && growth > (double)t->nodes && growth > SATURATION_GROWTH * (double)e->offered) {
        f->saturated = true;
        snprintf(f->note, sizeof f->note, "source queues grew from %.0f to %.0f messages over the window: past "
                 "saturation, delays grow with the run length", f->backlog_start, f->backlog_end);
    }
}

void report_collect(struct run_report *r, const struct network *net, const struct channel_loads *loads,
                    const struct model_result *model, enum kernel_stop why, double wall_seconds)
{
    memset(r, 0, sizeof *r);
    const struct topo *t = &net->topo;
    r->cfg = net->cfg;
    r->nodes = t->nodes;
    r->channels = t->channels;
    snprintf(r->network, sizeof r->network, "%s", t->label);
    if (net->proto->describe) {
        const struct access_params params = access_params_of(net->cfg);
        net->proto->describe(&params, r->access_detail, sizeof r->access_detail);
    }
    stats_summarize(&net->probe.delay, &r->delay);
    r->replications = 1;
    r->node_mean = net->probe.delay_node.count ? net->probe.delay_node.mean : NAN;
    r->node_variance = moments_variance(&net->probe.delay_node);
    r->link_mean = net->probe.delay_link.count ? net->probe.delay_link.mean : NAN;
    r->link_variance = moments_variance(&net->probe.delay_link);
    stability_check(net->cfg, t, loads, &r->stability);
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
    r->throughput = r->window > 0 ? (double)net->probe.delivered_in_window / r->window / t->nodes : NAN;
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
    collect_backtracking(&r->bt, net);
    r->interrupted = why != KERNEL_DONE;
    r->stop_reason = stop_reason(why);
    r->simulated_time = net->kernel.now;
    r->messages_created = net->created;
    r->events = net->kernel.events;
    r->wall_seconds = wall_seconds;
    r->events_per_second = wall_seconds > 0 ? (double)r->events / wall_seconds : NAN;
    r->rep_mean = r->rep_stddev = r->rep_max = (struct replication_spread){ NAN, NAN, { NAN, NAN } };
    collect_flit(r, net);
    if (r->flit.saturated) /* a mean of a growing quantity means nothing */
        r->delay.mean = r->delay.ci95[0] = r->delay.ci95[1] = NAN;
}

/* Running average of one figure over replications; NaN in any replication stays NaN. */
