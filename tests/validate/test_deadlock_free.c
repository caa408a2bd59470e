/* Issue 17's long check (and issue 34's, below): every algorithm made deadlock-free by escape VCs (adaptive-minimal,
 * random-minimal with escapes) and Valiant, on both flit routers, runs 50,000 cycles
 * at and far past saturation on an 8x8 torus and a 6-cube with the deadlock search
 * every 64 cycles stopping the run: the search never fires.  (tests/unit/
 * test_simple_routing.c runs the same on small networks for 1,500 measured messages.)
 * Issue 34's: every routing the iq router took on router networks and graphs (hop-indexed
 * classes, up-down, escape VCs on the dragonfly, Slim Fly and graphs), 3 seeds x 50,000
 * cycles each past saturation (tests/unit/test_iq_nets.c runs each 10,000 cycles once). */
#include <stdio.h>
#include <string.h>

#include "../common/checks.h"
#include "../common/iq_nets_checks.h"
#include "../common/test.h"

static void run_one(const char *router, const char *const *network, const char *const *algorithm, const char *rate,
                    bool past)
{
    const char *settings[24];
    size_t n = 0;
    for (size_t i = 0; network[i]; i++)
        settings[n++] = network[i];
    for (size_t i = 0; algorithm[i]; i++)
        settings[n++] = algorithm[i];
    const char *const common[] = { "routing.switching=wormhole", "workload.length=constant", "workload.mean_length=8",
                                   "routing.deadlock=stop", "routing.deadlock_interval=64",
                                   "run.warmup_time=1000", "run.duration=50000", "run.allow_unstable=true", NULL };
    for (size_t i = 0; common[i]; i++)
        settings[n++] = common[i];
    settings[n++] = router;
    settings[n++] = rate;
    settings[n] = NULL;
    struct config cfg;
    test_config(&cfg, settings);
    struct run_report r;
    enum kernel_stop why = test_run(&cfg, &r);
    fprintf(stderr, "  %s %s %s %s: %s, %.3f flits/node/cycle accepted%s\n", router, network[1], algorithm[0], rate,
            why == KERNEL_DONE ? "completed" : "STOPPED", test_figure(&r, "switching", "throughput_flits"),
            r.stability.saturated ? ", saturated" : "");
    ck_assert_msg(why == KERNEL_DONE, "%s %s %s %s: stopped", router, network[1], algorithm[0], rate);
    if (past)
        ck_assert_msg(r.stability.saturated, "%s %s %s %s: not past saturation", router, network[1], algorithm[0], rate);
}

START_TEST(escape_routes_never_deadlock_long)
{
    static const char *const torus[] = { "network.topology=torus", "network.radix=8", "network.dimension=2", NULL };
    static const char *const cube[] = { "network.topology=hypercube", "network.dimension=6", NULL };
    static const char *const torus_algorithms[][4] = {
        { "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3", NULL },
        { "routing.algorithm=random-minimal", "routing.virtual_channels=4", "routing.escape_vcs=2", NULL },
        { "routing.algorithm=valiant", "routing.virtual_channels=4", NULL },
    };
    static const char *const cube_algorithms[][4] = {
        { "routing.algorithm=adaptive-minimal", "routing.virtual_channels=2", NULL },
        { "routing.algorithm=random-minimal", "routing.virtual_channels=2", "routing.escape_vcs=1", NULL },
        { "routing.algorithm=valiant", "routing.virtual_channels=2", NULL },
    };
    static const char *const routers[] = { "routing.router=simple", "routing.router=iq" };
    /* 0.4 flits per node and cycle: under saturation for minimal routing, past it for Valiant; 1.6: far
     * past it for all (checked: the run is called saturated) */
    static const char *const rates[] = { "workload.rate=0.05", "workload.rate=0.2" };
    for (size_t k = 0; k < 2; k++)
        for (size_t a = 0; a < 3; a++)
            for (size_t l = 0; l < 2; l++) {
                run_one(routers[k], torus, torus_algorithms[a], rates[l], l == 1);
                run_one(routers[k], cube, cube_algorithms[a], rates[l], l == 1);
            }
}
END_TEST

START_TEST(iq_router_networks_never_deadlock_long)
{
    for (size_t i = 0; i < iq_net_cases_count; i++)
        for (int seed = 1; seed <= 3; seed++)
            check_iq_net_never_deadlocks(i, seed, 50000);
}
END_TEST

/* Issue 34: the simple router's VC classes on router networks (routing/flit_classes.h),
 * for paths drawn at creation, Valiant's and per-hop routing's escape VCs, 3 seeds x
 * 50,000 cycles each offered 1.25 flits per terminal per cycle (twice or more what
 * each saturates at), the search every 64 cycles: it never fires, and every run is past
 * saturation. */
