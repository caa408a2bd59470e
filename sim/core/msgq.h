/* Message queues with a service discipline: the waiting line of a node or a channel.
 *
 * Promise: msgq_pop() returns the waiting message that the pool's discipline puts
 * first: without a key (FIFO) the earliest arrival; else the smallest key
 * (message.h: msg_order_key_fn, asked once as the message joins the queue), ties to the
 * earlier arrival, so every discipline is deterministic.  The queue knows no discipline by
 * name: they are plug-ins (protocols/priority.c).  Non-preemptive by construction: the queue only holds
 * messages that wait.  Intrusive (no allocation): a queued message's `link`, and for
 * the priority disciplines its pool's order record (message.h), are the queue's; FIFO is a ring (the newest message's link is the
 * oldest), the others a top-down skew heap (amortised O(log n) per operation, no
 * recursion).  A queue is 8 bytes, so that a channel's whole waiting line and a flag
 * of its owner's share one 8-byte word: a million-node network has 20 million.
 * Needs: the message pool (message.h), whose order key and arrival counter every
 * queue on it shares.
 */
#ifndef SIM_MSGQ_H
#define SIM_MSGQ_H

#include <stdbool.h>
#include <stdint.h>

#include "message.h"

struct msgq {
    uint32_t entry;      /* FIFO: the newest message (its link is the oldest); heaps: the root */
    uint32_t length : 31; /* fits: the pool holds at most MSG_POOL_MAX messages */
    uint32_t flag : 1;   /* the owner's: the queue never reads nor changes it */
};

#define MSGQ_EMPTY ((struct msgq){ UINT32_MAX, 0, 0 })

void msgq_push(struct msg_pool *pool, struct msgq *q, uint32_t msg);
uint32_t msgq_pop(struct msg_pool *pool, struct msgq *q); /* MSG_NONE when empty */
static inline bool msgq_empty(const struct msgq *q) { return q->length == 0; }
/* The message msgq_pop() would return, MSG_NONE when empty; changes nothing. */
static inline uint32_t msgq_first(const struct msg_pool *pool, const struct msgq *q)
{
    if (q->entry == MSG_NONE || pool->key)
        return q->entry;
    return pool->msgs[q->entry].link;
}

#endif
