/* Seed 001's backtracking engine: invariants, conservation, known answers (M = n,
 * light load, acceptance as the rate falls), identities that hold exactly in
 * expectation (Little, P_A = 1 − P[full] for geometric input), the note's worked
 * example, and the configurations it must refuse.  The paper's stated shapes (12 runs)
 * are checked by tests/validate/test_backtracking.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../routing/backtracking.h"
#include "../common/checks.h"
#include "../common/test.h"

/* A figure the engine reported (sim/core/figures.h), by name. */
static double bt(const struct run_report *r, const char *name) { return test_figure(r, "backtracking", name); }

static void assert_conservation(const struct backtracking_figures *f)
{
    const struct backtracking_counts *r = &f->run;
    ck_assert_uint_eq(r->generated, r->accepted + r->rejected);
    ck_assert_uint_eq(r->accepted, r->delivered + f->in_network);
    ck_assert_uint_le(f->max_occupancy, f->buffers);
    const struct backtracking_counts *w = &f->window;
    ck_assert_uint_eq(w->generated, w->accepted + w->rejected);
}

START_TEST(invariants_hold_at_overload_for_every_forced_choice)
{
    const char *rules[] = { "youngest", "oldest", "random" };
    for (int m = 4; m <= 6; m++)
        for (int i = 0; i < 3; i++) {
            char rule[64];
            snprintf(rule, sizeof rule, "routing.forced_choice=%s", rules[i]);
            const char *extra[] = { rule, "run.warmup_messages=2000", "run.messages=20000", NULL };
            struct config cfg;
            bt_config(&cfg, 4, m, 4.0, extra); /* far beyond what the 4-cube accepts */
            struct run_report r;
            struct backtracking_figures f = bt_run(&cfg, &r);
            assert_conservation(&f);
            ck_assert_uint_eq(f.max_occupancy, (uint32_t)m); /* overloaded: nodes do fill up */
            ck_assert(f.run.rejected > 0 && f.run.backtracks > 0);
            /* Forced sends happen exactly when a node holds more than M − n after phase 1. */
            ck_assert(f.run.forced_sends >= f.run.backtracks);
            ck_assert(bt(&r, "acceptance") > 0 && bt(&r, "acceptance") < 1);
        }
}
END_TEST

START_TEST(m_equal_n_sends_every_message_every_cycle)
{
    const char *extra[] = { "run.warmup_messages=1000", "run.messages=20000", NULL };
    struct config cfg;
    bt_config(&cfg, 5, 5, 2.0, extra);
    struct run_report r;
    struct backtracking_figures f = bt_run(&cfg, &r);
    assert_conservation(&f);
    /* Every message held at a cycle's start crosses a channel in that cycle. */
    ck_assert_uint_eq(f.run.sends, f.run.occupancy);
    ck_assert_uint_eq(f.window.sends, f.window.occupancy);
    /* So a message's delay is its number of hops, exactly. */
    ck_assert_double_eq_tol(r.delay.mean, r.hops_mean, 1e-9);
}
END_TEST

START_TEST(light_load_delay_is_the_distance_and_nothing_is_rejected)
{
    const char *extra[] = { "run.warmup_messages=500", "run.messages=20000", NULL };
    struct config cfg;
    bt_config(&cfg, 6, 10, 0.002, extra);
    struct run_report r;
    struct backtracking_figures f = bt_run(&cfg, &r);
    assert_conservation(&f);
    double dbar = 6.0 * 32 / 63; /* n 2^(n−1) / (2^n − 1): destinations exclude the source */
    ck_assert_msg(r.delay.ci95[0] <= dbar && dbar <= r.delay.ci95[1], "delay %g [%g, %g], distance %g", r.delay.mean,
                  r.delay.ci95[0], r.delay.ci95[1], dbar);
    ck_assert_uint_eq(f.run.rejected, 0);
    ck_assert_double_eq(bt(&r, "acceptance"), 1.0);
    ck_assert_uint_eq(f.run.backtracks, 0);
    ck_assert_double_eq_tol(r.delay.mean, r.hops_mean, 2e-3); /* waiting for a channel is rare */
}
END_TEST

