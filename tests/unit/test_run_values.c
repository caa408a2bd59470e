/* A run is a value: three networks of different engines (store-and-forward, wormhole,
 * seed 001's slotted backtracking), alive at once and stepped in turns in one process,
 * each print byte for byte the JSON that a separate `sim` process prints.  Any state
 * shared between runs (a static, a global) would make the interleaved runs differ. */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/test.h"

enum { RUNS = 3, MAX_SETTINGS = 4 };

struct run_case {
    const char *config;
    const char *settings[MAX_SETTINGS]; /* -s overrides, NULL-terminated */
};

static const struct run_case cases[RUNS] = {
    { "configs/default.ini", { "run.messages=20000", "run.warmup_messages=2000", NULL } },
    { "bench/wormhole-torus.ini", { "run.messages=5000", "run.warmup_messages=500", NULL } },
    { "configs/001/m10-l1.00.ini", { "run.replications=1", "run.warmup_time=500", "run.duration=12000", NULL } },
};

struct stepped {
    struct config cfg;
    struct network net;
    struct channel_loads loads;
    struct model_result model;
    enum kernel_stop why;
    bool done;
    unsigned slices; /* kernel_run calls it took */
};

/* The chore hook fires every KERNEL_CHORE_INTERVAL events: pause there. */
static void pause_run(struct kernel *k, void *ctx)
{
    (void)ctx;
    kernel_request_stop(k, KERNEL_INTERRUPTED);
}

static size_t count_settings(const struct run_case *c)
{
    size_t n = 0;
    while (c->settings[n])
        n++;
    return n;
}

static void start(struct stepped *s, const struct run_case *c)
{
    struct cfg_error err;
    ck_assert_msg(run_config_load(&s->cfg, c->config, c->settings, count_settings(c), &err), "%s: %s", c->config,
                  err.message);
    ck_assert_msg(net_create(&s->net, &s->cfg, &err), "%s: %s", c->config, err.message);
    struct model_in in;
    model_input(&in, &s->cfg, &s->net.topo, &s->loads);
    model_predict(&in, &s->model);
    model_input_free(&in);
    kernel_set_chore(&s->net.kernel, pause_run, NULL);
}

/* One slice of KERNEL_CHORE_INTERVAL events, or the rest of the run. */
static void step(struct stepped *s)
{
    if (s->done)
        return;
    s->net.kernel.stop = KERNEL_RUNNING;
    s->slices++;
    if (kernel_run(&s->net.kernel) != KERNEL_INTERRUPTED) {
        s->why = net_run(&s->net); /* the kernel has stopped: this closes the books */
        s->done = true;
    }
}

/* The JSON sim prints for the finished run (one replication, no timing). */
static char *render(struct stepped *s)
{
    struct run_report *one = calloc(1, sizeof *one), *all = calloc(1, sizeof *all);
    ck_assert(one && all);
    report_collect(one, &s->net, &s->loads, &s->model, s->why, 0);
    one->cfg = &s->cfg;
    report_add_replication(all, one, 0);
    report_finish_replications(all);
    all->omit_timing = true;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ck_assert(out);
    ck_assert(report_write(out, all, REPORT_JSON));
    fclose(out);
    free(one);
    free(all);
    return text;
}

START_TEST(interleaved_runs_match_separate_processes)
{
    struct stepped *s = calloc(RUNS, sizeof *s);
    ck_assert(s);
    for (int i = 0; i < RUNS; i++)
        start(&s[i], &cases[i]);
    for (bool all_done = false; !all_done;) {
        all_done = true;
        for (int i = 0; i < RUNS; i++) {
            step(&s[i]);
            all_done = all_done && s[i].done;
        }
    }
    for (int i = 0; i < RUNS; i++) /* each was paused while the others ran */
        ck_assert_msg(s[i].slices >= 3, "%s: not interleaved (%u slices)", cases[i].config, s[i].slices);
    enum { OUT = 1 << 16 };
    char *out = malloc(OUT), *err = malloc(OUT);
    ck_assert(out && err);
    for (int i = 0; i < RUNS; i++) {
        ck_assert_int_eq(s[i].why, KERNEL_DONE);
        const char *argv[8 + 2 * MAX_SETTINGS] = { test_binary(), "-f", "json", "--no-timing", "--no-progress" };
        size_t a = 5;
        for (size_t k = 0; cases[i].settings[k]; k++) {
            argv[a++] = "-s";
            argv[a++] = cases[i].settings[k];
        }
        argv[a++] = cases[i].config;
        argv[a] = NULL;
        ck_assert_int_eq(test_exec(argv, out, OUT, err, OUT), 0);
        char *mine = render(&s[i]);
        ck_assert_msg(strcmp(mine, out) == 0, "%s: the interleaved run differs from its own process", cases[i].config);
        free(mine);
        loads_free(&s[i].loads);
        net_free(&s[i].net);
    }
    free(out);
    free(err);
    free(s);
}
END_TEST

Suite *run_values_suite(void)
{
    Suite *s = suite_create("run_values");
    TCase *tc = tcase_create("interleaved");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, interleaved_runs_match_separate_processes);
    suite_add_tcase(s, tc);
    return s;
}
