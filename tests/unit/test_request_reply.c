/* Request-reply traffic (workload.classes = request-reply, sim/run/request_reply.h):
 * the round trip of a message alone is its request's latency, the reply delay and its
 * reply's latency exactly; a source capped at one outstanding request runs a closed
 * loop whose request rate is one over the mean round trip; configurations it cannot
 * run are refused. */
#include <math.h>
#include <string.h>

#include "../../routing/iq.h"
#include "../common/checks.h"
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

/* configs/request-reply-mesh.ini (4 x 4 mesh, wormhole, 4-flit requests and replies,
 * reply queues of 2) at twice its saturation (about 0.064 requests per terminal per
 * cycle is all it delivers), for `cycles` cycles. */
static const char *const overloaded[] = { "workload.rate=0.13", "run.allow_unstable=true", NULL };

/* With shared VCs the static check refuses the run naming the protocol cycle and the
 * fix; unchecked, the run deadlocks, and the search names a cycle through a terminal's
 * full reply queue (exit status 3): on either router. */
START_TEST(shared_vcs_deadlock_through_a_full_reply_queue)
{
    char out[8192], err[4096];
    for (int iq = 0; iq < 2; iq++) {
        const char *router = iq ? "routing.router=iq" : "routing.router=simple";
        const char *checked[] = { test_binary(), "-s", "routing.class_vcs=shared", "-s", router,
                                  "configs/request-reply-mesh.ini", NULL };
        ck_assert_int_eq(test_exec(checked, out, sizeof out, err, sizeof err), 2);
        ck_assert_msg(strstr(err, "routing.class_vcs") && strstr(err, "protocol deadlock") &&
                      strstr(err, "the fix: routing.class_vcs = separate") && !strchr(strchr(err, '\n') + 1, '\n'),
                      "%s: %s", router, err);
        ck_assert_str_eq(out, "");
        for (int seed = 1; seed <= 3; seed++) {
            char seed_setting[32];
            snprintf(seed_setting, sizeof seed_setting, "run.seed=%d", seed);
            const char *run[] = { test_binary(), "-s", "routing.class_vcs=shared", "-s", "routing.deadlock_check=off",
                                  "-s", overloaded[0], "-s", overloaded[1], "-s", seed_setting, "-s", router,
                                  "configs/request-reply-mesh.ini", NULL };
            ck_assert_int_eq(test_exec(run, out, sizeof out, err, sizeof err), 3);
            ck_assert_msg(strstr(err, "deadlock at cycle") && strstr(err, "ejection of requests at terminal") &&
                          strstr(err, "(reply queue full)"), "%s seed %d: %s", router, seed, err);
        }
    }
}
END_TEST

/* With separate VC sets (and injection lines) per class the same overload never
 * deadlocks: 3 seeds x 20,000 cycles here, x 50,000 in tests/validate. */
START_TEST(separate_vcs_never_deadlock)
{
    check_separate_classes_never_deadlock("simple", 20000);
    check_separate_classes_never_deadlock("iq", 20000);
}
END_TEST

/* The iq router's reply queue, watched cycle by cycle on configs/request-reply-mesh.ini's
 * network past saturation: no terminal ever holds more than q places, and with separate
 * class VCs a terminal's replies go into the network while a request of its own is
 * half-injected (its source queue per class): a reply never waits behind a request. */
struct reply_watch {
    const struct iq_engine *e;
    uint32_t most_held;
    uint64_t replies_past_a_request; /* reply flits injected while the node's request line is mid-packet */
};

static void rw_injected(void *ctx, uint32_t node, uint32_t packet, uint32_t seq, int64_t cycle)
{
    (void)seq, (void)cycle;
    struct reply_watch *w = ctx;
    if (w->e->packets[packet].reply && w->e->src_vc[2 * node] != UINT32_MAX)
        w->replies_past_a_request++;
}

static void rw_cycle_end(void *ctx, int64_t cycle)
{
    (void)cycle;
    struct reply_watch *w = ctx;
    for (uint32_t t = 0; t < w->e->N; t++)
        if (w->e->reply_held[t] > w->most_held)
            w->most_held = w->e->reply_held[t];
}