START_TEST(acceptance_rises_to_one_as_the_rate_falls)
{
    const double rates[] = { 4.0, 1.5, 0.5, 0.05 };
    double previous = 0;
    for (int i = 0; i < 4; i++) {
        const char *extra[] = { "run.warmup_messages=2000", "run.messages=30000", NULL };
        struct config cfg;
        bt_config(&cfg, 6, 6, rates[i], extra);
        struct run_report r;
        bt_run(&cfg, &r);
        ck_assert_msg(bt(&r, "acceptance") > previous, "P_A %g at rate %g not above %g", bt(&r, "acceptance"), rates[i],
                      previous);
        previous = bt(&r, "acceptance");
    }
    ck_assert_msg(previous > 0.9999, "P_A %g at rate 0.05", previous);
}
END_TEST

/* Exact in expectation: Little's law with the delay convention of note 001 §2.4,
 * P_A = 1 − P[a node is full at a cycle's start] for geometric batches, and
 * P_f − P_r = (accepted per node per cycle) · d̄ / n (every accepted message
 * eventually removes its d header bits). */
START_TEST(little_and_acceptance_identities)
{
    const char *extra[] = { "run.warmup_messages=20000", "run.messages=200000", NULL };
    struct config cfg;
    bt_config(&cfg, 6, 8, 1.5, extra);
    struct run_report r;
    struct backtracking_figures f = bt_run(&cfg, &r);
    assert_conservation(&f);
    double little = bt(&r, "occupancy_mean") / bt(&r, "throughput_per_node");
    ck_assert_msg(fabs(little / r.delay.mean - 1) < 0.01, "Little %g, delay %g", little, r.delay.mean);
    ck_assert_msg(fabs((1 - bt(&r, "full_fraction")) / bt(&r, "acceptance") - 1) < 0.005, "1 - full %g, P_A %g",
                  1 - bt(&r, "full_fraction"), bt(&r, "acceptance"));
    double dbar = 6.0 * 32 / 63, progress = bt(&r, "forward_probability") - bt(&r, "backtrack_probability");
    ck_assert_msg(fabs(progress / (bt(&r, "throughput_per_node") * dbar / 6) - 1) < 0.01, "net progress %g", progress);
    ck_assert(bt(&r, "backtrack_fraction") > 0);
}
END_TEST

/* Note 001 §2.7: the Markov-chain model at n = 6, M = 10, λ = 1 gives P_A = 0.98089,
 * T = 4.27176 cycles, u = 0.50532, h̄ = 3.09098, power 14.4151.  The paper calls its
 * match with simulation "extremely good"; measured: within 0.3% on each. */
START_TEST(close_to_the_papers_model_at_its_worked_example)
{
    const char *extra[] = { "run.warmup_messages=20000", "run.messages=200000", NULL };
    struct config cfg;
    bt_config(&cfg, 6, 10, 1.0, extra);
    struct run_report r;
    bt_run(&cfg, &r);
    ck_assert_msg(fabs(r.delay.mean / 4.2717603818 - 1) < 0.02, "T %g", r.delay.mean);
    ck_assert_msg(fabs(bt(&r, "acceptance") / 0.9808944001 - 1) < 0.005, "P_A %g", bt(&r, "acceptance"));
    ck_assert_msg(fabs(r.utilization_mean / 0.5053203979 - 1) < 0.02, "u %g", r.utilization_mean);
    ck_assert_msg(fabs(r.hops_mean / 3.0909773641 - 1) < 0.02, "h %g", r.hops_mean);
    ck_assert_msg(fabs(bt(&r, "power") / 14.4151 - 1) < 0.02, "power %g", bt(&r, "power"));
}
END_TEST

START_TEST(same_seed_same_results_and_time_mode_counts_cycles)
{
    const char *extra[] = { "run.warmup_messages=1000", "run.messages=5000", NULL };
    struct config cfg;
    bt_config(&cfg, 5, 7, 1.2, extra);
    struct run_report a, b;
    bt_run(&cfg, &a);
    bt_run(&cfg, &b);
    ck_assert(a.delay.mean == b.delay.mean && bt(&a, "acceptance") == bt(&b, "acceptance"));
    ck_assert(bt(&a, "cycles") == bt(&b, "cycles"));
    const char *timed[] = { "run.warmup_time=100", "run.duration=400", NULL };
    bt_config(&cfg, 5, 7, 1.2, timed);
    struct backtracking_figures f = bt_run(&cfg, &a);
    ck_assert_uint_eq(f.window.cycles, 400);
    ck_assert_uint_eq(f.run.cycles, 500);
    ck_assert_double_eq(a.window, 400);
    assert_conservation(&f);
}
END_TEST

