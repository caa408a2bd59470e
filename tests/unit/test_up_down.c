/* Up-down routing (routing/up_down.c): on networks of every kind, every route arrives
 * and never goes up after going down (levels found here by a breadth-first search of
 * our own from router 0), and so does every route of the iq router's relation (what it
 * runs and the static check walks); routes of a known ring; wormhole past saturation on one VC
 * never deadlocks with up-down, where minimal routing on a ring does; the
 * configurations it cannot run are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../routing/deadlock_check.h"
#include "../../routing/engine.h"
#include "../../routing/routing.h"
#include "../common/test.h"

static void build(struct topo *t, struct config *cfg, const char *const *settings)
{
    struct cfg_error err;
    test_config(cfg, settings);
    ck_assert_msg(topo_build(t, cfg, &err), "%s: %s", settings[0], err.message);
}

/* Levels from router 0 by breadth-first search over neighbors(). */
static uint32_t *levels_of(const struct topo *t)
{
    uint32_t *level = malloc(t->nodes * sizeof *level), *queue = malloc(t->nodes * sizeof *queue);
    struct hop *hops = malloc((t->max_hops + 1) * sizeof *hops);
    for (uint32_t x = 0; x < t->nodes; x++)
        level[x] = UINT32_MAX;
    uint32_t root = t->nodes - t->routers, head = 0, tail = 0;
    level[root] = 0;
    queue[tail++] = root;
    while (head < tail) {
        uint32_t x = queue[head++];
        unsigned n = t->ops->neighbors(t, x, hops, t->max_hops);
        for (unsigned i = 0; i < n; i++)
            if (level[hops[i].next] == UINT32_MAX) {
                level[hops[i].next] = level[x] + 1;
                queue[tail++] = hops[i].next;
            }
    }
    ck_assert_uint_eq(tail, t->nodes);
    free(queue);
    free(hops);
    return level;
}

/* Walks every route between terminals: each hop one of the node's own, never up after
 * down, arriving within max_route_hops(); returns the mean hops. */
static double check_routes(const struct topo *t)
{
    const struct route_ops *ud = route_find("up-down");
    uint32_t *level = levels_of(t);
    struct hop *hops = malloc((t->max_hops + 1) * sizeof *hops);
    unsigned longest = ud->max_route_hops(t), seen = 0;
    double total = 0;
    for (uint32_t s = 0; s < t->terminals; s++)
        for (uint32_t d = 0; d < t->terminals; d++) {
            uint32_t at = s;
            unsigned n_hops = 0;
            bool down = false;
            while (at != d) {
                struct hop h = ud->next(t, at, d, NULL);
                unsigned n = t->ops->neighbors(t, at, hops, t->max_hops);
                bool listed = false;
                for (unsigned i = 0; i < n; i++)
                    listed = listed || (hops[i].channel == h.channel && hops[i].next == h.next);
                ck_assert_msg(listed, "%s: %u -> %u: hop %u is not %u's", t->label, s, d, h.channel, at);
                bool up = level[h.next] < level[at] || (level[h.next] == level[at] && h.next < at);
                ck_assert_msg(!(down && up), "%s: %u -> %u goes up at %u after going down", t->label, s, d, at);
                down = down || !up;
                at = h.next;
                ck_assert_uint_le(++n_hops, longest);
            }
            ck_assert_uint_ge(n_hops, t->ops->distance(t, s, d));
            seen = n_hops > seen ? n_hops : seen;
            total += n_hops;
        }
    ck_assert_uint_eq(seen, longest);
    free(level);
    free(hops);
    return total / ((double)t->terminals * (t->terminals - 1));
}

/* The iq router's routing relation for up-down (engine_ops.relation: the route step its
 * cycle calls): from every source towards every destination one step at a time, on
 * every VC, never up after down, ejected within max_route_hops() router hops at the
 * destination; and hop for hop the path selection's own route. */
