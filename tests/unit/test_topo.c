/* Every topology against breadth-first search and the seeds' closed forms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../topo/topo.h"
#include "../common/checks.h"
#include "../common/test.h"

/* Small instances of every family, including half-duplex and degenerate-but-valid ones. */
static const char *const instances[][8] = {
    { "network.topology=hypercube", "network.dimension=5", NULL },
    { "network.topology=hypercube", "network.dimension=4", "network.links=half-duplex", NULL },
    { "network.topology=torus", "network.radix=4", "network.dimension=3", NULL },
    { "network.topology=torus", "network.radix=4", "network.dimension=3", "network.links=half-duplex", NULL },
    { "network.topology=torus", "network.radix=5", "network.dimension=2", NULL },
    { "network.topology=torus", "network.radix=2", "network.dimension=3", NULL },
    { "network.topology=kary-ncube", "network.radix=5", "network.dimension=2", "network.bidirectional=false", NULL },
    { "network.topology=kary-ncube", "network.radix=4", "network.dimension=3", "network.wrap=false", NULL },
    { "network.topology=kary-ncube", "network.radix=3", "network.dimension=3", "network.wrap=false",
      "network.links=half-duplex", NULL },
    { "network.topology=bh-bh", "network.dimension=6", "network.cluster_dimension=3", NULL },
    { "network.topology=bh-bh", "network.dimension=5", "network.cluster_dimension=2", "network.links=half-duplex",
      NULL },
    { "network.topology=bh-br", "network.dimension=6", "network.cluster_dimension=2", NULL },
    { "network.topology=bh-br", "network.dimension=5", "network.cluster_dimension=2", "network.links=half-duplex",
      NULL },
    { "network.topology=bh-cc", "network.dimension=6", "network.cluster_dimension=3", NULL },
    { "network.topology=bh-cc", "network.dimension=5", "network.cluster_dimension=2", "network.links=half-duplex",
      NULL },
    { "network.topology=bh-ccc", "network.dimension=8", "network.cluster_dimension=2", NULL },
    { "network.topology=bh-ccc", "network.dimension=7", "network.cluster_dimension=1", "network.links=half-duplex",
      NULL },
    { "network.topology=ccc", "network.dimension=4", NULL },
    { "network.topology=ccc", "network.dimension=5", NULL },
    { "network.topology=ccc", "network.dimension=3", "network.links=half-duplex", NULL },
    { "network.topology=spanning-bus-hypercube", "network.width=4", "network.dimension=3", NULL },
    { "network.topology=spanning-bus-hypercube", "network.width=3", "network.dimension=4", NULL },
    { "network.topology=dual-bus-hypercube", "network.width=4", "network.dimension=3", NULL },
    { "network.topology=dual-bus-hypercube", "network.width=5", "network.dimension=3", NULL },
    { "network.topology=dual-bus-hypercube", "network.width=3", "network.dimension=2", NULL },
    { "network.topology=hyperx", "network.radix=4", "network.dimension=2", NULL },
    { "network.topology=hyperx", "network.radix=3", "network.dimension=3", "network.concentration=2", NULL },
    { "network.topology=hyperx", "network.radix=4", "network.dimension=2", "network.concentration=4", NULL },
    { "network.topology=fat-tree", "network.radix=2", "network.dimension=4", NULL },
    { "network.topology=fat-tree", "network.radix=4", "network.dimension=3", NULL },
    { "network.topology=fat-tree", "network.radix=3", "network.dimension=1", NULL },
    { "network.topology=slim-fly", "network.q=5", NULL },
    { "network.topology=slim-fly", "network.q=7", "network.concentration=2", NULL },
    { "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges", NULL },
    { "network.topology=graph", "network.graph_file=configs/graphs/irregular-6.anynet", "network.graph_format=anynet",
      NULL },
    /* last: routes_are_shortest_paths takes about 30 s here (all-pairs BFS on 1296 nodes
     * of 20 buses each), so make test routes the others and make validate this one */
    { "network.topology=dual-bus-hypercube", "network.width=6", "network.dimension=4", NULL },
};
enum { INSTANCES = sizeof instances / sizeof instances[0], ROUTED_FAST = INSTANCES - 1 };

