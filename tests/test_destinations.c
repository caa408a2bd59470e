/* Destination patterns: draws against the stated distribution (chi-square, fixed
 * seed), exact probabilities, and parameters a topology cannot honour. */
#include <gsl/gsl_cdf.h>
#include <stdlib.h>

#include "../workloads/workload.h"
#include "test.h"

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
    ck_assert_uint_eq(s.d.count, 27); /* translated from node 0 */
    ck_assert_ptr_null(s.d.start);
    ck_assert_double_eq(s.d.ops->prob(&s.d, 21, 0), 0);                   /* (1,1,1) -> (0,0,0): 3 hops */
    ck_assert_double_eq_tol(s.d.ops->prob(&s.d, 21, 16), 1.0 / 27, 1e-15); /* (1,1,1) -> (0,0,1): 2 hops */
    check_distribution(&s, 21, 100000);
    teardown(&s);
    /* the dual-bus hypercube is not vertex-transitive: one list per source */
    const char *dbh[] = { "network.topology=dual-bus-hypercube", "network.width=4", "network.dimension=3",
                          "workload.destination=fixed-hops", "workload.hops=3", NULL };
    setup(&s, dbh);
    ck_assert_ptr_nonnull(s.d.start);
    check_distribution(&s, 7, 100000);
    for (uint32_t x = 0; x < s.t.nodes; x++)
        for (uint32_t y = 0; y < s.t.nodes; y++)
            if (s.d.ops->prob(&s.d, x, y) > 0)
                ck_assert_uint_eq(s.t.ops->distance(&s.t, x, y), 3);
    teardown(&s);
    const char *torus[] = { "network.topology=torus", "network.radix=6", "network.dimension=2",
                            "workload.destination=fixed-hops", "workload.hops=6", NULL };
    setup(&s, torus);
    ck_assert_uint_eq(s.d.count, 1); /* the antipode */
    check_distribution(&s, 7, 1000);
    teardown(&s);
}
END_TEST

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
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct config cfg;
        struct topo t;
        struct destinations d;
        struct cfg_error err;
        test_config(&cfg, bad[i].set);
        ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
        ck_assert_msg(!dest_init(&d, &cfg, &t, &err), "case %zu accepted", i);
        ck_assert_str_eq(err.key, bad[i].key);
        topo_free(&t);
    }
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
    suite_add_tcase(s, tc);
    return s;
}
