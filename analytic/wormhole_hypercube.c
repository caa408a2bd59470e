/* Seed 003's model (Kim & Das 1994) read from a config: a binary hypercube with
 * wormhole or virtual cut-through switching, e-cube ("LR") or random shortest-path
 * routing, Poisson arrivals, exponential lengths and destinations uniform among the
 * nodes at each distance (uniform, spherical or fixed-hops).  The formulas are in
 * kim_das.c.
 *
 * Units: a flit is `bandwidth` length units and crosses a channel in one cycle
 * (t_u = 1, so no router delay, one-cycle links, one virtual channel, and for
 * wormhole at least two flit buffers, the fewest that move a flit every cycle), so
 * l = mean_length / bandwidth flits.  The configured buffer mode (routing.finite_buffer)
 * gets the simulator's field names (switching.network_delay_mean: the model's delay
 * starts when the header holds its first channel; switching.blocking_dim<s>, ...); the
 * other mode is given too, under "finite." or "infinite.".  Channel s is dimension s,
 * the s-th in e-cube's correction order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kim_das.h"
#include "model.h"

/* Per-channel figures for every channel up to this dimension, else for the lowest and
 * highest only (the figure table holds MODEL_FIGURES_MAX). */
enum { PER_CHANNEL_FIGURES_MAX_DIMENSION = 16 };

enum kd_variant { LR_WORMHOLE, RANDOM_WORMHOLE, LR_CUT_THROUGH };

/* The destination shapes with the same probability for every node at one distance. */
enum { BY_DISTANCE = DEST_UNIFORM | DEST_DISTANCE_WEIGHTS | DEST_FIXED_DISTANCE };

static const char *applies(const struct model_in *in, enum kd_variant *variant)
{
    const struct config *cfg = in->cfg;
    bool pipelined = in->switching & SWITCH_PIPELINED;
    bool wormhole = pipelined && (in->switching & SWITCH_HOLDS_CHANNELS);
    bool ecube = in->route & ROUTE_DIMENSION_ORDER;
    unsigned dest = in->destination;
    if (!(in->topo->ops->traits & TOPO_BINARY_HYPERCUBE))
        return "needs a binary hypercube";
    if (cfg->network.dimension > KD_DIM_MAX)
        return "needs a hypercube of dimension 64 at most";
    if (in->topo->kind != CHANNEL_LINK_DIRECTION)
        return "needs full-duplex links (a channel each way)";
    if (in->switching & SWITCH_INPUT_QUEUED)
        return "models the seeds' router, not the input-queued one (routing.router = iq)";
    if (!pipelined)
        return "needs wormhole or cut-through switching";
    if (cfg_int(cfg, "routing.virtual_channels") != 1)
        return "needs one virtual channel per channel";
    if (cfg_int(cfg, "routing.router_delay") != 0 || cfg_int(cfg, "routing.link_latency") != 1)
        return "needs t_u = 1 cycle per hop (router_delay = 0, link_latency = 1)";
    if (wormhole && cfg_int(cfg, "routing.flit_buffers") < 2)
        return "needs flit_buffers >= 2 (one flit per cycle on every channel)";
    if (!ecube && !(wormhole && (in->route & ROUTE_UNIFORM_SPLIT)))
        return wormhole ? "needs ecube or random-minimal routing" : "needs ecube routing with cut-through";
    if (!(in->arrival & ARRIVAL_POISSON))
        return "needs Poisson arrivals";
    if (!(in->length & LENGTH_EXPONENTIAL))
        return "needs exponential message lengths";
    if (!(dest & BY_DISTANCE))
        return "needs destinations uniform among the nodes at each distance (uniform, spherical or fixed-hops)";
    if ((dest & DEST_FIXED_DISTANCE) && cfg_int(cfg, "workload.hops") > cfg->network.dimension)
        return "needs workload.hops within the dimension";
    if (cfg->node.service_rate > 0)
        return "has no node servers (node.service_rate = 0)";
    *variant = !wormhole ? LR_CUT_THROUGH : ecube ? LR_WORMHOLE : RANDOM_WORMHOLE;
    return NULL;
}

static void solve(enum kd_variant v, const struct kd_traffic *t, double length, double rate, bool finite,
                  struct kd_result *r)
{
    switch (v) {
    case LR_WORMHOLE: kd_wormhole_lr(t, length, rate, finite, r); break;
    case RANDOM_WORMHOLE: kd_wormhole_random(t, length, rate, finite, r); break;
    case LR_CUT_THROUGH: kd_cut_through(t, length, rate, finite, r); break;
    }
}

static bool shown(unsigned s, unsigned n) { return n <= PER_CHANNEL_FIGURES_MAX_DIMENSION || s == 0 || s == n - 1; }

/* A figure of the configured buffer mode (prefix "") under the simulator's field
 * name, or of the other mode as prefix + own name. */
static void add(struct model_result *out, const char *prefix, const char *field, const char *own, double value)
{
    char name[48];
    snprintf(name, sizeof name, "%s%s", prefix, *prefix ? own : field);
    model_add(out, name, value);
}

