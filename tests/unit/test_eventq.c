#include <stdlib.h>
#include <string.h>

#include "../../sim/core/eventq.h"
#include "../../sim/core/rng.h"
#include "../common/test.h"

START_TEST(pops_in_time_order)
{
    struct eventq q;
    ck_assert(eventq_init(&q, 4));
    const double times[] = { 5, 1, 4, 2, 3, 0.5, 9, 7 };
    for (unsigned i = 0; i < 8; i++)
        ck_assert(eventq_push(&q, times[i], 0, i));
    const double want[] = { 0.5, 1, 2, 3, 4, 5, 7, 9 };
    struct event ev;
    for (unsigned i = 0; i < 8; i++) {
        ck_assert(eventq_pop(&q, &ev));
        ck_assert_double_eq(ev.time, want[i]);
    }
    ck_assert(!eventq_pop(&q, &ev));
    eventq_free(&q);
}
END_TEST

START_TEST(equal_times_pop_in_insertion_order)
{
    struct eventq q;
    ck_assert(eventq_init(&q, 16));
    /* Interleave two time values so that ties must survive many sift operations. */
    for (uint32_t i = 0; i < 1000; i++)
        ck_assert(eventq_push(&q, i % 2 ? 3.0 : 1.0, 0, i));
    struct event ev;
    uint32_t expect_odd = 1, expect_even = 0;
    for (int i = 0; i < 1000; i++) {
        ck_assert(eventq_pop(&q, &ev));
        if (i < 500) {
            ck_assert_double_eq(ev.time, 1.0);
            ck_assert_uint_eq(ev.obj, expect_even);
            expect_even += 2;
        } else {
            ck_assert_double_eq(ev.time, 3.0);
            ck_assert_uint_eq(ev.obj, expect_odd);
            expect_odd += 2;
        }
    }
    eventq_free(&q);
}
END_TEST

/* Random pushes and pops, with many exact ties, against a sorted array: a new event
 * goes after every event with time <= its own (its seq is the largest so far). */
START_TEST(matches_sorted_reference_under_stress)
{
    struct eventq q;
    ck_assert(eventq_init(&q, 1));
    struct rng r;
    rng_seed_stream(&r, 42, RNG_TEST, 0);
    enum { STEPS = 300000, CAP = 4096 };
    struct event *ref = malloc(CAP * sizeof *ref);
    size_t ref_n = 0, popped = 0;
    double now = 0;
    for (int step = 0; step < STEPS; step++) {
        /* Push twice as often as pop while small, so the heap grows and shrinks. */
        bool push = ref_n == 0 || (ref_n < CAP && rng_below(&r, ref_n > CAP / 2 ? 4 : 3) != 0);
        if (push) {
            double t = now + (double)rng_below(&r, 50); /* integers: ties are frequent */
            ck_assert(eventq_push(&q, t, 7, (uint32_t)step));
            size_t lo = 0, hi = ref_n;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (ref[mid].time <= t)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            memmove(ref + lo + 1, ref + lo, (ref_n - lo) * sizeof *ref);
            ref[lo] = (struct event){ t, 7, (uint32_t)step };
            ref_n++;
        } else {
            struct event ev;
            ck_assert(eventq_pop(&q, &ev));
            ck_assert_double_eq(ev.time, ref[0].time);
            ck_assert_uint_eq(ev.obj, ref[0].obj);
            ck_assert_uint_eq(ev.type, 7);
            now = ev.time;
            memmove(ref, ref + 1, --ref_n * sizeof *ref);
            popped++;
        }
        ck_assert_uint_eq(eventq_size(&q), ref_n);
    }
    ck_assert_uint_gt(popped, STEPS / 4);
    free(ref);
    eventq_free(&q);
}
END_TEST

/* A reference binary heap on (time, obj): objs are push numbers, so it is the queue's
 * (time, push order) rule. */
static bool ref_before(const struct event *a, const struct event *b)
{
    return a->time < b->time || (a->time == b->time && a->obj < b->obj);
}

