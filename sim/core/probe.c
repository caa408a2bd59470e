#include "probe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool probe_init(struct probe *p, struct kernel *k, const struct probe_spec *spec, const uint32_t *in_flight)
{
    *p = (struct probe){ .kernel = k, .spec = *spec, .time_mode = spec->duration > 0, .in_flight = in_flight,
                         .close_at = INFINITY };
    /* Time mode numbers each delivery by its batch of the window directly. */
    uint64_t numbered = p->time_mode ? spec->batches : spec->messages;
    p->recording = !p->time_mode && (spec->warmup_auto || spec->precision > 0);
    p->next_check = (uint64_t)SEQSTATS_TEST_SPLIT * spec->batches * probe_min_batch(spec);
    p->plan = (struct batch_plan){ 0, NAN, NAN, NAN, NAN, false };
    /* Recording: the statistics are built by probe_settle(); none until then. */
    return stats_init(&p->delay, p->recording ? 0 : numbered, p->recording ? 0 : spec->batches);
}

void probe_free(struct probe *p)
{
    stats_free(&p->delay);
    free(p->rec_delay);
    free(p->rec_part);
    p->rec_delay = NULL;
    p->rec_part = NULL;
}

uint64_t probe_min_batch(const struct probe_spec *spec)
{
    uint64_t m = (uint64_t)PROBE_MIN_BATCH_PER_SOURCE * spec->sources;
    return m > PROBE_MIN_BATCH ? m : PROBE_MIN_BATCH;
}

unsigned probe_max_batches(unsigned batches)
{
    unsigned most = batches * PROBE_BATCH_SPAN;
    return most > PROBE_MAX_BATCHES ? (batches > PROBE_MAX_BATCHES ? batches : PROBE_MAX_BATCHES) : most;
}

void probe_set_open_hook(struct probe *p, void (*on_open)(void *ctx, double now), void *ctx)
{
    p->on_open = on_open;
    p->on_open_ctx = ctx;
}

static void open_window(struct probe *p, double now)
{
    p->window_open = true;
    p->window_start = now;
    if (p->slotted) /* the window holds whole cycles: empty until this one ends */
        p->window_end = now;
    p->in_flight_at_open = *p->in_flight;
    p->created_in_window = 0;
    backlog_init(&p->backlog, p->in_flight_at_open);
    if (p->on_open)
        p->on_open(p->on_open_ctx, now);
}

/* Time mode: obj 0 opens the measurement window, obj 1 closes it and ends the run. */
static void on_window(struct kernel *k, void *ctx, uint32_t close)
{
    struct probe *p = ctx;
    if (!close) {
        open_window(p, k->now);
        return;
    }
    p->window_end = k->now;
    kernel_request_stop(k, KERNEL_DONE);
}

void probe_schedule_window(struct probe *p)
{
    struct kernel *k = p->kernel;
    p->ev_window = kernel_register(k, on_window, p);
    if (p->spec.warmup_time > 0)
        kernel_schedule(k, p->spec.warmup_time, p->ev_window, 0);
    else
        open_window(p, k->now);
    double until = p->spec.warmup_time + p->spec.duration;
    p->close_at = k->now + until; /* the close event's own time, as kernel_schedule reckons it */
    kernel_schedule(k, until, p->ev_window, 1);
}

void probe_created(struct probe *p, uint64_t id, double now)
{
    if (!p->time_mode && id == p->spec.warmup_messages && !p->window_open)
        open_window(p, now);
    if (p->window_open)
        backlog_add(&p->backlog, ++p->created_in_window, *p->in_flight);
}

/* The measured total is reached: the window holds up to `end`. */
static void count_done(struct probe *p, double end)
{
    if (++p->measured_done == p->spec.messages && !p->target_met) {
        p->window_end = end;
        kernel_request_stop(p->kernel, KERNEL_DONE);
    }
}

/* --- recording mode --- */