START_TEST(iq_reply_queue_bounds_and_lines)
{
    const char *const settings[] = { "network.topology=mesh", "network.radix=4", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=1",
                                     "routing.flit_buffers=2", "routing.class_vcs=separate",
                                     "workload.arrival=bernoulli", "workload.classes=request-reply",
                                     "workload.request_length=4", "workload.reply_length=4", "workload.reply_delay=2",
                                     "workload.reply_queue=2", "workload.rate=0.13", "run.allow_unstable=true",
                                     "run.warmup_time=0", "run.duration=5000", NULL };
    struct config cfg;
    static struct network net;
    test_network(&net, &cfg, settings);
    struct iq_engine *e = iq_engine_of(net.engine, net.engine_state);
    ck_assert_ptr_nonnull(e);
    ck_assert(e->class_lines);
    struct reply_watch w = { .e = e };
    e->obs = (struct iq_observer){ .ctx = &w, .injected = rw_injected, .cycle_end = rw_cycle_end };
    ck_assert_int_eq(net_run(&net), KERNEL_DONE);
    net_free(&net);
    ck_assert_uint_eq(w.most_held, 2); /* full at times, never over */
    ck_assert_uint_gt(w.replies_past_a_request, 1000); /* 5439 with the default seed */
}
END_TEST

/* The static check walks both classes as one graph: with a bounded reply queue, shared
 * VCs close a cycle through a request's ejection and its reply (refused, naming the
 * fix), separate ones are proved, for dimension order on a mesh, a torus (dateline
 * VCs) and a hypercube and for adaptive-minimal with escape VCs (Duato), on either
 * router; cut-through (simple router only) holds no channel. */
START_TEST(static_check_walks_both_classes)
{
    const char *const nets[][4] = {
        { "network.topology=mesh", "routing.virtual_channels=1", "routing.algorithm=ecube", "2" },
        { "network.topology=torus", "routing.virtual_channels=2", "routing.algorithm=ecube", "2" },
        { "network.topology=hypercube", "network.dimension=4", "routing.algorithm=ecube", "2" },
        { "network.topology=mesh", "routing.virtual_channels=2", "routing.algorithm=adaptive-minimal", "2" },
        { "network.topology=mesh", "routing.switching=cut-through", "routing.algorithm=ecube", "0" },
    };
    char out[4096], err[4096];
    for (size_t i = 0; i < 2 * (sizeof nets / sizeof nets[0]); i++)
        for (int shared = 0; shared < 2; shared++) {
            size_t n = i % (sizeof nets / sizeof nets[0]);
            bool iq = i >= sizeof nets / sizeof nets[0];
            if (iq && nets[n][3][0] == '0') /* the iq router is wormhole only */
                continue;
            const char *argv[] = { test_binary(), "--check-deadlock", "-s", nets[n][0], "-s", nets[n][1], "-s",
                                   nets[n][2], "-s", shared ? "routing.class_vcs=shared" : "routing.class_vcs=separate",
                                   "-s", iq ? "routing.router=iq" : "routing.router=simple",
                                   "configs/request-reply-mesh.ini", NULL };
            int want = shared ? nets[n][3][0] - '0' : 0;
            ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), want);
            if (want)
                ck_assert_msg(strstr(out, "refused") && strstr(out, "protocol deadlock") &&
                              strstr(out, "the fix: routing.class_vcs = separate"), "%s%s: %s", nets[n][0], iq ? " (iq)" : "", out);
            else
                ck_assert_msg(strstr(out, nets[n][3][0] == '0' ? "not needed" : "proved") &&
                              (nets[n][3][0] == '0' || strstr(out, "both message classes")), "%s: %s", nets[n][0],
                              out);
        }
}
END_TEST

/* One class of message: routing.class_vcs changes nothing (no second set). */
START_TEST(class_vcs_without_classes_changes_nothing)
{
    char a[16384], b[16384], err[4096];
    const char *sep[] = { test_binary(), "--no-timing", "-f", "json", "-s", "run.messages=3000", "-s",
                          "routing.class_vcs=separate", "configs/002/mesh.ini", NULL };
    const char *shr[] = { test_binary(), "--no-timing", "-f", "json", "-s", "run.messages=3000", "-s",
                          "routing.class_vcs=shared", "configs/002/mesh.ini", NULL };
    ck_assert_int_eq(test_exec(sep, a, sizeof a, err, sizeof err), 0);
    ck_assert_int_eq(test_exec(shr, b, sizeof b, err, sizeof err), 0);
    char *ka = strstr(a, "\"class_vcs\""), *kb = strstr(b, "\"class_vcs\"");
    ck_assert_ptr_nonnull(ka);
    ck_assert_ptr_nonnull(kb);
    ck_assert_str_eq(strchr(ka, ','), strchr(kb, ','));
}
END_TEST

