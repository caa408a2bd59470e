#include "eventq.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Why equal times keep push order.  An event's slot (coarse bin, then fine bucket
 * within the bin being worked on, clamped) is non-decreasing in its time, so two
 * events of equal time share a slot, and an event in an earlier slot is strictly
 * earlier.  Bins, buckets and the far list are appended to, so each holds its events
 * in push order, and dealing one out (a bin to fine buckets, the far list to bins at a
 * re-plan) keeps that order.  Loading a bucket into the heap numbers its events in
 * that order, after every number already given, and a push into a slot already loaded
 * (or passed) goes to the heap with the next number, later than every loaded event.
 * A bin is dealt out only when the heap and the fine buckets are empty, and the year
 * is re-planned only when the bins are empty too.  So equal times reach the heap in
 * push order and (time, seq) keeps it. */

enum {
    ARITY = 4,
    /* Events a bucket should hold on average: enough to amortise loading a bucket
     * (bench/bench_queue.c: 8 to 32 are within a few per cent), few enough that the
     * heap stays in the first-level cache. */
    PER_BUCKET = 16,
    MAX_BUCKETS = 1 << 22, /* fine buckets of one coarse bin */
    SAMPLES = 255,       /* pending times sampled to plan a year */
    CHUNK_EVENTS = 7,    /* 7 events and a header: 128 bytes, two cache lines */
    SLAB_SHIFT = 10,     /* 1024 chunks (128 KiB) per slab */
    /* Below HEAP_BELOW pending events at a re-plan the heap alone holds them (it fits
     * in the first two cache levels, and buckets and prefetch hints only cost there);
     * past HEAP_ABOVE the calendar takes over at the next event. */
    HEAP_BELOW = 8192,
    HEAP_ABOVE = 16384,
};

#define NONE UINT32_MAX

struct eventq_heap_entry {
    struct event ev;
    uint64_t seq; /* push order within the heap: breaks ties in time */
};

struct eventq_chunk {
    uint32_t next, count;
    uint64_t unused; /* pads the header to 16 bytes: the events stay aligned */
    struct event ev[CHUNK_EVENTS];
};

/* --- the heap of the buckets reached --- */

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

static inline bool earlier(const struct eventq_heap_entry *a, const struct eventq_heap_entry *b)
{
    __uint128_t ka = (__uint128_t)time_bits(a->ev.time) << 64 | a->seq;
    __uint128_t kb = (__uint128_t)time_bits(b->ev.time) << 64 | b->seq;
    return ka < kb;
}

