/* Why the random streams are hand-written: one stream per (node, purpose) must be
 * small and cheap.  Compares our inline xoshiro256** with GSL's mt19937 and taus2
 * (through gsl_ran_exponential) on draws per second and state bytes per stream. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <time.h>

#include "../sim/core/rng.h"

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    enum { N = 50000000 };
    struct rng r;
    rng_seed_stream(&r, 1, RNG_TEST, 0);
    double sum = 0, start = seconds();
    for (int i = 0; i < N; i++)
        sum += rng_exponential(&r, 1.0);
    double ours = N / (seconds() - start);
    printf("xoshiro256** (inline)   %.3g exponentials/s, %zu bytes per stream\n", ours, sizeof r);

    const gsl_rng_type *types[] = { gsl_rng_mt19937, gsl_rng_taus2 };
    for (int t = 0; t < 2; t++) {
        gsl_rng *g = gsl_rng_alloc(types[t]);
        gsl_rng_set(g, 1);
        start = seconds();
        for (int i = 0; i < N; i++)
            sum += gsl_ran_exponential(g, 1.0);
        double rate = N / (seconds() - start);
        printf("GSL %-20s %.3g exponentials/s, %zu bytes per stream (ours is %.2fx faster)\n", gsl_rng_name(g), rate,
               types[t]->size, ours / rate);
        gsl_rng_free(g);
    }
    /* Seeding cost matters: a 2^20-node run seeds five streams per node. */
    start = seconds();
    for (int i = 0; i < 1000000; i++)
        rng_seed_stream(&r, 1, RNG_ARRIVAL, (uint64_t)i);
    double seed_ours = 1e6 / (seconds() - start);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    start = seconds();
    for (int i = 0; i < 100000; i++)
        gsl_rng_set(g, (unsigned long)i);
    double seed_mt = 1e5 / (seconds() - start);
    gsl_rng_free(g);
    printf("seeding: ours %.3g streams/s, mt19937 %.3g streams/s\n", seed_ours, seed_mt);
    return sum < 0; /* keep the sums alive */
}