START_TEST(router_network_classes_never_deadlock_long)
{
    static const char *const nets[][8] = {
        { "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2",
          "network.concentration=2", "routing.algorithm=minimal", "routing.virtual_channels=2", NULL },
        { "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2",
          "network.concentration=2", "network.groups=5", "routing.algorithm=random-minimal",
          "routing.virtual_channels=2", NULL },
        { "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2",
          "network.concentration=2", "routing.algorithm=valiant", "routing.virtual_channels=3", NULL },
        { "network.topology=slim-fly", "network.q=5", "network.concentration=2", "routing.algorithm=minimal",
          "routing.virtual_channels=2", NULL },
        { "network.topology=slim-fly", "network.q=5", "network.concentration=2", "routing.algorithm=valiant",
          "routing.virtual_channels=4", NULL },
        { "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges", "routing.algorithm=minimal",
          "routing.virtual_channels=4", NULL },
        { "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges", "routing.algorithm=valiant",
          "routing.virtual_channels=8", NULL },
        { "network.topology=torus", "network.radix=4", "network.dimension=2", "network.concentration=2",
          "routing.algorithm=minimal", "routing.virtual_channels=2", NULL },
        { "network.topology=torus", "network.radix=4", "network.dimension=2", "network.concentration=2",
          "routing.algorithm=valiant", "routing.virtual_channels=4", NULL },
        /* per hop: escape VCs on the canonical minimal route (their classes), adaptive VCs beyond */
        { "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2",
          "network.concentration=2", "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3", NULL },
        { "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2",
          "network.concentration=2", "routing.algorithm=random-minimal", "routing.virtual_channels=3",
          "routing.escape_vcs=2", NULL },
        { "network.topology=slim-fly", "network.q=5", "network.concentration=2", "routing.algorithm=adaptive-minimal",
          "routing.virtual_channels=3", NULL },
        { "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges",
          "routing.algorithm=adaptive-minimal", "routing.virtual_channels=5", NULL },
        { "network.topology=graph", "network.graph_file=configs/graphs/irregular-6.edges",
          "routing.algorithm=adaptive-minimal", "routing.virtual_channels=4", NULL },
        { "network.topology=torus", "network.radix=4", "network.dimension=2", "network.concentration=2",
          "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3", NULL },
        { "network.topology=fat-tree", "network.radix=4", "network.dimension=2", "routing.algorithm=adaptive-minimal",
          "routing.virtual_channels=2", NULL },
        { "network.topology=hyperx", "network.radix=3", "network.dimension=2", "network.concentration=2",
          "routing.algorithm=adaptive-minimal", "routing.virtual_channels=2", NULL },
    };
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
        for (int seed = 1; seed <= 3; seed++) {
            char s[32];
            snprintf(s, sizeof s, "run.seed=%d", seed);
            const char *settings[32];
            size_t n = 0;
            const char *algorithm = "";
            for (size_t k = 0; nets[i][k]; k++) {
                settings[n++] = nets[i][k];
                if (strncmp(nets[i][k], "routing.algorithm=", 18) == 0)
                    algorithm = nets[i][k] + 18;
            }
            const char *const load[] = { "routing.switching=wormhole", "routing.router=simple",
                                         "workload.arrival=bernoulli", "workload.rate=1.25", "workload.rate_unit=flits",
                                         "workload.length=constant", "workload.mean_length=8",
                                         "routing.deadlock=stop", "routing.deadlock_interval=64",
                                         "run.warmup_time=1000", "run.duration=50000", "run.allow_unstable=true", s,
                                         NULL };
            for (size_t k = 0; load[k]; k++)
                settings[n++] = load[k];
            settings[n] = NULL;
            struct config cfg;
            test_config(&cfg, settings);
            struct run_report r;
            enum kernel_stop why = test_run(&cfg, &r);
            fprintf(stderr, "  simple %s %s seed %d: %s, %.3f flits/terminal/cycle accepted%s\n", nets[i][0] + 17,
                    algorithm, seed, why == KERNEL_DONE ? "completed" : "STOPPED",
                    test_figure(&r, "switching", "throughput_flits"), r.stability.saturated ? ", saturated" : "");
            ck_assert_msg(why == KERNEL_DONE, "%s %s seed %d: stopped", nets[i][0], algorithm, seed);
            ck_assert_msg(r.stability.saturated, "%s %s seed %d: not past saturation", nets[i][0], algorithm, seed);
        }
}
END_TEST

/* Issue 36: request-reply with bounded reply queues and separate VC sets per class, at
 * twice saturation, 3 seeds x 50,000 cycles on either router: no protocol deadlock
 * (tests/unit/test_request_reply.c runs 20,000 cycles). */
START_TEST(separate_classes_never_deadlock_long)
{
    check_separate_classes_never_deadlock("simple", 50000);
    check_separate_classes_never_deadlock("iq", 50000);
}
END_TEST

Suite *deadlock_free_suite(void)
{
    Suite *s = suite_create("deadlock_free");
    TCase *tc = tcase_create("escape");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, escape_routes_never_deadlock_long);
    tcase_add_test(tc, iq_router_networks_never_deadlock_long);
    tcase_add_test(tc, router_network_classes_never_deadlock_long);
    tcase_add_test(tc, separate_classes_never_deadlock_long);
    suite_add_tcase(s, tc);
    return s;
}
