#include "msgq.h"

#include "../run/network.h"

/* Priority key of a queued message under the run's discipline: smaller goes first. */
static inline double key(const struct network *net, const struct message *m)
{
    switch (net->discipline) {
    case QUEUE_OLDEST_FIRST:
        return m->created;
    case QUEUE_LONGEST_FIRST:
        return -m->length;
    case QUEUE_SHORTEST_FIRST:
        return m->length;
    case QUEUE_FIFO:
        break;
    }
    return 0;
}

static inline bool before(const struct network *net, uint32_t a, uint32_t b)
{
    const struct message *ma = &net->msgs[a], *mb = &net->msgs[b];
    double ka = key(net, ma), kb = key(net, mb);
    return ka < kb || (ka == kb && ma->queued_seq < mb->queued_seq);
}

/* Top-down skew heap merge: walk down the right spines taking the smaller root,
 * swapping children on the way (the self-adjustment that bounds the amortised cost). */
static uint32_t merge(struct network *net, uint32_t a, uint32_t b)
{
    uint32_t root = NET_NONE, *slot = &root;
    while (a != NET_NONE && b != NET_NONE) {
        if (before(net, b, a)) {
            uint32_t t = a;
            a = b;
            b = t;
        }
        struct message *ma = &net->msgs[a];
        *slot = a;
        uint32_t right = ma->link2;
        ma->link2 = ma->link;
        slot = &ma->link;
        a = right;
    }
    *slot = a != NET_NONE ? a : b;
    return root;
}

void msgq_push(struct network *net, struct msgq *q, uint32_t m)
{
    struct message *msg = &net->msgs[m];
    msg->link = NET_NONE;
    msg->link2 = NET_NONE;
    msg->queued_seq = net->queued_seq++;
    q->length++;
    if (net->discipline == QUEUE_FIFO) {
        if (q->tail == NET_NONE)
            q->head = m;
        else
            net->msgs[q->tail].link = m;
        q->tail = m;
    } else {
        q->head = merge(net, q->head, m);
    }
}

uint32_t msgq_pop(struct network *net, struct msgq *q)
{
    uint32_t m = q->head;
    if (m == NET_NONE)
        return NET_NONE;
    q->length--;
    struct message *msg = &net->msgs[m];
    if (net->discipline == QUEUE_FIFO) {
        q->head = msg->link;
        if (q->head == NET_NONE)
            q->tail = NET_NONE;
    } else {
        q->head = merge(net, msg->link, msg->link2);
    }
    return m;
}
