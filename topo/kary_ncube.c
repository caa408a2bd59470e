/* k-ary n-cubes: k^n nodes x = sum d_i k^i; along dimension i node x links to the
 * nodes whose digit d_i differs by one, with end-around links (torus) or without
 * (mesh), in both directions or (torus only) in the + direction alone.
 *
 * Links are numbered per dimension: torus link i*N + x joins x and x + e_i (mod k);
 * mesh links are packed the same way over the nodes with d_i < k-1.  A full-duplex
 * link is two channels 2*link (+, from x up) and 2*link+1 (-); a half-duplex link is
 * one channel, its lower end (the one with d_i = j on link j -> j+1) at position 0.
 * One-way tori have channel i*N + x only.  Classes: dimension and direction.
 *
 * Routing (seed 004, §2.2.3): correct dimensions in increasing order; on a torus take
 * the shorter way round with X = (c_i - e_i) mod k: positive if X >= (k+1)/2, else
 * negative, so a tie (X = k/2) goes negative. */
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "../sim/core/params.h"
#include "lattice.h"
#include "topo.h"

/* k-ary n-cubes and tori: their own keys. */
struct kary_params {
    int64_t radix;
    bool wrap, bidirectional;
};

static const struct cfg_key kary_keys[] = {
    { "network", "radix", CFG_INT, offsetof(struct kary_params, radix), "8", 2, 1 << 30, false, NULL,
      "k-ary n-cube, torus: k nodes per ring; hyperx: routers per dimension; fat-tree: k, the switches' up and "
      "down ports" },
    { "network", "wrap", CFG_BOOL, offsetof(struct kary_params, wrap), "true", 0, 0, false, NULL,
      "k-ary n-cube: end-around links (torus) or none (mesh)" },
    { "network", "bidirectional", CFG_BOOL, offsetof(struct kary_params, bidirectional), "true", 0, 0, false, NULL,
      "k-ary n-cube: links both ways round each ring, or one way" },
};
static CFG_PARAM_TABLE(kary_param_table, struct kary_params, kary_keys);
/* The mesh has no keys of its own: it reads the k-ary n-cube's radix. */
static const char *const mesh_reads[] = { "network.radix", NULL };
static const struct cfg_param_table mesh_param_table = { NULL, 0, 0, NULL, mesh_reads };

/* This plug-in's own key values. */
static const struct kary_params *kary_params_of(const struct config *cfg)
{
    return cfg_params(cfg, &kary_param_table);
}

enum { KARY_MAX_DIMENSION = 30 };

struct kary {
    uint32_t k, n;
    bool wrap, both_ways, half;
    uint32_t pow[KARY_MAX_DIMENSION + 1];
    uint32_t links_per_dim;
};

static const struct kary *K(const struct topo *t) { return t->impl; }

static uint32_t link_of(const struct kary *g, uint32_t x, unsigned i) /* x is the link's lower end */
{
    if (g->wrap)
        return i * g->pow[g->n] + x;
    uint32_t p = g->pow[i], low = x % p, rest = x / p;
    return i * g->links_per_dim + low + p * (rest % g->k + (g->k - 1) * (rest / g->k));
}

static void link_ends(const struct kary *g, uint32_t link, unsigned *dim, uint32_t *lower)
{
    unsigned i = link / g->links_per_dim;
    uint32_t r = link % g->links_per_dim;
    *dim = i;
    if (g->wrap) {
        *lower = r;
        return;
    }
    uint32_t p = g->pow[i], low = r % p, rest = r / p;
    *lower = low + p * (rest % (g->k - 1) + g->k * (rest / (g->k - 1)));
}

/* The hop from x along dimension i, one step up (+) or down (-). */
static struct hop step(const struct topo *t, uint32_t x, unsigned i, bool up)
{
    const struct kary *g = K(t);
    uint32_t p = g->pow[i], d = digit_get(x, p, g->k);
    uint32_t nd = up ? (d + 1) % g->k : (d + g->k - 1) % g->k;
    uint32_t next = digit_set(x, p, g->k, nd);
    uint32_t lower = up ? x : next;
    uint32_t link = link_of(g, lower, i);
    uint32_t ch = !g->both_ways ? link : g->half ? link : 2 * link + !up;
    return (struct hop){ ch, next };
}

