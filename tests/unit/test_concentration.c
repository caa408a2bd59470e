/* network.concentration on the seeds' lattices (topo/concentrated.c): counts and
 * distances in closed form and against breadth-first search, routes that get one
 * closer at every hop, simulated channel utilisation per class against the analytic
 * loads, wormhole on the iq router past saturation without deadlock, and the
 * configurations refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/test.h"

static void build(struct topo *t, const char *const *settings)
{
    struct config cfg;
    struct cfg_error err;
    test_config(&cfg, settings);
    ck_assert_msg(topo_build(t, &cfg, &err), "%s: %s", settings[0], err.message);
}

static void bfs_from(const struct topo *t, uint32_t src, unsigned *dist)
{
    uint32_t *queue = malloc(t->nodes * sizeof *queue), head = 0, tail = 0;
    struct hop *around = malloc(t->max_hops * sizeof *around);
    for (uint32_t x = 0; x < t->nodes; x++)
        dist[x] = UINT32_MAX;
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        uint32_t u = queue[head++];
        unsigned n = t->ops->neighbors(t, u, around, t->max_hops);
        for (unsigned i = 0; i < n; i++)
            if (dist[around[i].next] == UINT32_MAX) {
                dist[around[i].next] = dist[u] + 1;
                queue[tail++] = around[i].next;
            }
    }
    free(around);
    free(queue);
}

/* distance() is breadth-first search's from every node, every minimal hop (canonical
 * first) gets one closer over a channel the sender owns, and the mean distance over
 * terminal pairs is the closed form's. */
static void check_routes(const struct topo *t)
{
    unsigned *dist = malloc(t->nodes * sizeof *dist);
    struct hop hops[64];
    uint32_t senders[8];
    double sum = 0;
    for (uint32_t s = 0; s < t->nodes; s++) {
        bfs_from(t, s, dist);
        for (uint32_t d = 0; d < t->nodes; d++) {
            ck_assert_uint_eq(t->ops->distance(t, s, d), dist[d]);
            if (s < t->terminals && d < t->terminals)
                sum += dist[d];
            if (s == d)
                continue;
            unsigned n = t->ops->minimal_hops(t, s, d, hops, 64);
            ck_assert_uint_ge(n, 1);
            for (unsigned i = 0; i < n; i++) {
                ck_assert_uint_eq(t->ops->distance(t, hops[i].next, d) + 1, dist[d]);
                ck_assert_uint_eq(t->ops->senders(t, hops[i].channel, senders, 8), 1);
                ck_assert_uint_eq(senders[0], s);
            }
        }
    }
    double pairs = (double)t->terminals * (t->terminals - 1);
    ck_assert_double_eq_tol(topo_mean_distance(t, 0), sum / pairs, 1e-9);
    free(dist);
}

START_TEST(concentrated_lattices_match_closed_forms)
{
    /* a 4 x 4 mesh of routers with 3 terminals each: 48 terminals, 2 n k^(n-1) (k-1) = 48
     * router channels and two per terminal; diameter 2 (k-1) between routers, 2 more */
    const char *const mesh[] = { "network.topology=mesh", "network.radix=4", "network.dimension=2",
                                 "network.concentration=3", NULL };
    struct topo t;
    build(&t, mesh);
    ck_assert_uint_eq(t.terminals, 48);
    ck_assert_uint_eq(t.routers, 16);
    ck_assert_uint_eq(t.nodes, 64);
    ck_assert_uint_eq(t.channels, 48 + 2 * 48);
    ck_assert_uint_eq(t.router_diameter, 6);
    ck_assert_uint_eq(t.diameter, 8);
    ck_assert_uint_eq(t.router_degree, 4);
    ck_assert_uint_eq(t.degree, 7);
    ck_assert_uint_eq(t.classes, 4 + 2);
    ck_assert(t.ops->traits & TOPO_NO_DIMENSIONS);
    ck_assert(t.ops->traits & TOPO_MINIMAL_ACYCLIC);
    check_routes(&t);
    topo_free(&t);
    /* a 3-cube with 2 terminals per router, and a 4-ary 2-cube torus with 2: its rings close */
    const char *const cube[] = { "network.topology=hypercube", "network.dimension=3", "network.concentration=2",
                                 NULL };
    build(&t, cube);
    ck_assert_uint_eq(t.terminals, 16);
    ck_assert_uint_eq(t.channels, 24 + 32);
    ck_assert_uint_eq(t.diameter, 5);
    check_routes(&t);
    topo_free(&t);
    const char *const torus[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                  "network.concentration=2", NULL };
    build(&t, torus);
    ck_assert(!(t.ops->traits & TOPO_MINIMAL_ACYCLIC));
    ck_assert_uint_eq(t.channels, 64 + 64);
    check_routes(&t);
    topo_free(&t);
}
END_TEST

