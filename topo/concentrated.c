/* Concentration on the seeds' lattices: a hypercube or a k-ary n-cube (torus, mesh)
 * of routers with network.concentration = c terminals each (the concentrated meshes of
 * many-core chips; Dally & Towles, ch. 5).  The family builds its lattice as for
 * concentration 1; concentrate() keeps it as the network of routers and adds the
 * terminals around it, numbered as topo/routers.h numbers them:
 *  - nodes: terminals 0..T-1 (T = c R, router-major: terminal i at router i / c), then
 *    router r of the lattice as node T + r;
 *  - channels: the lattice's 0..E-1 unchanged, then terminal i's injection channel
 *    E + i and ejection channel E + T + i; classes: the lattice's, then inject and eject;
 *  - routes: a terminal's only hop is its injection channel; a router hands a message
 *    for one of its terminals to that terminal's ejection channel, and otherwise takes
 *    the lattice's minimal hops towards the destination's router, canonical (dimension
 *    order) first: routing.algorithm = minimal is e-cube between routers.
 * The result has no dimensions on node ids (TOPO_NO_DIMENSIONS: ecube, whose digits are
 * node ids, is refused with a hint to minimal); a mesh's and a hypercube's dimension
 * order keeps no cyclic dependency (TOPO_MINIMAL_ACYCLIC), a torus's does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"

struct concentrated {
    struct topo lattice; /* the routers, as the family built them */
    uint32_t c, T, E;    /* terminals per router, terminals, lattice channels */
};

static const struct concentrated *C(const struct topo *t) { return t->impl; }

static bool is_terminal(const struct concentrated *k, uint32_t x) { return x < k->T; }
static uint32_t router_of(const struct concentrated *k, uint32_t x) { return is_terminal(k, x) ? x / k->c : x - k->T; }

static unsigned minimal_hops(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    const struct concentrated *k = C(t);
    if (max == 0)
        return 0;
    uint32_t r = router_of(k, cur), rd = router_of(k, dst);
    if (is_terminal(k, cur)) {
        out[0] = (struct hop){ k->E + cur, k->T + r };
        return 1;
    }
    if (r == rd) { /* dst is one of this router's terminals */
        out[0] = (struct hop){ k->E + k->T + dst, dst };
        return 1;
    }
    unsigned n = k->lattice.ops->minimal_hops(&k->lattice, r, rd, out, max);
    for (unsigned i = 0; i < n; i++)
        out[i].next += k->T;
    return n;
}

static unsigned distance(const struct topo *t, uint32_t a, uint32_t b)
{
    const struct concentrated *k = C(t);
    if (a == b)
        return 0;
    unsigned ends = is_terminal(k, a) + is_terminal(k, b);
    return k->lattice.ops->distance(&k->lattice, router_of(k, a), router_of(k, b)) + ends;
}

static unsigned neighbors(const struct topo *t, uint32_t x, struct hop *out, unsigned max)
{
    const struct concentrated *k = C(t);
    if (max == 0)
        return 0;
    if (is_terminal(k, x)) {
        out[0] = (struct hop){ k->E + x, k->T + x / k->c };
        return 1;
    }
    uint32_t r = x - k->T;
    unsigned n = k->lattice.ops->neighbors(&k->lattice, r, out, max);
    for (unsigned i = 0; i < n; i++)
        out[i].next += k->T;
    for (uint32_t j = 0; j < k->c && n < max; j++) {
        uint32_t term = r * k->c + j;
        out[n++] = (struct hop){ k->E + k->T + term, term };
    }
    return n;
}

static unsigned senders(const struct topo *t, uint32_t ch, uint32_t *out, unsigned max)
{
    const struct concentrated *k = C(t);
    if (max == 0)
        return 0;
    if (ch >= k->E) {
        uint32_t term = (ch - k->E) % k->T;
        out[0] = ch < k->E + k->T ? term : k->T + term / k->c;
        return 1;
    }
    unsigned n = k->lattice.ops->senders(&k->lattice, ch, out, max);
    for (unsigned i = 0; i < n; i++)
        out[i] += k->T;
    return n;
}

static unsigned channel_class(const struct topo *t, uint32_t ch)
{
    const struct concentrated *k = C(t);
    if (ch >= k->E)
        return k->lattice.classes + (ch >= k->E + k->T);
    return k->lattice.ops->channel_class(&k->lattice, ch);
}

/* Terminal links lie past every dimension. */
static unsigned channel_dimension(const struct topo *t, uint32_t ch)
{
    const struct concentrated *k = C(t);
    if (ch >= k->E)
        return k->lattice.dimension + (ch >= k->E + k->T);
    return k->lattice.ops->channel_dimension ? k->lattice.ops->channel_dimension(&k->lattice, ch)
                                             : k->lattice.ops->channel_class(&k->lattice, ch);
}

static uint64_t channels_in_class(const struct topo *t, unsigned cls)
{
    const struct concentrated *k = C(t);
    if (cls >= k->lattice.classes)
        return k->T;
    return k->lattice.ops->channels_in_class(&k->lattice, cls);
}

static void class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    const struct concentrated *k = C(t);
    if (cls >= k->lattice.classes)
        snprintf(buf, size, "%s", cls == k->lattice.classes ? "inject" : "eject");
    else
        k->lattice.ops->class_name(&k->lattice, cls, buf, size);
}

/* Over ordered pairs of distinct terminals: two terminal links, plus the lattice's
 * distance between different routers (c^2 R (R - 1) of the T (T - 1) pairs). */