static bool build_lattice(struct topo *t, const struct config *cfg, bool wrap, bool both_ways, struct cfg_error *err)
{
    bool half;
    if (!topo_read_links(cfg, true, &half, err))
        return false;
    uint64_t k = (uint64_t)kary_params_of(cfg)->radix, n = (uint64_t)cfg->network.dimension;
    if (!wrap && !both_ways) {
        cfg_blame(cfg, "network.bidirectional", err, "a mesh (wrap = false) needs bidirectional = true: "
                                                       "one-way links without end-around links are not connected");
        return false;
    }
    if (half && !both_ways) {
        cfg_blame(cfg, "network.links", err, "half-duplex links need bidirectional = true");
        return false;
    }
    double nodes = 1;
    for (uint64_t i = 0; i < n && nodes <= TOPO_MAX_NODES; i++)
        nodes *= (double)k;
    unsigned per_node = both_ways ? 2 : 1;
    if (n > KARY_MAX_DIMENSION || nodes > TOPO_MAX_NODES) {
        cfg_blame(cfg, "network.dimension", err, "a %llu-ary %llu-cube is too large (at most 2^30 nodes)",
                  (unsigned long long)k, (unsigned long long)n);
        return false;
    }
    double channels = nodes * (double)n * per_node; /* numbered in 32 bits, with room to spare */
    if (channels > 4e9) {
        cfg_blame(cfg, "network.dimension", err,
                  "a %llu-ary %llu-cube has %.0f channels: too many (at most 4e9 channels)", (unsigned long long)k,
                  (unsigned long long)n, channels);
        return false;
    }
    if (both_ways && !half && 2 * n > TOPO_MAX_CLASSES) {
        cfg_blame(cfg, "network.dimension", err, "at most %d dimensions with full-duplex links",
                  TOPO_MAX_CLASSES / 2);
        return false;
    }
    struct kary *g = calloc(1, sizeof *g);
    if (!g) {
        cfg_blame(cfg, "network.topology", err, "out of memory");
        return false;
    }
    *g = (struct kary){ .k = (uint32_t)k, .n = (uint32_t)n, .wrap = wrap, .both_ways = both_ways, .half = half };
    g->pow[0] = 1;
    for (unsigned i = 1; i <= n; i++)
        g->pow[i] = g->pow[i - 1] * g->k;
    uint32_t N = g->pow[n];
    g->links_per_dim = wrap ? N : N / g->k * (g->k - 1);
    t->impl = g;
    t->lattice.radix = g->k;
    t->lattice.wrap = wrap;
    t->lattice.both_ways = both_ways;
    t->nodes = N;
    t->dimension = g->n;
    t->links = (uint64_t)g->links_per_dim * n;
    t->kind = half ? CHANNEL_HALF_DUPLEX : CHANNEL_LINK_DIRECTION;
    t->channels = (uint32_t)(both_ways && !half ? 2 * t->links : t->links);
    t->classes = both_ways && !half ? 2 * g->n : g->n;
    t->degree = t->max_hops = per_node * g->n;
    t->diameter = g->n * (wrap && both_ways ? g->k / 2 : g->k - 1);
    t->transitive = t->uniform_class_loads = wrap;
    snprintf(t->label, sizeof t->label, "%u-ary %u-cube %s%s", g->k, g->n,
             !wrap ? "mesh" : both_ways ? "torus" : "one-way torus", half ? ", half-duplex links" : "");
    return true;
}

static bool build_kary(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    return build_lattice(t, cfg, kary_params_of(cfg)->wrap, kary_params_of(cfg)->bidirectional, err);
}

static bool build_torus(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    if (!kary_params_of(cfg)->wrap || !kary_params_of(cfg)->bidirectional) {
        cfg_blame(cfg, kary_params_of(cfg)->wrap ? "network.bidirectional" : "network.wrap", err,
                  "a torus always wraps and has links both ways; use topology = kary-ncube for other variants");
        return false;
    }
    return build_lattice(t, cfg, true, true, err);
}

/* A mesh is a k-ary n-cube without end-around links, both ways: it reads radix only
 * (wrap and bidirectional are fixed, so a run's echo leaves them out). */
static bool build_mesh(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    if (!build_lattice(t, cfg, false, true, err))
        return false;
    size_t used = strlen(t->label); /* what the name stands for, where --describe and the report show it */
    snprintf(t->label + used, sizeof t->label - used, ", kary-ncube with wrap = false");
    return true;
}

static void free_kary(struct topo *t) { free(t->impl); }

/* Steps that shorten the distance along dimension i: 1 or, on a tie, 2 (negative first). */
static unsigned dimension_steps(const struct kary *g, uint32_t c, uint32_t e, bool *up)
{
    if (!g->both_ways) {
        up[0] = true;
        return 1;
    }
    if (!g->wrap) {
        up[0] = e > c;
        return 1;
    }
    uint32_t x = (c + g->k - e) % g->k; /* hops the negative way */
    if (2 * x == g->k) {
        up[0] = false;
        up[1] = true;
        return 2;
    }
    up[0] = 2 * x >= g->k + 1;
    return 1;
}

static unsigned minimal_hops(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    const struct kary *g = K(t);
    unsigned count = 0;
    for (unsigned i = 0; i < g->n && count < max; i++) {
        uint32_t c = digit_get(cur, g->pow[i], g->k), e = digit_get(dst, g->pow[i], g->k);
        if (c == e)
            continue;
        bool up[2];
        unsigned ways = dimension_steps(g, c, e, up);
        for (unsigned w = 0; w < ways && count < max; w++)
            out[count++] = step(t, cur, i, up[w]);
    }
    return count;
}

static unsigned distance(const struct topo *t, uint32_t a, uint32_t b)
{
    const struct kary *g = K(t);
    unsigned sum = 0;
    for (unsigned i = 0; i < g->n; i++) {
        uint32_t c = a % g->k, e = b % g->k;
        a /= g->k;
        b /= g->k;
        uint32_t up = (e + g->k - c) % g->k;
        if (!g->both_ways)
            sum += up;
        else if (!g->wrap)
            sum += c > e ? c - e : e - c;
        else
            sum += up < g->k - up ? up : g->k - up;
    }
    return sum;
}

