/* Request-reply traffic (workload.classes = request-reply, sim/run/request_reply.h):
 * the round trip of a message alone is its request's latency, the reply delay and its
 * reply's latency exactly; a source capped at one outstanding request runs a closed
 * loop whose request rate is one over the mean round trip; configurations it cannot
 * run are refused. */
#include <math.h>
#include <string.h>

#include "../common/test.h"

/* On a 4 x 4 mesh with the iq router, destinations exactly 3 hops away, one flit a
 * request and 4 a reply, created at whole cycles (Bernoulli) and so rarely that no two
 * messages meet: every request takes the closed form 2 + 4 * 3 + 3 * 2 + 2 = 22 cycles
 * (tests/unit/test_iq.c), every reply 22 + 3 = 25, and the round trip is exactly
 * 22 + 7 + 25. */
START_TEST(round_trip_of_a_message_alone)
{
    const char *const settings[] = { "network.topology=mesh", "network.radix=4", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.router=iq", "routing.flit_buffers=8",
                                     "workload.arrival=bernoulli", "workload.rate=1e-7",
                                     "workload.destination=fixed-hops", "workload.hops=3",
                                     "workload.classes=request-reply", "workload.request_length=1",
                                     "workload.reply_length=4", "workload.reply_delay=7", "run.messages=400",
                                     "run.warmup_messages=0", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    struct run_report rep;
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    ck_assert_double_eq(test_figure(&rep, "classes", "request_delay"), 22);
    ck_assert_double_eq(test_figure(&rep, "classes", "reply_delay"), 25);
    ck_assert_double_eq(test_figure(&rep, "classes", "round_trip"), 22 + 7 + 25);
    ck_assert_double_eq(rep.delay.min, 22);
    ck_assert_double_eq(rep.delay.max, 25);
}
END_TEST

/* Capped at one outstanding request and offered far more: each terminal's next request
 * starts when its reply arrives, so requests per terminal per cycle are 1 / E[round
 * trip] (a renewal process), within 2%; the interval of the round trip holds its mean. */
START_TEST(closed_loop_rate_is_one_over_the_round_trip)
{
    const char *const nets[][3] = {
        { "network.topology=mesh", "routing.switching=wormhole", "routing.router=iq" },
        { "network.topology=torus", "routing.switching=store-and-forward", "routing.algorithm=ecube" },
    };
    for (size_t i = 0; i < 2; i++) {
        const char *const settings[] = { nets[i][0], nets[i][1], nets[i][2], "network.radix=4", "network.dimension=2",
                                         "routing.virtual_channels=2", "workload.arrival=bernoulli",
                                         "workload.rate=0.5", "workload.classes=request-reply",
                                         "workload.request_length=2", "workload.reply_length=4",
                                         "workload.reply_delay=3", "workload.max_outstanding=1",
                                         "run.allow_unstable=true", "run.messages=60000", NULL };
        struct config cfg;
        test_config(&cfg, settings);
        struct run_report rep;
        ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
        double rt = test_figure(&rep, "classes", "round_trip"), rate = test_figure(&rep, "classes", "requests_per_terminal");
        double lo = test_figure(&rep, "classes", "round_trip_ci_low"), hi = test_figure(&rep, "classes", "round_trip_ci_high");
        ck_assert_msg(fabs(rate * rt - 1) < 0.02, "%s: %g requests per terminal per cycle, round trip %g", nets[i][0],
                      rate, rt);
        ck_assert_msg(lo < rt && rt < hi && hi - lo < 0.05 * rt, "%s: round trip %g in [%g, %g]", nets[i][0], rt, lo,
                      hi);
        ck_assert_double_gt(test_figure(&rep, "classes", "held"), 1000);
    }
}
END_TEST

START_TEST(request_reply_refusals)
{
    const char *argv[] = { test_binary(), "-s", "workload.classes=request-reply", "-s", "routing.algorithm=backtracking",
                           "-s", "routing.buffers=6", "configs/default.ini", NULL };
    char out[4096], err[4096];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "workload.classes") && strstr(err, "slotted"), "%s", err);
    ck_assert_str_eq(out, "");
    const char *flits[] = { test_binary(), "-s", "workload.classes=request-reply", "configs/iq/torus-8x8.ini", NULL };
    ck_assert_int_eq(test_exec(flits, out, sizeof out, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "workload.rate_unit") && strstr(err, "requests"), "%s", err);
}
END_TEST

Suite *request_reply_suite(void)
{
    Suite *s = suite_create("request_reply");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, round_trip_of_a_message_alone);
    tcase_add_test(tc, closed_loop_rate_is_one_over_the_round_trip);
    tcase_add_test(tc, request_reply_refusals);
    suite_add_tcase(s, tc);
    return s;
}
