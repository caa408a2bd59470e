/* Random streams: one independent xoshiro256** stream per (purpose, index),
 * derived from the run seed by SplitMix64 hashing.
 *
 * Promise: a stream's sequence depends only on (run seed, purpose, index), so two
 * configurations that differ in one module see the same numbers in every other
 * module (common random numbers), and results do not depend on the order in which
 * nodes draw.  rng_gsl_view() lends a stream to GSL's distribution functions
 * (gsl_ran_*) without copying it.  Needs: GSL headers for the view only.
 *
 * Why hand-written instead of a GSL generator: a stream must be small (32 bytes,
 * a million nodes times several purposes) and cheap to seed and to draw from inline;
 * bench/bench_rng.c measures it against GSL's mt19937 and taus2.
 */
#ifndef SIM_RNG_H
#define SIM_RNG_H

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>

/* Purposes are fixed numbers so that adding one never shifts another's streams. */
enum rng_purpose {
    RNG_ARRIVAL = 1,        /* per source node: inter-arrival times */
    RNG_DESTINATION = 2,    /* per source node: destination choice */
    RNG_LENGTH = 3,         /* per source node: message length at creation */
    RNG_LENGTH_REDRAW = 4,  /* per node: length re-drawn at each hop */
    RNG_ROUTING = 5,        /* per node: random choices of the routing algorithm */
    RNG_PROTOCOL = 6,       /* per channel: random choices of the access protocol (ACCESS_DRAWS_RANDOM) */
    RNG_PERMUTATION = 7,    /* index 0: random-permutation destinations' permutation of the terminals */
    RNG_TEST = 99           /* tests and benchmarks */
};

struct rng {
    uint64_t s[4];
};

void rng_seed_stream(struct rng *r, uint64_t run_seed, uint32_t purpose, uint64_t index);

/* The seed of replication `r` of a run seeded `seed`: replication 0 is the run
 * itself, the others are hashed from (seed, r), so adding replications never
 * changes the earlier ones. */
uint64_t rng_replication_seed(uint64_t seed, uint64_t r);

/* A seed derived from `seed` and a text (a sweep point's "section.key=value" lines):
 * FNV-1a of the text, mixed with the seed by SplitMix64.  Depends on nothing else. */
uint64_t rng_text_seed(uint64_t seed, const char *text);

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Uniform on the open interval (0, 1): never 0, so log() is always finite. */
static inline double rng_uniform(struct rng *r)
{
    return ((double)(rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

static inline double rng_exponential(struct rng *r, double mean) { return -mean * log(rng_uniform(r)); }

/* Uniform integer in [0, n), n > 0, without modulo bias (Lemire's method). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
    __uint128_t m = (__uint128_t)rng_next(r) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = -n % n;
        while (low < threshold) {
            m = (__uint128_t)rng_next(r) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* Makes *view a gsl_rng that draws from *r (no copy: both advance together). */
void rng_gsl_view(struct rng *r, gsl_rng *view);

#endif