static void check_iq_relation_routes(const char *const *net)
{
    const char *set[12];
    size_t n = 0;
    for (; net[n]; n++)
        set[n] = net[n];
    set[n++] = "routing.algorithm=up-down";
    set[n++] = "routing.switching=wormhole";
    set[n++] = "routing.router=iq";
    set[n] = NULL;
    struct config cfg;
    struct topo t;
    build(&t, &cfg, set);
    struct dl_relation rel;
    ck_assert(engine_select(&cfg)->relation(&cfg, &t, &rel));
    ck_assert_uint_eq(rel.keys, t.terminals);
    const struct route_ops *ud = route_find("up-down");
    uint32_t *level = levels_of(&t);
    unsigned longest = ud->max_route_hops(&t);
    for (uint32_t d = 0; d < rel.keys; d++)
        for (uint32_t s = 0; s < rel.sources; s++) {
            struct dl_step seeds[DL_MAX_STEPS], steps[DL_MAX_STEPS];
            unsigned k = rel.seeds(rel.self, d, s, seeds, DL_MAX_STEPS);
            ck_assert_uint_eq(k, s == d ? 0 : 1);
            if (!k)
                continue;
            struct dl_step at = seeds[0];
            uint32_t from = s, hops = 0;
            bool down = false;
            for (;;) {
                if (at.node != from) { /* the hop from -> at.node: as the path selection takes it */
                    struct hop h = ud->next(&t, from, d, NULL);
                    ck_assert_uint_eq(h.next, at.node);
                    bool up = level[at.node] < level[from] || (level[at.node] == level[from] && at.node < from);
                    ck_assert_msg(!(down && up), "%s: %u -> %u goes up at %u after going down", t.label, s, d, from);
                    down = down || !up;
                    ck_assert_uint_le(++hops, longest);
                }
                unsigned m = rel.next(rel.self, d, &at, steps, DL_MAX_STEPS);
                ck_assert_uint_eq(m, 1); /* deterministic */
                if (steps[0].channel == DL_NONE)
                    break;
                ck_assert_uint_eq(steps[0].lo, 0);
                ck_assert_uint_eq(steps[0].hi, rel.vcs); /* every VC: one class */
                from = at.node;
                at = steps[0];
            }
            ck_assert_msg(at.node == d || (d < t.terminals && ud->next(&t, at.node, d, NULL).next == d),
                          "%s: %u -> %u ejected at %u", t.label, s, d, at.node);
        }
    free(level);
    rel.destroy(rel.self);
    topo_free(&t);
}

START_TEST(up_down_routes_are_legal_everywhere)
{
    static const char *const nets[][5] = {
        { "network.topology=torus", "network.radix=4", "network.dimension=2", NULL },
        { "network.topology=kary-ncube", "network.radix=4", "network.dimension=2", "network.wrap=false", NULL },
        { "network.topology=hypercube", "network.dimension=4", "network.links=half-duplex", NULL },
        { "network.topology=ccc", "network.dimension=3", NULL },
        { "network.topology=bh-br", "network.dimension=5", "network.cluster_dimension=2", NULL },
        { "network.topology=spanning-bus-hypercube", "network.width=3", "network.dimension=2", NULL },
        { "network.topology=fat-tree", "network.radix=2", "network.dimension=3", NULL },
        { "network.topology=hyperx", "network.radix=3", "network.dimension=2", "network.concentration=2", NULL },
        { "network.topology=slim-fly", "network.q=5", "network.concentration=2", NULL },
        { "network.topology=graph", "network.graph_file=configs/graphs/irregular-6.edges", NULL },
        { "network.topology=graph", "network.graph_file=configs/graphs/irregular-6.anynet",
          "network.graph_format=anynet", NULL },
    };
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        struct config cfg;
        struct topo t;
        build(&t, &cfg, nets[i]);
        check_routes(&t);
        if (t.kind == CHANNEL_LINK_DIRECTION)
            check_iq_relation_routes(nets[i]);
        topo_free(&t);
    }
}
END_TEST

/* On the 8-ring the root is router 0 and router 4 the deepest: a legal route may not
 * pass through 4 (into it is down, out of it up), so 3 -> 5 goes the long way round
 * (6 hops instead of 2), and so do the other pairs whose only shortest path crosses 4
 * (2 and 5, 3 and 6: 5 hops instead of 3); every other route is minimal. */
START_TEST(up_down_on_a_ring_avoids_the_deepest_router)
{
    const char *set[] = { "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges", NULL };
    struct config cfg;
    struct topo t;
    build(&t, &cfg, set);
    const struct route_ops *ud = route_find("up-down");
    uint32_t at = 3, path[8], n = 0;
    while (at != 5) {
        at = ud->next(&t, at, 5, NULL).next;
        path[n++] = at;
    }
    ck_assert_uint_eq(n, 6);
    ck_assert_uint_eq(path[0], 2);
    ck_assert_uint_eq(path[5], 5);
    ck_assert_uint_eq(ud->max_route_hops(&t), 6);
        for (uint32_t s = 0; s < 8; s++)
        for (uint32_t d = 0; d < 8; d++) {
            unsigned hops = 0;
            for (at = s; at != d; hops++)
                at = ud->next(&t, at, d, NULL).next;
            uint32_t lo = s < d ? s : d, hi = s < d ? d : s;
            bool across = (lo == 3 && hi == 5) || (lo == 2 && hi == 5) || (lo == 3 && hi == 6);
            ck_assert_uint_eq(hops, across ? 8 - t.ops->distance(&t, s, d) : t.ops->distance(&t, s, d));
        }
    topo_free(&t);
}
END_TEST