static double mean_distance(const struct topo *t)
{
    const struct concentrated *k = C(t);
    double R = k->lattice.nodes, T = k->T, between = topo_mean_distance(&k->lattice, UINT32_MAX);
    if (T < 2)
        return 0;
    return 2 + (double)k->c * k->c * R * (R - 1) * between / (T * (T - 1));
}

static int bisection_side(const struct topo *t, uint32_t x)
{
    const struct concentrated *k = C(t);
    if (!k->lattice.ops->bisection_side)
        return -1;
    return k->lattice.ops->bisection_side(&k->lattice, router_of(k, x));
}

static void free_concentrated(struct topo *t)
{
    struct concentrated *k = t->impl;
    if (k)
        topo_free(&k->lattice);
    free(k);
    t->impl = NULL;
}

#define CONCENTRATED_OPS(var, family, acyclic)                                                                    \
    static const struct topo_ops var = {                                                                        \
        .name = family,                                                                                         \
        .help = "(" family " with network.concentration > 1: built by topo/concentrated.c)",                   \
        .traits = TOPO_NO_DIMENSIONS | TOPO_OWN_TERMINALS | (acyclic ? TOPO_MINIMAL_ACYCLIC : 0),               \
        .free = free_concentrated,                                                                              \
        .minimal_hops = minimal_hops,                                                                           \
        .distance = distance,                                                                                   \
        .neighbors = neighbors,                                                                                 \
        .senders = senders,                                                                                     \
        .channel_class = channel_class,                                                                         \
        .channel_dimension = channel_dimension,                                                                 \
        .channels_in_class = channels_in_class,                                                                 \
        .class_name = class_name,                                                                               \
        .mean_distance = mean_distance,                                                                         \
        .bisection_side = bisection_side,                                                                       \
    }
CONCENTRATED_OPS(hypercube_ops, "hypercube", true);
CONCENTRATED_OPS(torus_ops, "torus", false);
CONCENTRATED_OPS(mesh_ops, "mesh", true);
CONCENTRATED_OPS(kary_ring_ops, "kary-ncube", false);
CONCENTRATED_OPS(kary_open_ops, "kary-ncube", true);

/* The table named as the lattice's family, for messages that name the topology. */
static const struct topo_ops *ops_for(const struct topo *lattice, bool cyclic)
{
    static const struct topo_ops *const named[] = { &hypercube_ops, &torus_ops, &mesh_ops };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strcmp(named[i]->name, lattice->ops->name) == 0)
            return named[i];
    return cyclic ? &kary_ring_ops : &kary_open_ops;
}

const struct topo *topo_router_lattice(const struct topo *t, uint32_t *first_router)
{
    static const struct topo_ops *const wrappers[] = { &hypercube_ops, &torus_ops, &mesh_ops, &kary_ring_ops,
                                                       &kary_open_ops };
    for (size_t i = 0; i < sizeof wrappers / sizeof wrappers[0]; i++)
        if (t->ops == wrappers[i]) {
            *first_router = C(t)->T;
            return &C(t)->lattice;
        }
    return NULL;
}

bool topo_concentrate(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    uint64_t c = (uint64_t)cfg->network.concentration;
    if (t->kind != CHANNEL_LINK_DIRECTION) {
        cfg_blame(cfg, "network.concentration", err, "terminals of their own need full-duplex links "
                  "(network.links = full-duplex)");
        return false;
    }
    if (t->classes + 2 > TOPO_MAX_CLASSES || (uint64_t)t->nodes * c + t->nodes > TOPO_MAX_NODES ||
        (uint64_t)t->channels + 2 * (uint64_t)t->nodes * c > UINT32_MAX) {
        cfg_blame(cfg, "network.concentration", err, "%llu terminals per router make too large a network",
                  (unsigned long long)c);
        return false;
    }
    struct concentrated *k = calloc(1, sizeof *k);
    if (!k) {
        cfg_blame(cfg, "network.topology", err, "out of memory");
        return false;
    }
    k->lattice = *t;
    k->c = (uint32_t)c;
    k->T = t->nodes * k->c;
    k->E = t->channels;
    const struct topo *l = &k->lattice;
    /* A lattice's rings close on a torus: its dimension order then has cyclic dependencies. */
    bool cyclic = l->lattice.radix > 2 && l->lattice.wrap;
    struct topo out = { 0 };
    out.ops = ops_for(l, cyclic);
    out.terminals = k->T;
    out.routers = l->nodes;
    out.nodes = k->T + l->nodes;
    out.channels = k->E + 2 * k->T;
    out.links = l->links + k->T;
    out.degree = l->degree + k->c;
    out.router_degree = l->degree;
    out.max_hops = l->max_hops + k->c;
    out.diameter = l->diameter + 2;
    out.router_diameter = l->diameter;
    out.dimension = l->dimension;
    out.classes = l->classes + 2;
    out.kind = CHANNEL_LINK_DIRECTION;
    out.group_terminals = k->c; /* a router's terminals */
    out.uniform_bandwidth = l->uniform_bandwidth;
    memcpy(out.class_bandwidth, l->class_bandwidth, sizeof out.class_bandwidth);
    out.class_bandwidth[l->classes] = out.class_bandwidth[l->classes + 1] = cfg->network.bandwidth;
    if (out.uniform_bandwidth && cfg->network.bandwidth != l->class_bandwidth[0])
        out.uniform_bandwidth = false;
    snprintf(out.label, sizeof out.label, "%.150s, %u terminals per router", l->label, k->c);
    out.impl = k;
    *t = out;
    return true;
}