/* Holds number i (and every one before it), NaN delays and state 0 for the new ones. */
static bool reserve(struct probe *p, uint64_t i)
{
    if (i < p->rec_cap)
        return true;
    uint64_t cap = p->rec_cap ? p->rec_cap : 1024;
    while (cap <= i)
        cap *= 2;
    if (cap > p->spec.messages)
        cap = p->spec.messages;
    double *d = realloc(p->rec_delay, cap * sizeof *d);
    if (d)
        p->rec_delay = d;
    struct probe_part *q = realloc(p->rec_part, cap * sizeof *q);
    if (q)
        p->rec_part = q;
    if (!d || !q)
        return false;
    for (uint64_t k = p->rec_cap; k < cap; k++)
        d[k] = NAN;
    memset(q + p->rec_cap, 0, (cap - p->rec_cap) * sizeof *q);
    p->rec_cap = cap;
    return true;
}

/* MSER's batch over n leading complete numbers: 5 messages from each node (5
 * "rounds"), at most a fiftieth of the series, at least 5; one source is plain MSER-5. */
static uint64_t mser_width(const struct probe *p, uint64_t n)
{
    uint64_t w = 5 * (uint64_t)(p->spec.sources ? p->spec.sources : 1);
    if (w > n / 50)
        w = n / 50;
    return w < 5 ? 5 : w;
}

/* The first `deleted` of the n leading complete numbers are the warm-up. */
static uint64_t warmup_of(const struct probe *p, uint64_t n)
{
    return p->spec.warmup_auto ? seqstats_mser(p->rec_delay, n, mser_width(p, n)) : 0;
}

/* The precision target: checked each time the leading complete count doubles. */
static void checkpoint(struct probe *p, double now)
{
    p->next_check *= 2;
    uint64_t n = p->complete, d = warmup_of(p, n);
    struct batch_plan plan;
    unsigned kmin = p->spec.batches;
    if (!seqstats_batches(p->rec_delay + d, n - d, kmin, probe_max_batches(kmin), probe_min_batch(&p->spec), &plan) ||
        !seqstats_met(&plan, p->spec.precision))
        return;
    p->target_met = true;
    p->retained_end = n;
    p->window_end = p->slotted ? now + 1 : now; /* a slotted window holds whole cycles */
    kernel_request_stop(p->kernel, KERNEL_DONE);
}

static void record(struct probe *p, uint64_t i, double delay, const struct delay_parts *parts, uint32_t hops,
                   double now)
{
    if (p->target_met)
        return; /* the run is over: the kernel stops after this event */
    if (!reserve(p, i)) {
        kernel_request_stop(p->kernel, KERNEL_FAILED);
        return;
    }
    p->rec_delay[i] = delay;
    p->rec_part[i] = (struct probe_part){ parts ? (float)parts->node : 0, parts ? (float)parts->link : 0, hops,
                                          parts ? 1 : 2 };
    while (p->complete < p->rec_cap && p->rec_part[p->complete].state)
        p->complete++;
    if (p->spec.precision > 0 && p->complete >= p->next_check)
        checkpoint(p, now);
}

/* Time mode: how many leading slices of the window are over.  A slice holds the
 * deliveries before its end, and the kernel has handled every event before its time,
 * so a slice ending at or before the time the run stopped is complete; all are when
 * the window closed. */
static unsigned slices_closed(const struct probe *p)
{
    unsigned k = p->spec.batches;
    if (!p->window_open || k == 0)
        return 0;
    if (p->slotted) { /* slice b: cycles first + ceil(b L/k) .. first + ceil((b+1) L/k) - 1 */
        uint64_t length = p->stop_cycle - p->first_cycle, ended = (uint64_t)p->window_end - p->first_cycle;
        unsigned b = 0;
        while (b < k && stats_batch_start(b + 1, length, k) <= ended)
            b++;
        return b;
    }
    if (p->kernel->stop == KERNEL_DONE)
        return k;
    double fraction = (p->kernel->now - p->window_start) / p->spec.duration;
    return fraction >= 1 ? k : (unsigned)(fraction * k);
}