static void build(struct topo *t, struct config *cfg, const char *const *settings)
{
    struct cfg_error err;
    test_config(cfg, settings);
    ck_assert_msg(topo_build(t, cfg, &err), "%s: %s", settings[0], err.message);
}

static bool has_member(const uint32_t *list, unsigned n, uint32_t x)
{
    for (unsigned i = 0; i < n; i++)
        if (list[i] == x)
            return true;
    return false;
}

/* Channels: numbered without gaps, each with the right senders, classes counted right,
 * degree as stated. */
START_TEST(channels_are_consistent)
{
    struct config cfg;
    struct topo t;
    build(&t, &cfg, instances[_i]);
    const char *name = instances[_i][0];
    struct hop *hops = malloc(t.max_hops * sizeof *hops);
    uint32_t *members = malloc((t.nodes + 1) * sizeof *members);
    uint64_t *per_class = calloc(TOPO_MAX_CLASSES, sizeof *per_class);
    bool *used = calloc(t.channels, sizeof *used);
    unsigned degree = 0;
    for (uint32_t x = 0; x < t.nodes; x++) {
        unsigned n = t.ops->neighbors(&t, x, hops, t.max_hops), links = 0;
        ck_assert_uint_le(n, t.max_hops);
        for (unsigned i = 0; i < n; i++) {
            ck_assert_uint_lt(hops[i].channel, t.channels);
            ck_assert_uint_lt(hops[i].next, t.nodes);
            ck_assert_msg(hops[i].next != x, "%s: node %u links to itself", name, x);
            used[hops[i].channel] = true;
            unsigned m = t.ops->senders(&t, hops[i].channel, members, t.nodes);
            ck_assert_msg(has_member(members, m, x), "%s: node %u not a sender of its channel %u", name, x,
                          hops[i].channel);
            if (t.kind != CHANNEL_LINK_DIRECTION)
                ck_assert_msg(has_member(members, m, hops[i].next), "%s: %u not on channel %u", name, hops[i].next,
                              hops[i].channel);
            bool first = true; /* links at x: distinct channels */
            for (unsigned j = 0; j < i; j++)
                first = first && hops[j].channel != hops[i].channel;
            links += first;
        }
        degree = links > degree ? links : degree;
    }
    ck_assert_uint_eq(degree, t.degree);
    for (uint32_t ch = 0; ch < t.channels; ch++) {
        ck_assert_msg(used[ch], "%s: channel %u is never used", name, ch);
        unsigned m = t.ops->senders(&t, ch, members, t.nodes);
        unsigned expected = t.kind == CHANNEL_LINK_DIRECTION ? 1 : t.kind == CHANNEL_HALF_DUPLEX ? 2 : m;
        ck_assert_uint_eq(m, expected);
        if (t.kind == CHANNEL_BUS)
            ck_assert_uint_ge(m, 2);
        unsigned cls = t.ops->channel_class(&t, ch);
        ck_assert_uint_lt(cls, t.classes);
        per_class[cls]++;
    }
    for (unsigned c = 0; c < t.classes; c++)
        ck_assert_msg(per_class[c] == t.ops->channels_in_class(&t, c), "%s: class %u has %llu channels, says %llu",
                      name, c, (unsigned long long)per_class[c],
                      (unsigned long long)t.ops->channels_in_class(&t, c));
    free(used);
    free(per_class);
    free(members);
    free(hops);
    topo_free(&t);
}
END_TEST

/* distance() is the BFS distance, the network is connected, the diameter and mean
 * distance are as stated, and minimal_hops() lists exactly the hops that get one
 * closer, the canonical one first, so every routed path is minimal and loop-free
 * (tests/common/checks.c). */
START_TEST(routes_are_shortest_paths)
{
    check_routes_are_shortest_paths(instances[_i]);
}
END_TEST

