/* The iq router's figures: flit throughput offered and accepted (per node, the lowest
 * and highest too), the network and source parts of the delay, the sources' backlog
 * and whether it shows saturation; and the table lines that read them. */
#include <math.h>
#include <stdio.h>

#include "iq.h"

static const char group[] = "switching";

/* Sources' backlog growing by more than this share of the packets offered in the window
 * (and by more than one per node) means the offered load is past saturation: the
 * flit engines' rule (routing/flit_figures.c). */
#define SATURATION_GROWTH 0.02

static void line(const struct figure_sink *sink, enum figure_place place, const char *condition, const char *label,
                 const char *rest)
{
    char text[FIGURE_TEXT_MAX];
    snprintf(text, sizeof text, "%s%-12s %s", condition, label, rest);
    sink->line(sink->ctx, group, place, text);
}

static void table_lines(const struct figure_sink *sink)
{
    line(sink, FIGURE_PLACE_HEADER, "", "router", "{router}");
    sink->line(sink->ctx, group, FIGURE_PLACE_HEADER,
               "{?saturated}** SATURATED: {saturation_note}; delay means withheld **");
    line(sink, FIGURE_PLACE_DELAY_PARTS, "", "network",
         "mean {network_delay_mean:%-12.12s} variance {network_delay_variance:%-12.12s} (head injected to tail "
         "ejected)");
    line(sink, FIGURE_PLACE_DELAY_PARTS, "", "source wait",
         "mean {source_wait_mean:%-12.12s} variance {source_wait_variance:%-12.12s} (creation to head injected)");
    line(sink, FIGURE_PLACE_DELAY_PARTS, "", "flits",
         "offered {offered_flits}, accepted {throughput_flits} per node per cycle (nodes {throughput_flits_min} "
         "to {throughput_flits_max}); source backlog {source_backlog_start} -> {source_backlog_end}");
}

void iq_figures(const void *self, const struct figure_sink *sink)
{
    const struct iq_engine *e = self;
    if (!e)
        return;
    const struct probe *p = e->env.probe;
    uint32_t terminals = e->env.topo->terminals; /* only terminals offer and take flits */
    double window = p->window_end - p->window_start, nodes = (double)terminals;
    double lo = NAN, hi = NAN;
    if (window > 0)
        for (uint32_t v = 0; v < terminals; v++) {
            double r = (double)e->node_flits[v] / window;
            if (isnan(lo) || r < lo)
                lo = r;
            if (isnan(hi) || r > hi)
                hi = r;
        }
    double backlog_start = e->open_seen ? (double)e->backlog_open : NAN;
    double backlog_end = e->open_seen ? (double)e->backlog : NAN;
    double growth = backlog_end - backlog_start;
    bool saturated = e->open_seen && growth > nodes && growth > SATURATION_GROWTH * (double)e->offered_packets;
    char note[160] = "";
    if (saturated)
        snprintf(note, sizeof note, "source queues grew from %.0f to %.0f packets over the window: past "
                 "saturation, delays grow with the run length", backlog_start, backlog_end);
    double network = p->delay_link.count ? p->delay_link.mean : NAN;
    double source = p->delay_node.count ? p->delay_node.mean : NAN;
    sink->number(sink->ctx, group, "network_delay_mean", saturated ? NAN : network, 0);
    sink->number(sink->ctx, group, "source_wait_mean", saturated ? NAN : source, 0);
    sink->number(sink->ctx, group, "offered_flits", window > 0 ? (double)e->offered_flits / window / nodes : NAN, 0);
    sink->number(sink->ctx, group, "throughput_flits", window > 0 ? (double)e->ejected_flits / window / nodes : NAN,
                 0);
    sink->number(sink->ctx, group, "throughput_flits_min", lo, 0);
    sink->number(sink->ctx, group, "throughput_flits_max", hi, 0);
    sink->number(sink->ctx, group, "source_backlog_start", backlog_start, 0);
    sink->number(sink->ctx, group, "source_backlog_end", backlog_end, 0);
    sink->flag(sink->ctx, group, "saturated", saturated, FIGURE_WITHHOLDS_DELAY);
    sink->text(sink->ctx, group, "saturation_note", note, 0);
    char router[FIGURE_TEXT_MAX], classes[112], sets[48] = "";
    char escapes[24] = "";
    if (e->E)
        snprintf(escapes, sizeof escapes, "%u escape VCs: ", e->E);
    snprintf(classes, sizeof classes, " (%s%u classes, %s)", escapes, e->vc_classes,
             e->raising ? "raised at each global link" : e->hop_indexed ? "one per router-to-router hop"
                                                                        : "one per Valiant phase");
    if (e->vc_sets > 1)
        snprintf(sets, sizeof sets, ", %u per message class", e->Vc);
    snprintf(router, sizeof router, "input-queued, %u VCs%s x %u flits%s; stages %u+%u+%u+%u cycles, links %u, credits "
             "+%u; VC release on the tail%s; ties %s", e->V, sets, e->B,
             e->dateline ? " (2 dateline classes)" : e->router_net && e->vc_classes > 1 ? classes : "", e->rd,
             e->va, e->sa, e->st, e->L, e->cd, e->tail_credit ? "'s credit" : "", e->tie_random ? "random" : "negative");
    sink->text(sink->ctx, group, "router", router, FIGURE_TABLE_ONLY);
    sink->number(sink->ctx, group, "network_delay_variance", saturated ? NAN : moments_variance(&p->delay_link),
                 FIGURE_TABLE_ONLY);
    sink->number(sink->ctx, group, "source_wait_variance", saturated ? NAN : moments_variance(&p->delay_node),
                 FIGURE_TABLE_ONLY);
    table_lines(sink);
}
