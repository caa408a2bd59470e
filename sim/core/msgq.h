/* Message queues with a service discipline: the waiting line of a node or a channel.
 *
 * Promise: msgq_pop() returns the waiting message that the discipline puts first:
 * FIFO in arrival order; oldest-first by creation time; longest- and shortest-first
 * by the message's current length.  Ties go to the earlier arrival, so every
 * discipline is deterministic.  Non-preemptive by construction: the queue only holds
 * messages that wait.  Intrusive (no allocation): a queued message's `link` and
 * `link2` fields are the queue's; FIFO is a list, the others a top-down skew heap
 * (amortised O(log n) per operation, no recursion).
 * Needs: the message pool (message.h), whose discipline and arrival counter every
 * queue on it shares.
 */
#ifndef SIM_MSGQ_H
#define SIM_MSGQ_H

#include <stdbool.h>
#include <stdint.h>

#include "message.h"

struct msgq {
    uint32_t head, tail; /* FIFO: list ends; heaps: head is the root */
    uint32_t length;
};

#define MSGQ_EMPTY ((struct msgq){ UINT32_MAX, UINT32_MAX, 0 })

void msgq_push(struct msg_pool *pool, struct msgq *q, uint32_t msg);
uint32_t msgq_pop(struct msg_pool *pool, struct msgq *q); /* MSG_NONE when empty */
static inline bool msgq_empty(const struct msgq *q) { return q->length == 0; }

#endif
