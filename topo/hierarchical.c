/* Two-level hierarchical networks of seed 000 (Dandamudi & Eager): K clusters, each
 * a binary d-cube of n = 2^d nodes, whose interface nodes (local id 0) are joined by
 * a level-2 network: a (D-d)-cube (BH/BH), a bidirectional ring (BH/BR), a complete
 * connection (BH/CC) or cube-connected cycles (BH/CCC, K = D_c 2^D_c).
 *
 * Node g = c*n + l (cluster c, local id l).  Channels: the cluster links first, then
 * the level-2 links (full duplex: N*d + c*degree2 + slot; half duplex: one per
 * link).  Classes: 0 is level 2, j = 1..d are the j-level cluster links (the link
 * between local ids of weights j-1 and j, j hops from the interface node: Fig. 10).
 * Level-2 channels serve at level2_bandwidth * level2_replication (one faster server
 * for r parallel wires, note 000 §2.3) and count r times in `links`.
 *
 * Routing (note 000 §2.1): inside a cluster, dimension order on the local bits; to
 * another cluster, up to the interface node, across level 2 by the level-2 graph's
 * canonical rule, then down.  Every such path is a shortest path of the whole graph. */
#include <stdio.h>
#include <stdlib.h>
#include <float.h>
#include <stddef.h>

#include "../sim/core/params.h"
#include "graphs.h"
#include "lattice.h"
#include "topo.h"

/* Hierarchical networks: clusters of 2^d nodes joined by level-2 links.
 * network.cluster_dimension is also the hypercube's cluster size for
 * cluster-locality (read by name there). */
struct hierarchical_params {
    int64_t cluster_dimension;
    double level2_bandwidth;
    int64_t level2_replication;
};

static const struct cfg_key hierarchical_keys[] = {
    { "network", "cluster_dimension", CFG_INT, offsetof(struct hierarchical_params, cluster_dimension), "3", 0, 64, false, NULL,
      "d: clusters of 2^d nodes (hierarchical networks; hypercube clusters for cluster-locality)" },
    { "network", "level2_bandwidth", CFG_REAL, offsetof(struct hierarchical_params, level2_bandwidth), "0", 0, DBL_MAX, false, NULL,
      "hierarchical: bandwidth of one level-2 wire (0: same as bandwidth)" },
    { "network", "level2_replication", CFG_INT, offsetof(struct hierarchical_params, level2_replication), "1", 1, 1 << 20, false, NULL,
      "hierarchical: r parallel wires per level-2 link, one server r times as fast, counted r times in "
      "links" },
};
static CFG_PARAM_TABLE(hierarchical_param_table, struct hierarchical_params, hierarchical_keys);

/* This plug-in's own key values. */
static const struct hierarchical_params *hierarchical_params_of(const struct config *cfg)
{
    return cfg_params(cfg, &hierarchical_param_table);
}

struct hin {
    unsigned d;       /* cluster dimension */
    uint32_t n;       /* nodes per cluster */
    bool half;
    uint32_t cluster_channels;
    struct graph level2;
};

static const struct hin *H(const struct topo *t) { return t->impl; }

static uint32_t cluster_channel(const struct topo *t, uint32_t g, unsigned k)
{
    const struct hin *h = H(t);
    return h->half ? (k << (t->dimension - 1)) + bit_remove(g, k) : g * h->d + k;
}

static uint32_t level2_channel(const struct hin *h, uint32_t c, unsigned slot)
{
    return h->cluster_channels + (h->half ? graph_link(&h->level2, c, slot) : c * h->level2.degree + slot);
}

static unsigned popcount(uint32_t x) { return (unsigned)__builtin_popcount(x); }