START_TEST(nonsense_combinations_are_refused_naming_the_key)
{
    const struct {
        const char *setting, *key;
    } cases[] = {
        { "network.topology=torus", "network.topology" },
        { "network.links=half-duplex", "network.links" },
        { "routing.buffers=3", "routing.buffers" },
        { "protocol.link=tdm", "protocol.link" },
        { "protocol.priority=oldest-first", "protocol.priority" },
        { "node.service_rate=5", "node.service_rate" },
        { "workload.destination=cluster-locality", "workload.destination" },
        /* every rule that can pick the source (the engine aborted on them before) */
        { "workload.destination=uniform-with-self", "workload.destination" },
        { "workload.destination=bit-reversal", "workload.destination" },
        { "workload.destination=transpose", "workload.destination" },
        { "workload.destination=shuffle", "workload.destination" },
        { "run.redraw_length_per_hop=true", "run.redraw_length_per_hop" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *extra[] = { cases[i].setting, NULL };
        struct config cfg;
        bt_config(&cfg, 4, 6, 1.0, extra);
        static struct network net;
        struct cfg_error err;
        ck_assert_msg(!net_create(&net, &cfg, &err), "%s accepted", cases[i].setting);
        ck_assert_msg(strcmp(err.key, cases[i].key) == 0, "%s blamed %s: %s", cases[i].setting, err.key,
                      err.message);
        ck_assert(strstr(err.message, "backtracking"));
    }
    char out[4096], err[4096];
    const char *argv[] = { test_binary(), "-s", "routing.algorithm=backtracking", "-s", "routing.buffers=5",
                           "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, "routing.buffers") && strchr(err, '\n') == err + strlen(err) - 1, "%s", err);
    /* The engine admits its own input: --write-trace is refused, and no file is left
     * (it used to write an empty trace and exit 0). */
    char trace[64];
    snprintf(trace, sizeof trace, "build/bt-trace-%d.csv", (int)getpid());
    const char *traced[] = { test_binary(), "-s", "run.replications=1", "-s", "run.duration=50", "--write-trace",
                             trace, "configs/001/m06-l0.25.ini", NULL };
    ck_assert_int_eq(test_exec(traced, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, "--write-trace") && strchr(err, '\n') == err + strlen(err) - 1, "%s", err);
    ck_assert_int_ne(access(trace, F_OK), 0);
}
END_TEST

START_TEST(binary_reports_the_figures_in_every_format)
{
    char out[65536], err[4096];
    const char *base[] = { "-s", "routing.algorithm=backtracking", "-s", "workload.arrival=batch-geometric", "-s",
                           "run.messages=3000", "-s", "run.warmup_messages=500" };
    const char *formats[] = { "table", "csv", "json" };
    const char *expect[] = { "acceptance", "backtracking.acceptance", "\"backtrack_fraction\"" };
    for (int i = 0; i < 3; i++) {
        const char *argv[16] = { test_binary(), "-f", formats[i] };
        memcpy(argv + 3, base, sizeof base);
        argv[11] = "configs/default.ini";
        argv[12] = NULL;
        ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
        ck_assert_msg(strstr(out, expect[i]), "%s output lacks %s", formats[i], expect[i]);
    }
}
END_TEST

Suite *backtracking_suite(void)
{
    Suite *s = suite_create("backtracking");
    TCase *tc = tcase_create("engine");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, invariants_hold_at_overload_for_every_forced_choice);
    tcase_add_test(tc, m_equal_n_sends_every_message_every_cycle);
    tcase_add_test(tc, light_load_delay_is_the_distance_and_nothing_is_rejected);
    tcase_add_test(tc, acceptance_rises_to_one_as_the_rate_falls);
    tcase_add_test(tc, little_and_acceptance_identities);
    tcase_add_test(tc, close_to_the_papers_model_at_its_worked_example);
    tcase_add_test(tc, same_seed_same_results_and_time_mode_counts_cycles);
    tcase_add_test(tc, nonsense_combinations_are_refused_naming_the_key);
    tcase_add_test(tc, binary_reports_the_figures_in_every_format);
    suite_add_tcase(s, tc);
    return s;
}
