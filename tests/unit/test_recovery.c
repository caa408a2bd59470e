/* Deadlock recovery in the simple wormhole router (routing.deadlock = recover): a
 * random wormhole network without virtual channels, which stops with exit status 3
 * under routing.deadlock = stop, completes, with the engine's ownership of VCs and its
 * queues consistent at every delivery, and every measured message delivered. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../routing/flit.h"
#include "../../routing/flit_setup.h"
#include "../common/checks.h"
#include "../common/test.h"

/* A 4-cube, one VC of one flit buffer, random shortest paths, short worms at a load
 * that deadlocks within a few hundred cycles. */
#define RECOVERY_SETTINGS                                                                                          \
    "network.topology=hypercube", "network.dimension=4", "routing.switching=wormhole",                            \
        "routing.algorithm=random-minimal", "routing.flit_buffers=1", "workload.rate=0.04",                       \
        "workload.mean_length=12", "workload.length=constant", "run.allow_unstable=true"

START_TEST(recovery_completes_a_deadlocking_run)
{
    const char *const settings[] = { RECOVERY_SETTINGS, "routing.deadlock=recover", "routing.deadlock_interval=16",
                                     "routing.recovery_delay=5", "run.warmup_messages=1000", "run.messages=20000",
                                     NULL };
    struct config cfg;
    static struct network net;
    test_network(&net, &cfg, settings);
    struct flit_engine *e = flit_engine_of(net.engine, net.engine_state);
    ck_assert_ptr_nonnull(e);
    struct flit_invariants k = { e, 0 };
    e->obs = (struct flit_observer){ &k, NULL, flit_check_invariants };
    ck_assert_int_eq(net_run(&net), KERNEL_DONE);
    ck_assert_uint_gt(k.checks, 20000);
    ck_assert_uint_eq(net.probe.delay.count, 20000);
    ck_assert_uint_gt(e->recoveries, 10);
    net_free(&net);

    struct run_report rep;
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    double recoveries = test_figure(&rep, "switching", "recoveries");
    ck_assert(recoveries > 10);
    ck_assert_double_eq_tol(test_figure(&rep, "switching", "recovery_rate"),
                            recoveries / (rep.throughput * rep.window * 16), 1e-9);
}
END_TEST

START_TEST(the_same_run_stops_without_recovery)
{
    /* The recovery test is not vacuous: the same configuration deadlocks. */
    const char *const argv[] = { test_binary(), "configs/default.ini", "--no-progress", "-s",
                                 "network.dimension=4", "-s", "routing.switching=wormhole", "-s",
                                 "routing.algorithm=random-minimal", "-s", "routing.flit_buffers=1", "-s",
                                 "workload.rate=0.04", "-s", "workload.mean_length=12", "-s", "workload.length=constant",
                                 "-s", "run.allow_unstable=true", "-s", "routing.deadlock_interval=16", "-s",
                                 "run.warmup_messages=1000", "-s", "run.messages=20000", "-s",
                                 "routing.deadlock_check=off", NULL }; /* the static check would refuse it */
    char out[4096], errs[4096];
    int status = test_exec(argv, out, sizeof out, errs, sizeof errs);
    ck_assert_msg(status == 3 && strstr(errs, "deadlock at cycle"), "exit status %d, stderr: %s", status, errs);
}
END_TEST

START_TEST(recovery_changes_nothing_without_deadlock)
{
    /* Dimension order on a hypercube never deadlocks: recover gives the same delays,
     * and no recovery figures beyond the count 0. */
    const char *const base[] = { "network.dimension=5", "routing.switching=wormhole", "workload.rate=0.02",
                                 "workload.mean_length=12", "run.warmup_messages=500", "run.messages=5000", NULL };
    const char *const recover[] = { "network.dimension=5", "routing.switching=wormhole", "workload.rate=0.02",
                                    "workload.mean_length=12", "run.warmup_messages=500", "run.messages=5000",
                                    "routing.deadlock=recover", "routing.deadlock_interval=1", NULL };
    struct config a, b;
    test_config(&a, base);
    test_config(&b, recover);
    struct run_report ra, rb;
    ck_assert_int_eq(test_run(&a, &ra), KERNEL_DONE);
    ck_assert_int_eq(test_run(&b, &rb), KERNEL_DONE);
    ck_assert_double_eq(ra.delay.mean, rb.delay.mean);
    ck_assert_double_eq(ra.delay.max, rb.delay.max);
    ck_assert_double_eq(test_figure(&rb, "switching", "recoveries"), 0);
}
END_TEST

START_TEST(recovery_refused_on_the_iq_router)
{
    const char *const argv[] = { test_binary(), "configs/iq/torus-8x8.ini", "--no-progress", "-s",
                                 "routing.deadlock=recover", NULL };
    char out[4096], errs[4096];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, errs, sizeof errs), 2);
    ck_assert_msg(strstr(errs, "routing.deadlock") && strstr(errs, "simple"), "stderr: %s", errs);
    ck_assert_str_eq(out, "");
}
END_TEST

Suite *recovery_suite(void)
{
    Suite *s = suite_create("recovery");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, recovery_completes_a_deadlocking_run);
    tcase_add_test(tc, the_same_run_stops_without_recovery);
    tcase_add_test(tc, recovery_changes_nothing_without_deadlock);
    tcase_add_test(tc, recovery_refused_on_the_iq_router);
    suite_add_tcase(s, tc);
    return s;
}
