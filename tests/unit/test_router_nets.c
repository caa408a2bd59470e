/* Today's router networks (topo/routers.h): HyperX and the k-ary n-tree against their
 * closed forms, the fat tree's canonical routes (up then down, one destination per
 * down channel), the refusals, and the wormhole routers on them at loads past
 * saturation with the deadlock search on.  tests/unit/test_topo.c checks them against
 * breadth-first search with every other family; tests/common/checks.c's open-network
 * check compares their simulated channel loads with the analytic ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../topo/topo.h"
#include "../../workloads/workload.h"
#include "../common/test.h"

static void build(struct topo *t, struct config *cfg, const char *const *settings)
{
    struct cfg_error err;
    test_config(cfg, settings);
    ck_assert_msg(topo_build(t, cfg, &err), "%s: %s", settings[0], err.message);
}

static uint64_t power(uint64_t b, unsigned e)
{
    uint64_t p = 1;
    while (e--)
        p *= b;
    return p;
}

/* S^L routers of L(S - 1) router ports; with c > 1, c terminals of their own each,
 * 2 channels per terminal link and two hops more across the network. */
START_TEST(hyperx_matches_its_closed_forms)
{
    const unsigned cases[][3] = { { 4, 2, 1 }, { 3, 3, 1 }, { 5, 2, 3 }, { 2, 4, 2 }, { 8, 1, 8 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned S = cases[i][0], L = cases[i][1], c = cases[i][2];
        char s[40], l[40], cc[48];
        snprintf(s, sizeof s, "network.radix=%u", S);
        snprintf(l, sizeof l, "network.dimension=%u", L);
        snprintf(cc, sizeof cc, "network.concentration=%u", c);
        const char *set[] = { "network.topology=hyperx", s, l, cc, NULL };
        struct config cfg;
        struct topo t;
        build(&t, &cfg, set);
        uint64_t R = power(S, L), T = c > 1 ? c * R : R;
        ck_assert_uint_eq(t.routers, R);
        ck_assert_uint_eq(t.terminals, T);
        ck_assert_uint_eq(t.nodes, c > 1 ? R + T : R);
        ck_assert_uint_eq(t.channels, R * L * (S - 1) + (c > 1 ? 2 * T : 0));
        ck_assert_uint_eq(t.degree, L * (S - 1) + (c > 1 ? c : 0));
        ck_assert_uint_eq(t.diameter, L + (c > 1 ? 2 : 0));
        ck_assert_uint_eq(t.router_diameter, L);
        ck_assert_uint_eq(t.router_degree, L * (S - 1));
        ck_assert_uint_eq(t.classes, L + (c > 1 ? 2 : 0));
        /* Between distinct routers the mean distance is L(S-1)/S * R/(R-1); terminals of
         * their own add their two links to every pair, and pairs on one router are 2 apart. */
        double mean_routers = (double)L * (S - 1) / S * R / (R - 1), expect = mean_routers;
        if (c > 1) {
            double pairs = (double)T * (T - 1), same_router = (double)R * c * (c - 1);
            expect = ((pairs - same_router) * mean_routers + 2 * pairs) / pairs;
        }
        ck_assert_double_eq_tol(topo_mean_distance(&t, 1u << 20), expect, 1e-9 * expect);
        topo_free(&t);
    }
}
END_TEST

/* k^n terminals; n levels of k^(n-1) switches; 2(n-1) k^n router channels and 2 k^n
 * terminal channels; 2k ports at a switch (k for n = 1); 2n hops across. */
START_TEST(fat_tree_matches_its_closed_forms)
{
    const unsigned cases[][2] = { { 2, 4 }, { 4, 3 }, { 3, 2 }, { 3, 1 }, { 8, 2 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned k = cases[i][0], n = cases[i][1];
        char kk[40], nn[40];
        snprintf(kk, sizeof kk, "network.radix=%u", k);
        snprintf(nn, sizeof nn, "network.dimension=%u", n);
        const char *set[] = { "network.topology=fat-tree", kk, nn, NULL };
        struct config cfg;
        struct topo t;
        build(&t, &cfg, set);
        uint64_t T = power(k, n), per_level = power(k, n - 1);
        ck_assert_uint_eq(t.terminals, T);
        ck_assert_uint_eq(t.routers, n * per_level);
        ck_assert_uint_eq(t.nodes, T + n * per_level);
        ck_assert_uint_eq(t.channels, 2 * (n - 1) * T + 2 * T);
        ck_assert_uint_eq(t.degree, n > 1 ? 2 * k : k);
        ck_assert_uint_eq(t.diameter, 2 * n);
        ck_assert_uint_eq(t.router_diameter, 2 * (n - 1));
        ck_assert_uint_eq(t.router_degree, n > 2 ? 2 * k : n == 2 ? k : 0);
        ck_assert_uint_eq(t.classes, 2 * (n - 1) + 2);
        topo_free(&t);
    }
}
END_TEST

/* The canonical route between every pair of terminals climbs to a nearest common
 * ancestor and comes down (levels rise, then fall: one turn), and destination-mod-k
 * gives each down channel the messages of exactly one destination. */
START_TEST(fat_tree_routes_turn_once_and_split_destinations)
{
    const char *set[] = { "network.topology=fat-tree", "network.radix=3", "network.dimension=3", NULL };
    struct config cfg;
    struct topo t;
    build(&t, &cfg, set);
    uint32_t T = t.terminals, per_level = 9;
    uint32_t *owner = malloc(t.channels * sizeof *owner);
    for (uint32_t ch = 0; ch < t.channels; ch++)
        owner[ch] = UINT32_MAX;
    char name[32];
    for (uint32_t s = 0; s < T; s++)
        for (uint32_t d = 0; d < T; d++) {
            if (s == d)
                continue;
            uint32_t at = s;
            int level = -1, turns = 0;
            bool down = false;
            unsigned hops = 0;
            while (at != d) {
                struct hop h;
                ck_assert_uint_eq(t.ops->minimal_hops(&t, at, d, &h, 1), 1);
                t.ops->class_name(&t, t.ops->channel_class(&t, h.channel), name, sizeof name);
                if (strncmp(name, "down", 4) == 0) {
                    if (owner[h.channel] == UINT32_MAX)
                        owner[h.channel] = d;
                    ck_assert_msg(owner[h.channel] == d, "down channel %u carries %u and %u", h.channel,
                                  owner[h.channel], d);
                }
                int next = h.next < T ? -1 : (int)((h.next - T) / per_level);
                if (level >= 0 && next >= 0 && next < level && !down) {
                    down = true;
                    turns++;
                }
                ck_assert_msg(!(down && next > level), "%u -> %u goes up after down", s, d);
                level = next;
                at = h.next;
                ck_assert_uint_le(++hops, t.diameter);
            }
            ck_assert_int_le(turns, 1);
            ck_assert_uint_eq(hops, t.ops->distance(&t, s, d));
        }
    free(owner);
    topo_free(&t);
}
END_TEST

/* g a routers (g = a h + 1 by default), a - 1 local and h global links each, p
 * terminals of their own when p > 1; local-global-local: 3 router hops at most. */
START_TEST(dragonfly_matches_its_closed_forms)
{
    const unsigned cases[][4] = { { 4, 2, 0, 1 }, { 4, 2, 0, 2 }, { 2, 1, 0, 3 }, { 4, 2, 5, 1 }, { 3, 2, 4, 2 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned a = cases[i][0], h = cases[i][1], g = cases[i][2] ? cases[i][2] : a * h + 1, p = cases[i][3];
        char sa[48], sh[48], sg[48], sp[48];
        snprintf(sa, sizeof sa, "network.group_routers=%u", a);
        snprintf(sh, sizeof sh, "network.global_links=%u", h);
        snprintf(sg, sizeof sg, "network.groups=%u", cases[i][2]);
        snprintf(sp, sizeof sp, "network.concentration=%u", p);
        const char *set[] = { "network.topology=dragonfly", sa, sh, sg, sp, NULL };
        struct config cfg;
        struct topo t;
        build(&t, &cfg, set);
        uint64_t R = (uint64_t)g * a, T = p > 1 ? p * R : R;
        ck_assert_uint_eq(t.routers, R);
        ck_assert_uint_eq(t.terminals, T);
        ck_assert_uint_eq(t.channels, R * (a - 1 + h) + (p > 1 ? 2 * T : 0));
        ck_assert_uint_eq(t.router_degree, a - 1 + h);
        ck_assert_uint_eq(t.router_diameter, a > 1 ? 3 : 1);
        ck_assert_uint_eq(t.diameter, t.router_diameter + (p > 1 ? 2 : 0));
        ck_assert_uint_eq(t.ops->channels_in_class(&t, 1), R * h); /* global */
        /* Every pair of groups joined by a h / (g - 1) global links. */
        unsigned *pairs = calloc((size_t)g * g, sizeof *pairs);
        struct hop around[64];
        char name[32];
        for (uint32_t r = 0; r < R; r++) {
            unsigned n = t.ops->neighbors(&t, (uint32_t)(T + r - (p > 1 ? 0 : T)), around, 64);
            for (unsigned k = 0; k < n; k++) {
                t.ops->class_name(&t, t.ops->channel_class(&t, around[k].channel), name, sizeof name);
                if (strcmp(name, "global") == 0)
                    pairs[(r / a) * g + (around[k].next - (p > 1 ? T : 0)) / a]++;
            }
        }
        for (uint32_t x = 0; x < g; x++)
            for (uint32_t y = 0; y < g; y++)
                ck_assert_uint_eq(pairs[x * g + y], x == y ? 0 : a * h / (g - 1));
        free(pairs);
        topo_free(&t);
    }
}
END_TEST

/* Breadth-first distances over all nodes, for the metric checks. */
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

/* The dragonfly's metric: each listed minimal hop is a link that gets one closer,
 * distance() is never below the graph's, and every canonical route crosses at most one
 * global link in distance() hops.  (The metric is not the graph's: a hop over a global
 * link into a third group can also leave two hops to go, over a second global link,
 * which minimal routing never takes.) */
START_TEST(dragonfly_routes_take_one_global_link)
{
    static const char *const sets[][5] = {
        { "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2", "network.concentration=2", NULL },
        { "network.topology=dragonfly", "network.group_routers=3", "network.global_links=2", "network.groups=4", NULL },
    };
    for (size_t s = 0; s < 2; s++) {
        struct config cfg;
        struct topo t;
        build(&t, &cfg, sets[s]);
        unsigned *bfs = malloc(t.nodes * sizeof *bfs);
        struct hop around[64], minimal[64];
        char name[32];
        for (uint32_t dst = 0; dst < t.terminals; dst++) {
            bfs_from(&t, dst, bfs); /* links both ways: distances to dst */
            for (uint32_t x = 0; x < t.nodes; x++) {
                unsigned here = t.ops->distance(&t, x, dst);
                ck_assert_uint_ge(here, bfs[x]);
                if (x == dst)
                    continue;
                unsigned m = t.ops->minimal_hops(&t, x, dst, minimal, 64), n = t.ops->neighbors(&t, x, around, 64);
                ck_assert_uint_ge(m, 1);
                for (unsigned i = 0; i < m; i++) {
                    ck_assert_uint_eq(t.ops->distance(&t, minimal[i].next, dst) + 1, here);
                    bool real = false;
                    for (unsigned j = 0; j < n; j++)
                        real = real || around[j].channel == minimal[i].channel;
                    ck_assert(real);
                }
            }
            for (uint32_t src = 0; src < t.terminals; src++) {
                unsigned globals = 0, steps = 0;
                for (uint32_t at = src; at != dst; steps++) {
                    struct hop h;
                    t.ops->minimal_hops(&t, at, dst, &h, 1);
                    t.ops->class_name(&t, t.ops->channel_class(&t, h.channel), name, sizeof name);
                    globals += strcmp(name, "global") == 0;
                    at = h.next;
                }
                ck_assert_uint_le(globals, 1);
                ck_assert_uint_eq(steps, t.ops->distance(&t, src, dst));
            }
        }
        free(bfs);
        topo_free(&t);
    }
}
END_TEST

/* random-permutation: a bijection of the terminals, the same for a seed, another for
 * another seed; group-shift: only the next group's terminals, uniformly (prob sums to
 * 1, picks stay in the group), on a dragonfly and a fat tree; refused without groups. */
START_TEST(traffic_of_todays_networks)
{
    const char *df[] = { "network.topology=dragonfly", "network.concentration=2", "workload.destination=random-permutation",
                         NULL };
    struct config cfg;
    struct topo t;
    struct destinations d;
    struct cfg_error err;
    build(&t, &cfg, df);
    uint32_t T = t.terminals, first[256];
    ck_assert_uint_le(T, 256);
    for (uint64_t seed = 1; seed <= 2; seed++) {
        cfg.run.seed = seed;
        ck_assert_msg(dest_init(&d, &cfg, &t, &err), "%s", err.message);
        bool *hit = calloc(T, sizeof *hit);
        unsigned moved = 0;
        for (uint32_t s2 = 0; s2 < T; s2++) {
            uint32_t to = d.ops->pick(&d, s2, NULL);
            ck_assert_uint_lt(to, T);
            ck_assert(!hit[to]);
            hit[to] = true;
            ck_assert_double_eq(d.ops->prob(&d, s2, to), 1.0);
            if (seed == 1)
                first[s2] = to;
            else
                moved += first[s2] != to;
        }
        ck_assert(seed == 1 || moved > T / 2);
        free(hit);
        dest_free(&d);
    }
    topo_free(&t);
    static const char *const nets[][4] = {
        { "network.topology=dragonfly", "network.concentration=2", "workload.destination=group-shift", NULL },
        { "network.topology=fat-tree", "network.radix=3", "network.dimension=2", "workload.destination=group-shift" },
    };
    for (size_t i = 0; i < 2; i++) {
        const char *set[] = { nets[i][0], nets[i][1], nets[i][2], nets[i][3], NULL };
        build(&t, &cfg, set);
        ck_assert_msg(dest_init(&d, &cfg, &t, &err), "%s", err.message);
        uint32_t size = t.group_terminals, groups = t.terminals / size;
        ck_assert_uint_ge(groups, 2);
        struct rng r;
        rng_seed_stream(&r, 1, RNG_TEST, 0);
        for (uint32_t s2 = 0; s2 < t.terminals; s2++) {
            double sum = 0;
            for (uint32_t x = 0; x < t.terminals; x++)
                sum += d.ops->prob(&d, s2, x);
            ck_assert_double_eq_tol(sum, 1.0, 1e-12);
            for (int k = 0; k < 20; k++)
                ck_assert_uint_eq(d.ops->pick(&d, s2, &r) / size, (s2 / size + 1) % groups);
        }
        dest_free(&d);
        topo_free(&t);
    }
    const char *torus[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                            "workload.destination=group-shift", NULL };
    build(&t, &cfg, torus);
    ck_assert(!dest_init(&d, &cfg, &t, &err));
    ck_assert_str_eq(err.key, "workload.destination");
    dest_free(&d);
    topo_free(&t);
}
END_TEST

START_TEST(impossible_router_networks_are_refused)
{
    const struct {
        const char *set[6];
        const char *key;
    } bad[] = {
        { { "network.topology=hyperx", "network.links=half-duplex", NULL }, "network.links" },
        { { "network.topology=hyperx", "network.radix=100", "network.dimension=2", NULL }, "network.radix" },
        { { "network.topology=hyperx", "network.radix=2", "network.dimension=20", NULL }, "network.radix" },
        { { "network.topology=hyperx", "network.radix=8", "network.dimension=2", "network.concentration=250", NULL },
          "network.radix" },
        { { "network.topology=fat-tree", "network.radix=200", "network.dimension=2", NULL }, "network.radix" },
        { { "network.topology=fat-tree", "network.radix=16", "network.dimension=5", NULL }, "network.radix" },
        { { "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2", "network.groups=10" },
          "network.groups" },
        { { "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2", "network.groups=4" },
          "network.groups" },
        { { "network.topology=dragonfly", "network.links=half-duplex", NULL }, "network.links" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct config cfg;
        struct topo t;
        struct cfg_error err;
        test_config(&cfg, bad[i].set);
        ck_assert_msg(!topo_build(&t, &cfg, &err), "%s %s accepted", bad[i].set[0], bad[i].set[1]);
        ck_assert_str_eq(err.key, bad[i].key);
        topo_free(&t);
    }
}
END_TEST

/* ecube needs dimensions; the iq router's per-hop routing on the dragonfly needs an
 * escape VC per class: both refused before the run, nothing written. */
START_TEST(routings_that_do_not_apply_are_refused)
{
    const struct {
        const char *args[16];
        const char *says;
    } bad[] = {
        { { "-s", "network.topology=fat-tree", "-s", "network.radix=2", "-s", "network.dimension=3", NULL },
          "routing.algorithm = minimal" },
        { { "-s", "network.topology=dragonfly", "-s", "routing.virtual_channels=3", "-s", "routing.switching=wormhole",
            "-s", "routing.router=iq", "-s", "routing.algorithm=random-minimal", "-s", "routing.escape_vcs=1", NULL },
          "needs at least 2 escape VCs" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *argv[24] = { test_binary(), "-s", "run.messages=100" };
        size_t n = 3;
        for (size_t j = 0; bad[i].args[j]; j++)
            argv[n++] = bad[i].args[j];
        argv[n++] = "configs/default.ini";
        argv[n] = NULL;
        char out[4096], err[4096];
        ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
        ck_assert_msg(strstr(err, bad[i].says), "%s", err);
        ck_assert_str_eq(out, "");
    }
}
END_TEST

/* Both wormhole routers on both families with their canonical routes, offered twice
 * what the network accepts, 3 seeds x 50,000 cycles with the deadlock search every
 * 1,000 cycles: no run stops, and the figures count terminals only (each accepts
 * about the same flits). */
START_TEST(canonical_routes_never_deadlock_past_saturation)
{
    static const char *const nets[][4] = {
        { "network.topology=fat-tree", "network.radix=4", "network.dimension=2", "network.links=full-duplex" },
        { "network.topology=hyperx", "network.radix=4", "network.dimension=2", "network.concentration=2" },
    };
    static const char *const routers[] = { "routing.router=simple", "routing.router=iq" };
    for (size_t i = 0; i < 2; i++)
        for (size_t r = 0; r < 2; r++)
            for (int seed = 1; seed <= 3; seed++) {
                char s[32];
                snprintf(s, sizeof s, "run.seed=%d", seed);
                const char *set[] = { nets[i][0], nets[i][1], nets[i][2], nets[i][3],
                                      "routing.algorithm=minimal", "routing.switching=wormhole", routers[r],
                                      "workload.arrival=bernoulli", "workload.rate=0.5", "workload.rate_unit=flits",
                                      "workload.length=constant", "workload.mean_length=4",
                                      "routing.virtual_channels=1", "routing.deadlock_interval=1000",
                                      "run.allow_unstable=true", "run.warmup_time=5000", "run.duration=45000",
                                      s, NULL };
                struct config cfg;
                test_config(&cfg, set);
                struct run_report rep;
                ck_assert_msg(test_run(&cfg, &rep) == KERNEL_DONE, "%s %s seed %d stopped", nets[i][0], routers[r],
                              seed);
                ck_assert_msg(rep.throughput > 0.02, "%s %s: throughput %g", nets[i][0], routers[r], rep.throughput);
            }
}
END_TEST

/* The iq router on a dragonfly with the VC classes raised at global links (2 for
 * minimal, 3 for valiant and ugal): 3 seeds x 50,000 cycles at an offered load past
 * saturation with the deadlock search on never stop; one class fewer is refused
 * before the run.  On hyperx and the fat tree, Valiant and UGAL with a class per phase,
 * and adaptive-minimal and random-minimal with an escape VC (3 seeds each), do not
 * stop either. */
START_TEST(dragonfly_classes_never_deadlock)
{
    static const char *const routes[][2] = { { "routing.algorithm=minimal", "routing.virtual_channels=2" },
                                             { "routing.algorithm=valiant", "routing.virtual_channels=3" },
                                             { "routing.algorithm=ugal", "routing.virtual_channels=3" } };
    for (size_t i = 0; i < 3; i++)
        for (int seed = 1; seed <= 3; seed++) {
            char s[32];
            snprintf(s, sizeof s, "run.seed=%d", seed);
            const char *set[] = { "network.topology=dragonfly", "network.group_routers=3", "network.global_links=1",
                                  "network.concentration=2", routes[i][0], routes[i][1], "routing.switching=wormhole",
                                  "routing.router=iq", "routing.flit_buffers=4", "routing.deadlock_interval=1000",
                                  "workload.arrival=bernoulli", "workload.rate=0.9", "workload.rate_unit=flits",
                                  "workload.destination=group-shift", "workload.length=constant",
                                  "workload.mean_length=4", "run.allow_unstable=true", "run.warmup_time=5000",
                                  "run.duration=45000", s, NULL };
            struct config cfg;
            test_config(&cfg, set);
            struct run_report rep;
            ck_assert_msg(test_run(&cfg, &rep) == KERNEL_DONE, "%s seed %d stopped", routes[i][0], seed);
            ck_assert_double_gt(test_figure(&rep, "switching", "throughput_flits"), 0.05);
        }
    /* HyperX and the fat tree: Valiant and UGAL with a class per phase (2 VCs). */
    static const char *const phased[][4] = {
        { "network.topology=hyperx", "network.radix=3", "routing.algorithm=valiant", "workload.destination=uniform" },
        { "network.topology=hyperx", "network.radix=3", "routing.algorithm=ugal", "workload.destination=group-shift" },
        { "network.topology=fat-tree", "network.radix=3", "routing.algorithm=ugal", "workload.destination=random-permutation" },
    };
    for (size_t i = 0; i < 3; i++) {
        const char *set[] = { phased[i][0], phased[i][1], "network.dimension=2",
                              strstr(phased[i][0], "hyperx") ? "network.concentration=2" : "network.concentration=1",
                              phased[i][2],
                              phased[i][3], "routing.virtual_channels=2", "routing.switching=wormhole", "routing.router=iq",
                              "routing.flit_buffers=4", "routing.deadlock_interval=1000", "workload.arrival=bernoulli",
                              "workload.rate=0.9", "workload.rate_unit=flits", "workload.length=constant",
                              "workload.mean_length=4", "run.allow_unstable=true", "run.warmup_time=5000",
                              "run.duration=45000", NULL };
        struct config cfg;
        test_config(&cfg, set);
        struct run_report rep;
        ck_assert_msg(test_run(&cfg, &rep) == KERNEL_DONE, "%s %s stopped", phased[i][0], phased[i][2]);
    }
    /* adaptive-minimal and random-minimal with one escape VC on the canonical route (2 VCs). */
    static const char *const adaptive[][4] = { /* a fat tree's terminals are its leaves' */
        { "network.topology=hyperx", "network.radix=3", "routing.algorithm=adaptive-minimal",
          "network.concentration=2" },
        { "network.topology=fat-tree", "network.radix=3", "routing.algorithm=random-minimal",
          "network.concentration=1" },
        { "network.topology=fat-tree", "network.radix=2", "routing.algorithm=adaptive-minimal",
          "network.concentration=1" },
    };
    for (size_t i = 0; i < 3; i++)
        for (int seed = 1; seed <= 3; seed++) {
            char s[32];
            snprintf(s, sizeof s, "run.seed=%d", seed);
            const char *set[] = { adaptive[i][0], adaptive[i][1], "network.dimension=3", adaptive[i][3],
                                  adaptive[i][2], "routing.virtual_channels=2", "routing.switching=wormhole",
                                  "routing.router=iq", "routing.flit_buffers=4", "routing.deadlock_interval=1000",
                                  "workload.arrival=bernoulli", "workload.rate=0.9", "workload.rate_unit=flits",
                                  "workload.destination=random-permutation", "workload.length=constant",
                                  "workload.mean_length=4", "run.allow_unstable=true", "run.warmup_time=5000",
                                  "run.duration=45000", s, NULL };
            struct config cfg;
            test_config(&cfg, set);
            struct run_report rep;
            ck_assert_msg(test_run(&cfg, &rep) == KERNEL_DONE, "%s %s seed %d stopped", adaptive[i][0],
                          adaptive[i][2], seed);
        }
    static const char *const few[][2] = { { "routing.algorithm=minimal", "routing.virtual_channels=1" },
                                          { "routing.algorithm=valiant", "routing.virtual_channels=2" } };
    for (size_t i = 0; i < 2; i++) {
        const char *argv[] = { test_binary(), "-s", "network.topology=dragonfly", "-s", few[i][0], "-s", few[i][1],
                               "-s", "routing.switching=wormhole", "-s", "routing.router=iq", "configs/default.ini",
                               NULL };
        char out[4096], err[4096];
        ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
        ck_assert_msg(strstr(err, "routing.virtual_channels") && strstr(err, "deadlock-free"), "%s", err);
    }
}
END_TEST

/* network.global_latency: on the iq router a packet crossing one global link of latency
 * d takes d - 1 cycles more than with the default (routing.link_latency = 1): at zero
 * load under group-shift, where every packet crosses one, the fastest packet (a
 * terminal on a router holding the global link to a terminal on the router at its far
 * end: injection 2, two routers' stages 3 each, the link, ejection 2, 3 flits behind
 * the head) takes 2 + 2 * 3 + (d + 1) + 2 + 3 cycles.  The other engines refuse it. */
START_TEST(dragonfly_global_latency)
{
    for (int d = 1; d <= 9; d += 4) {
        char g[48];
        snprintf(g, sizeof g, "network.global_latency=%d", d);
        const char *set[] = { "network.topology=dragonfly", "network.concentration=2", "routing.algorithm=minimal",
                              "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=2",
                              "workload.arrival=bernoulli", "workload.rate=0.005", "workload.rate_unit=flits",
                              "workload.destination=group-shift", "workload.length=constant",
                              "workload.mean_length=4", "run.messages=3000", "run.warmup_messages=200", g, NULL };
        struct config cfg;
        test_config(&cfg, set);
        struct run_report rep;
        ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
        ck_assert_double_eq(rep.delay.min, 2 + 2 * 3 + (d + 1) + 2 + 3);
    }
    static const char *const others[][2] = { { "routing.switching=store-and-forward", "routing.router=simple" },
                                             { "routing.switching=wormhole", "routing.router=simple" } };
    for (size_t i = 0; i < 2; i++) {
        const char *argv[] = { test_binary(), "-s", "network.topology=dragonfly", "-s", "network.global_latency=4",
                               "-s", "routing.algorithm=minimal", "-s", others[i][0], "-s", others[i][1],
                               "-s", "workload.rate=0.01", "configs/default.ini", NULL };
        char out[4096], err[4096];
        ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
        ck_assert_msg(strstr(err, "only the iq router"), "%s", err);
    }
}
END_TEST

Suite *router_nets_suite(void)
{
    Suite *s = suite_create("router_nets");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, hyperx_matches_its_closed_forms);
    tcase_add_test(tc, fat_tree_matches_its_closed_forms);
    tcase_add_test(tc, fat_tree_routes_turn_once_and_split_destinations);
    tcase_add_test(tc, dragonfly_matches_its_closed_forms);
    tcase_add_test(tc, dragonfly_routes_take_one_global_link);
    tcase_add_test(tc, traffic_of_todays_networks);
    tcase_add_test(tc, impossible_router_networks_are_refused);
    tcase_add_test(tc, routings_that_do_not_apply_are_refused);
    tcase_add_test(tc, canonical_routes_never_deadlock_past_saturation);
    tcase_add_test(tc, dragonfly_classes_never_deadlock);
    tcase_add_test(tc, dragonfly_global_latency);
    suite_add_tcase(s, tc);
    return s;
}