static void ref_push(struct event *h, size_t *n, struct event e)
{
    size_t i = (*n)++;
    while (i > 0 && ref_before(&e, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = e;
}

static struct event ref_pop(struct event *h, size_t *n)
{
    struct event top = h[0], e = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && ref_before(&h[c + 1], &h[c]))
            c++;
        if (!ref_before(&h[c], &e))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = e;
    return top;
}

/* The calendar re-plans its buckets from the pending times, and hands small queues to
 * the heap alone: push, pop and the kernel's replace-top against the reference while
 * the queue swells past the calendar's threshold and drains again, through scales that
 * force many re-plans (dense bursts, far outliers, long runs of one time). */
START_TEST(keeps_order_across_replans)
{
    struct eventq q;
    ck_assert(eventq_init(&q, 1));
    struct rng r;
    rng_seed_stream(&r, 7, RNG_TEST, 1);
    enum { STEPS = 600000, CAP = 30000 };
    struct event *ref = malloc(CAP * sizeof *ref);
    size_t ref_n = 0;
    double now = 0;
    bool have_top = false, growing = true;
    uint32_t calendar_steps = 0, heap_steps = 0, swings = 0;
    for (uint32_t step = 0; step < STEPS; step++) {
        int phase = (step / 30000) % 5;
        double t;
        switch (phase) {
        case 0: t = now + rng_exponential(&r, 1.0); break;
        case 1: t = now + rng_exponential(&r, 1e-6); break;                                    /* dense */
        case 2: t = now + (rng_below(&r, 100) == 0 ? 1e6 : rng_exponential(&r, 0.01)); break; /* outliers */
        case 3: t = now + (double)rng_below(&r, 3); break;                                    /* ties */
        default: t = now; break;                                                               /* one time */
        }
        if (ref_n >= CAP - 1 && growing) {
            growing = false;
            swings++;
        }
        else if (ref_n < 100)
            growing = true;
        bool push = ref_n == 0 || rng_below(&r, 8) < (growing ? 6u : 1u);
        if (push && have_top && rng_below(&r, 2) == 0) { /* the kernel's way: the top makes room */
            ck_assert(eventq_replace_top(&q, t, 3, step));
            ref_pop(ref, &ref_n);
        } else if (push) {
            ck_assert(eventq_push(&q, t, 3, step));
        } else {
            struct event ev, want = ref_pop(ref, &ref_n);
            ck_assert(eventq_pop(&q, &ev));
            ck_assert_double_eq(ev.time, want.time);
            ck_assert_uint_eq(ev.obj, want.obj);
            now = ev.time;
        }
        if (push)
            ref_push(ref, &ref_n, (struct event){ t, 3, step });
        have_top = false;
        if (ref_n > 0 && rng_below(&r, 2) == 0) {
            const struct event *top = eventq_top(&q);
            ck_assert_ptr_nonnull(top);
            ck_assert_double_eq(top->time, ref[0].time);
            ck_assert_uint_eq(top->obj, ref[0].obj);
            now = top->time;
            have_top = true;
        }
        ck_assert_uint_eq(eventq_size(&q), ref_n);
        calendar_steps += !q.heap_mode && q.nbuckets > 0;
        heap_steps += q.heap_mode;
    }
    ck_assert_uint_ge(swings, 3);
    ck_assert_uint_gt(calendar_steps, STEPS / 4);
    ck_assert_uint_gt(heap_steps, STEPS / 20);
    free(ref);
    eventq_free(&q);
}
END_TEST

/* eventq_visit_pending sees every pending event once, wherever the calendar holds it
 * (heap, fine buckets, coarse bins, far list), and skips the top when asked. */
struct seen {
    uint32_t *count;
    uint32_t n;
};

/* Event i's time: spread over a few hundred units, one in a thousand far out (the
 * measurement window's end is such an outlier). */
static double visit_time(uint32_t i) { return i % 1000 == 999 ? 1e6 + i : (double)(i % 977) * 0.37 + (double)(i / 977); }

static void count_seen(void *ctx, const struct event *ev)
{
    struct seen *s = ctx;
    ck_assert_uint_lt(ev->obj, s->n);
    ck_assert_double_eq(ev->time, visit_time(ev->obj));
    s->count[ev->obj]++;
}

START_TEST(visit_pending_sees_each_pending_event_once)
{
    enum { N = 60000 };
    static uint32_t count[N];
    struct eventq q;
    ck_assert(eventq_init(&q, 16));
    /* enough events for the calendar, times spread so that bins, buckets and the far
     * list are all used once some are popped */
    for (uint32_t i = 0; i < N; i++)
        ck_assert(eventq_push(&q, visit_time(i), 0, i));
    struct event ev;
    bool popped[N] = { false };
    for (unsigned round = 0; round < 3; round++) {
        for (unsigned k = 0; k < 7000; k++) {
            ck_assert(eventq_pop(&q, &ev));
            popped[ev.obj] = true;
        }
        for (int skip = 0; skip < 2; skip++) {
            memset(count, 0, sizeof count);
            struct seen s = { count, N };
            const struct event *top = eventq_top(&q);
            ck_assert_ptr_nonnull(top);
            uint32_t top_obj = top->obj;
            eventq_visit_pending(&q, skip, count_seen, &s);
            for (uint32_t i = 0; i < N; i++)
                ck_assert_uint_eq(count[i], popped[i] || (skip && i == top_obj) ? 0 : 1);
        }
    }
    eventq_free(&q);
}
END_TEST

Suite *eventq_suite(void)
{
    Suite *s = suite_create("eventq");
    TCase *tc = tcase_create("order");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, pops_in_time_order);
    tcase_add_test(tc, equal_times_pop_in_insertion_order);
    tcase_add_test(tc, matches_sorted_reference_under_stress);
    tcase_add_test(tc, keeps_order_across_replans);
    tcase_add_test(tc, visit_pending_sees_each_pending_event_once);
    suite_add_tcase(s, tc);
    return s;
}
