/* The figures of the flit engines (wormhole, cut-through): blocking per channel and
 * per class, acceptance under finite source buffers, flit throughput, the sources'
 * backlog and whether it shows saturation; and the table lines that read them. */
#include "flit_figures.h"

#include <math.h>
#include <stdio.h>

#include "flit.h"

static const char group[] = "switching";

/* Sources' backlog growing by more than this share of the messages offered in the
 * window (and by more than one per node) means the offered load is past saturation. */
#define SATURATION_GROWTH 0.02

/* A table line: its condition (a "{?name}" prefix, or ""), its label padded as every
 * line of the table, then the template. */
static void line(const struct figure_sink *sink, enum figure_place place, const char *condition, const char *label,
                 const char *rest)
{
    char text[FIGURE_TEXT_MAX];
    snprintf(text, sizeof text, "%s%-12s %s", condition, label, rest);
    sink->line(sink->ctx, group, place, text);
}

static void table_lines(const struct figure_sink *sink)
{
    sink->line(sink->ctx, group, FIGURE_PLACE_HEADER,
               "{?saturated}** SATURATED: {saturation_note}; delay means withheld **");
    line(sink, FIGURE_PLACE_DELAY_PARTS, "", "network",
         "mean {network_delay_mean:%-12.12s} variance {network_delay_variance:%-12.12s} (from the header's grant "
         "of its first channel)");
    line(sink, FIGURE_PLACE_DELAY_PARTS, "", "source wait",
         "mean {source_wait_mean:%-12.12s} variance {source_wait_variance:%-12.12s} (creation to that grant)");
    line(sink, FIGURE_PLACE_DELAY_PARTS, "", "blocking",
         "{blocking_probability} of channel requests wait (worst channel {blocking_probability_max})");
    line(sink, FIGURE_PLACE_DELAY_PARTS, "", "blocked", "{blocked_cycles_mean} cycles per message, all hops");
    line(sink, FIGURE_PLACE_DELAY_PARTS, "", "flits",
         "{throughput_flits} flits per node per cycle; source backlog {source_backlog_start} -> "
         "{source_backlog_end}");
    line(sink, FIGURE_PLACE_DELAY_PARTS, "{?recoveries}", "recoveries",
         "{recoveries} deadlocked worms aborted and sent again ({recovery_rate} per message delivered)");
    line(sink, FIGURE_PLACE_DELAY_PARTS, "{?acceptance_probability}", "acceptance",
         "{acceptance_probability} of offered messages accepted (finite buffer)");
    sink->line(sink->ctx, group, FIGURE_PLACE_CLASS,
               "blocking {blocking_probability:%-12.12s} wait per request {blocked_cycles_mean}");
}

