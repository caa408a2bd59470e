/* Hold-model benchmark of the bare event queue: the queue holds Q events; each
 * operation pops the earliest and pushes it back at time + an exponential increment
 * (from a precomputed table, so the random-number cost is not counted).
 * Target: at least 10 million hold operations (events) per second on one core at the
 * sizes a network run reaches (Q = 8192 for the 10-cube default). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../sim/core/eventq.h"
#include "../sim/core/rng.h"

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long ops = argc > 1 ? atol(argv[1]) : 20000000;
    enum { TABLE = 1 << 16 };
    static double increment[TABLE];
    struct rng r;
    rng_seed_stream(&r, 1, RNG_TEST, 0);
    for (int i = 0; i < TABLE; i++)
        increment[i] = rng_exponential(&r, 1.0);
    const size_t sizes[] = { 1024, 8192, 65536, 1 << 20 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        struct eventq q;
        if (!eventq_init(&q, sizes[s]))
            return 1;
        for (size_t i = 0; i < sizes[s]; i++)
            eventq_push(&q, increment[i % TABLE] * (double)sizes[s], 0, (uint32_t)i);
        struct event ev;
        double start = seconds();
        for (long i = 0; i < ops; i++) {
            eventq_pop(&q, &ev);
            eventq_push(&q, ev.time + increment[i & (TABLE - 1)] * (double)sizes[s], ev.type, ev.obj);
        }
        double elapsed = seconds() - start;
        /* What the kernel does when a handler schedules one event: one sift. */
        start = seconds();
        for (long i = 0; i < ops; i++) {
            const struct event *top = eventq_top(&q);
            eventq_replace_top(&q, top->time + increment[i & (TABLE - 1)] * (double)sizes[s], top->type, top->obj);
        }
        double fused = seconds() - start;
        printf("hold Q=%-8zu %.3g events/s replace-top (%.1f ns), %.3g events/s pop+push (%.1f ns)\n", sizes[s],
               ops / fused, 1e9 * fused / ops, ops / elapsed, 1e9 * elapsed / ops);
        eventq_free(&q);
    }
    return 0;
}
