#include "rng.h"

#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t rng_replication_seed(uint64_t seed, uint64_t r)
{
    if (r == 0)
        return seed;
    uint64_t x = seed ^ 0x9e3779b97f4a7c15ULL;
    uint64_t h = splitmix64(&x);
    x = h ^ (r * 0xbf58476d1ce4e5b9ULL) ^ 0x5245504cULL; /* "REPL" */
    return splitmix64(&x);
}

uint64_t rng_text_seed(uint64_t seed, const char *text)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a, 64 bits */
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        h = (h ^ *c) * 0x100000001b3ULL;
    uint64_t x = seed ^ 0x9e3779b97f4a7c15ULL;
    x = splitmix64(&x) ^ h ^ 0x5357454550ULL; /* "SWEEP" */
    return splitmix64(&x);
}

void rng_seed_stream(struct rng *r, uint64_t run_seed, uint32_t purpose, uint64_t index)
{
    /* Hash the three coordinates through separate SplitMix64 rounds so that nearby
     * (purpose, index) pairs give unrelated states. */
    uint64_t x = run_seed;
    uint64_t h = splitmix64(&x);
    x = h ^ ((uint64_t)purpose << 48) ^ 0x5bd1e9955bd1e995ULL;
    h = splitmix64(&x);
    x = h ^ index;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0) /* the one forbidden state */
        r->s[0] = 1;
}

/* GSL adapter: the gsl_rng's state pointer is the stream itself. */
static void gsl_adapter_set(void *state, unsigned long seed)
{
    rng_seed_stream(state, seed, RNG_TEST, 0);
}

static unsigned long gsl_adapter_get(void *state)
{
    return (unsigned long)(rng_next(state) >> 32);
}

static double gsl_adapter_get_double(void *state)
{
    return (double)(rng_next(state) >> 11) * 0x1.0p-53;
}

static const gsl_rng_type gsl_adapter_type = {
    "xoshiro256**", 0xffffffffUL, 0, sizeof(struct rng), gsl_adapter_set, gsl_adapter_get,
    gsl_adapter_get_double,
};

void rng_gsl_view(struct rng *r, gsl_rng *view)
{
    memset(view, 0, sizeof *view);
    view->type = &gsl_adapter_type;
    view->state = r;
}
