#include "probe.h"

#include <math.h>

bool probe_init(struct probe *p, struct kernel *k, const struct probe_spec *spec, const uint32_t *in_flight)
{
    *p = (struct probe){ .kernel = k, .spec = *spec, .time_mode = spec->duration > 0, .in_flight = in_flight };
    /* Time mode numbers each delivery by its batch of the window directly. */
    uint64_t numbered = p->time_mode ? spec->batches : spec->messages;
    return stats_init(&p->delay, numbered, spec->batches);
}

void probe_free(struct probe *p) { stats_free(&p->delay); }

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
    kernel_schedule(k, p->spec.warmup_time + p->spec.duration, p->ev_window, 1);
}

void probe_created(struct probe *p, uint64_t id, double now)
{
    if (!p->time_mode && id == p->spec.warmup_messages && !p->window_open)
        open_window(p, now);
}

/* The measured total is reached: the window holds up to `end`. */
static void count_done(struct probe *p, double end)
{
    if (++p->measured_done == p->spec.messages) {
        p->window_end = end;
        kernel_request_stop(p->kernel, KERNEL_DONE);
    }
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
