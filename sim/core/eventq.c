#include "eventq.h"

#include <stdlib.h>
#include <string.h>

/* A 4-ary heap halves the depth of a binary heap and keeps the four children of a
 * node in one or two cache lines (events are 24 bytes), which is what matters at the
 * queue sizes a network simulation reaches (thousands to millions of events). */
enum { ARITY = 4 };

/* Times are never negative, so their IEEE-754 bit patterns order like the numbers;
 * comparing them as integers, without short-circuit branches, lets the compiler use
 * conditional moves: heap comparisons are unpredictable, and mispredicted branches
 * were most of the cost (see bench/bench_queue.c). */
static inline uint64_t time_bits(double t)
{
    uint64_t bits;
    memcpy(&bits, &t, sizeof bits);
    return bits;
}

static inline bool earlier(const struct event *a, const struct event *b)
{
    __uint128_t ka = (__uint128_t)time_bits(a->time) << 64 | a->seq;
    __uint128_t kb = (__uint128_t)time_bits(b->time) << 64 | b->seq;
    return ka < kb;
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

static void sift_up(struct event *h, size_t i, struct event ev)
{
    while (i > 0) {
        size_t parent = (i - 1) / ARITY;
        if (!earlier(&ev, &h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = ev;
}

/* Places ev at the hole i, moving earlier children up. */
static void sift_down(struct event *h, size_t n, size_t i, struct event ev)
{
    for (;;) {
        size_t first = ARITY * i + 1;
        if (first >= n)
            break;
        size_t best = first;
        if (first + ARITY <= n) { /* the common case: four children, no bound checks */
            /* index arithmetic instead of branches: a tournament of the four */
            size_t a = first + earlier(&h[first + 1], &h[first]);
            size_t b = first + 2 + earlier(&h[first + 3], &h[first + 2]);
            size_t b_wins = earlier(&h[b], &h[a]);
            best = a + (b - a) * b_wins;
        } else {
            for (size_t c = first + 1; c < n; c++)
                if (earlier(&h[c], &h[best]))
                    best = c;
        }
        if (!earlier(&h[best], &ev))
            break;
        h[i] = h[best];
        i = best;
    }
    h[i] = ev;
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
    sift_up(q->heap, q->size++, ev);
    return true;
}

bool eventq_pop(struct eventq *q, struct event *out)
{
    if (q->size == 0)
        return false;
    *out = q->heap[0];
    size_t n = --q->size;
    if (n > 0)
        sift_down(q->heap, n, 0, q->heap[n]);
    return true;
}

void eventq_replace_top(struct eventq *q, double time, uint32_t type, uint32_t obj)
{
    struct event ev = { time, q->next_seq++, type, obj };
    sift_down(q->heap, q->size, 0, ev);
}