/* Store-and-forward, uniform traffic, 100,000 messages: each class's simulated
 * utilisation within 3% of the analytic one. */
START_TEST(concentrated_utilisation_matches_the_loads)
{
    const char *const nets[][4] = {
        { "network.topology=mesh", "network.radix=4", "network.dimension=2", "network.concentration=4" },
        { "network.topology=hypercube", "network.dimension=4", "network.concentration=2", NULL },
    };
    for (size_t i = 0; i < 2; i++) {
        const char *settings[12];
        size_t n = 0;
        for (size_t k = 0; k < 4 && nets[i][k]; k++)
            settings[n++] = nets[i][k];
        settings[n++] = "routing.algorithm=minimal";
        settings[n++] = "workload.rate=0.1";
        settings[n++] = "run.messages=100000";
        settings[n++] = "run.warmup_messages=5000";
        settings[n] = NULL;
        struct config cfg;
        test_config(&cfg, settings);
        struct run_report rep;
        ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
        for (unsigned c = 0; c < rep.classes; c++) {
            const struct class_report *k = &rep.cls[c];
            ck_assert_msg(!isnan(k->analytic_utilization), "%s %s: no analytic load", nets[i][0], k->name);
            ck_assert_msg(fabs(k->utilization_mean / k->analytic_utilization - 1) < 0.03, "%s %s: simulated %g, "
                          "analytic %g", nets[i][0], k->name, k->utilization_mean, k->analytic_utilization);
        }
    }
}
END_TEST

/* The iq router on a concentrated mesh and hypercube: dimension order between routers
 * needs no VC classes; at twice the offered load it saturates at, 3 seeds x 20,000
 * cycles, it never stops with a deadlock. */
START_TEST(concentrated_iq_never_deadlocks)
{
    const char *const nets[][3] = {
        { "network.topology=mesh", "network.radix=4", "network.dimension=2" },
        { "network.topology=hypercube", "network.dimension=4", NULL },
    };
    for (size_t i = 0; i < 2; i++)
        for (int seed = 1; seed <= 3; seed++) {
            char s[32];
            snprintf(s, sizeof s, "run.seed=%d", seed);
            const char *settings[24];
            size_t n = 0;
            for (size_t k = 0; k < 3 && nets[i][k]; k++)
                settings[n++] = nets[i][k];
            const char *const more[] = { "network.concentration=4", "routing.algorithm=minimal",
                                         "routing.switching=wormhole", "routing.router=iq",
                                         "routing.virtual_channels=2", "workload.arrival=bernoulli",
                                         "workload.rate_unit=flits", "workload.rate=0.9",
                                         "workload.length=constant", "workload.mean_length=4",
                                         "run.duration=20000", "run.warmup_time=1000", s, NULL };
            for (size_t k = 0; more[k]; k++)
                settings[n++] = more[k];
            settings[n] = NULL;
            struct config cfg;
            test_config(&cfg, settings);
            struct run_report rep;
            ck_assert_msg(test_run(&cfg, &rep) == KERNEL_DONE, "%s seed %d stopped", nets[i][0], seed);
        }
}
END_TEST

START_TEST(concentration_refusals)
{
    static const struct {
        const char *set[5];
        const char *says;
    } bad[] = {
        { { "network.topology=fat-tree", "network.radix=4", "network.dimension=2", "network.concentration=2", NULL },
          "takes no terminals of its own" },
        { { "network.topology=ccc", "network.dimension=3", "network.concentration=2", NULL },
          "takes no terminals of its own" },
        { { "network.topology=torus", "network.radix=4", "network.links=half-duplex", "network.concentration=2", NULL },
          "full-duplex" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct config cfg;
        struct topo t;
        struct cfg_error err;
        test_config(&cfg, bad[i].set);
        ck_assert_msg(!topo_build(&t, &cfg, &err), "%s accepted", bad[i].set[0]);
        ck_assert_msg(strstr(err.message, bad[i].says) && strstr(err.key, "concentration"), "%s: %s (%s)",
                      bad[i].set[0], err.message, err.key);
    }
}
END_TEST

Suite *concentration_suite(void)
{
    Suite *s = suite_create("concentration");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, concentrated_lattices_match_closed_forms);
    tcase_add_test(tc, concentrated_utilisation_matches_the_loads);
    tcase_add_test(tc, concentrated_iq_never_deadlocks);
    tcase_add_test(tc, concentration_refusals);
    suite_add_tcase(s, tc);
    return s;
}