static unsigned neighbors(const struct topo *t, uint32_t x, struct hop *out, unsigned max)
{
    const struct kary *g = K(t);
    unsigned count = 0;
    for (unsigned i = 0; i < g->n; i++) {
        uint32_t d = digit_get(x, g->pow[i], g->k);
        if ((g->wrap || d + 1 < g->k) && count < max)
            out[count++] = step(t, x, i, true);
        if (g->both_ways && (g->wrap || d > 0) && count < max)
            out[count++] = step(t, x, i, false);
    }
    return count;
}

static unsigned senders(const struct topo *t, uint32_t ch, uint32_t *out, unsigned max)
{
    const struct kary *g = K(t);
    bool directed = g->both_ways && !g->half;
    unsigned i;
    uint32_t lower;
    link_ends(g, directed ? ch / 2 : ch, &i, &lower);
    uint32_t upper = digit_set(lower, g->pow[i], g->k, (digit_get(lower, g->pow[i], g->k) + 1) % g->k);
    if (directed) {
        out[0] = ch % 2 ? upper : lower;
        return 1;
    }
    if (!g->half) { /* a one-way channel */
        out[0] = lower;
        return 1;
    }
    return topo_link_ends(out, max, lower, upper);
}

static unsigned channel_class(const struct topo *t, uint32_t ch)
{
    const struct kary *g = K(t);
    if (g->both_ways && !g->half)
        return (ch / 2) / g->links_per_dim * 2 + ch % 2;
    return ch / g->links_per_dim;
}

static unsigned channel_dimension(const struct topo *t, uint32_t ch)
{
    const struct kary *g = K(t);
    unsigned cls = channel_class(t, ch);
    return g->both_ways && !g->half ? cls / 2 : cls;
}

static uint64_t channels_in_class(const struct topo *t, unsigned cls)
{
    (void)cls;
    return K(t)->links_per_dim;
}

static void class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    const struct kary *g = K(t);
    if (g->both_ways && !g->half)
        snprintf(buf, size, "dim%u%c", cls / 2, cls % 2 ? '-' : '+');
    else
        snprintf(buf, size, "dim%u", cls);
}

static uint32_t translate(const struct topo *t, uint32_t x, uint32_t to)
{
    const struct kary *g = K(t);
    uint32_t y = 0;
    for (unsigned i = 0; i < g->n; i++) {
        y += (x % g->k + to % g->k) % g->k * g->pow[i];
        x /= g->k;
        to /= g->k;
    }
    return y;
}

/* Mesh: per dimension the mean |a - b| over all k^2 ordered pairs is (k^2 - 1)/(3k);
 * excluding the N pairs of a node with itself rescales by N/(N-1). */
static double mean_distance(const struct topo *t)
{
    const struct kary *g = K(t);
    if (g->wrap)
        return -1; /* not reached: topo_mean_distance() treats a transitive torus first */
    double k = g->k, N = t->nodes;
    return g->n * (k * k - 1) / (3 * k) * N / (N - 1);
}

/* Bisection: the highest dimension's digit below k/2 or not, for an even radix (each of
 * its rings crosses twice with wrap-around links, once without). */
static int bisection_side(const struct topo *t, uint32_t x)
{
    const struct kary *g = K(t);
    if (g->k % 2)
        return -1;
    return x / g->pow[g->n - 1] % g->k >= g->k / 2;
}

#define KARY_OPS                                                                                                \
    .free = free_kary, .minimal_hops = minimal_hops, .distance = distance, .neighbors = neighbors,              \
    .senders = senders, .channel_class = channel_class, .channel_dimension = channel_dimension,                 \
    .channels_in_class = channels_in_class, .class_name = class_name, .translate = translate,                   \
    .mean_distance = mean_distance, .bisection_side = bisection_side

const struct topo_ops topo_kary_ncube = {
    .name = "kary-ncube",
    .traits = TOPO_KARY_NCUBE,
    .help = "k-ary n-cube: radix^dimension nodes; torus or mesh (keys: radix, dimension, wrap, bidirectional, "
            "links)",
    .params = &kary_param_table,
    .build = build_kary,
    KARY_OPS,
};

const struct topo_ops topo_torus = {
    .name = "torus",
    .traits = TOPO_KARY_NCUBE, /* build_torus refuses wrap = false or bidirectional = false */
    .help = "k-ary n-cube with end-around links both ways (keys: radix, dimension, links)",
    .params = &kary_param_table,
    .build = build_torus,
    KARY_OPS,
};

const struct topo_ops topo_mesh = {
    .name = "mesh",
    .traits = TOPO_KARY_NCUBE,
    .help = "k-ary n-cube without end-around links, links both ways: kary-ncube with wrap = false (keys: radix, "
            "dimension, links)",
    .params = &mesh_param_table,
    .build = build_mesh,
    KARY_OPS,
};
