/* The time-resolution check (sim/run/replicate.c): a run whose simulated times would
 * reach more than 2^40 times its smallest step is refused before it starts, naming
 * the key to change (issue item 5: tiny rates gave wrong delays with exit 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../sim/run/replicate.h"
#include "../common/test.h"

enum { BIG = 1 << 16 };
static char out[BIG], err[BIG];

/* run_check() on the defaults and `settings`: 0 when it would run, else RUN_BAD_INPUT
 * with *e. */
static int check(const char *const *settings, struct cfg_error *e)
{
    struct config *cfg = malloc(sizeof *cfg);
    struct run_report *r = malloc(sizeof *r);
    ck_assert(cfg && r);
    test_config(cfg, settings);
    memset(e, 0, sizeof *e);
    int status = run_check(cfg, r, false, e);
    free(cfg);
    free(r);
    return status;
}

START_TEST(tiny_rate_is_refused_naming_workload_rate)
{
    /* The reproducer: 16 nodes at 1e-15 make 22000 messages by ~1.4e18. */
    char dir[] = "/tmp/simtest-res-XXXXXX";
    ck_assert(mkdtemp(dir));
    char output[64];
    snprintf(output, sizeof output, "%s/r.json", dir);
    const char *argv[] = { test_binary(), "configs/default.ini", "-s", "network.dimension=4", "-s",
                           "workload.rate=1e-15", "-s", "run.messages=2000", "-o", output, NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, BIG), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "command line (-s): workload.rate: simulated time would reach about 1.38e+18, more than "
                          "2^40 times the smallest step (1, a mean transmission, workload.mean_length over the "
                          "fastest bandwidth), so event times could no longer resolve that step; raise "
                          "workload.rate or lower run.warmup_messages and run.messages\n");
    ck_assert_int_eq(access(output, F_OK), -1); /* no output file, not even a temporary one */
    ck_assert_int_eq(rmdir(dir), 0);

    const char *subnormal[] = { test_binary(), "configs/default.ini", "-s", "network.dimension=4", "-s",
                                "workload.rate=3e-308", NULL };
    ck_assert_int_eq(test_exec(subnormal, out, BIG, err, BIG), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strncmp(err, "command line (-s): workload.rate: simulated time would reach past the largest "
                               "double, more than 2^40 times the smallest step (1, ",
                          strlen("command line (-s): workload.rate: simulated time would reach past the largest "
                                 "double, more than 2^40 times the smallest step (1, ")) == 0,
                  "%s", err);
    ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1); /* one line */
}
END_TEST

START_TEST(message_mode_limit_is_two_to_the_forty)
{
    /* 16 nodes, 20000 + 400000 messages, step 1: the limit is a rate of
     * 420000 / (16 * 2^40) = 2.3874e-8. */
    struct cfg_error e;
    const char *const under[] = { "network.dimension=4", "workload.rate=2.39e-8", NULL };
    ck_assert_int_eq(check(under, &e), 0);
    const char *const over[] = { "network.dimension=4", "workload.rate=2.38e-8", NULL };
    ck_assert_int_eq(check(over, &e), RUN_BAD_INPUT);
    ck_assert_str_eq(e.key, "workload.rate");
    ck_assert_str_eq(e.file, "test");
    ck_assert_int_eq(e.line, 2);
    ck_assert_msg(strstr(e.message, "about 1.1e+12"), "%s", e.message);
    /* A faster channel shortens the step: bandwidth 4 makes it 0.25, the limit 4 times the rate. */
    const char *const fast[] = { "network.dimension=4", "network.bandwidth=4", "workload.rate=9e-8", NULL };
    ck_assert_int_eq(check(fast, &e), RUN_BAD_INPUT);
    ck_assert_msg(strstr(e.message, "smallest step (0.25, a mean transmission"), "%s", e.message);
    const char *const fast_ok[] = { "network.dimension=4", "network.bandwidth=4", "workload.rate=9.6e-8", NULL };
    ck_assert_int_eq(check(fast_ok, &e), 0);
}
END_TEST

START_TEST(time_mode_blames_the_window)
{
    struct cfg_error e;
    const char *const ok[] = { "run.duration=1e12", NULL };
    ck_assert_int_eq(check(ok, &e), 0);
    const char *const longer[] = { "run.duration=1.2e12", NULL };
    ck_assert_int_eq(check(longer, &e), RUN_BAD_INPUT);
    ck_assert_str_eq(e.key, "run.duration");
    ck_assert_msg(strstr(e.message, "about 1.2e+12") && strstr(e.message, "shorten run.warmup_time + run.duration"),
                  "%s", e.message);
    const char *const warm[] = { "run.duration=1", "run.warmup_time=1.2e12", NULL };
    ck_assert_int_eq(check(warm, &e), RUN_BAD_INPUT);
    ck_assert_str_eq(e.key, "run.warmup_time");
    /* A tiny rate is harmless in time mode: times stop at the window's end. */
    const char *const rare[] = { "workload.rate=1e-300", "run.duration=100", NULL };
    ck_assert_int_eq(check(rare, &e), 0);
}
END_TEST

