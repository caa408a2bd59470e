/* The observer's collection while the run goes: per-node counts, the time series and
 * the wrapped access protocol's requests and grants (see observe.h). */
#include "observe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --- the series --- */

/* Opens a new interval at `start` (the bins array has room). */
static void open_bin(struct observe *o, double start, bool window)
{
    o->bin[o->bins++] = (struct observe_bin){ .start = start, .end = start + o->interval, .window = window };
}

/* Too many intervals: neighbours within each part (warm-up, window) merge pairwise and
 * the interval doubles.  A part's k-th interval starts k intervals after the part's
 * origin, so a merged pair is one interval of the doubled grid.  True when the last
 * interval had no partner: it is then the first half of a doubled one. */
static bool merge_bins(struct observe *o)
{
    uint32_t out = 0, part_out = 0;
    bool lone = false;
    for (uint32_t lo = 0; lo < o->bins;) {
        uint32_t hi = lo == 0 && o->part > 0 ? o->part : o->bins; /* the warm-up part, then the current one */
        if (lo == o->part)
            part_out = out;
        for (uint32_t i = lo; i < hi; i += 2) {
            struct observe_bin b = o->bin[i];
            lone = i + 1 >= hi;
            if (!lone) {
                const struct observe_bin *c = &o->bin[i + 1];
                b.end = c->end;
                b.delivered += c->delivered;
                b.measured += c->measured;
                b.delay_sum += c->delay_sum;
                b.backlog = c->backlog;
            }
            o->bin[out++] = b;
        }
        lo = hi;
    }
    o->interval *= 2;
    o->part = part_out;
    o->bins = out;
    return lone;
}

/* Closes the open interval (its backlog: what is in flight now, before this event's
 * change) and opens the next at `start`, unless merging made the closed one the first
 * half of a doubled interval that is still open (never at the window's cut). */
static void next_bin(struct observe *o, double start, bool window, bool cut)
{
    struct observe_bin *last = &o->bin[o->bins - 1];
    last->backlog = *o->in_flight;
    if (o->bins == o->bin_cap && merge_bins(o) && !cut) {
        last = &o->bin[o->bins - 1];
        last->end = last->start + o->interval;
        return;
    }
    open_bin(o, start, window);
}

/* Brings the series to time `now`: intervals that ended are closed, and the window's
 * opening, once the probe has opened it, is cut in. */
static void series_advance(struct observe *o, double now)
{
    const struct probe *p = o->probe;
    if (!o->cut && p->window_open) {
        double ws = p->window_start;
        while (o->bin[o->bins - 1].end <= ws)
            next_bin(o, o->bin[o->bins - 1].end, false, false);
        struct observe_bin *b = &o->bin[o->bins - 1];
        if (b->start < ws || b->delivered > 0) {
            b->end = ws;
            next_bin(o, ws, true, true);
        } else {
            b->window = true;
            b->end = ws + o->interval;
        }
        o->part = o->bins - 1;
        o->cut = true;
    }
    while (now >= o->bin[o->bins - 1].end) {
        bool window = o->bin[o->bins - 1].window;
        next_bin(o, o->bin[o->bins - 1].end, window, false);
    }
}

void observe_series_finish(struct observe *o, double end)
{
    if (!o->series)
        return;
    series_advance(o, o->bin[o->bins - 1].start); /* the window's cut, if it came without an event */
    while (o->bin[o->bins - 1].end < end) {
        bool window = o->bin[o->bins - 1].window;
        next_bin(o, o->bin[o->bins - 1].end, window, false);
    }
    struct observe_bin *last = &o->bin[o->bins - 1];
    if (last->start <= end)
        last->end = end;
    last->backlog = *o->in_flight;
}

/* --- the tap --- */

/* Whether the probe measures this delivery: its own rule (sim/core/probe.c). */
static bool measured(const struct probe *p, uint64_t id)
{
    return p->time_mode ? p->window_open : probe_is_measured(p, id);
}

void observe_created(struct observe *o, uint32_t node, double now)
{
    if (o->series)
        series_advance(o, now);
    if (o->node) {
        o->node[node].created++;
        if (o->probe->window_open)
            o->node[node].offered++;
    }
}

static void on_delivered(void *ctx, const struct message *msg, uint64_t id, double now)
{
    struct observe *o = ctx;
    double delay = now - msg->created;
    bool m = measured(o->probe, id);
    if (o->series) {
        series_advance(o, now);
        struct observe_bin *b = &o->bin[o->bins - 1];
        b->delivered++;
        b->delay_sum += delay;
        b->measured += m;
    }
    if (o->node) {
        struct observe_node *s = &o->node[msg->src], *d = &o->node[msg->dst];
        s->finished++;
        if (m) {
            s->as_source++;
            s->delay_source += delay;
            d->as_dest++;
            d->delay_dest += delay;
        }
    }
}

static void on_refused(void *ctx, const struct message *msg, uint64_t id, double now)
{
    (void)id;
    struct observe *o = ctx;
    if (o->series)
        series_advance(o, now);
    if (o->node) {
        o->node[msg->src].finished++;
        o->node[msg->src].refused += o->probe->window_open;
    }
}

/* --- the wrapped access protocol: every request and grant timed --- */

/* The number waiting for ch changes by `by` now: its integral over the window so far. */
static void waiting_changes(struct observe *o, struct observe_channel *c, int by)
{
    const struct probe *p = o->probe;
    double now = o->kernel->now;
    if (p->window_open) {
        double from = c->since > p->window_start ? c->since : p->window_start;
        c->area += c->waiting * (now - from);
    }
    c->since = now;
    c->waiting += by;
}

