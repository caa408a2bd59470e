/* Permutation traffic: every message of source s goes to π(s), a fixed node (Dally &
 * Towles's standard patterns).  A source that π fixes sends to itself: such messages
 * are delivered at once with 0 hops.  Address permutations act on the b-bit node
 * number x (N = 2^b nodes; on a k-ary n-cube with k a power of two, x = sum d_i k^i):
 *   bit-complement  π(x) = x xor (N-1)
 *   bit-reversal    bit i of π(x) = bit b-1-i of x
 *   transpose       b even: π(x) = x rotated by b/2 (the halves swapped; a 2-D torus's (i,j) -> (j,i))
 *   shuffle         π(x) = x rotated left by one bit
 * Lattice permutations act on the digits of a k-ary n-cube with end-around links
 * (the hypercube is the 2-ary n-cube):
 *   tornado         every digit d -> (d + ceil(k/2) - 1) mod k (k >= 3)
 *   neighbor        every digit d -> (d + 1) mod k
 * Other topologies, or sizes that do not fit, are refused naming workload.destination. */
#include <stdlib.h>

#include "workload.h"

/* What a permutation keeps: the address width or the lattice it acts on. */
struct permutation {
    uint32_t nodes;
    uint32_t bits; /* address permutations: log2(nodes) */
    struct dest_lattice lattice; /* lattice permutations */
};

/* A fresh permutation of d->topo, set as d->impl; NULL (with *err) out of memory. */
static struct permutation *permutation_new(struct destinations *d, const struct config *cfg, struct cfg_error *err)
{
    struct permutation *p = calloc(1, sizeof *p);
    if (!p) {
        cfg_blame(cfg, "workload.destination", err, "out of memory");
        return NULL;
    }
    p->nodes = d->topo->terminals;
    d->impl = p;
    return p;
}

static bool init_bits(struct destinations *d, const void *params, const struct config *cfg, struct cfg_error *err)
{
    (void)params;
    uint32_t n = d->topo->terminals;
    if (n < 2 || (n & (n - 1)) != 0) {
        cfg_blame(cfg, "workload.destination", err, "%s permutes address bits: the number of nodes must be a "
                  "power of two (this network has %u)", cfg->workload.destination, n);
        return false;
    }
    struct permutation *p = permutation_new(d, cfg, err);
    if (!p)
        return false;
    p->bits = (uint32_t)__builtin_ctz(n);
    return true;
}

static bool init_transpose(struct destinations *d, const void *params, const struct config *cfg,
                           struct cfg_error *err)
{
    if (!init_bits(d, params, cfg, err))
        return false;
    const struct permutation *p = d->impl;
    if (p->bits % 2) {
        cfg_blame(cfg, "workload.destination", err, "transpose swaps the two halves of the address: it needs an "
                  "even number of address bits (this network has 2^%u nodes)", p->bits);
        return false;
    }
    return true;
}

static bool init_torus(struct destinations *d, const void *params, const struct config *cfg, struct cfg_error *err)
{
    (void)params;
    struct dest_lattice lat = { 0 };
    if (!dest_lattice(d->topo, cfg, &lat) || !lat.wrap) {
        cfg_blame(cfg, "workload.destination", err, "%s is defined on k-ary n-cubes with end-around links "
                  "(hypercube, torus, kary-ncube with wrap = true), not on %s%s", cfg->workload.destination,
                  cfg->network.topology, lat.radix ? " without wrap" : "");
        return false;
    }
    struct permutation *p = permutation_new(d, cfg, err);
    if (!p)
        return false;
    p->lattice = lat;
    return true;
}

static bool init_tornado(struct destinations *d, const void *params, const struct config *cfg,
                         struct cfg_error *err)
{
    if (!init_torus(d, params, cfg, err))
        return false;
    if (((const struct permutation *)d->impl)->lattice.radix < 3) {
        cfg_blame(cfg, "workload.destination", err, "tornado needs a radix of at least 3 (with k = 2 every node "
                  "would send to itself)");
        return false;
    }
    return true;
}

