/* Event queue: a 4-ary min-heap of small events, ordered by (time, seq).
 *
 * Promise: pop returns events in non-decreasing time; events with equal time come
 * out in the order they were pushed (seq is a per-queue counter), so a run is a pure
 * function of its inputs.  No allocation per event: the array grows by doubling and
 * is reused.  Needs: nothing but libc.
 */
#ifndef SIM_EVENTQ_H
#define SIM_EVENTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct event {
    double time;
    uint64_t seq;  /* insertion counter: breaks ties in time */
    uint32_t type; /* handler index registered with the kernel */
    uint32_t obj;  /* handler's argument: a node, channel or message index */
};

struct eventq {
    struct event *heap;
    size_t size;
    size_t capacity;
    uint64_t next_seq;
};

/* Returns false if memory could not be reserved. */
bool eventq_init(struct eventq *q, size_t initial_capacity);
void eventq_free(struct eventq *q);
bool eventq_push(struct eventq *q, double time, uint32_t type, uint32_t obj);
/* Removes the earliest event into *out; false when empty. */
bool eventq_pop(struct eventq *q, struct event *out);
/* Pop and push in one sift: the earliest event (the queue must not be empty) is
 * replaced by a new one.  Same order of events as eventq_pop then eventq_push. */
void eventq_replace_top(struct eventq *q, double time, uint32_t type, uint32_t obj);
static inline const struct event *eventq_top(const struct eventq *q) { return q->size ? &q->heap[0] : NULL; }

static inline bool eventq_empty(const struct eventq *q) { return q->size == 0; }
static inline size_t eventq_size(const struct eventq *q) { return q->size; }

#endif