/* translate() is an automorphism that keeps distances and channel classes. */
START_TEST(translations_are_automorphisms)
{
    struct config cfg;
    struct topo t;
    build(&t, &cfg, instances[_i]);
    if (!t.transitive) {
        topo_free(&t);
        return;
    }
    struct hop a[64], b[64];
    for (uint32_t to = 0; to < t.nodes; to += 1 + t.nodes / 16) {
        ck_assert_uint_eq(t.ops->translate(&t, 0, to), to);
        for (uint32_t x = 0; x < t.nodes; x++) {
            uint32_t tx = t.ops->translate(&t, x, to);
            for (uint32_t y = 0; y < t.nodes; y += 3)
                ck_assert_uint_eq(t.ops->distance(&t, tx, t.ops->translate(&t, y, to)), t.ops->distance(&t, x, y));
            if (x == 0)
                continue;
            /* the canonical hop moves with the translation, in the same class */
            t.ops->minimal_hops(&t, 0, x, a, 1);
            t.ops->minimal_hops(&t, to, tx, b, 1);
            ck_assert_uint_eq(b[0].next, t.ops->translate(&t, a[0].next, to));
            ck_assert_uint_eq(t.ops->channel_class(&t, b[0].channel), t.ops->channel_class(&t, a[0].channel));
        }
    }
    topo_free(&t);
}
END_TEST

static void expect(const char *const *settings, uint64_t links, unsigned degree, unsigned diameter, double mean)
{
    struct config cfg;
    struct topo t;
    build(&t, &cfg, settings);
    ck_assert_msg(t.links == links, "%s: %llu links, expected %llu", settings[0], (unsigned long long)t.links,
                  (unsigned long long)links);
    ck_assert_uint_eq(t.degree, degree);
    ck_assert_uint_eq(t.diameter, diameter);
    if (mean > 0)
        ck_assert_double_eq_tol(topo_mean_distance(&t, 4096), mean, 1e-9 * mean);
    topo_free(&t);
}

/* Seed 004 §2.2, Table in note 004 §1.5: 4^3 networks, links, links per node and the
 * thesis's mean hops (two decimals: 2.29, 2.86, 3.05). */
START_TEST(thesis_networks_match_the_thesis)
{
    const char *sbh[] = { "network.topology=spanning-bus-hypercube", "network.width=4", "network.dimension=3", NULL };
    const char *dbh[] = { "network.topology=dual-bus-hypercube", "network.width=4", "network.dimension=3", NULL };
    const char *torus[] = { "network.topology=torus", "network.radix=4", "network.dimension=3",
                            "network.links=half-duplex", NULL };
    /* eq. 4.12: P(δ = n) = C(D,n) (W-1)^n / (W^D - 1) */
    double sbh_mean = (1 * 3 * 3 + 2 * 3 * 9 + 3 * 1 * 27) / 63.0;
    expect(sbh, 48, 3, 3, sbh_mean);
    ck_assert_double_eq_tol(sbh_mean, 2.29, 0.005);
    expect(dbh, 32, 2, 4, 0);
    expect(torus, 192, 6, 6, 0);
    struct config cfg;
    struct topo t;
    build(&t, &cfg, dbh);
    ck_assert_double_eq_tol(topo_mean_distance(&t, 4096), 2.86, 0.005);
    uint32_t m[8];
    ck_assert_uint_eq(t.ops->senders(&t, 0, m, 8), 4);
    topo_free(&t);
    build(&t, &cfg, torus);
    ck_assert_double_eq_tol(topo_mean_distance(&t, 4096), 3.05, 0.005);
    ck_assert_uint_eq(t.ops->senders(&t, 0, m, 8), 2);
    topo_free(&t);
}
END_TEST

/* App. A.2: for node (d2, d1, d0) the SBH buses are d1 + 4 d2, 16 + d0 + 4 d2,
 * 32 + d0 + 4 d1; the DBH secondary bus is 16 + 4 d0 + d2 (dimension 1) or
 * 16 + 4 d0 + d1 (dimension 2), primary d1 + 4 d2; members in order of the digit. */