static uint32_t complement(const struct permutation *p, uint32_t x) { return x ^ (p->nodes - 1); }

static uint32_t reversal(const struct permutation *p, uint32_t x)
{
    x = (x & 0x55555555u) << 1 | (x >> 1 & 0x55555555u);
    x = (x & 0x33333333u) << 2 | (x >> 2 & 0x33333333u);
    x = (x & 0x0f0f0f0fu) << 4 | (x >> 4 & 0x0f0f0f0fu);
    x = __builtin_bswap32(x);
    return x >> (32 - p->bits);
}

static uint32_t rotate(const struct permutation *p, uint32_t x, uint32_t by)
{
    return ((x << by) | (x >> (p->bits - by))) & (p->nodes - 1);
}

static uint32_t transpose(const struct permutation *p, uint32_t x) { return rotate(p, x, p->bits / 2); }
static uint32_t shuffle(const struct permutation *p, uint32_t x) { return rotate(p, x, 1); }

/* Adds `shift` to every base-k digit of x, modulo k. */
static uint32_t shift_digits(const struct permutation *p, uint32_t x, uint32_t shift)
{
    uint32_t y = 0, place = 1, k = p->lattice.radix;
    for (uint32_t i = 0; i < p->lattice.dims; i++, place *= k) {
        y += (x % k + shift) % k * place;
        x /= k;
    }
    return y;
}

static uint32_t tornado(const struct permutation *p, uint32_t x)
{
    return shift_digits(p, x, (p->lattice.radix + 1) / 2 - 1);
}
static uint32_t neighbor(const struct permutation *p, uint32_t x) { return shift_digits(p, x, 1); }

#define PERMUTATION(fn, label, traits_of, init_fn, text)                                                        \
    static uint32_t pick_##fn(const struct destinations *d, uint32_t src, struct rng *r)                        \
    {                                                                                                           \
        (void)r;                                                                                                \
        return fn(d->impl, src);                                                                                \
    }                                                                                                           \
    static double prob_##fn(const struct destinations *d, uint32_t src, uint32_t dst)                           \
    {                                                                                                           \
        return fn(d->impl, src) == dst;                                                                         \
    }                                                                                                           \
    const struct dest_ops dest_##fn = {                                                                         \
        .name = label, .help = text, .traits = (traits_of),                                                     \
        .init = init_fn, .pick = pick_##fn, .prob = prob_##fn, .free = free,                                    \
    }

/* Digit shifts commute with the torus's translations (digit-wise addition) and, for
 * k = 2, with the hypercube's (xor); the address permutations do not in general.
 * Those with fixed points (a palindromic address, a diagonal node, 0 and N-1 under a
 * rotation, every node of a 2-ary tornado) send some nodes' messages to themselves. */
PERMUTATION(complement, "bit-complement", 0u, init_bits, "to x xor (N-1): every address bit inverted (N = 2^b nodes)");
PERMUTATION(reversal, "bit-reversal", DEST_MAY_PICK_SOURCE, init_bits, "to x with its b address bits in reverse order (N = 2^b nodes)");
PERMUTATION(transpose, "transpose", DEST_MAY_PICK_SOURCE, init_transpose,
            "to x with the two halves of its b address bits swapped (b even; 2-D torus: (i,j) -> (j,i))");
PERMUTATION(shuffle, "shuffle", DEST_MAY_PICK_SOURCE, init_bits, "to x rotated left by one address bit (N = 2^b nodes)");
PERMUTATION(tornado, "tornado", DEST_TRANSLATION_INVARIANT | DEST_MAY_PICK_SOURCE, init_tornado,
            "k-ary n-cube with wrap: every digit d -> (d + ceil(k/2) - 1) mod k");
PERMUTATION(neighbor, "neighbor", DEST_TRANSLATION_INVARIANT, init_torus, "k-ary n-cube with wrap: every digit d -> (d + 1) mod k");
