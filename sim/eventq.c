#include "eventq.h"

#include <stdlib.h>

/* A 4-ary heap halves the depth of a binary heap and keeps the four children of a
 * node in one or two cache lines (events are 24 bytes), which is what matters at the
 * queue sizes a network simulation reaches (thousands to millions of events). */
enum { ARITY = 4 };

static inline bool earlier(const struct event *a, const struct event *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

bool eventq_init(struct eventq *q, size_t initial_capacity)
{
    if (initial_capacity < 16)
        initial_capacity = 16;
    q->heap = malloc(initial_capacity * sizeof *q->heap);
    q->size = 0;
    q->capacity = q->heap ? initial_capacity : 0;
    q->next_seq = 0;
    return q->heap != NULL;
}

void eventq_free(struct eventq *q)
{
    free(q->heap);
    q->heap = NULL;
    q->size = q->capacity = 0;
}

bool eventq_push(struct eventq *q, double time, uint32_t type, uint32_t obj)
{
    if (q->size == q->capacity) {
        size_t cap = q->capacity ? 2 * q->capacity : 16;
        struct event *grown = realloc(q->heap, cap * sizeof *grown);
        if (!grown)
            return false;
        q->heap = grown;
        q->capacity = cap;
    }
    struct event ev = { time, q->next_seq++, type, obj };
    struct event *h = q->heap;
    size_t i = q->size++;
    while (i > 0) {
        size_t parent = (i - 1) / ARITY;
        if (!earlier(&ev, &h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = ev;
    return true;
}

bool eventq_pop(struct eventq *q, struct event *out)
{
    if (q->size == 0)
        return false;
    struct event *h = q->heap;
    *out = h[0];
    size_t n = --q->size;
    if (n == 0)
        return true;
    struct event last = h[n];
    size_t i = 0;
    for (;;) {
        size_t first = ARITY * i + 1;
        if (first >= n)
            break;
        size_t best = first;
        size_t end = first + ARITY < n ? first + ARITY : n;
        for (size_t c = first + 1; c < end; c++)
            if (earlier(&h[c], &h[best]))
                best = c;
        if (!earlier(&h[best], &last))
            break;
        h[i] = h[best];
        i = best;
    }
    h[i] = last;
    return true;
}
