/* Issue 17's long check: every algorithm made deadlock-free by escape VCs (adaptive-minimal,
 * random-minimal with escapes) and Valiant, on both flit routers, runs 50,000 cycles
 * at and far past saturation on an 8x8 torus and a 6-cube with the deadlock search
 * every 64 cycles stopping the run: the search never fires.  (tests/unit/
 * test_simple_routing.c runs the same on small networks for 1,500 measured messages.) */
#include <stdio.h>
#include <string.h>

#include "../common/checks.h"
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

/* Issue 36: request-reply with bounded reply queues and separate VC sets per class, at
 * twice saturation, 3 seeds x 50,000 cycles: no protocol deadlock (tests/unit/
 * test_request_reply.c runs 20,000 cycles). */
START_TEST(separate_classes_never_deadlock_long)
{
    check_separate_classes_never_deadlock(50000);
}
END_TEST

Suite *deadlock_free_suite(void)
{
    Suite *s = suite_create("deadlock_free");
    TCase *tc = tcase_create("escape");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, escape_routes_never_deadlock_long);
    tcase_add_test(tc, separate_classes_never_deadlock_long);
    suite_add_tcase(s, tc);
    return s;
}