START_TEST(bus_numbering_follows_the_thesis)
{
    const char *sbh[] = { "network.topology=spanning-bus-hypercube", "network.width=4", "network.dimension=3", NULL };
    const char *dbh[] = { "network.topology=dual-bus-hypercube", "network.width=4", "network.dimension=3", NULL };
    struct config cfg;
    struct topo s, d;
    build(&s, &cfg, sbh);
    struct config cfg2;
    build(&d, &cfg2, dbh);
    struct hop hops[16];
    for (uint32_t x = 0; x < 64; x++) {
        uint32_t d0 = x % 4, d1 = x / 4 % 4, d2 = x / 16;
        unsigned n = s.ops->neighbors(&s, x, hops, 16);
        ck_assert_uint_eq(n, 9);
        ck_assert_uint_eq(hops[0].channel, d1 + 4 * d2);
        ck_assert_uint_eq(hops[3].channel, 16 + d0 + 4 * d2);
        ck_assert_uint_eq(hops[6].channel, 32 + d0 + 4 * d1);
        n = d.ops->neighbors(&d, x, hops, 16);
        ck_assert_uint_eq(n, 6);
        ck_assert_uint_eq(hops[0].channel, d1 + 4 * d2);
        ck_assert_uint_eq(hops[3].channel, 16 + 4 * d0 + (d0 % 2 == 0 ? d2 : d1));
        ck_assert_uint_eq(d.ops->channel_class(&d, hops[3].channel), d0 % 2 + 1);
        uint32_t m[4];
        d.ops->senders(&d, hops[3].channel, m, 4);
        unsigned dim = d0 % 2 + 1;
        for (uint32_t v = 0; v < 4; v++)
            ck_assert_uint_eq(m[v], dim == 1 ? d0 + 4 * v + 16 * d2 : d0 + 4 * d1 + 16 * v);
    }
    topo_free(&s);
    topo_free(&d);
}
END_TEST

/* Seed 004 §2.2.3: along a dimension, X = (c - e) mod W; positive if X >= (W+1)/2,
 * else negative, so W = 4, X = 2 goes negative; the canonical hop is that one. */
START_TEST(torus_tie_goes_negative)
{
    const char *set[] = { "network.topology=torus", "network.radix=4", "network.dimension=1", NULL };
    struct config cfg;
    struct topo t;
    build(&t, &cfg, set);
    struct hop h[4];
    ck_assert_uint_eq(t.ops->minimal_hops(&t, 1, 3, h, 4), 2);
    ck_assert_uint_eq(h[0].next, 0); /* 1 -> 0 -> 3: negative */
    ck_assert_uint_eq(h[1].next, 2);
    ck_assert_uint_eq(t.ops->minimal_hops(&t, 1, 0, h, 4), 1);
    ck_assert_uint_eq(h[0].next, 0);
    ck_assert_uint_eq(t.ops->minimal_hops(&t, 3, 0, h, 4), 1);
    ck_assert_uint_eq(h[0].next, 0); /* X = 3 >= 2.5: positive, round the end */
    topo_free(&t);
}
END_TEST

/* Seed 000 eqs. (1), (6), (9), (11), (13) and the degree example T1. */
START_TEST(hierarchical_link_counts_match_seed_000)
{
    for (int D = 5; D <= 10; D++)
        for (int d = 1; d < D - 1; d++) {
            char dim[32], cd[48];
            snprintf(dim, sizeof dim, "network.dimension=%d", D);
            snprintf(cd, sizeof cd, "network.cluster_dimension=%d", d);
            double K = ldexp(1, D - d), cluster = d * ldexp(1, D - 1);
            const char *bh[] = { "network.topology=hypercube", dim, NULL };
            const char *bhbh[] = { "network.topology=bh-bh", dim, cd, NULL };
            const char *bhbr[] = { "network.topology=bh-br", dim, cd, NULL };
            const char *bhcc[] = { "network.topology=bh-cc", dim, cd, NULL };
            expect(bh, (uint64_t)(D * ldexp(1, D - 1)), (unsigned)D, (unsigned)D, -1);
            expect(bhbh, (uint64_t)(cluster + (D - d) * ldexp(1, D - d - 1)), (unsigned)D, (unsigned)(D + d), -1);
            expect(bhbr, (uint64_t)(ldexp(1, D - d) * (d * ldexp(1, d - 1) + 1)), (unsigned)d + 2,
                   (unsigned)(2 * d + K / 2), -1);
            if (K <= 256)
                expect(bhcc, (uint64_t)(cluster + ldexp(1, D - d - 1) * (K - 1)), (unsigned)(d + K - 1),
                       (unsigned)(2 * d + 1), -1);
        }
    /* BH/CCC, D_c = 4: eq. (13) d 2^(D-1) + 3 D_c 2^(D_c - 1); CCC(4) diameter 2*4 + 2 - 2 = 8 */
    const char *bhccc[] = { "network.topology=bh-ccc", "network.dimension=9", "network.cluster_dimension=3", NULL };
    expect(bhccc, 3 * 256 + 3 * 4 * 8, 6, 2 * 3 + 8, -1);
    /* T1: N = 1024, n = 16: 960 nodes of degree 4 and 64 of degree 10 */
    const char *t1[] = { "network.topology=bh-bh", "network.dimension=10", "network.cluster_dimension=4", NULL };
    struct config cfg;
    struct topo t;
    build(&t, &cfg, t1);
    struct hop hops[16];
    unsigned of_degree[11] = { 0 };
    for (uint32_t x = 0; x < t.nodes; x++)
        of_degree[t.ops->neighbors(&t, x, hops, 16)]++;
    ck_assert_uint_eq(of_degree[4], 960);
    ck_assert_uint_eq(of_degree[10], 64);
    topo_free(&t);
    /* Replicated level-2 links count r times (L_H(r) = d 2^(D-1) + r L_level2) and serve r times as fast. */
    const char *rep[] = { "network.topology=bh-bh", "network.dimension=6", "network.cluster_dimension=3",
                          "network.level2_replication=2", "network.bandwidth=1.5", NULL };
    build(&t, &cfg, rep);
    ck_assert_uint_eq(t.links, 3 * 32 + 2 * 12);
    ck_assert_double_eq(t.class_bandwidth[0], 3.0);
    ck_assert_double_eq(t.class_bandwidth[1], 1.5);
    ck_assert(!t.uniform_bandwidth);
    topo_free(&t);
}
END_TEST

