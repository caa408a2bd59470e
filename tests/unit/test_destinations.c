/* Destination patterns: draws against the stated distribution (chi-square, fixed
 * seed), exact probabilities, and parameters a topology cannot honour. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>

#include "../../workloads/workload.h"
#include "../common/test.h"

struct setup {
    struct config cfg;
    struct topo t;
    struct destinations d;
};

static void setup(struct setup *s, const char *const *settings)
{
    struct cfg_error err;
    test_config(&s->cfg, settings);
    ck_assert_msg(topo_build(&s->t, &s->cfg, &err), "%s", err.message);
    ck_assert_msg(dest_init(&s->d, &s->cfg, &s->t, &err), "%s", err.message);
}

static void teardown(struct setup *s)
{
    dest_free(&s->d);
    topo_free(&s->t);
}

/* How many destinations `src` may draw. */
static uint32_t support(const struct setup *s, uint32_t src)
{
    uint32_t count = 0;
    for (uint32_t y = 0; y < s->t.nodes; y++)
        count += s->d.ops->prob(&s->d, src, y) > 0;
    return count;
}

/* prob() sums to one from every source; draws from `src` pass a chi-square test
 * against prob() (cells with probability 0 must never be drawn). */
static void check_distribution(struct setup *s, uint32_t src, unsigned draws)
{
    const struct topo *t = &s->t;
    for (uint32_t x = 0; x < t->nodes; x++) {
        double sum = 0;
        for (uint32_t y = 0; y < t->nodes; y++)
            sum += s->d.ops->prob(&s->d, x, y);
        ck_assert_double_eq_tol(sum, 1.0, 1e-12);
    }
    unsigned *count = calloc(t->nodes, sizeof *count);
    struct rng r;
    rng_seed_stream(&r, 12345, RNG_TEST, src);
    for (unsigned i = 0; i < draws; i++) {
        uint32_t y = s->d.ops->pick(&s->d, src, &r);
        ck_assert_uint_lt(y, t->nodes);
        count[y]++;
    }
    double chi2 = 0;
    unsigned cells = 0;
    for (uint32_t y = 0; y < t->nodes; y++) {
        double p = s->d.ops->prob(&s->d, src, y);
        if (p == 0) {
            ck_assert_msg(count[y] == 0, "node %u drawn %u times with probability 0", y, count[y]);
            continue;
        }
        double e = p * draws;
        chi2 += (count[y] - e) * (count[y] - e) / e;
        cells++;
    }
    double q = gsl_cdf_chisq_Q(chi2, cells - 1);
    ck_assert_msg(q > 0.001, "chi-square %.1f on %u cells: p = %.2g", chi2, cells - 1, q);
    free(count);
}

/* Seed 000: own cluster (source included) with probability α, else uniform outside. */
START_TEST(cluster_locality_follows_seed_000)
{
    const char *bhbh[] = { "network.topology=bh-bh", "network.dimension=5", "network.cluster_dimension=2",
                           "workload.destination=cluster-locality", "workload.locality=0.7", NULL };
    struct setup s;
    setup(&s, bhbh);
    ck_assert_double_eq_tol(s.d.ops->prob(&s.d, 5, 5), 0.7 / 4, 1e-15);
    ck_assert_double_eq_tol(s.d.ops->prob(&s.d, 5, 4), 0.7 / 4, 1e-15);
    ck_assert_double_eq_tol(s.d.ops->prob(&s.d, 5, 8), 0.3 / 28, 1e-15);
    check_distribution(&s, 5, 200000);
    teardown(&s);
    const char *cube[] = { "network.topology=hypercube", "network.dimension=6", "network.cluster_dimension=3",
                           "workload.destination=cluster-locality", "workload.locality=0.5", NULL };
    setup(&s, cube);
    ck_assert_uint_eq(s.t.cluster_size, 8);
    check_distribution(&s, 63, 200000);
    teardown(&s);
}
END_TEST