void flit_figures(const void *self, const struct figure_sink *sink)
{
    const struct flit_engine *e = self;
    if (!e)
        return; /* its figures exist only when it runs */
    const struct topo *t = e->env.topo;
    const struct probe *p = e->env.probe;
    uint64_t req = 0, blk = 0;
    uint64_t creq[TOPO_MAX_CLASSES] = { 0 }, cblk[TOPO_MAX_CLASSES] = { 0 }, ccyc[TOPO_MAX_CLASSES] = { 0 };
    double blocking_max = NAN;
    for (uint32_t ch = 0; ch < t->channels; ch++) {
        unsigned c = t->ops->channel_class(t, ch);
        creq[c] += e->counts[ch].requests;
        cblk[c] += e->counts[ch].blocked_requests;
        ccyc[c] += e->counts[ch].blocked_cycles;
        req += e->counts[ch].requests;
        blk += e->counts[ch].blocked_requests;
        double b = e->counts[ch].requests ? (double)e->counts[ch].blocked_requests / (double)e->counts[ch].requests : NAN;
        if (!isnan(b) && (isnan(blocking_max) || b > blocking_max))
            blocking_max = b;
    }
    double window = p->window_end - p->window_start;
    double backlog_start = e->open_seen ? (double)e->at_source_open : NAN;
    double backlog_end = e->open_seen ? (double)e->at_source : NAN;
    double growth = backlog_end - backlog_start;
    bool saturated = e->open_seen && growth > (double)t->terminals && growth > SATURATION_GROWTH * (double)e->offered;
    char note[160] = "";
    if (saturated) /* a mean of a growing quantity means nothing */
        snprintf(note, sizeof note, "source queues grew from %.0f to %.0f messages over the window: past "
                 "saturation, delays grow with the run length", backlog_start, backlog_end);
    /* The delay's two parts are the probe's: network = link part, source wait = node part. */
    double network = p->delay_link.count ? p->delay_link.mean : NAN, source = p->delay_node.count ? p->delay_node.mean : NAN;
    sink->number(sink->ctx, group, "network_delay_mean", saturated ? NAN : network, 0);
    sink->number(sink->ctx, group, "source_wait_mean", saturated ? NAN : source, 0);
    sink->number(sink->ctx, group, "blocked_cycles_mean", e->blocked_per_msg.count ? e->blocked_per_msg.mean : NAN, 0);
    sink->number(sink->ctx, group, "blocking_probability", req ? (double)blk / (double)req : NAN, 0);
    sink->number(sink->ctx, group, "blocking_probability_max", blocking_max, 0);
    for (unsigned c = 0; c < t->classes; c++) {
        char cls[24], name[FIGURE_NAME_MAX];
        t->ops->class_name(t, c, cls, sizeof cls);
        snprintf(name, sizeof name, "blocking_%s", cls);
        sink->number(sink->ctx, group, name, creq[c] ? (double)cblk[c] / (double)creq[c] : NAN, 0);
    }
    sink->number(sink->ctx, group, "acceptance_probability",
                 e->finite && e->offered ? 1 - (double)e->refused / (double)e->offered : NAN, 0);
    sink->number(sink->ctx, group, "throughput_flits",
                 window > 0 ? (double)e->flits_delivered / window / t->terminals : NAN, 0);
    if (e->recover) { /* only runs that recover have the columns */
        sink->number(sink->ctx, group, "recoveries", (double)e->recoveries, 0);
        sink->number(sink->ctx, group, "recovery_rate",
                     p->delivered_in_window ? (double)e->recoveries / (double)p->delivered_in_window : NAN, 0);
    }
    sink->number(sink->ctx, group, "source_backlog_start", backlog_start, 0);
    sink->number(sink->ctx, group, "source_backlog_end", backlog_end, 0);
    sink->flag(sink->ctx, group, "saturated", saturated, FIGURE_WITHHOLDS_DELAY);
    sink->text(sink->ctx, group, "saturation_note", note, 0);
    sink->number(sink->ctx, group, "network_delay_variance", saturated ? NAN : moments_variance(&p->delay_link),
                 FIGURE_TABLE_ONLY);
    sink->number(sink->ctx, group, "source_wait_variance", saturated ? NAN : moments_variance(&p->delay_node),
                 FIGURE_TABLE_ONLY);
    for (unsigned c = 0; c < t->classes; c++) {
        sink->class_number(sink->ctx, group, (int)c, "blocking_probability",
                           creq[c] ? (double)cblk[c] / (double)creq[c] : NAN);
        sink->class_number(sink->ctx, group, (int)c, "blocked_cycles_mean",
                           creq[c] ? (double)ccyc[c] / (double)creq[c] : NAN);
    }
    table_lines(sink);
}

/* One channel's waiting, inside the window: requests are headers that asked for it
 * (and, with a finite source buffer, messages refused at it); a wait is the cycles a
 * header queued before it was granted a virtual channel.  The time-average number of
 * headers queued is the waiting cycles over the window's cycles (Little's law, with
 * the waits counted at the grant). */
void flit_channel_figures(const void *self, uint32_t ch, struct channel_figures *out)
{
    const struct flit_engine *e = self;
    const struct probe *p = e->env.probe;
    double window = p->window_end - p->window_start;
    double req = (double)e->counts[ch].requests;
    out->requests = req;
    out->blocking = req > 0 ? (double)e->counts[ch].blocked_requests / req : NAN;
    out->wait_mean = req > 0 ? (double)e->counts[ch].blocked_cycles / req : NAN;
    out->queue_mean = window > 0 ? (double)e->counts[ch].blocked_cycles / window : NAN;
}