/* A bounded reply queue needs a flit engine's ejection (either router); recovery and
 * finite buffers cannot keep its count. */
START_TEST(reply_queue_refusals)
{
    char out[4096], err[4096];
    const char *const refused[][3] = {
        { "routing.switching=store-and-forward", "workload.reply_queue", "store-and-forward" },
        { "routing.deadlock=recover", "routing.deadlock", "stop" },
        { "routing.finite_buffer=true", "routing.finite_buffer", "reply queue" },
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const char *argv[] = { test_binary(), "-s", refused[i][0], "configs/request-reply-mesh.ini", NULL };
        ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
        ck_assert_msg(strstr(err, refused[i][1]) && strstr(err, refused[i][2]), "%s: %s", refused[i][0], err);
        ck_assert_str_eq(out, "");
    }
}
END_TEST

/* The channel loads count both classes: a reply retraces its request's flow reversed.
 * Under neighbor traffic on a 4 x 4 torus every request takes dim0+ and dim1+ once and
 * every reply dim0- and dim1- once, so at 0.1 requests per terminal, requests of 1 and
 * replies of 3, the + classes are loaded 0.1 and the - classes 0.3 exactly; hotspot
 * traffic on a mesh is enumerated pair by pair.  Store-and-forward's measured
 * utilisation of every class within 3%.  With a cap on outstanding requests the
 * offered rate is not known in advance: no loads. */
START_TEST(loads_count_requests_and_replies)
{
    const char *const nets[][2] = { { "network.topology=torus", "workload.destination=neighbor" },
                                    { "network.topology=mesh", "workload.destination=hotspot" } };
    for (size_t i = 0; i < 2; i++) {
        const char *const settings[] = { nets[i][0], nets[i][1], "network.radix=4", "network.dimension=2",
                                         "routing.switching=store-and-forward", "routing.algorithm=ecube",
                                         "workload.classes=request-reply", "workload.request_length=1",
                                         "workload.reply_length=3", i ? "workload.rate=0.05" : "workload.rate=0.1",
                                         "run.messages=100000", "run.warmup_messages=5000", NULL };
        struct config cfg;
        test_config(&cfg, settings);
        struct run_report rep;
        ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
        ck_assert_uint_eq(rep.classes, 4);
        for (unsigned c = 0; c < rep.classes; c++) {
            const struct class_report *k = &rep.cls[c];
            if (i == 0)
                ck_assert_double_eq_tol(k->analytic_utilization, k->name[4] == '+' ? 0.1 : 0.3, 1e-12);
            ck_assert_msg(fabs(k->utilization_mean / k->analytic_utilization - 1) < 0.03, "%s %s: simulated %g, "
                          "analytic %g", nets[i][0], k->name, k->utilization_mean, k->analytic_utilization);
        }
    }
    const char *const closed[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                   "routing.switching=store-and-forward", "workload.classes=request-reply",
                                   "workload.max_outstanding=1", "run.messages=2000", NULL };
    struct config cfg;
    test_config(&cfg, closed);
    struct run_report rep;
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    ck_assert(isnan(rep.cls[0].analytic_utilization));
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
    tcase_add_test(tc, shared_vcs_deadlock_through_a_full_reply_queue);
    tcase_add_test(tc, separate_vcs_never_deadlock);
    tcase_add_test(tc, iq_reply_queue_bounds_and_lines);
    tcase_add_test(tc, class_vcs_without_classes_changes_nothing);
    tcase_add_test(tc, reply_queue_refusals);
    tcase_add_test(tc, loads_count_requests_and_replies);
    tcase_add_test(tc, static_check_walks_both_classes);
    suite_add_tcase(s, tc);
    return s;
}
