/* Event queue: pending events ordered by (time, insertion), as a two-tier calendar.
 *
 * Promise: pop returns events in non-decreasing time; events with equal time come
 * out in the order they were pushed, so a run is a pure function of its inputs (the
 * rule holds whatever the queue's internal sizing, which adapts to the events).
 * No allocation per event: storage grows in blocks and is reused.
 * Needs: nothing but libc.
 *
 * Why a calendar and not a heap: with hundreds of thousands of events pending (a
 * 16-cube has ~600,000) a heap's sift-down is a chain of dependent cache misses per
 * event.  Here a "year" of the near future (planned from a sample of the pending
 * times whenever the last one is used up) is cut into 256 coarse bins: a push appends
 * its 16-byte event to its bin (chunks of 7 events, 128 bytes; the 256 tails stay in
 * cache, so a push is a store, not a miss).  When the events before a bin are done,
 * the bin is dealt out to fine buckets sized to hold about 16 events each, and each
 * fine bucket in turn goes into a small 4-ary heap ordered by (time, sequence number
 * given in bucket order), which stays in the first-level cache.  Pushes into the bin
 * being worked on go to its fine buckets; events past the year wait, unsorted, in a
 * far list.  Bins, buckets and the far list keep push order and the heap breaks ties
 * by the order of loading, so equal times keep their push order (proof in eventq.c).
 * With few events pending (under 8192 at a re-plan) the heap takes them all, as a
 * plain heap in cache is cheaper than bins; past 16384 the calendar takes over again.
 * bench/bench_queue.c measures it.
 */
#ifndef SIM_EVENTQ_H
#define SIM_EVENTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct event {
    double time;
    uint32_t type; /* handler index registered with the kernel */
    uint32_t obj;  /* handler's argument: a node, channel or message index */
};

struct eventq_heap_entry; /* eventq.c: an event with its sequence number */
struct eventq_chunk;      /* eventq.c: a block of events of one bucket */

enum { EVENTQ_COARSE = 256 }; /* coarse bins a year: their tails stay in cache */

struct eventq_list {
    uint32_t head, tail; /* chunk indices, EVENTQ_NONE when empty */
};

struct eventq {
    /* The events of the buckets already reached: a 4-ary heap on (time, seq). */
    struct eventq_heap_entry *heap;
    size_t size, capacity;
    uint64_t next_seq;
    /* The year: coarse bin c holds times t with c <= (t - start) / coarse width < c + 1,
     * in push order; bins below coarse_done have been dealt out to the fine buckets,
     * which cut the last of them (coarse_done - 1) into nbuckets buckets: bucket i
     * holds times with i <= (t - fine_start) / fine width < i + 1 (clamped). */
    double start, coarse_inv, coarse_width;
    uint32_t ncoarse, coarse_done;
    struct eventq_list coarse[EVENTQ_COARSE];
    uint32_t coarse_count[EVENTQ_COARSE];
    size_t in_coarse;
    double fine_start, fine_inv;
    uint32_t nbuckets, loaded; /* fine buckets below `loaded` have gone to the heap */
    uint32_t bucket_capacity;
    struct eventq_list *buckets;
    size_t in_buckets;
    struct eventq_list far; /* times past the calendar's last bucket, in push order */
    size_t in_far;
    /* Chunks in slabs, named by index; a free list reuses them. */
    struct eventq_chunk **slabs;
    uint32_t slab_count, slab_capacity, chunks_used, chunk_free;
    bool failed; /* memory ran out while moving events: some may be lost */
    bool heap_mode; /* few events pending: every one goes straight to the heap */
    uint64_t loads; /* buckets moved into the heap so far: a new one means new events ahead */
};

/* Returns false if memory could not be reserved. */
bool eventq_init(struct eventq *q, size_t initial_capacity);
void eventq_free(struct eventq *q);
/* time must not be NaN nor earlier than the last event popped. */
bool eventq_push(struct eventq *q, double time, uint32_t type, uint32_t obj);
/* The earliest event, NULL when empty (or `failed`); valid until the next push, pop
 * or replace. */
const struct event *eventq_top(struct eventq *q);
/* Removes the earliest event into *out; false when empty. */
bool eventq_pop(struct eventq *q, struct event *out);
/* Pop and push in one step: the earliest event (eventq_top() must have returned it)
 * is replaced by a new one.  Same order of events as eventq_pop then eventq_push;
 * false when memory ran out (the earliest event is then removed). */
bool eventq_replace_top(struct eventq *q, double time, uint32_t type, uint32_t obj);

/* Prefetching's view of what comes soon, in no particular order: ahead = 0 the events
 * of the buckets reached (those the next pops take), 1 the next bucket holding
 * events, 2 the one after (at most 64 buckets are looked through).  Calls
 * visit(ctx, event) for each; changes nothing. */
void eventq_visit_ahead(const struct eventq *q, unsigned ahead, void (*visit)(void *ctx, const struct event *ev),
                        void *ctx);

/* Every pending event, in no particular order (skip_top: all but the earliest, which
 * must be at the top: eventq_top() returned it); changes nothing. */
void eventq_visit_pending(const struct eventq *q, bool skip_top, void (*visit)(void *ctx, const struct event *ev),
                          void *ctx);

static inline size_t eventq_size(const struct eventq *q)
{
    return q->size + q->in_buckets + q->in_coarse + q->in_far;
}
static inline bool eventq_empty(const struct eventq *q) { return eventq_size(q) == 0; }

#endif