static void wrapped_grant(void *engine, uint32_t ch, uint32_t m)
{
    struct observe *o = engine;
    struct observe_channel *c = &o->chan[ch];
    waiting_changes(o, c, -1);
    if (o->probe->window_open) {
        double wait = o->kernel->now - o->requested[m];
        c->grants++;
        c->waited += wait > 0;
        c->wait_sum += wait;
    }
    o->grant(o->engine, ch, m);
}

static void wrapped_request(void *self, uint32_t ch, uint32_t m, uint32_t sender)
{
    struct observe *o = self;
    if (m >= o->requested_cap) { /* the pool grew: so does the table of request times */
        uint32_t cap = o->requested_cap ? o->requested_cap : 1024;
        while (cap <= m)
            cap *= 2;
        double *grown = realloc(o->requested, (size_t)cap * sizeof *grown);
        if (!grown)
            abort(); /* out of memory in the middle of a run: nothing sensible remains */
        o->requested = grown;
        o->requested_cap = cap;
    }
    o->requested[m] = o->kernel->now;
    waiting_changes(o, &o->chan[ch], +1);
    o->inner->request(o->inner_self, ch, m, sender);
}

static void wrapped_release(void *self, uint32_t ch)
{
    struct observe *o = self;
    o->inner->release(o->inner_self, ch);
}

static void wrapped_prefetch(const void *self, uint32_t ch, unsigned stage)
{
    const struct observe *o = self;
    if (o->inner->prefetch)
        o->inner->prefetch(o->inner_self, ch, stage);
}

/* Adaptive store-and-forward compares queues through it (its check has made sure the
 * configured protocol counts them). */
static uint32_t wrapped_queued(const void *self, uint32_t ch)
{
    const struct observe *o = self;
    return o->inner->queued ? o->inner->queued(o->inner_self, ch) : 0;
}

static void *wrapped_create(const struct access_env *env)
{
    struct observe *o = (struct observe *)env->params; /* the observer itself: see observe_access_ops */
    struct access_env inner = *env;
    inner.params = o->inner_params;
    inner.grant = wrapped_grant;
    inner.engine = o;
    o->grant = env->grant;
    o->engine = env->engine;
    o->inner_self = o->inner->create(&inner);
    return o->inner_self ? o : NULL;
}

static void wrapped_destroy(void *self)
{
    struct observe *o = self;
    if (o && o->inner_self)
        o->inner->destroy(o->inner_self);
    if (o)
        o->inner_self = NULL;
}

static const struct proto_ops wrapped = {
    .name = "observed",
    .help = "the configured protocol, its requests and grants timed (sim --channels)",
    .create = wrapped_create,
    .destroy = wrapped_destroy,
    .request = wrapped_request,
    .release = wrapped_release,
    .prefetch = wrapped_prefetch,
    .queued = wrapped_queued,
};

const struct proto_ops *observe_access_ops(void) { return &wrapped; }

/* --- life cycle --- */

/* The series' interval when none is given: the window's expected length over 100
 * (time mode: run.duration; message mode: the measured messages over the network's
 * arrival rate), so that the window has about 100 intervals. */
static double default_interval(const struct config *cfg, const struct topo *t)
{
    double window = cfg->run.duration > 0 ? cfg->run.duration
                                          : (double)cfg->run.messages / ((double)t->terminals * cfg_message_rate(cfg));
    return isfinite(window) && window > 0 ? window / 100 : 1;
}

double observe_memory(const struct config *cfg, const struct topo *t)
{
    const struct run_files *f = &cfg->files;
    double bytes = sizeof(struct observe);
    if (f->nodes)
        bytes += (double)t->terminals * sizeof(struct observe_node);
    if (f->series)
        bytes += (double)OBSERVE_SERIES_MAX * sizeof(struct observe_bin);
    if (f->channels) /* the request times grow with the pool, beside its own 80-odd bytes a message */
        bytes += (double)t->channels * sizeof(struct observe_channel);
    return bytes;
}

struct observe *observe_create(const struct config *cfg, const struct topo *t, const struct probe *p,
                               const struct kernel *k, const uint32_t *in_flight)
{
    const struct run_files *f = &cfg->files;
    struct observe *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    *o = (struct observe){ .cfg = cfg, .probe = p, .kernel = k, .in_flight = in_flight, .nodes = t->terminals };
    o->tap = (struct engine_tap){ on_delivered, on_refused, o };
    if (f->nodes && !(o->node = calloc(t->terminals, sizeof *o->node)))
        goto fail;
    if (f->channels) {
        o->channels = t->channels;
        if (!(o->chan = calloc((size_t)t->channels + 1, sizeof *o->chan)))
            goto fail;
    }
    if (f->series) {
        o->series = true;
        o->interval = f->series_interval > 0 ? f->series_interval : default_interval(cfg, t);
        o->bin_cap = OBSERVE_SERIES_MAX;
        if (!(o->bin = malloc((size_t)o->bin_cap * sizeof *o->bin)))
            goto fail;
        open_bin(o, 0, false);
    }
    return o;
fail:
    observe_free(o);
    return NULL;
}

void observe_free(struct observe *o)
{
    if (!o)
        return;
    free(o->node);
    free(o->chan);
    free(o->requested);
    free(o->bin);
    free(o);
}