/* Mean hops under seed 000's locality workload (self-messages counting 0) equal the
 * static eqs. (5), (8), (10), (12) exactly, and P(BH/BH) - P(BH) = (1 - α) d / 2. */
START_TEST(hierarchical_distances_match_seed_000)
{
    const int D = 7, d = 3;
    double N = ldexp(1, D), n = ldexp(1, d), K = N / n;
    for (double alpha = 0; alpha <= 1.0001; alpha += 0.25) {
        char a[48];
        snprintf(a, sizeof a, "workload.locality=%g", alpha);
        double p[4];
        const char *names[] = { "network.topology=hypercube", "network.topology=bh-bh", "network.topology=bh-br",
                                "network.topology=bh-cc" };
        for (int i = 0; i < 4; i++) {
            const char *set[] = { names[i], "network.dimension=7", "network.cluster_dimension=3",
                                  "workload.destination=cluster-locality", a, "workload.rate=0.01", NULL };
            struct config cfg;
            struct topo t;
            build(&t, &cfg, set);
            struct channel_loads l;
            struct model_in in;
            ck_assert(model_input(&in, &cfg, &t, &l));
            p[i] = l.mean_hops;
            model_input_free(&in);
            loads_free(&l);
            topo_free(&t);
        }
        double inter_bh = (D * N / 2 - d * n / 2) / (N - n);
        ck_assert_double_eq_tol(p[0], alpha * d / 2 + (1 - alpha) * inter_bh, 1e-9);
        ck_assert_double_eq_tol(p[1], alpha * d / 2 + (1 - alpha) * ((D + d) * N / 2 - d * n) / (N - n), 1e-9);
        ck_assert_double_eq_tol(p[2], alpha * d / 2 + (1 - alpha) * (d + K * K / (4 * (K - 1))), 1e-9);
        ck_assert_double_eq_tol(p[3], alpha * d / 2 + (1 - alpha) * (d + 1), 1e-9);
        ck_assert_double_eq_tol(p[1] - p[0], (1 - alpha) * d / 2, 1e-9);
    }
}
END_TEST

/* Seed 002 eq. (1) and §2.1: per-dimension mean distances, destinations other than
 * the source: n k_d N/(N-1) with k_d = (k-1)/2 (one-way torus), k/4 (two-way, k even),
 * (k - 1/k)/4 (two-way, k odd), (k - 1/k)/3 (mesh).  CCC(4): Wittie's formula equals
 * the BFS mean with self-pairs included (note 000 A6). */