static void sift_up(struct eventq_heap_entry *h, size_t i, struct eventq_heap_entry e)
{
    while (i > 0) {
        size_t parent = (i - 1) / ARITY;
        if (!earlier(&e, &h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = e;
}

/* Places e at the hole i, moving earlier children up. */
static void sift_down(struct eventq_heap_entry *h, size_t n, size_t i, struct eventq_heap_entry e)
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
        if (!earlier(&h[best], &e))
            break;
        h[i] = h[best];
        i = best;
    }
    h[i] = e;
}

static bool heap_reserve(struct eventq *q, size_t n)
{
    if (n <= q->capacity)
        return true;
    size_t cap = q->capacity ? q->capacity : 64;
    while (cap < n)
        cap *= 2;
    struct eventq_heap_entry *grown = realloc(q->heap, cap * sizeof *grown);
    if (!grown)
        return false;
    q->heap = grown;
    q->capacity = cap;
    return true;
}

static bool heap_push(struct eventq *q, struct event ev)
{
    if (!heap_reserve(q, q->size + 1))
        return false;
    struct eventq_heap_entry e = { ev, q->next_seq++ };
    sift_up(q->heap, q->size++, e);
    return true;
}

static void heap_remove_top(struct eventq *q)
{
    size_t n = --q->size;
    if (n > 0)
        sift_down(q->heap, n, 0, q->heap[n]);
}

/* --- chunks and the lists of them --- */

static inline struct eventq_chunk *chunk_at(const struct eventq *q, uint32_t id)
{
    return &q->slabs[id >> SLAB_SHIFT][id & ((1u << SLAB_SHIFT) - 1)];
}

static uint32_t chunk_new(struct eventq *q)
{
    uint32_t id = q->chunk_free;
    if (id != NONE) {
        q->chunk_free = chunk_at(q, id)->next;
        return id;
    }
    if (q->chunks_used == q->slab_count << SLAB_SHIFT) { /* every slab is in use: one more */
        if (q->slab_count == UINT32_MAX >> SLAB_SHIFT)
            return NONE;
        if (q->slab_count == q->slab_capacity) {
            uint32_t cap = q->slab_capacity ? 2 * q->slab_capacity : 16;
            struct eventq_chunk **grown = realloc(q->slabs, cap * sizeof *grown);
            if (!grown)
                return NONE;
            q->slabs = grown;
            q->slab_capacity = cap;
        }
        struct eventq_chunk *slab = aligned_alloc(64, sizeof(struct eventq_chunk) << SLAB_SHIFT);
        if (!slab)
            return NONE;
        q->slabs[q->slab_count++] = slab;
    }
    return q->chunks_used++;
}

static inline void chunk_give(struct eventq *q, uint32_t id)
{
    chunk_at(q, id)->next = q->chunk_free;
    q->chunk_free = id;
}

static bool list_append(struct eventq *q, struct eventq_list *l, struct event ev)
{
    struct eventq_chunk *c = l->tail == NONE ? NULL : chunk_at(q, l->tail);
    if (!c || c->count == CHUNK_EVENTS) {
        uint32_t id = chunk_new(q);
        if (id == NONE)
            return false;
        if (c)
            c->next = id;
        else
            l->head = id;
        l->tail = id;
        c = chunk_at(q, id);
        c->next = NONE;
        c->count = 0;
    }
    c->ev[c->count++] = ev;
    return true;
}

/* --- the calendar --- */

/* Into the heap, a fine bucket, a coarse bin or the far list, by time. */
static bool place(struct eventq *q, struct event ev)
{
    if (q->heap_mode)
        return heap_push(q, ev);
    double c = (ev.time - q->start) * q->coarse_inv;
    if (c < (double)q->coarse_done) {
        if (c < (double)q->coarse_done - 1) /* a bin already passed: earlier than any fine bucket */
            return heap_push(q, ev);
        double x = (ev.time - q->fine_start) * q->fine_inv;
        uint32_t b = x < 0 ? 0 : x >= (double)q->nbuckets ? q->nbuckets - 1 : (uint32_t)x;
        if (b < q->loaded)
            return heap_push(q, ev);
        q->in_buckets++;
        return list_append(q, &q->buckets[b], ev);
    }
    if (c < (double)q->ncoarse) {
        uint32_t bin = (uint32_t)c;
        q->in_coarse++;
        q->coarse_count[bin]++;
        return list_append(q, &q->coarse[bin], ev);
    }
    q->in_far++;
    return list_append(q, &q->far, ev);
}

/* Moves a list's events, in order, to their places (the list's chunks are freed
 * first, one at a time, so its own events can reuse them). */
static bool deal_out(struct eventq *q, struct eventq_list l)
{
    for (uint32_t id = l.head; id != NONE;) {
        struct eventq_chunk c = *chunk_at(q, id);
        chunk_give(q, id);
        for (uint32_t k = 0; k < c.count; k++)
            if (!place(q, c.ev[k]))
                return false;
        id = c.next;
    }
    return true;
}

static int compare_times(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The heap, the buckets and the bins are empty: plans a new year from the pending
 * (far) events and deals them out.  The year spans eight times the earlier half of
 * the pending times (sampled: a few far outliers, such as the end of the measurement
 * window, do not stretch it), so few events land past it. */
static bool replan(struct eventq *q)
{
    size_t n = q->in_far, stride = n / SAMPLES + 1, i = 0, ns = 0;
    double sample[SAMPLES], lo = INFINITY;
    for (uint32_t id = q->far.head; id != NONE; id = chunk_at(q, id)->next) {
        const struct eventq_chunk *c = chunk_at(q, id);
        for (uint32_t k = 0; k < c->count; k++, i++) {
            if (c->ev[k].time < lo)
                lo = c->ev[k].time;
            if (i % stride == 0 && ns < SAMPLES)
                sample[ns++] = c->ev[k].time;
        }
    }
    struct eventq_list far = q->far;
    q->far = (struct eventq_list){ NONE, NONE };
    q->in_far = 0;
    q->coarse_done = q->nbuckets = q->loaded = 0;
    if (n < HEAP_BELOW || !isfinite(lo)) { /* all to the heap, in far order */
        q->heap_mode = true;
        q->ncoarse = 0;
        return deal_out(q, far);
    }
    qsort(sample, ns, sizeof *sample, compare_times);
    double half = sample[ns / 2] - lo, most = sample[ns * 9 / 10] - lo;
    double year = half > 0 ? 8 * half : most > 0 ? 4 * most : 1;
    if (!(year > 1e-300) || !isfinite(year))
        year = 1;
    q->start = lo;
    q->ncoarse = EVENTQ_COARSE;
    q->coarse_width = year / EVENTQ_COARSE;
    q->coarse_inv = 1 / q->coarse_width;
    if (!isfinite(q->coarse_inv)) { /* a year too short to cut: one bin */
        q->ncoarse = 1;
        q->coarse_width = year;
        q->coarse_inv = 1 / year;
    }
    for (uint32_t b = 0; b < q->ncoarse; b++) {
        q->coarse[b] = (struct eventq_list){ NONE, NONE };
        q->coarse_count[b] = 0;
    }
    return deal_out(q, far);
}

/* The fine buckets are used up: deals the next non-empty bin out to new fine buckets
 * of about PER_BUCKET events each. */
static bool next_bin(struct eventq *q)
{
    uint32_t bin = q->coarse_done;
    while (q->coarse[bin].head == NONE)
        bin++;
    uint32_t n = q->coarse_count[bin], nb = n / PER_BUCKET + 1;
    if (nb > MAX_BUCKETS)
        nb = MAX_BUCKETS;
    if (nb > q->bucket_capacity) {
        free(q->buckets);
        q->buckets = malloc(nb * sizeof *q->buckets);
        q->bucket_capacity = q->buckets ? nb : 0;
        if (!q->buckets)
            return false;
    }
    for (uint32_t b = 0; b < nb; b++)
        q->buckets[b] = (struct eventq_list){ NONE, NONE };
    q->nbuckets = nb;
    q->loaded = 0;
    q->coarse_done = bin + 1;
    q->fine_start = q->start + bin * q->coarse_width;
    q->fine_inv = nb * q->coarse_inv;
    struct eventq_list l = q->coarse[bin];
    q->coarse[bin] = (struct eventq_list){ NONE, NONE };
    q->coarse_count[bin] = 0;
    q->in_coarse -= n;
    return deal_out(q, l);
}

/* Moves the next non-empty bucket into the (empty) heap, re-planning when the year
 * is over; false when nothing is pending or memory ran out. */
static bool refill(struct eventq *q)
{
    if (q->failed)
        return false;
    while (q->size == 0) {
        if (q->in_buckets == 0) {
            bool ok;
            if (q->in_coarse > 0)
                ok = next_bin(q);
            else if (q->in_far > 0)
                ok = replan(q);
            else
                return false;
            if (!ok) {
                q->failed = true;
                return false;
            }
            continue;
        }
        uint32_t b = q->loaded;
        while (q->buckets[b].head == NONE)
            b++;
        q->loaded = b + 1;
        q->loads++;
        for (uint32_t id = q->buckets[b].head; id != NONE;) {
            const struct eventq_chunk *c = chunk_at(q, id);
            if (!heap_reserve(q, q->size + c->count)) {
                q->failed = true;
                return false;
            }
            for (uint32_t k = 0; k < c->count; k++)
                q->heap[q->size++] = (struct eventq_heap_entry){ c->ev[k], q->next_seq++ };
            q->in_buckets -= c->count;
            uint32_t next = c->next;
            chunk_give(q, id);
            id = next;
        }
        for (size_t i = q->size / ARITY + 1; i-- > 0;) /* heapify, bottom up */
            if (i < q->size)
                sift_down(q->heap, q->size, i, q->heap[i]);
    }
    return true;
}

static int compare_seq(const void *a, const void *b)
{
    uint64_t x = ((const struct eventq_heap_entry *)a)->seq, y = ((const struct eventq_heap_entry *)b)->seq;
    return (x > y) - (x < y);
}

/* The heap outgrew heap mode: its events go to the far list in push order (their
 * sequence numbers) and the next refill plans a calendar.  Only between events: the
 * kernel's current event is no longer in the heap. */
static bool leave_heap_mode(struct eventq *q)
{
    qsort(q->heap, q->size, sizeof *q->heap, compare_seq);
    for (size_t i = 0; i < q->size; i++) {
        if (!list_append(q, &q->far, q->heap[i].ev))
            return false;
        q->in_far++;
    }
    q->size = 0;
    q->heap_mode = false;
    q->ncoarse = q->coarse_done = q->nbuckets = q->loaded = 0;
    q->start = q->coarse_inv = 0; /* every push goes to the far list until the re-plan */
    return true;
}

/* --- the interface --- */

bool eventq_init(struct eventq *q, size_t initial_capacity)
{
    memset(q, 0, sizeof *q);
    q->buckets = NULL;
    q->far = (struct eventq_list){ NONE, NONE };
    q->chunk_free = NONE;
    return heap_reserve(q, initial_capacity < 64 ? 64 : initial_capacity);
}

void eventq_free(struct eventq *q)
{
    free(q->heap);
    free(q->buckets);
    for (uint32_t s = 0; s < q->slab_count; s++)
        free(q->slabs[s]);
    free(q->slabs);
    memset(q, 0, sizeof *q);
}

bool eventq_push(struct eventq *q, double time, uint32_t type, uint32_t obj)
{
    assert(!isnan(time));
    return place(q, (struct event){ time, type, obj });
}

const struct event *eventq_top(struct eventq *q)
{
    if (q->heap_mode && q->size > HEAP_ABOVE && !leave_heap_mode(q))
        q->failed = true;
    if (q->size == 0 && !refill(q))
        return NULL;
    return &q->heap[0].ev;
}

bool eventq_pop(struct eventq *q, struct event *out)
{
    if (q->size == 0 && !refill(q))
        return false;
    *out = q->heap[0].ev;
    heap_remove_top(q);
    return true;
}

bool eventq_replace_top(struct eventq *q, double time, uint32_t type, uint32_t obj)
{
    assert(q->size > 0 && !isnan(time));
    struct event ev = { time, type, obj };
    if (q->heap_mode) { /* stays in the heap: one sift */
        sift_down(q->heap, q->size, 0, (struct eventq_heap_entry){ ev, q->next_seq++ });
        return true;
    }
    heap_remove_top(q);
    return place(q, ev);
}

static void visit_list(const struct eventq *q, struct eventq_list l, void (*visit)(void *ctx, const struct event *ev),
                       void *ctx)
{
    for (uint32_t id = l.head; id != NONE; id = chunk_at(q, id)->next) {
        const struct eventq_chunk *c = chunk_at(q, id);
        for (uint32_t k = 0; k < c->count; k++)
            visit(ctx, &c->ev[k]);
    }
}

void eventq_visit_pending(const struct eventq *q, bool skip_top, void (*visit)(void *ctx, const struct event *ev),
                          void *ctx)
{
    for (size_t i = skip_top ? 1 : 0; i < q->size; i++)
        visit(ctx, &q->heap[i].ev);
    for (uint32_t b = q->loaded; b < q->nbuckets; b++)
        visit_list(q, q->buckets[b], visit, ctx);
    for (uint32_t c = q->coarse_done; c < q->ncoarse; c++)
        visit_list(q, q->coarse[c], visit, ctx);
    visit_list(q, q->far, visit, ctx);
}

void eventq_visit_ahead(const struct eventq *q, unsigned ahead, void (*visit)(void *ctx, const struct event *ev),
                        void *ctx)
{
    if (ahead == 0) {
        for (size_t i = 0; i < q->size; i++)
            visit(ctx, &q->heap[i].ev);
        return;
    }
    uint32_t end = q->nbuckets - q->loaded > 64 ? q->loaded + 64 : q->nbuckets;
    for (uint32_t b = q->loaded; b < end; b++) {
        if (q->buckets[b].head == NONE || --ahead > 0)
            continue;
        for (uint32_t id = q->buckets[b].head; id != NONE; id = chunk_at(q, id)->next) {
            const struct eventq_chunk *c = chunk_at(q, id);
            for (uint32_t k = 0; k < c->count; k++)
                visit(ctx, &c->ev[k]);
        }
        return;
    }
}
