/* Kernel: the simulation clock, the event queue and the dispatch loop.
 *
 * Promise: kernel_run() pops events in (time, insertion) order (ties in time go to
 * the event scheduled first, on every machine) and calls the handler
 * registered for each event's type; nothing else advances simulated time.  Every
 * `chore_interval` events it calls the chore hook (the wall-clock side: progress,
 * signals, time limits), which may ask the loop to stop; a stop takes effect at the
 * next event boundary.  The kernel knows no topology, routing or protocol: modules
 * register handlers and schedule events through this interface.
 * Needs: eventq.
 */
#ifndef SIM_KERNEL_H
#define SIM_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "eventq.h"

struct kernel;
typedef void (*event_handler)(struct kernel *k, void *ctx, uint32_t obj);
typedef void (*kernel_chore)(struct kernel *k, void *ctx);
/* A hint that an event of this type for obj comes soon: it may read the module's
 * state and prefetch what the handler will touch, and must change nothing (it may run
 * for an event whose state changes before it is handled).  Stage 0 runs about two
 * buckets of events ahead (prefetch what obj names), stage 1 one bucket ahead (read
 * what stage 0 fetched, prefetch what it points to), stage 2 when the event's bucket
 * is reached (one more step).  Memory latency, not work, bounds large runs. */
typedef void (*event_prefetch)(void *ctx, uint32_t obj, unsigned stage);

enum { KERNEL_MAX_HANDLERS = 32, KERNEL_CHORE_INTERVAL = 4096 };

enum kernel_stop {
    KERNEL_RUNNING = 0,
    KERNEL_DONE,        /* a module declared the run complete */
    KERNEL_EMPTY,       /* no events left */
    KERNEL_INTERRUPTED, /* SIGINT or SIGTERM */
    KERNEL_WALL_LIMIT,  /* run.max_wall_seconds reached */
    KERNEL_FAILED       /* out of memory while scheduling */
};

struct kernel {
    double now;
    uint64_t events; /* events dispatched so far */
    enum kernel_stop stop;
    /* The event being handled still sits at the top of the queue: the handler's first
     * schedule replaces it (one sift instead of a pop and a push). */
    bool top_consumed;
    struct eventq queue;
    struct {
        event_handler fn;
        event_prefetch prefetch; /* NULL: none */
        void *ctx;
    } handlers[KERNEL_MAX_HANDLERS];
    uint32_t handler_count;
    bool prefetching; /* some handler has a prefetch */
    kernel_chore chore;
    void *chore_ctx;
};

bool kernel_init(struct kernel *k);
void kernel_free(struct kernel *k);
/* Returns the event type to use with kernel_schedule. */
uint32_t kernel_register(struct kernel *k, event_handler fn, void *ctx);
void kernel_set_chore(struct kernel *k, kernel_chore fn, void *ctx);
/* Gives events of `type` a prefetch hint (optional; results never depend on it). */
void kernel_set_prefetch(struct kernel *k, uint32_t type, event_prefetch fn);

/* Schedules an event `delay` (>= 0) after now. */
static inline void kernel_schedule(struct kernel *k, double delay, uint32_t type, uint32_t obj)
{
    if (k->top_consumed) {
        k->top_consumed = false;
        if (!eventq_replace_top(&k->queue, k->now + delay, type, obj))
            k->stop = KERNEL_FAILED;
    } else if (!eventq_push(&k->queue, k->now + delay, type, obj)) {
        k->stop = KERNEL_FAILED;
    }
}

static inline void kernel_request_stop(struct kernel *k, enum kernel_stop why)
{
    if (k->stop == KERNEL_RUNNING)
        k->stop = why;
}

/* Every pending event, in no particular order (not the one being handled, whose
 * place the handler's first schedule takes); changes nothing. */
static inline void kernel_visit_pending(const struct kernel *k, void (*visit)(void *ctx, const struct event *ev),
                                        void *ctx)
{
    eventq_visit_pending(&k->queue, k->top_consumed, visit, ctx);
}

/* Runs until a stop is requested or the queue empties; returns the reason. */
enum kernel_stop kernel_run(struct kernel *k);

#endif