bool probe_settle(struct probe *p)
{
    if (p->time_mode)
        stats_close_batches(&p->delay, slices_closed(p));
    if (!p->recording)
        return true;
    uint64_t end = p->target_met ? p->retained_end : p->complete;
    uint64_t d = warmup_of(p, end);
    unsigned k = p->spec.batches;
    if (p->spec.precision > 0) {
        struct batch_plan plan;
        if (seqstats_batches(p->rec_delay + d, end - d, k, probe_max_batches(k), probe_min_batch(&p->spec), &plan))
            k = plan.batches;
    }
    p->deleted = d;
    p->unsettled = d > 0 && d == seqstats_mser_limit(end, mser_width(p, end));
    stats_free(&p->delay);
    if (!stats_init(&p->delay, end - d, k))
        return false;
    p->delay_node = p->delay_link = (struct moments){ 0, 0, 0 };
    p->hops_measured = 0;
    for (uint64_t i = d; i < end; i++) {
        const struct probe_part *q = &p->rec_part[i];
        if (q->state != 1) {
            stats_skip(&p->delay, i - d);
            continue;
        }
        stats_add(&p->delay, i - d, p->rec_delay[i]);
        moments_add(&p->delay_node, q->node);
        moments_add(&p->delay_link, q->link);
        p->hops_measured += q->hops;
    }
    p->plan = (struct batch_plan){ 0, NAN, NAN, NAN, NAN, false };
    if (p->spec.precision > 0)
        seqstats_batches(p->rec_delay + d, end - d, k, k, 1, &p->plan);
    return true;
}

void probe_delivered(struct probe *p, uint64_t id, double now, double delay, const struct delay_parts *parts,
                     uint32_t hops)
{
    p->delivered++;
    if (p->window_open)
        p->delivered_in_window++;
    uint64_t batch;
    if (p->time_mode) {
        if (!p->window_open)
            return;
        if (p->slotted) {
            uint64_t cycle = (uint64_t)now;
            batch = (cycle - p->first_cycle) * p->spec.batches / (p->stop_cycle - p->first_cycle);
        } else {
            double fraction = (now - p->window_start) / p->spec.duration;
            batch = (uint64_t)(fraction * (double)p->spec.batches);
            if (batch >= p->spec.batches) /* a delivery at the window's very end, or rounding */
                batch = p->spec.batches - 1;
        }
    } else {
        if (!probe_is_measured(p, id))
            return;
        batch = id - p->spec.warmup_messages;
        if (p->recording) {
            record(p, batch, delay, parts, hops, now);
            count_done(p, p->slotted ? now + 1 : now);
            return;
        }
    }
    stats_add(&p->delay, batch, delay);
    moments_add(&p->delay_node, parts->node);
    moments_add(&p->delay_link, parts->link);
    p->hops_measured += hops;
    if (!p->time_mode)
        count_done(p, p->slotted ? now + 1 : now); /* a slotted window holds whole cycles */
}

void probe_refused(struct probe *p, uint64_t id, double now)
{
    if (p->time_mode || !probe_is_measured(p, id))
        return;
    if (p->recording)
        record(p, id - p->spec.warmup_messages, NAN, NULL, 0, now);
    else
        stats_skip(&p->delay, id - p->spec.warmup_messages);
    count_done(p, now);
}

void probe_finish(struct probe *p, enum kernel_stop why)
{
    if (why == KERNEL_DONE)
        return;
    p->window_end = p->kernel->now;
    if (!p->window_open)
        p->window_start = p->window_end;
}

void probe_slotted(struct probe *p)
{
    p->slotted = true;
    if (!p->time_mode)
        return;
    p->first_cycle = (uint64_t)ceil(p->spec.warmup_time);
    p->stop_cycle = (uint64_t)ceil(p->spec.warmup_time + p->spec.duration);
    if (p->stop_cycle <= p->first_cycle)
        p->stop_cycle = p->first_cycle + 1;
}

bool probe_cycle_start(struct probe *p, uint64_t cycle, uint64_t created)
{
    if (p->time_mode) {
        if (cycle == p->stop_cycle) {
            p->window_end = (double)cycle;
            kernel_request_stop(p->kernel, KERNEL_DONE);
            return false;
        }
        if (cycle == p->first_cycle)
            open_window(p, (double)cycle);
    } else if (!p->window_open && created >= p->spec.warmup_messages) {
        open_window(p, (double)cycle);
    }
    return true;
}

void probe_cycle_end(struct probe *p, uint64_t cycle)
{
    if (p->window_open && p->kernel->stop == KERNEL_RUNNING)
        p->window_end = (double)cycle + 1;
}
