#include "msgq.h"

/* Priority key of a queued message under the pool's discipline: smaller goes first. */
static inline double key(const struct msg_pool *pool, const struct message *m)
{
    switch (pool->discipline) {
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

static inline bool before(const struct msg_pool *pool, uint32_t a, uint32_t b)
{
    double ka = key(pool, &pool->msgs[a]), kb = key(pool, &pool->msgs[b]);
    return ka < kb || (ka == kb && pool->order[a].queued_seq < pool->order[b].queued_seq);
}

/* Top-down skew heap merge: walk down the right spines taking the smaller root,
 * swapping children on the way (the self-adjustment that bounds the amortised cost). */
static uint32_t merge(struct msg_pool *pool, uint32_t a, uint32_t b)
{
    uint32_t root = MSG_NONE, *slot = &root;
    while (a != MSG_NONE && b != MSG_NONE) {
        if (before(pool, b, a)) {
            uint32_t t = a;
            a = b;
            b = t;
        }
        struct message *ma = &pool->msgs[a];
        struct msg_order *oa = &pool->order[a];
        *slot = a;
        uint32_t right = oa->link2;
        oa->link2 = ma->link;
        slot = &ma->link;
        a = right;
    }
    *slot = a != MSG_NONE ? a : b;
    return root;
}

void msgq_push(struct msg_pool *pool, struct msgq *q, uint32_t m)
{
    struct message *msg = &pool->msgs[m];
    q->length++;
    if (pool->discipline == QUEUE_FIFO) {
        if (q->entry == MSG_NONE) {
            msg->link = m;
        } else {
            struct message *newest = &pool->msgs[q->entry];
            msg->link = newest->link;
            newest->link = m;
        }
        q->entry = m;
    } else {
        msg->link = MSG_NONE;
        pool->order[m] = (struct msg_order){ pool->queued_seq++, MSG_NONE };
        q->entry = merge(pool, q->entry, m);
    }
}

uint32_t msgq_pop(struct msg_pool *pool, struct msgq *q)
{
    if (q->entry == MSG_NONE)
        return MSG_NONE;
    q->length--;
    if (pool->discipline == QUEUE_FIFO) {
        struct message *newest = &pool->msgs[q->entry];
        uint32_t m = newest->link;
        if (m == q->entry)
            q->entry = MSG_NONE;
        else
            newest->link = pool->msgs[m].link;
        return m;
    }
    uint32_t m = q->entry;
    q->entry = merge(pool, pool->msgs[m].link, pool->order[m].link2);
    return m;
}