/* Wormhole on one VC at twice what the network accepts, 3 seeds x 50,000 cycles with
 * the deadlock search every 1,000 cycles: up-down never stops on an irregular graph,
 * a torus and a Slim Fly; minimal routing on the ring does. */
static enum kernel_stop wormhole_run(const char *const *net, const char *algorithm, int seed, struct run_report *rep)
{
    char s[32], a[64];
    snprintf(s, sizeof s, "run.seed=%d", seed);
    snprintf(a, sizeof a, "routing.algorithm=%s", algorithm);
    const char *set[] = { net[0], net[1], net[2] ? net[2] : "network.links=full-duplex", a, "routing.switching=wormhole",
                          "workload.arrival=bernoulli", "workload.rate=0.5", "workload.rate_unit=flits",
                          "workload.length=constant", "workload.mean_length=8", "routing.flit_buffers=2",
                          "routing.virtual_channels=1", "routing.deadlock_interval=1000", "run.allow_unstable=true",
                          "run.warmup_time=5000", "run.duration=45000", s, NULL };
    struct config cfg;
    test_config(&cfg, set);
    return test_run(&cfg, rep);
}

START_TEST(up_down_never_deadlocks_where_minimal_does)
{
    static const char *const nets[][3] = {
        { "network.topology=graph", "network.graph_file=configs/graphs/irregular-6.edges", NULL },
        { "network.topology=torus", "network.radix=4", "network.dimension=2" },
        { "network.topology=slim-fly", "network.q=3", NULL },
    };
    struct run_report rep;
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
        for (int seed = 1; seed <= 3; seed++) {
            ck_assert_msg(wormhole_run(nets[i], "up-down", seed, &rep) == KERNEL_DONE, "%s seed %d stopped",
                          nets[i][1], seed);
            ck_assert_msg(rep.throughput > 0.01, "%s: throughput %g", nets[i][1], rep.throughput);
        }
    static const char *const ring[3] = { "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges",
                                          NULL };
    ck_assert_int_ne(wormhole_run(ring, "minimal", 1, &rep), KERNEL_DONE);
    ck_assert_int_eq(wormhole_run(ring, "up-down", 1, &rep), KERNEL_DONE);
}
END_TEST

/* Refused before the run, nothing written: wormhole over half-duplex links (on either
 * router), a network too large for its tables, one-way rings; and the analytic side says it has no
 * channel loads for routes that are not minimal. */
START_TEST(up_down_refusals_and_its_analytic_side)
{
    const struct {
        const char *args[12];
        const char *says;
    } bad[] = {
        { { "-s", "network.links=half-duplex", "-s", "routing.switching=wormhole", NULL }, "full-duplex" },
        { { "-s", "routing.switching=wormhole", "-s", "routing.router=iq", "-s", "network.links=half-duplex", NULL },
          "full-duplex" },
        { { "-s", "network.dimension=13", NULL }, "at most 4096 nodes" },
        { { "-s", "network.topology=kary-ncube", "-s", "network.radix=4", "-s", "network.dimension=2", "-s",
            "network.bidirectional=false", NULL }, "links both ways" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *argv[24] = { test_binary(), "-s", "run.messages=100", "-s", "routing.algorithm=up-down" };
        size_t n = 5;
        for (size_t j = 0; bad[i].args[j]; j++)
            argv[n++] = bad[i].args[j];
        argv[n++] = "configs/default.ini";
        argv[n] = NULL;
        char out[4096], err[4096];
        ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
        ck_assert_msg(strstr(err, bad[i].says), "%s", err);
        ck_assert_str_eq(out, "");
    }
    const char *argv[] = { test_binary(), "--describe", "-s", "routing.algorithm=up-down", "configs/graph-ring.ini",
                           NULL };
    char out[8192], err[4096];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strstr(out, "not computed: the routing is not minimal on this topology"), "%s", out);
}
END_TEST

Suite *up_down_suite(void)
{
    Suite *s = suite_create("up_down");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, up_down_routes_are_legal_everywhere);
    tcase_add_test(tc, up_down_on_a_ring_avoids_the_deepest_router);
    tcase_add_test(tc, up_down_never_deadlocks_where_minimal_does);
    tcase_add_test(tc, up_down_refusals_and_its_analytic_side);
    suite_add_tcase(s, tc);
    return s;
}
