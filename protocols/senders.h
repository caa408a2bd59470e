/* One waiting line per (channel, attached sender), for protocols that serve senders
 * in turn (TDM, token passing).  A sender's position is its place in the channel's
 * senders() order (struct access_channels): the digit on a bus, 0 for the lower end
 * of a half-duplex link.
 * Needs: the channel queries of protocol.h and msgq. */
#ifndef PROTOCOLS_SENDERS_H
#define PROTOCOLS_SENDERS_H

#include "protocol.h"

struct sender_queues {
    uint32_t *first;    /* per channel: index of its first queue; first[channels] = total */
    uint32_t *node;     /* per queue: the sending node */
    struct msgq *queue;
};

bool sender_queues_init(struct sender_queues *sq, const struct access_channels *c);
void sender_queues_free(struct sender_queues *sq);

static inline unsigned senders_on(const struct sender_queues *sq, uint32_t ch)
{
    return sq->first[ch + 1] - sq->first[ch];
}

/* The queue of `node` on channel ch (node must be one of its senders). */
static inline struct msgq *sender_queue(const struct sender_queues *sq, uint32_t ch, uint32_t node)
{
    uint32_t q = sq->first[ch];
    while (sq->node[q] != node)
        q++;
    return &sq->queue[q];
}

static inline struct msgq *position_queue(const struct sender_queues *sq, uint32_t ch, unsigned position)
{
    return &sq->queue[sq->first[ch] + position];
}

/* Messages in all of ch's queues. */
static inline uint32_t senders_waiting(const struct sender_queues *sq, uint32_t ch)
{
    uint32_t n = 0;
    for (uint32_t q = sq->first[ch]; q < sq->first[ch + 1]; q++)
        n += sq->queue[q].length;
    return n;
}

#endif
