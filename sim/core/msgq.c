#include "msgq.h"

/* Key of a queued message under the pool's discipline: smaller goes first.  Asked of
 * the discipline once, at the push, and kept beside the tie-break: a merge compares
 * many times, and one indirect call per compare cost 2-3% of a run with long queues. */
static inline double key_of(const struct msg_pool *pool, uint32_t m)
{
    return pool->order[m].key;
}

/* Top-down skew heap merge: walk down the right spines taking the smaller root (equal
 * keys: the earlier arrival), swapping children on the way (the self-adjustment that
 * bounds the amortised cost). */
static uint32_t merge(struct msg_pool *pool, uint32_t a, uint32_t b)
{
    uint32_t root = MSG_NONE, *slot = &root;
    double ka = a != MSG_NONE ? key_of(pool, a) : 0, kb = b != MSG_NONE ? key_of(pool, b) : 0;
    while (a != MSG_NONE && b != MSG_NONE) {
        if (kb < ka || (kb == ka && pool->order[b].queued_seq < pool->order[a].queued_seq)) {
            uint32_t t = a;
            a = b;
            b = t;
            double kt = ka;
            ka = kb;
            kb = kt;
        }
        struct message *ma = &pool->msgs[a];
        struct msg_order *oa = &pool->order[a];
        *slot = a;
        uint32_t right = oa->link2;
        oa->link2 = ma->link;
        slot = &ma->link;
        a = right;
        if (a != MSG_NONE)
            ka = key_of(pool, a);
    }
    *slot = a != MSG_NONE ? a : b;
    return root;
}

void msgq_push(struct msg_pool *pool, struct msgq *q, uint32_t m)
{
    struct message *msg = &pool->msgs[m];
    q->length++;
    if (!pool->key) {
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
        pool->order[m] = (struct msg_order){ pool->queued_seq++, pool->key(msg, pool->key_params), MSG_NONE };
        q->entry = merge(pool, q->entry, m);
    }
}

uint32_t msgq_pop(struct msg_pool *pool, struct msgq *q)
{
    if (q->entry == MSG_NONE)
        return MSG_NONE;
    q->length--;
    if (!pool->key) {
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