START_TEST(kary_and_ccc_distances_match_closed_forms)
{
    const struct {
        const char *topo, *wrap, *both;
        int k, n;
        double kd;
    } cases[] = {
        { "kary-ncube", "true", "false", 8, 2, 3.5 },      { "kary-ncube", "true", "false", 5, 3, 2.0 },
        { "torus", "true", "true", 8, 2, 2.0 },            { "torus", "true", "true", 5, 3, (5 - 0.2) / 4 },
        { "kary-ncube", "false", "true", 6, 2, (6 - 1.0 / 6) / 3 },
        { "torus", "true", "true", 32, 2, 8.0 },           { "kary-ncube", "false", "true", 32, 2, (32 - 1.0 / 32) / 3 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char topo[64], k[32], n[32], w[32], b[40];
        snprintf(topo, sizeof topo, "network.topology=%s", cases[i].topo);
        snprintf(k, sizeof k, "network.radix=%d", cases[i].k);
        snprintf(n, sizeof n, "network.dimension=%d", cases[i].n);
        snprintf(w, sizeof w, "network.wrap=%s", cases[i].wrap);
        snprintf(b, sizeof b, "network.bidirectional=%s", cases[i].both);
        const char *set[] = { topo, k, n, w, b, NULL };
        struct config cfg;
        struct topo t;
        build(&t, &cfg, set);
        double N = t.nodes;
        ck_assert_double_eq_tol(topo_mean_distance(&t, 4096), cases[i].n * cases[i].kd * N / (N - 1), 1e-9);
        topo_free(&t);
    }
    const char *ccc[] = { "network.topology=ccc", "network.dimension=4", NULL };
    struct config cfg;
    struct topo t;
    build(&t, &cfg, ccc);
    double with_self = topo_mean_distance(&t, 4096) * (t.nodes - 1) / t.nodes;
    ck_assert_double_eq_tol(with_self, 7.0 / 4 * 4 - 3 + 5.0 / 8, 1e-9);
    topo_free(&t);
}
END_TEST

/* Impossible parameters are errors naming the key. */
START_TEST(impossible_networks_are_refused)
{
    const struct {
        const char *set[4];
        const char *key;
    } bad[] = {
        { { "network.topology=kary-ncube", "network.wrap=false", "network.bidirectional=false", NULL },
          "network.bidirectional" },
        { { "network.topology=torus", "network.wrap=false", NULL }, "network.wrap" },
        { { "network.topology=bh-ccc", "network.dimension=7", "network.cluster_dimension=3", NULL },
          "network.cluster_dimension" },
        { { "network.topology=bh-bh", "network.dimension=3", "network.cluster_dimension=4", NULL },
          "network.cluster_dimension" },
        { { "network.topology=bh-br", "network.dimension=4", "network.cluster_dimension=3", NULL },
          "network.dimension" },
        { { "network.topology=spanning-bus-hypercube", "network.links=half-duplex", NULL }, "network.links" },
        { { "network.topology=dual-bus-hypercube", "network.dimension=5", "network.width=3", NULL },
          "network.width" },
        { { "network.topology=ccc", "network.dimension=2", NULL }, "network.dimension" },
        { { "network.topology=torus", "network.radix=2000", "network.dimension=3", NULL }, "network.dimension" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct config cfg;
        struct topo t;
        struct cfg_error err;
        test_config(&cfg, bad[i].set);
        ck_assert_msg(!topo_build(&t, &cfg, &err), "%s accepted", bad[i].set[0]);
        ck_assert_str_eq(err.key, bad[i].key);
        topo_free(&t);
    }
}
END_TEST

Suite *topo_suite(void)
{
    Suite *s = suite_create("topo");
    TCase *tc = tcase_create("structure");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, channels_are_consistent, 0, INSTANCES);
    tcase_add_loop_test(tc, routes_are_shortest_paths, 0, ROUTED_FAST); /* the last: tests/validate */
    tcase_add_loop_test(tc, translations_are_automorphisms, 0, INSTANCES);
    tcase_add_test(tc, thesis_networks_match_the_thesis);
    tcase_add_test(tc, bus_numbering_follows_the_thesis);
    tcase_add_test(tc, torus_tie_goes_negative);
    tcase_add_test(tc, hierarchical_link_counts_match_seed_000);
    tcase_add_test(tc, hierarchical_distances_match_seed_000);
    tcase_add_test(tc, kary_and_ccc_distances_match_closed_forms);
    tcase_add_test(tc, impossible_networks_are_refused);
    suite_add_tcase(s, tc);
    return s;
}