/* Uniform over the nodes exactly h hops away: C(D,h)(W-1)^h of them on an SBH. */
START_TEST(fixed_hops_is_uniform_at_that_distance)
{
    const char *sbh[] = { "network.topology=spanning-bus-hypercube", "network.width=4", "network.dimension=3",
                          "workload.destination=fixed-hops", "workload.hops=2", NULL };
    struct setup s;
    setup(&s, sbh);
    ck_assert_uint_eq(support(&s, 21), 27); /* C(3,2) 3^2 */
    ck_assert_double_eq(s.d.ops->prob(&s.d, 21, 0), 0);                   /* (1,1,1) -> (0,0,0): 3 hops */
    ck_assert_double_eq_tol(s.d.ops->prob(&s.d, 21, 16), 1.0 / 27, 1e-15); /* (1,1,1) -> (0,0,1): 2 hops */
    check_distribution(&s, 21, 100000);
    teardown(&s);
    /* the dual-bus hypercube is not vertex-transitive: one list per source */
    const char *dbh[] = { "network.topology=dual-bus-hypercube", "network.width=4", "network.dimension=3",
                          "workload.destination=fixed-hops", "workload.hops=3", NULL };
    setup(&s, dbh);
    check_distribution(&s, 7, 100000);
    for (uint32_t x = 0; x < s.t.nodes; x++)
        for (uint32_t y = 0; y < s.t.nodes; y++)
            if (s.d.ops->prob(&s.d, x, y) > 0)
                ck_assert_uint_eq(s.t.ops->distance(&s.t, x, y), 3);
    teardown(&s);
    const char *torus[] = { "network.topology=torus", "network.radix=6", "network.dimension=2",
                            "workload.destination=fixed-hops", "workload.hops=6", NULL };
    setup(&s, torus);
    ck_assert_uint_eq(support(&s, 7), 1); /* the antipode */
    check_distribution(&s, 7, 1000);
    teardown(&s);
}
END_TEST

/* The network builds, but the destination pattern refuses it, blaming `key`. */
static void expect_refused(const char *const *settings, const char *key, size_t case_number)
{
    struct config cfg;
    struct topo t;
    struct destinations d;
    struct cfg_error err;
    test_config(&cfg, settings);
    ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
    ck_assert_msg(!dest_init(&d, &cfg, &t, &err), "case %zu accepted", case_number);
    ck_assert_str_eq(err.key, key);
    topo_free(&t);
}

