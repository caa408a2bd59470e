/* The measurement probe: the one place that decides which messages are measured.
 *
 * Promise.  Message mode: messages numbered warmup_messages .. warmup_messages +
 * messages - 1 (creation order) are measured; the window opens when the first of them
 * is created (slotted engines: at the start of the first cycle after the warm-up
 * count is reached, so measured messages admitted in that cycle predate it) and
 * closes when the last is delivered or refused, which stops the kernel with
 * KERNEL_DONE.  Time mode (duration > 0): every delivery inside [warmup_time,
 * warmup_time + duration] is measured; the window opens and closes at those times
 * (event-driven engines: by the probe's own kernel events; slotted engines: at whole
 * cycles, through probe_cycle_start / probe_cycle_end), and the close stops the
 * kernel.  A delay is recorded with its two parts (each engine says what they mean)
 * and the hops taken.  Batches for the interval: creation order (message mode) or
 * equal slices of the window (time mode).  On opening, the hook lets the run restart
 * its own busy clocks (channel and node utilisation).  The probe keeps the kernel,
 * in-flight counter and hook context it is given: they must stay where they are for
 * its life.
 * Needs: kernel, stats.
 */
#ifndef SIM_PROBE_H
#define SIM_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel.h"
#include "stats.h"

struct probe_spec {
    uint64_t warmup_messages, messages; /* message mode */
    double warmup_time, duration;       /* time mode when duration > 0 */
    unsigned batches;
};

/* A measured message's delay split in two: at nodes and at channels (store-and-forward),
 * or source wait and network delay (flit engines), or 0 and all (slotted). */
struct delay_parts {
    double node, link;
};

struct probe {
    struct kernel *kernel;
    struct probe_spec spec;
    bool time_mode;
    const uint32_t *in_flight;  /* the run's count of messages in the network */
    void (*on_open)(void *ctx, double now);
    void *on_open_ctx;
    uint32_t ev_window;
    bool slotted;                          /* windows in whole cycles */
    uint64_t first_cycle, stop_cycle;      /* slotted time mode: [first_cycle, stop_cycle) */
    bool window_open;
    double window_start, window_end;
    uint64_t measured_done;       /* message mode: measured messages delivered or refused */
    uint64_t delivered;           /* every delivery of the run, window or not */
    uint64_t delivered_in_window; /* every delivery inside the window: for throughput */
    uint64_t hops_measured;
    uint32_t in_flight_at_open;   /* backlog when the window opened */
    struct sample_stats delay;
    struct moments delay_node, delay_link;
};

/* in_flight: read when the window opens (the backlog figures). */
bool probe_init(struct probe *p, struct kernel *k, const struct probe_spec *spec, const uint32_t *in_flight);
void probe_free(struct probe *p);
void probe_set_open_hook(struct probe *p, void (*on_open)(void *ctx, double now), void *ctx);

/* Event-driven time mode: registers the probe's window events with the kernel and
 * schedules them (the window opens at once when warmup_time is 0). */
void probe_schedule_window(struct probe *p);
/* Message creation, number id (message mode: the first measured one opens the window). */
static inline bool probe_is_measured(const struct probe *p, uint64_t id)
{
    return id >= p->spec.warmup_messages && id - p->spec.warmup_messages < p->spec.messages;
}
void probe_created(struct probe *p, uint64_t id, double now);
void probe_delivered(struct probe *p, uint64_t id, double now, double delay, const struct delay_parts *parts,
                     uint32_t hops);
/* A message refused at its source: unmeasured, but in message mode it still counts
 * toward the measured total so that the run ends. */
void probe_refused(struct probe *p, uint64_t id, double now);
/* End of an event-driven run stopped for `why`: closes the window at the kernel's time. */
void probe_finish(struct probe *p, enum kernel_stop why);

/* Slotted engines: the window in whole cycles. */
void probe_slotted(struct probe *p);
/* At the start of cycle `cycle`, with `created` messages numbered so far: opens the
 * window, or closes it (and stops the kernel) at the end of the time-mode window;
 * false when the run is over. */
bool probe_cycle_start(struct probe *p, uint64_t cycle, uint64_t created);
/* At the end of cycle `cycle`: the window holds it. */
void probe_cycle_end(struct probe *p, uint64_t cycle);

#endif
