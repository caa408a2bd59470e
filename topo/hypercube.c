/* Binary n-cube: node x links to x ^ (1 << i) for each dimension i.
 * Full duplex: channel x*n + i is the direction x -> x ^ (1 << i).  Half duplex:
 * channel i*2^(n-1) + (x without bit i) is the whole link.  The class is the
 * dimension.  The canonical order corrects the lowest differing dimension first
 * (e-cube).  Clusters (for cluster-locality) are the subcubes of the low
 * cluster_dimension bits, as seed 000 defines them on the flat hypercube. */
#include <stdio.h>

#include "lattice.h"
#include "topo.h"

enum { HYPERCUBE_MAX_DIMENSION = 20 }; /* 2^20 nodes, 20M channels: about 1 GiB of state */

static bool half_duplex(const struct topo *t) { return t->kind == CHANNEL_HALF_DUPLEX; }

static uint32_t channel_of(const struct topo *t, uint32_t x, unsigned dim)
{
    return half_duplex(t) ? (dim << (t->dimension - 1)) + bit_remove(x, dim) : x * t->dimension + dim;
}

static bool build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    if (cfg->network.dimension > HYPERCUBE_MAX_DIMENSION) {
        cfg_blame(cfg, "network.dimension", err, "a hypercube of dimension %lld is too large (at most %d)",
                  (long long)cfg->network.dimension, HYPERCUBE_MAX_DIMENSION);
        return false;
    }
    bool half;
    if (!topo_read_links(cfg, true, &half, err))
        return false;
    unsigned n = (unsigned)cfg->network.dimension;
    t->dimension = t->classes = t->degree = t->max_hops = t->diameter = n;
    t->lattice.radix = 2; /* a ring of two nodes: closed, and both ways is one link */
    t->lattice.wrap = t->lattice.both_ways = true;
    t->nodes = 1u << n;
    t->kind = half ? CHANNEL_HALF_DUPLEX : CHANNEL_LINK_DIRECTION;
    t->links = (uint64_t)n << (n - 1);
    t->channels = half ? (uint32_t)t->links : t->nodes * n;
    t->transitive = t->uniform_class_loads = true;
    snprintf(t->label, sizeof t->label, "binary %u-cube%s", n, half ? ", half-duplex links" : "");
    if (cfg_int(cfg, "network.cluster_dimension") <= n)
        t->cluster_size = 1u << cfg_int(cfg, "network.cluster_dimension");
    return true;
}

static unsigned minimal_hops(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    uint32_t diff = cur ^ dst;
    unsigned count = 0;
    while (diff && count < max) {
        unsigned dim = (unsigned)__builtin_ctz(diff);
        out[count++] = (struct hop){ channel_of(t, cur, dim), cur ^ (1u << dim) };
        diff &= diff - 1;
    }
    return count;
}

static unsigned neighbors(const struct topo *t, uint32_t x, struct hop *out, unsigned max)
{
    unsigned count = 0;
    for (unsigned dim = 0; dim < t->dimension && count < max; dim++)
        out[count++] = (struct hop){ channel_of(t, x, dim), x ^ (1u << dim) };
    return count;
}

static unsigned senders(const struct topo *t, uint32_t ch, uint32_t *out, unsigned max)
{
    if (!half_duplex(t)) {
        out[0] = ch / t->dimension;
        return 1;
    }
    unsigned dim = ch >> (t->dimension - 1);
    uint32_t low = bit_insert(ch & ((1u << (t->dimension - 1)) - 1), dim, 0);
    return topo_link_ends(out, max, low, low | 1u << dim);
}

static unsigned distance(const struct topo *t, uint32_t a, uint32_t b)
{
    (void)t;
    return (unsigned)__builtin_popcount(a ^ b);
}

static unsigned channel_class(const struct topo *t, uint32_t ch)
{
    return half_duplex(t) ? ch >> (t->dimension - 1) : ch % t->dimension;
}

static uint64_t channels_in_class(const struct topo *t, unsigned cls)
{
    (void)cls;
    return half_duplex(t) ? t->nodes / 2 : t->nodes;
}

static void class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    (void)t;
    snprintf(buf, size, "dim%u", cls);
}

static uint32_t translate(const struct topo *t, uint32_t x, uint32_t to)
{
    (void)t;
    return x ^ to;
}

/* Bisection: the highest dimension's digit (every dimension cuts the cube alike). */
static int bisection_side(const struct topo *t, uint32_t x) { return t->dimension ? (int)(x >> (t->dimension - 1) & 1) : -1; }

const struct topo_ops topo_hypercube = {
    .name = "hypercube",
    .traits = TOPO_BINARY_HYPERCUBE,
    .help = "binary n-cube of 2^dimension nodes (keys: dimension, links, cluster_dimension for clusters)",
    .build = build,
    .minimal_hops = minimal_hops,
    .distance = distance,
    .neighbors = neighbors,
    .senders = senders,
    .channel_class = channel_class,
    .channel_dimension = channel_class,
    .channels_in_class = channels_in_class,
    .class_name = class_name,
    .translate = translate,
    .bisection_side = bisection_side,
};