static bool build(struct topo *t, const struct config *cfg, struct cfg_error *err, enum graph_kind kind)
{
    bool half;
    if (!topo_read_links(cfg, true, &half, err))
        return false;
    int64_t D = cfg->network.dimension, d = hierarchical_params_of(cfg)->cluster_dimension;
    if (D > 30) {
        cfg_blame(cfg, "network.dimension", err, "at most 30 (2^30 nodes)");
        return false;
    }
    if (d > D) {
        cfg_blame(cfg, "network.cluster_dimension", err, "the cluster dimension %lld exceeds the dimension %lld",
                  (long long)d, (long long)D);
        return false;
    }
    uint32_t K = 1u << (D - d), size = K;
    if (kind == GRAPH_HYPERCUBE)
        size = (uint32_t)(D - d);
    if (kind == GRAPH_CCC) { /* K = D_c 2^D_c */
        size = 0;
        for (uint32_t dc = 3; dc <= GRAPH_CCC_MAX_DIMENSION; dc++)
            if ((uint64_t)dc << dc == K)
                size = dc;
        if (!size) {
            cfg_blame(cfg, "network.cluster_dimension", err,
                      "bh-ccc needs 2^(dimension - cluster_dimension) = D_c 2^D_c clusters: dimension - "
                      "cluster_dimension = 6 (D_c = 4) or 11 (D_c = 8); it is %lld",
                      (long long)(D - d));
            return false;
        }
    }
    struct hin *h = calloc(1, sizeof *h);
    char why[128];
    if (!h || !graph_init(&h->level2, kind, size, why, sizeof why)) {
        cfg_blame(cfg, "network.dimension", err, "%s", h ? why : "out of memory");
        free(h);
        return false;
    }
    h->d = (unsigned)d;
    h->n = 1u << d;
    h->half = half;
    t->impl = h;
    t->dimension = (unsigned)D;
    t->nodes = 1u << D;
    uint64_t cluster_links = (uint64_t)d << (D > 0 ? D - 1 : 0);
    h->cluster_channels = (uint32_t)(half ? cluster_links : (uint64_t)t->nodes * h->d);
    uint64_t level2_channels = half ? h->level2.links : (uint64_t)K * h->level2.degree;
    if (h->cluster_channels + level2_channels > UINT32_MAX - 1) {
        cfg_blame(cfg, "network.dimension", err, "too many channels");
        free(h);
        t->impl = NULL;
        return false;
    }
    t->channels = (uint32_t)(h->cluster_channels + level2_channels);
    t->kind = half ? CHANNEL_HALF_DUPLEX : CHANNEL_LINK_DIRECTION;
    t->links = cluster_links + (uint64_t)hierarchical_params_of(cfg)->level2_replication * h->level2.links;
    t->degree = h->d + h->level2.degree; /* one link per level-2 slot at an interface node */
    t->max_hops = h->d + h->level2.degree;
    t->diameter = K > 1 ? 2 * h->d + h->level2.diameter : h->d;
    t->classes = h->d + 1;
    t->cluster_size = h->n;
    double level2_bw = hierarchical_params_of(cfg)->level2_bandwidth > 0 ? hierarchical_params_of(cfg)->level2_bandwidth : cfg->network.bandwidth;
    t->class_bandwidth[TOPO_LEVEL2_CLASS] = level2_bw * (double)hierarchical_params_of(cfg)->level2_replication;
    t->uniform_bandwidth = t->class_bandwidth[0] == cfg->network.bandwidth;
    static const char *const names[] = { "BH/BH", "BH/BR", "BH/CC", "BH/CCC" };
    snprintf(t->label, sizeof t->label, "%s, D=%u d=%u: %u clusters of %u, level-2 bandwidth %g%s", names[kind],
             t->dimension, h->d, K, h->n, t->class_bandwidth[0], half ? ", half-duplex links" : "");
    return true;
}

static void free_hin(struct topo *t)
{
    struct hin *h = t->impl;
    if (h)
        graph_free(&h->level2);
    free(h);
}

static unsigned minimal_hops(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    const struct hin *h = H(t);
    uint32_t cc = cur >> h->d, cd = dst >> h->d, lc = cur & (h->n - 1), ld = dst & (h->n - 1);
    unsigned count = 0;
    if (cc == cd || lc != 0) { /* inside the destination cluster, or up to the interface node */
        uint32_t diff = cc == cd ? lc ^ ld : lc;
        for (; diff && count < max; diff &= diff - 1) {
            unsigned k = (unsigned)__builtin_ctz(diff);
            out[count++] = (struct hop){ cluster_channel(t, cur, k), cur ^ (1u << k) };
        }
        return count;
    }
    unsigned slots[GRAPH_CCC_MAX_DIMENSION + 4];
    unsigned m = graph_minimal_slots(&h->level2, cc, cd, slots);
    for (unsigned i = 0; i < m && count < max; i++)
        out[count++] = (struct hop){ level2_channel(h, cc, slots[i]), graph_neighbor(&h->level2, cc, slots[i]) << h->d };
    return count;
}

static unsigned distance(const struct topo *t, uint32_t a, uint32_t b)
{
    const struct hin *h = H(t);
    uint32_t ca = a >> h->d, cb = b >> h->d, mask = h->n - 1;
    if (ca == cb)
        return popcount((a ^ b) & mask);
    return popcount(a & mask) + graph_distance(&h->level2, ca, cb) + popcount(b & mask);
}

static unsigned neighbors(const struct topo *t, uint32_t x, struct hop *out, unsigned max)
{
    const struct hin *h = H(t);
    unsigned count = 0;
    for (unsigned k = 0; k < h->d && count < max; k++)
        out[count++] = (struct hop){ cluster_channel(t, x, k), x ^ (1u << k) };
    if ((x & (h->n - 1)) == 0)
        for (unsigned s = 0; s < h->level2.degree && count < max; s++)
            out[count++] = (struct hop){ level2_channel(h, x >> h->d, s), graph_neighbor(&h->level2, x >> h->d, s)
                                                                              << h->d };
    return count;
}

static unsigned senders(const struct topo *t, uint32_t ch, uint32_t *out, unsigned max)
{
    const struct hin *h = H(t);
    if (!h->half) {
        if (ch < h->cluster_channels)
            out[0] = ch / h->d;
        else
            out[0] = (ch - h->cluster_channels) / h->level2.degree << h->d;
        return 1;
    }
    uint32_t a, b;
    if (ch < h->cluster_channels) {
        unsigned k = ch >> (t->dimension - 1);
        a = bit_insert(ch & ((1u << (t->dimension - 1)) - 1), k, 0);
        b = a | 1u << k;
    } else {
        graph_link_ends(&h->level2, ch - h->cluster_channels, &a, &b);
        a <<= h->d;
        b <<= h->d;
    }
    return topo_link_ends(out, max, a, b);
}