START_TEST(impossible_destinations_are_refused)
{
    const struct {
        const char *set[7];
        const char *key;
    } bad[] = {
        { { "network.topology=torus", "workload.destination=cluster-locality", NULL }, "workload.destination" },
        { { "network.topology=hypercube", "network.dimension=4", "network.cluster_dimension=4",
            "workload.destination=cluster-locality", NULL },
          "network.cluster_dimension" },
        { { "network.topology=hypercube", "network.dimension=4", "workload.destination=fixed-hops",
            "workload.hops=5", NULL },
          "workload.hops" },
        { { "network.topology=kary-ncube", "network.wrap=false", "network.radix=3", "network.dimension=2",
            "workload.destination=fixed-hops", "workload.hops=3" },
          "workload.hops" }, /* the centre of a 3x3 mesh has nothing 3 hops away */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_refused(bad[i].set, bad[i].key, i);
}
END_TEST


START_TEST(uniform_with_self_includes_the_source)
{
    const char *cube[] = { "network.dimension=4", "workload.destination=uniform-with-self", NULL };
    struct setup s;
    setup(&s, cube);
    ck_assert_double_eq(s.d.ops->prob(&s.d, 3, 3), 1.0 / 16);
    check_distribution(&s, 3, 100000);
    teardown(&s);
}
END_TEST

/* The distance of the draws from src against P_src(h) (chi-square), and P_src
 * against the weights given (renormalised over the distances src has). */
static void check_distances(struct setup *s, uint32_t src, const double *weights, unsigned draws)
{
    const struct topo *t = &s->t;
    unsigned diameter = t->diameter, count[64] = { 0 };
    double expected[64] = { 0 }, total = 0;
    for (uint32_t y = 0; y < t->nodes; y++)
        expected[t->ops->distance(t, src, y)] += s->d.ops->prob(&s->d, src, y);
    for (unsigned h = 1; h <= diameter; h++) {
        bool reachable = false;
        for (uint32_t y = 0; y < t->nodes; y++)
            reachable = reachable || t->ops->distance(t, src, y) == h;
        total += reachable ? weights[h] : 0;
    }
    for (unsigned h = 0; h <= diameter; h++)
        ck_assert_double_eq_tol(expected[h], h == 0 ? 0 : expected[h] > 0 ? weights[h] / total : 0, 1e-12);
    struct rng r;
    rng_seed_stream(&r, 777, RNG_TEST, src);
    for (unsigned i = 0; i < draws; i++)
        count[t->ops->distance(t, src, s->d.ops->pick(&s->d, src, &r))]++;
    double chi2 = 0;
    unsigned cells = 0;
    for (unsigned h = 0; h <= diameter; h++) {
        if (expected[h] == 0) {
            ck_assert_uint_eq(count[h], 0);
            continue;
        }
        double e = expected[h] * draws;
        chi2 += (count[h] - e) * (count[h] - e) / e;
        cells++;
    }
    ck_assert_msg(gsl_cdf_chisq_Q(chi2, cells - 1) > 0.001, "distances: chi-square %.1f on %u cells", chi2,
                  cells - 1);
}

/* Seed 003: distance h with probability P_h, then uniform at that distance. */
START_TEST(spherical_gives_the_distance_distribution)
{
    const char *equal[] = { "network.dimension=6", "workload.destination=spherical", NULL };
    struct setup s;
    setup(&s, equal);
    double ones[64] = { 0, 1, 1, 1, 1, 1, 1 };
    ck_assert_double_eq_tol(s.d.ops->prob(&s.d, 0, 1), 1.0 / 6 / 6, 1e-15);  /* 6 nodes at distance 1 */
    ck_assert_double_eq_tol(s.d.ops->prob(&s.d, 5, 5 ^ 63), 1.0 / 6, 1e-15); /* the antipode alone */
    check_distribution(&s, 5, 200000);
    check_distances(&s, 5, ones, 100000);
    teardown(&s);
    const char *weighted[] = { "network.dimension=6", "workload.destination=spherical",
                               "workload.distance_weights=1, 2, 0, 4", NULL };
    setup(&s, weighted);
    double w[64] = { 0, 1, 2, 0, 4 };
    check_distribution(&s, 9, 200000);
    check_distances(&s, 9, w, 100000);
    teardown(&s);
    /* a mesh is not vertex-transitive: a centre has no node at the largest distances */
    const char *mesh[] = { "network.topology=kary-ncube", "network.wrap=false", "network.radix=5",
                           "network.dimension=2", "workload.destination=spherical",
                           "workload.distance_weights=1,1,1,1,1,1,1,8", NULL };
    setup(&s, mesh);
    double m[64] = { 0, 1, 1, 1, 1, 1, 1, 1, 8 };
    check_distribution(&s, 0, 100000);
    check_distribution(&s, 12, 100000);
    check_distances(&s, 0, m, 100000);
    check_distances(&s, 12, m, 100000);
    ck_assert_double_eq_tol(s.d.ops->prob(&s.d, 0, 24), 8.0 / 15, 1e-15); /* corner to corner: 8 hops */
    teardown(&s);
}
END_TEST

/* Seed 002: uniform over an S^n box anchored at the source, inside the mesh. */
START_TEST(distance_locality_regions_stay_in_bounds)
{
    const char *settings[][8] = {
        { "network.topology=torus", "network.radix=8", "network.dimension=2", "workload.destination=distance-locality",
          "workload.locality_fraction=0.25", NULL },
        { "network.topology=kary-ncube", "network.wrap=false", "network.radix=8", "network.dimension=2",
          "workload.destination=distance-locality", "workload.locality_fraction=0.25", NULL },
        { "network.topology=kary-ncube", "network.bidirectional=false", "network.radix=5", "network.dimension=3",
          "workload.destination=distance-locality", "workload.locality_fraction=0.2", NULL },
    };
    const uint32_t side[] = { 4, 4, 3 }; /* round(0.5 * 8), round(0.2^(1/3) * 5) = round(2.92) */
    for (int c = 0; c < 3; c++) {
        struct setup s;
        setup(&s, settings[c]);
        uint32_t k = (uint32_t)cfg_int(&s.cfg, "network.radix"), n = (uint32_t)s.cfg.network.dimension, count = 1;
        bool wrap = cfg_bool(&s.cfg, "network.wrap");
        for (uint32_t i = 0; i < n; i++)
            count *= side[c];
        for (uint32_t x = 0; x < s.t.nodes; x++) {
            ck_assert_double_gt(s.d.ops->prob(&s.d, x, x), 0); /* the source is in its region */
            uint32_t inside = 0;
            for (uint32_t y = 0; y < s.t.nodes; y++) {
                if (s.d.ops->prob(&s.d, x, y) == 0)
                    continue;
                inside++;
                /* every dimension: within S - 1 steps in the + direction (mesh: no wrap needed) */
                for (uint32_t i = 0, a = x, b = y; i < n; i++, a /= k, b /= k) {
                    uint32_t up = (b % k + k - a % k) % k;
                    if (wrap)
                        ck_assert_uint_lt(up, side[c]);
                    else
                        ck_assert_uint_lt(b % k > a % k ? b % k - a % k : a % k - b % k, side[c]);
                }
            }
            ck_assert_uint_eq(inside, count); /* S^n nodes */
        }
        check_distribution(&s, 0, 50000);
        check_distribution(&s, s.t.nodes - 1, 50000);
        teardown(&s);
    }
}
END_TEST

START_TEST(hotspot_draws_its_fraction)
{
    const char *cube[] = { "network.dimension=5", "workload.destination=hotspot", "workload.hotspot_node=7",
                           "workload.hotspot_fraction=0.3", NULL };
    struct setup s;
    setup(&s, cube);
    ck_assert_double_eq_tol(s.d.ops->prob(&s.d, 0, 7), 0.3 + 0.7 / 31, 1e-15);
    ck_assert_double_eq_tol(s.d.ops->prob(&s.d, 0, 8), 0.7 / 31, 1e-15);
    ck_assert_double_eq_tol(s.d.ops->prob(&s.d, 7, 8), 1.0 / 31, 1e-15);
    check_distribution(&s, 0, 100000);
    check_distribution(&s, 7, 100000);
    teardown(&s);
}
END_TEST

/* Each permutation is a bijection, prob() is its indicator, and known images. */
START_TEST(permutations_are_bijections)
{
    const struct {
        const char *set[6];
        uint32_t from, to;
    } cases[] = {
        { { "network.dimension=4", "workload.destination=bit-complement", NULL }, 5, 10 },
        { { "network.dimension=4", "workload.destination=bit-reversal", NULL }, 1, 8 },
        { { "network.dimension=5", "workload.destination=bit-reversal", NULL }, 6, 12 }, /* 00110 -> 01100 */
        { { "network.dimension=4", "workload.destination=shuffle", NULL }, 9, 3 },       /* 1001 -> 0011 */
        { { "network.topology=torus", "network.radix=8", "network.dimension=2", "workload.destination=transpose",
            NULL }, 3 + 8 * 5, 5 + 8 * 3 },                                                /* (3,5) -> (5,3) */
        { { "network.topology=torus", "network.radix=8", "network.dimension=2", "workload.destination=tornado",
            NULL }, 1 + 8 * 2, 4 + 8 * 5 },                                                /* +3 per digit */
        { { "network.topology=torus", "network.radix=5", "network.dimension=3", "workload.destination=tornado",
            NULL }, 4 + 5 * 0 + 25 * 2, 1 + 5 * 2 + 25 * 4 },                              /* +2 per digit */
        { { "network.topology=torus", "network.radix=4", "network.dimension=2", "workload.destination=neighbor",
            NULL }, 3 + 4 * 1, 0 + 4 * 2 },
        { { "network.dimension=3", "workload.destination=neighbor", NULL }, 2, 5 },       /* 2-ary: complement */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct setup s;
        setup(&s, cases[c].set);
        uint32_t n = s.t.nodes;
        bool *hit = calloc(n, sizeof *hit);
        struct rng r;
        rng_seed_stream(&r, 1, RNG_TEST, 0);
        for (uint32_t x = 0; x < n; x++) {
            uint32_t y = s.d.ops->pick(&s.d, x, &r);
            ck_assert_uint_lt(y, n);
            ck_assert_msg(!hit[y], "case %zu: %u is the image of two sources", c, y);
            hit[y] = true;
            double sum = 0;
            for (uint32_t z = 0; z < n; z++)
                sum += s.d.ops->prob(&s.d, x, z);
            ck_assert_double_eq(sum, 1);
            ck_assert_double_eq(s.d.ops->prob(&s.d, x, y), 1);
        }
        ck_assert_uint_eq(s.d.ops->pick(&s.d, cases[c].from, &r), cases[c].to);
        free(hit);
        teardown(&s);
    }
}
END_TEST

START_TEST(patterns_refuse_topologies_they_do_not_fit)
{
    const struct {
        const char *set[7];
        const char *key;
    } bad[] = {
        { { "network.dimension=5", "workload.destination=transpose", NULL }, "workload.destination" },
        { { "network.topology=torus", "network.radix=3", "network.dimension=2",
            "workload.destination=bit-complement", NULL }, "workload.destination" },
        { { "network.topology=kary-ncube", "network.wrap=false", "network.radix=4", "network.dimension=2",
            "workload.destination=tornado", NULL }, "workload.destination" },
        { { "network.dimension=4", "workload.destination=tornado", NULL }, "workload.destination" },
        { { "network.topology=ccc", "network.dimension=3", "workload.destination=neighbor", NULL },
          "workload.destination" },
        { { "network.topology=ccc", "network.dimension=3", "workload.destination=distance-locality", NULL },
          "workload.destination" },
        { { "network.dimension=4", "workload.destination=hotspot", "workload.hotspot_node=16", NULL },
          "workload.hotspot_node" },
        { { "network.dimension=3", "workload.destination=spherical", "workload.distance_weights=1,1,1,1", NULL },
          "workload.distance_weights" },
        { { "network.topology=kary-ncube", "network.wrap=false", "network.radix=3", "network.dimension=2",
            "workload.destination=spherical", "workload.distance_weights=0,0,0,1", NULL },
          "workload.distance_weights" }, /* the centre of a 3x3 mesh has nothing 4 hops away */
        { { "network.topology=kary-ncube", "network.wrap=false", "network.radix=33", "network.dimension=2",
            "workload.destination=spherical", NULL }, "workload.destination" }, /* over the per-source limit */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_refused(bad[i].set, bad[i].key, i);
}
END_TEST

/* analytic/channel_loads.c uses prob(): its per-class utilisation agrees with the
 * simulated one (class means, 20,000 messages: a few per cent). */
START_TEST(loads_follow_the_new_patterns)
{
    const char *cases[][9] = {
        { "network.topology=torus", "network.radix=4", "network.dimension=2", "workload.destination=neighbor",
          "workload.rate=0.5", NULL },
        { "network.dimension=4", "workload.destination=hotspot", "workload.hotspot_node=5",
          "workload.hotspot_fraction=0.2", "workload.rate=0.3", NULL },
        { "network.dimension=5", "workload.destination=spherical", "workload.distance_weights=4,3,2,1",
          "workload.rate=0.4", NULL },
    };
    for (int c = 0; c < 3; c++) {
        struct config cfg;
        test_config(&cfg, cases[c]);
        cfg.run.warmup_messages = 5000;
        cfg.run.messages = 40000;
        struct run_report r;
        ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
        for (unsigned k = 0; k < r.classes; k++) {
            double a = r.cls[k].analytic_utilization, sim = r.cls[k].utilization_mean;
            ck_assert_msg(fabs(sim - a) <= 0.05 * a + 1e-3, "case %d class %u: simulated %.4f, analytic %.4f", c, k,
                          sim, a);
        }
    }
}
END_TEST

/* Self-addressed messages (uniform-with-self): delivered at once with delay 0 and
 * 0 hops, and counted.  On the n-cube every address bit differs with probability
 * 1/2, so the mean hop count is n/2 exactly. */
START_TEST(self_addressed_messages_count_with_zero_hops)
{
    const char *set[] = { "network.dimension=4", "workload.destination=uniform-with-self", "workload.rate=0.3", NULL };
    struct config cfg;
    test_config(&cfg, set);
    cfg.run.warmup_messages = 2000;
    cfg.run.messages = 40000;
    struct run_report r;
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert_uint_eq(r.delay.count, 40000);
    ck_assert_double_eq(r.delay.min, 0);
    ck_assert_double_eq_tol(r.model.mean_hops, 2, 1e-12);
    /* hops per message: Binomial(4, 1/2), σ = 1; 40,000 messages: se 0.005 */
    ck_assert_msg(fabs(r.hops_mean - 2) < 0.025, "hops mean %.4f", r.hops_mean);
}
END_TEST

/* Spherical destinations (note §1.6 reading, P_k = 1/n): prob() sums to 1 and is
 * 1/(n C(n,k)) at distance k; draws from node 5 of a 6-cube pass a chi-square test
 * over all 63 destinations. */
START_TEST(spherical_destinations)
{
    const char *set[] = { "network.dimension=6", "workload.destination=spherical", NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct topo t;
    struct cfg_error err;
    ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
    struct destinations d;
    ck_assert_msg(dest_init(&d, &cfg, &t, &err), "%s", err.message);
    double sum = 0;
    for (uint32_t y = 0; y < 64; y++) {
        unsigned k = (unsigned)__builtin_popcount(5 ^ y);
        double p = d.ops->prob(&d, 5, y);
        ck_assert_double_eq_tol(p, k ? 1 / (6 * gsl_sf_choose(6, k)) : 0, 1e-15);
        sum += p;
    }
    ck_assert_double_eq_tol(sum, 1, 1e-12);
    static unsigned count[64];
    struct rng r;
    rng_seed_stream(&r, 7, RNG_TEST, 5);
    enum { DRAWS = 300000 };
    for (unsigned i = 0; i < DRAWS; i++)
        count[d.ops->pick(&d, 5, &r)]++;
    ck_assert_uint_eq(count[5], 0);
    double chi2 = 0;
    for (uint32_t y = 0; y < 64; y++)
        if (y != 5) {
            double e = DRAWS * d.ops->prob(&d, 5, y);
            chi2 += (count[y] - e) * (count[y] - e) / e;
        }
    ck_assert_msg(gsl_cdf_chisq_Q(chi2, 62) > 0.001, "chi-square %.1f on 62 degrees", chi2);
    dest_free(&d);
    topo_free(&t);
}
END_TEST

Suite *destinations_suite(void)
{
    Suite *s = suite_create("destinations");
    TCase *tc = tcase_create("patterns");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cluster_locality_follows_seed_000);
    tcase_add_test(tc, fixed_hops_is_uniform_at_that_distance);
    tcase_add_test(tc, impossible_destinations_are_refused);
    tcase_add_test(tc, uniform_with_self_includes_the_source);
    tcase_add_test(tc, spherical_gives_the_distance_distribution);
    tcase_add_test(tc, distance_locality_regions_stay_in_bounds);
    tcase_add_test(tc, hotspot_draws_its_fraction);
    tcase_add_test(tc, permutations_are_bijections);
    tcase_add_test(tc, patterns_refuse_topologies_they_do_not_fit);
    tcase_add_test(tc, loads_follow_the_new_patterns);
    tcase_add_test(tc, self_addressed_messages_count_with_zero_hops);
    tcase_add_test(tc, spherical_destinations);
    suite_add_tcase(s, tc);
    return s;
}
