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
 * Recording (message mode with spec.warmup_auto or spec.precision > 0): instead of
 * adding each measured delay to the statistics at once, the probe keeps every
 * measured message's delay, its two parts and hops by number (24 bytes a message,
 * grown as messages are numbered; the run's memory check counts run.messages of
 * them), and probe_settle() builds the statistics after the run from the retained
 * ones only: the numbers [deleted, end), where `deleted` is the warm-up MSER finds
 * on batch means of 5 messages per source (seqstats.h; at most a fiftieth of the
 * series per batch, at least 5 messages; 0 without warmup_auto) and `end` the leading numbers all delivered or
 * refused.  With a precision target, every time that leading count doubles (from
 * spec.batches batches of probe_min_batch() messages) the batch rule of seqstats.h is applied to the retained ones;
 * once the target is met the window closes and the kernel stops (KERNEL_DONE): later
 * numbers, in flight or not, are left out, so the interval uses complete batches only.
 * Needs: kernel, stats, seqstats.
 */
#ifndef SIM_PROBE_H
#define SIM_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "backlog.h"
#include "kernel.h"
#include "seqstats.h"
#include "stats.h"

/* The fewest messages a batch of the precision rule holds: PROBE_MIN_BATCH per source
 * (delays of messages created close together are correlated through the network's
 * state, over a time in which every node creates several), at least PROBE_MIN_BATCH. */
enum { PROBE_MIN_BATCH = 100, PROBE_MIN_BATCH_PER_SOURCE = 50 };

struct probe_spec {
    uint64_t warmup_messages, messages; /* message mode */
    double warmup_time, duration;       /* time mode when duration > 0 */
    unsigned batches;
    bool warmup_auto;                   /* MSER from message 0 (warmup_messages must be 0) */
    uint32_t sources;                   /* nodes creating messages: MSER's batch is 5 messages each */
    double precision;                   /* > 0: stop once the CI's relative half-width is at most this */
};

/* Batch counts a precision-driven run tries: from spec.batches up to this many times it
 * (at most PROBE_MAX_BATCHES). */
enum { PROBE_BATCH_SPAN = 32, PROBE_MAX_BATCHES = 1024 };
unsigned probe_max_batches(unsigned batches);
uint64_t probe_min_batch(const struct probe_spec *spec);

/* A measured message as recorded (recording mode). */
struct probe_part {
    float node, link;
    uint32_t hops;
    uint32_t state; /* 0 not yet, 1 delivered, 2 refused */
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
    /* When the window will close, as its event is scheduled (time mode, not slotted);
     * +inf while unknown (message mode closes it at the last measured delivery). */
    double close_at;
    uint64_t measured_done;       /* message mode: measured messages delivered or refused */
    uint64_t delivered;           /* every delivery of the run, window or not */
    uint64_t delivered_in_window; /* every delivery inside the window: for throughput */
    uint64_t hops_measured;
    uint32_t in_flight_at_open;   /* backlog when the window opened */
    uint64_t created_in_window;
    struct backlog_trace backlog; /* the backlog at creations inside the window (backlog.h) */
    struct sample_stats delay;
    struct moments delay_node, delay_link;
    /* Recording mode (see above). */
    bool recording;
    double *rec_delay;          /* by measured number; NaN until delivered (and if refused) */
    struct probe_part *rec_part;
    uint64_t rec_cap, complete; /* numbers held; leading numbers delivered or refused */
    uint64_t next_check;
    bool target_met;            /* a checkpoint met the precision target and stopped the run */
    uint64_t retained_end;      /* with target_met: the numbers used end here */
    uint64_t deleted;           /* after probe_settle: MSER-5's warm-up, in messages */
    bool unsettled;             /* after probe_settle: that cut is the most MSER may make (half) */
    struct batch_plan plan;     /* after probe_settle: the interval of the retained messages */
};

/* in_flight: read when the window opens (the backlog figures). */
bool probe_init(struct probe *p, struct kernel *k, const struct probe_spec *spec, const uint32_t *in_flight);
void probe_free(struct probe *p);
void probe_set_open_hook(struct probe *p, void (*on_open)(void *ctx, double now), void *ctx);

/* Event-driven time mode: registers the probe's window events with the kernel and
 * schedules them (the window opens at once when warmup_time is 0). */
void probe_schedule_window(struct probe *p);
/* Message creation, number id (message mode: the first measured one opens the window);
 * inside the window it samples the backlog (before this message joins it). */
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

/* After the run (any engine, any stop): time mode marks the window's slices that are
 * over as complete batches (all of them when the window closed; an interrupted run's
 * unfinished ones are left out of the intervals); recording mode builds the
 * statistics from the retained messages.  False when out of memory. */
bool probe_settle(struct probe *p);

/* Slotted engines: the window in whole cycles. */
void probe_slotted(struct probe *p);
/* At the start of cycle `cycle`, with `created` messages numbered so far: opens the
 * window, or closes it (and stops the kernel) at the end of the time-mode window;
 * false when the run is over. */
bool probe_cycle_start(struct probe *p, uint64_t cycle, uint64_t created);
/* At the end of cycle `cycle`: the window holds it. */
void probe_cycle_end(struct probe *p, uint64_t cycle);

#endif