static unsigned channel_class(const struct topo *t, uint32_t ch)
{
    const struct hin *h = H(t);
    if (ch >= h->cluster_channels)
        return TOPO_LEVEL2_CLASS;
    uint32_t x;
    unsigned k;
    if (h->half) {
        k = ch >> (t->dimension - 1);
        x = bit_insert(ch & ((1u << (t->dimension - 1)) - 1), k, 0);
    } else {
        k = ch % h->d;
        x = ch / h->d;
    }
    uint32_t l = x & (h->n - 1);
    unsigned j1 = popcount(l), j2 = popcount(l ^ (1u << k));
    return j1 > j2 ? j1 : j2;
}

static uint64_t channels_in_class(const struct topo *t, unsigned cls)
{
    const struct hin *h = H(t);
    uint64_t clusters = t->nodes >> h->d;
    if (cls == 0)
        return t->channels - h->cluster_channels;
    /* edges of a d-cube between weights j-1 and j: C(d, j) * j */
    uint64_t c = 1;
    for (unsigned i = 0; i < cls; i++)
        c = c * (h->d - i) / (i + 1);
    return clusters * c * cls * (h->half ? 1 : 2);
}

static void class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    (void)t;
    if (cls == TOPO_LEVEL2_CLASS)
        snprintf(buf, size, "level2");
    else
        snprintf(buf, size, "cluster-j%u", cls);
}

/* Over ordered pairs of distinct nodes: intracluster pairs contribute the d-cube's
 * distances; an intercluster pair (s, t) contributes |s| + level-2 distance + |t|,
 * where |x| is the local id's weight (its distance to the interface node). */
static double mean_distance(const struct topo *t)
{
    const struct hin *h = H(t);
    double n = h->n, K = (double)(t->nodes >> h->d), N = t->nodes;
    double weights = h->d * n / 2; /* sum of |l| over a cluster: d 2^(d-1) */
    double intra = K * n * weights;
    double inter = K * (K - 1) * 2 * n * weights + n * n * K * h->level2.distance_sum;
    return (intra + inter) / (N * (N - 1));
}

static bool build_bh(struct topo *t, const struct config *cfg, struct cfg_error *e)
{
    return build(t, cfg, e, GRAPH_HYPERCUBE);
}
static bool build_br(struct topo *t, const struct config *cfg, struct cfg_error *e)
{
    return build(t, cfg, e, GRAPH_RING);
}
static bool build_cc(struct topo *t, const struct config *cfg, struct cfg_error *e)
{
    return build(t, cfg, e, GRAPH_COMPLETE);
}
static bool build_ccc(struct topo *t, const struct config *cfg, struct cfg_error *e)
{
    return build(t, cfg, e, GRAPH_CCC);
}

#define HIN_OPS                                                                                                 \
    .free = free_hin, .minimal_hops = minimal_hops, .distance = distance, .neighbors = neighbors,             \
    .senders = senders, .channel_class = channel_class, .channels_in_class = channels_in_class,               \
    .class_name = class_name, .mean_distance = mean_distance
#define HIN_KEYS "(keys: dimension D, cluster_dimension d, bandwidth, level2_bandwidth, level2_replication, links)"

const struct topo_ops topo_bh_bh = {
    .name = "bh-bh",
    .traits = TOPO_HYPERCUBE_CLUSTERS | TOPO_LEVEL2_HYPERCUBE,
    .help = "hypercube clusters of 2^d nodes, interface nodes joined by a (D-d)-cube " HIN_KEYS,
    .params = &hierarchical_param_table,
    .build = build_bh,
    HIN_OPS,
};
const struct topo_ops topo_bh_br = {
    .name = "bh-br",
    .traits = TOPO_HYPERCUBE_CLUSTERS | TOPO_LEVEL2_RING,
    .help = "hypercube clusters, interface nodes on a bidirectional ring " HIN_KEYS,
    .params = &hierarchical_param_table,
    .build = build_br,
    HIN_OPS,
};
const struct topo_ops topo_bh_cc = {
    .name = "bh-cc",
    .traits = TOPO_HYPERCUBE_CLUSTERS | TOPO_LEVEL2_COMPLETE,
    .help = "hypercube clusters, interface nodes completely connected " HIN_KEYS,
    .params = &hierarchical_param_table,
    .build = build_cc,
    HIN_OPS,
};
const struct topo_ops topo_bh_ccc = {
    .name = "bh-ccc",
    .traits = TOPO_HYPERCUBE_CLUSTERS | TOPO_LEVEL2_CCC,
    .help = "hypercube clusters, interface nodes joined by cube-connected cycles, 2^(D-d) = D_c 2^D_c " HIN_KEYS,
    .params = &hierarchical_param_table,
    .build = build_ccc,
    HIN_OPS,
};