static void add_mode(struct model_result *out, const char *prefix, enum kd_variant v, const struct kd_result *r,
                     bool finite, unsigned n, double rate)
{
    bool configured = !*prefix;
    if (!configured)
        add(out, prefix, NULL, "saturated", r->saturated);
    if (r->saturated)
        return;
    add(out, prefix, "switching.network_delay_mean", "delay.mean", r->delay_mean);
    if (v == LR_WORMHOLE) /* Fig. 6: eq. (11) with the simple average of D_s, as Dally averages */
        add(out, prefix, "delay.simple_average", "delay.simple_average", r->delay_simple);
    if (configured)
        model_add(out, "throughput", r->acceptance * rate);
    if (finite)
        add(out, prefix, "switching.acceptance_probability", "acceptance", r->acceptance);
    double mean = 0;
    for (unsigned s = 0; s < n; s++)
        mean += r->blocking[s] / n; /* every channel carries the same rate (eq. 4) */
    add(out, prefix, "switching.blocking_probability", "blocking.mean", mean);
    if (v != LR_WORMHOLE && !configured)
        return; /* one P_b for every channel */
    for (unsigned s = 0; s < n; s++)
        if (shown(s, n)) {
            char field[48], own[48];
            snprintf(field, sizeof field, "switching.blocking_dim%u", s);
            snprintf(own, sizeof own, "blocking.%u", s);
            add(out, prefix, field, own, r->blocking[s]);
        }
}

/* Solves both buffer modes on the traffic t and adds their figures; sets the delay or
 * marks the configured mode saturated. */
static void solve_and_add(struct model_result *out, const struct config *cfg, enum kd_variant v,
                          const struct kd_traffic *t, unsigned n)
{
    double length = cfg->workload.mean_length / cfg->network.bandwidth, rate = cfg_message_rate(cfg);
    struct kd_result infinite, finite;
    solve(v, t, length, rate, false, &infinite);
    solve(v, t, length, rate, true, &finite);

    out->mean_hops = t->hops_mean;
    model_add(out, "traffic.channel", t->channel * rate);
    for (unsigned s = 0; s < n; s++)
        if (v != RANDOM_WORMHOLE && shown(s, n)) {
            char name[48];
            snprintf(name, sizeof name, "traffic.new.%u", s);
            model_add(out, name, t->fresh[s] * rate);
            snprintf(name, sizeof name, "traffic.transit.%u", s);
            model_add(out, name, t->transit[s] * rate);
        }
    bool finite_mode = cfg_bool(cfg, "routing.finite_buffer");
    const struct kd_result *chosen = finite_mode ? &finite : &infinite;
    add_mode(out, "", v, chosen, finite_mode, n, rate);
    add_mode(out, finite_mode ? "infinite." : "finite.", v, finite_mode ? &infinite : &finite, !finite_mode, n, rate);

    if (chosen->saturated) {
        out->unstable = true;
        snprintf(out->why, sizeof out->why, "saturated: %s",
                 v == RANDOM_WORMHOLE ? "eqs. (12)-(14) have no positive root at this load"
                                      : "a channel's blocking probability reaches 1 (eq. 9)");
        return;
    }
    out->delay_mean = chosen->delay_mean;
    snprintf(out->why, sizeof out->why, "Kim & Das %s; the delay starts at the first channel's grant (no source wait)",
             v == LR_WORMHOLE       ? "eqs. (1)-(11), e-cube wormhole"
             : v == RANDOM_WORMHOLE ? "eqs. (12)-(14), random wormhole"
                                    : "cut-through P_b, delay by eqs. (8), (11) with d = l/2 (our completion)");
}

static bool predict(const struct model_in *in, struct model_result *out)
{
    const struct config *cfg = in->cfg; /* the seed's traffic lemmas give the loads */
    enum kd_variant v = LR_WORMHOLE;
    const char *why = applies(in, &v);
    if (why) {
        snprintf(out->why, sizeof out->why, "wormhole-hypercube %s", why);
        return false;
    }
    unsigned n = (unsigned)cfg->network.dimension;
    double p[KD_DIM_MAX + 1] = { 0 };
    unsigned dest = in->destination;
    if (dest & DEST_UNIFORM)
        kd_uniform(n, p);
    else if (dest & DEST_DISTANCE_WEIGHTS) {
        /* P_k proportional to workload.distance_weights (empty: all equal, the seed's P_k = 1/n) */
        const struct cfg_list *w = cfg_list_of(cfg, "workload.distance_weights");
        double total = 0;
        for (unsigned k = 1; k <= n; k++)
            total += p[k] = w->count == 0 ? 1 : k <= w->count ? w->value[k - 1] : 0;
        for (unsigned k = 1; k <= n; k++)
            p[k] = total > 0 ? p[k] / total : 0;
    }
    else
        p[cfg_int(cfg, "workload.hops")] = 1;
    struct kd_traffic *t = calloc(1, sizeof *t); /* 64 KiB: off the stack */
    if (!t || !kd_traffic_init(t, n, p)) {
        snprintf(out->why, sizeof out->why, "wormhole-hypercube: %s",
                 t ? "no destination distribution over distances" : "out of memory");
        free(t);
        return false;
    }
    solve_and_add(out, cfg, v, t, n);
    free(t);
    return true;
}

const struct model_ops model_wormhole_hypercube = {
    .name = "wormhole-hypercube",
    .help = "Kim & Das (seed 003): per-channel blocking and mean delay of wormhole and cut-through hypercubes",
    .predict = predict,
};
