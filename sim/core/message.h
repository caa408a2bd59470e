/* Messages and their pool: the one record every engine, protocol and queue moves.
 *
 * Promise: a message is named by a 32-bit index into pool->msgs, so reaching it is one
 * direct array access; msg_pool_take() hands out a free index (growing the array by
 * doubling, never a malloc per message) and msg_pool_give() takes it back.  The pool
 * also carries what every queue on it shares (msgq.h): the order key of the discipline
 * that orders them and the arrival counter that breaks ties, so a queue needs the pool
 * and nothing else.
 * Growth moves the arrays: hold indices, never pointers, across a take.
 * Needs: nothing but the C library.
 */
#ifndef SIM_MESSAGE_H
#define SIM_MESSAGE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#define MSG_NONE UINT32_MAX
/* Most messages a pool holds: a queue's length has 31 bits (msgq.h). */
#define MSG_POOL_MAX (UINT32_C(1) << 31)
/* Most flits a message becomes. */
#define MSG_FLITS_MAX UINT32_C(4000000000)

/* The whole flits a message of `length` becomes on channels that move `bandwidth` length
 * units per cycle: max(1, ceil(length / bandwidth)), at most MSG_FLITS_MAX.  The flit
 * engines cut every message so, and workload.rate_unit = flits counts a message so
 * (the length distributions' mean_flits, workloads/workload.h). */
static inline uint32_t msg_flits(double length, double bandwidth)
{
    double flits = ceil(length / bandwidth);
    return flits < 1 ? 1 : flits > (double)MSG_FLITS_MAX ? MSG_FLITS_MAX : (uint32_t)flits;
}

struct message {
    double created;
    double length;    /* current length: re-drawn per hop when run.redraw_length_per_hop */
    uint32_t src, dst;
    union {
        uint32_t at;      /* node holding the message */
        uint32_t channel; /* store-and-forward, while the message asks for or holds a
                           * channel: that channel (the node it left is its sender) */
    };
    union {
        uint32_t next_node; /* store-and-forward: node the requested or held channel leads to */
        uint32_t worm;      /* flit engines: the message's worm, MSG_NONE while it has none */
    };
    uint32_t link;    /* intrusive link: queues (msgq) and the free list */
    uint32_t hops;
};

/* The order in which every queue on a pool serves its waiting messages, as a queue
 * discipline gives it (protocols/priority.c registers them): the key of a queued
 * message, smaller served first, ties in arrival order; `params` are the discipline's
 * own key values.  A key must not change while its message waits.  No key (NULL) is
 * arrival order, FIFO, which the queues keep as a ring without keys. */
typedef double msg_order_key_fn(const struct message *m, const void *params);

/* What a priority queue (every discipline but FIFO) keeps of a queued message. */
struct msg_order {
    uint64_t queued_seq; /* arrival order in the current queue (tie-break) */
    double key;          /* the discipline's key, asked once as the message joins the queue */
    uint32_t link2;      /* the skew heap's second child */
};

/* A million-node network holds some twenty million messages at once, so a message is
 * 40 bytes of what every run needs; what only some runs need is kept beside it, index
 * for index, by the runs that need it: creation numbers (ids) and the priority queues'
 * order here, the node model's clocks by the node model, Valiant's intermediate node
 * by its engine. */
struct msg_pool {
    struct message *msgs;
    uint64_t *ids;            /* creation numbers, when kept (msg_pool_empty): else NULL */
    struct msg_order *order;  /* the priority queues', when there is a key: else NULL */
    uint32_t capacity;
    uint32_t used;        /* indices below this have been taken at least once */
    uint32_t free;        /* head of the list (through `link`) of those given back, MSG_NONE when empty */
    msg_order_key_fn *key;    /* the queues' order: NULL for FIFO */
    const void *key_params;   /* its second argument */
    bool keep_ids;
    uint64_t queued_seq;  /* arrivals into any queue so far */
};

/* An empty pool whose queues order by `key` (NULL: FIFO) with its params, keeping ids
 * or not; the first take allocates. */
static inline struct msg_pool msg_pool_empty(msg_order_key_fn *key, const void *key_params, bool keep_ids)
{
    return (struct msg_pool){ .free = MSG_NONE, .key = key, .key_params = key_params, .keep_ids = keep_ids };
}

/* Doubles the arrays (first call: 1024 messages) without touching the new part; false
 * when memory or indices run out. */
bool msg_pool_grow(struct msg_pool *p);
void msg_pool_free(struct msg_pool *p);

/* A free message index, MSG_NONE when the pool cannot grow; the record is not cleared.
 * Indices never used come from the high-water mark, so a message's memory is first
 * touched when it is first taken: a run's resident size follows the most messages it
 * held at once, not the doubled capacity. */
static inline uint32_t msg_pool_take(struct msg_pool *p)
{
    uint32_t m = p->free;
    if (m != MSG_NONE) {
        p->free = p->msgs[m].link;
        return m;
    }
    if (p->used == p->capacity && !msg_pool_grow(p))
        return MSG_NONE;
    return p->used++;
}

static inline void msg_pool_give(struct msg_pool *p, uint32_t m)
{
    p->msgs[m].link = p->free;
    p->free = m;
}

/* Message m's creation number; MSG_ID_UNKNOWN when the pool keeps none (a run that
 * reads them, the probe in message mode or an observer, asks for them). */
#define MSG_ID_UNKNOWN UINT64_MAX
static inline uint64_t msg_id(const struct msg_pool *p, uint32_t m) { return p->ids ? p->ids[m] : MSG_ID_UNKNOWN; }
static inline void msg_set_id(struct msg_pool *p, uint32_t m, uint64_t id)
{
    if (p->ids)
        p->ids[m] = id;
}

#endif