START_TEST(the_smallest_step_is_a_node_service_or_a_cycle)
{
    struct cfg_error e;
    /* A node service of 1/1000 is the step: 1e10 is 1e13 of them. */
    const char *const node[] = { "node.service_rate=1000", "run.duration=1e10", NULL };
    ck_assert_int_eq(check(node, &e), RUN_BAD_INPUT);
    ck_assert_msg(strstr(e.message, "smallest step (0.001, a node service, 1/node.service_rate)"), "%s", e.message);
    /* Store-and-forward: messages of 16 take 16, so 1e13 is fine; the flit engine steps
     * in cycles of 1, so it is not. */
    const char *const saf[] = { "workload.mean_length=16", "workload.rate=0.01", "run.duration=1e13", NULL };
    ck_assert_int_eq(check(saf, &e), 0);
    const char *const flit[] = { "workload.mean_length=16", "workload.rate=0.01", "run.duration=1e13",
                                 "routing.switching=wormhole", NULL };
    ck_assert_int_eq(check(flit, &e), RUN_BAD_INPUT);
    ck_assert_msg(strstr(e.message, "smallest step (1, a cycle)"), "%s", e.message);
}
END_TEST

START_TEST(a_trace_is_judged_by_its_last_time)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/simtest-%d-span.csv", (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert(f);
    fputs("0,0,1,1\n2e12,1,0,1\n", f);
    ck_assert_int_eq(fclose(f), 0);
    char set[96];
    snprintf(set, sizeof set, "workload.trace=%s", path);
    const char *const settings[] = { "network.dimension=4", "workload.arrival=trace", set, NULL };
    struct cfg_error e;
    ck_assert_int_eq(check(settings, &e), RUN_BAD_INPUT);
    ck_assert_str_eq(e.key, "workload.trace");
    ck_assert_msg(strstr(e.message, "about 2e+12"), "%s", e.message);
    f = fopen(path, "w");
    ck_assert(f);
    fputs("0,0,1,1\n1e12,1,0,1\n", f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(check(settings, &e), 0);
    unlink(path);
}
END_TEST

START_TEST(a_trace_is_judged_by_its_lengths_too)
{
    /* Issue 37 item 7: trace lengths skipped the check trace times get; a length of
     * 1e300 among lengths of 1 ran, its neighbours' delays unresolvable. */
    char path[64];
    snprintf(path, sizeof path, "/tmp/simtest-%d-lengths.csv", (int)getpid());
    char set[96];
    snprintf(set, sizeof set, "workload.trace=%s", path);
    const char *const settings[] = { "network.dimension=4", "workload.arrival=trace", set, NULL };
    const struct {
        const char *text;
        int status;
        const char *says;
    } cases[] = {
        { "0,0,1,1\n0.5,1,2,1e300\n1,2,3,1\n", RUN_BAD_INPUT, "about 1e+300" },  /* a long message */
        { "0,0,1,1e-9\n1e4,1,0,1\n", RUN_BAD_INPUT, "smallest step (1e-09, the trace's shortest transmission" },
        { "0,0,1,1e-9\n1e2,1,0,1\n", 0, "" }, /* 1e11 steps: under 2^40 */
        { "0,0,1,1e300\n", 0, "" },          /* one long message alone: its own step */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = fopen(path, "w");
        ck_assert(f);
        fputs(cases[i].text, f);
        ck_assert_int_eq(fclose(f), 0);
        struct cfg_error e;
        ck_assert_msg(check(settings, &e) == cases[i].status, "case %zu: %s", i, e.message);
        if (cases[i].status) {
            ck_assert_str_eq(e.key, "workload.trace");
            ck_assert_msg(strstr(e.message, cases[i].says), "case %zu: %s", i, e.message);
        }
    }
    unlink(path);
}
END_TEST

Suite *time_resolution_suite(void)
{
    Suite *s = suite_create("time_resolution");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, tiny_rate_is_refused_naming_workload_rate);
    tcase_add_test(tc, message_mode_limit_is_two_to_the_forty);
    tcase_add_test(tc, time_mode_blames_the_window);
    tcase_add_test(tc, the_smallest_step_is_a_node_service_or_a_cycle);
    tcase_add_test(tc, a_trace_is_judged_by_its_last_time);
    tcase_add_test(tc, a_trace_is_judged_by_its_lengths_too);
    suite_add_tcase(s, tc);
    return s;
}
