/* Binary n-cube: node x links to x ^ (1 << i) for each dimension i.  Channel
 * x*n + i is the direction x -> x ^ (1 << i); its class is the dimension i.  The
 * canonical order corrects the lowest differing dimension first (e-cube). */
#include <stdio.h>

#include "topo.h"

enum { HYPERCUBE_MAX_DIMENSION = 20 }; /* 2^20 nodes, 20M channels: about 1 GiB of state */

static bool build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    if (cfg->network.dimension > HYPERCUBE_MAX_DIMENSION) {
        cfg_blame(cfg, KEY_NETWORK_DIMENSION, err, "a hypercube of dimension %lld is too large (at most %d)",
                  (long long)cfg->network.dimension, HYPERCUBE_MAX_DIMENSION);
        return false;
    }
    t->dimension = (unsigned)cfg->network.dimension;
    t->nodes = 1u << t->dimension;
    t->channels = t->nodes * t->dimension;
    t->classes = t->dimension;
    return true;
}

static unsigned minimal_hops(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    uint32_t diff = cur ^ dst;
    unsigned n = 0;
    while (diff && n < max) {
        unsigned dim = (unsigned)__builtin_ctz(diff);
        out[n].channel = cur * t->dimension + dim;
        out[n].next = cur ^ (1u << dim);
        n++;
        diff &= diff - 1;
    }
    return n;
}

static unsigned distance(const struct topo *t, uint32_t a, uint32_t b)
{
    (void)t;
    return (unsigned)__builtin_popcount(a ^ b);
}

static unsigned channel_class(const struct topo *t, uint32_t channel) { return channel % t->dimension; }

static uint64_t channels_in_class(const struct topo *t, unsigned cls)
{
    (void)cls;
    return t->nodes;
}

static void class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    (void)t;
    snprintf(buf, size, "dim%u", cls);
}

const struct topo_ops topo_hypercube = {
    .name = "hypercube",
    .help = "binary n-cube of 2^dimension nodes, one channel per link direction",
    .uniform_class_loads = true,
    .build = build,
    .minimal_hops = minimal_hops,
    .distance = distance,
    .channel_class = channel_class,
    .channels_in_class = channels_in_class,
    .class_name = class_name,
};
