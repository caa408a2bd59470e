/* Looking inside one run (sim --channels, --nodes, --histogram, --series; issue 19):
 * the files agree with the report they come beside - per-channel utilisations average
 * to its mean utilisation (store-and-forward, wormhole, cut-through, the iq router, a
 * bus network, the slotted engine), per-node deliveries sum to its measured count and
 * their weighted mean delay is its mean, the series' measured deliveries sum to that
 * count and its in-window deliveries give its throughput (message and time mode, and
 * with intervals merged), the histogram holds every measured delay; on a hypercube
 * under uniform traffic every channel is within its interval of the analytic load; the
 * options are refused (exit 2, no file left) where they cannot go, and the report is
 * byte for byte the same with or without them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../sim/run/observe.h"
#include "../../sim/run/replicate.h"
#include "../common/checks.h"
#include "../common/test.h"

enum { OUT_SIZE = 1 << 18, MAX_ROWS = 1 << 17, MAX_COLS = 16 };

/* A CSV file's rows as numbers (an empty field: NaN) under its header's names. */
struct table {
    char names[MAX_COLS][40];
    int cols;
    int rows;
    double *v; /* rows * cols */
};

static void table_read(struct table *t, const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f, "%s: not written", path);
    static char line[4096];
    ck_assert(fgets(line, sizeof line, f));
    t->cols = 0;
    for (char *tok = strtok(line, ",\n"); tok && t->cols < MAX_COLS; tok = strtok(NULL, ",\n"))
        snprintf(t->names[t->cols++], sizeof t->names[0], "%s", tok);
    t->v = malloc((size_t)MAX_ROWS * MAX_COLS * sizeof *t->v);
    ck_assert(t->v);
    t->rows = 0;
    while (fgets(line, sizeof line, f)) {
        ck_assert_int_lt(t->rows, MAX_ROWS);
        char *p = line;
        for (int c = 0; c < t->cols; c++) {
            char *end = p + strcspn(p, ",\n");
            char save = *end;
            *end = '\0';
            char *num;
            double x = strtod(p, &num);
            t->v[(size_t)t->rows * MAX_COLS + c] = num == p ? NAN : x; /* text (a class name) reads as NaN too */
            p = save ? end + 1 : end;
        }
        t->rows++;
    }
    fclose(f);
}

static int col(const struct table *t, const char *name)
{
    for (int c = 0; c < t->cols; c++)
        if (strcmp(t->names[c], name) == 0)
            return c;
    ck_abort_msg("no column %s", name);
    return -1;
}

static double at(const struct table *t, int row, const char *name) { return t->v[(size_t)row * MAX_COLS + col(t, name)]; }

static double sum(const struct table *t, const char *name)
{
    double s = 0;
    for (int r = 0; r < t->rows; r++)
        s += at(t, r, name);
    return s;
}

/* A temporary path of this process. */
static const char *path_of(char *buf, size_t size, const char *what)
{
    snprintf(buf, size, "build/observe-%d-%s.csv", (int)getpid(), what);
    return buf;
}

/* Runs cfg as sim does (run_replications, one replication) with every file asked for. */
static void run_with_files(struct config *cfg, struct run_report *r, char paths[4][64])
{
    cfg->files.channels = path_of(paths[0], sizeof paths[0], "channels");
    cfg->files.nodes = cfg->files.nodes ? path_of(paths[1], sizeof paths[1], "nodes") : NULL;
    cfg->files.histogram = path_of(paths[2], sizeof paths[2], "histogram");
    cfg->files.series = cfg->files.series ? path_of(paths[3], sizeof paths[3], "series") : NULL;
    enum kernel_stop why;
    struct cfg_error err;
    int status = run_replications(cfg, 0, r, &why, &err);
    ck_assert_msg(status == 0, "%s:%d: %s: %s", err.file, err.line, err.key, err.message);
    ck_assert_int_eq(why, KERNEL_DONE);
}

static bool close_to(double a, double b, double rel) { return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-12; }

/* Checks every file of one run against its report. */
static void check_files(const char *what, const struct config *cfg, const struct run_report *r, char paths[4][64],
                        bool waits, bool blocking)
{
    struct table t;
    table_read(&t, paths[0]);
    ck_assert_int_eq(t.rows, (int)r->channels);
    ck_assert_msg(close_to(sum(&t, "utilization") / t.rows, r->utilization_mean, 1e-9), "%s: channels average %.12g, report %.12g",
                  what, sum(&t, "utilization") / t.rows, r->utilization_mean);
    ck_assert_msg(!isnan(at(&t, 0, "queue_mean")) == waits && !isnan(at(&t, 0, "wait_mean")) == waits, "%s: waits", what);
    ck_assert_msg(!isnan(at(&t, 0, "blocking")) == blocking, "%s: blocking", what);
    free(t.v);
    unlink(paths[0]);

    table_read(&t, paths[2]);
    ck_assert_int_le(t.rows, 101);
    ck_assert_msg(close_to(sum(&t, "count"), (double)r->delay.count, 0), "%s: histogram %.0f of %llu", what,
                  sum(&t, "count"), (unsigned long long)r->delay.count);
    ck_assert(close_to(at(&t, t.rows - 1, "cumulative"), 1, 1e-9));
    for (int i = 1; i < t.rows; i++)
        ck_assert(at(&t, i, "lower") == at(&t, i - 1, "upper") || at(&t, i - 1, "upper") == 0);
    free(t.v);
    unlink(paths[2]);

    if (cfg->files.nodes) {
        table_read(&t, paths[1]);
        ck_assert_int_eq(t.rows, (int)r->nodes);
        double n = sum(&t, "delivered_as_source"), weighted = 0, weighted_dest = 0;
        for (int v = 0; v < t.rows; v++) {
            if (at(&t, v, "delivered_as_source") > 0)
                weighted += at(&t, v, "delivered_as_source") * at(&t, v, "delay_mean_as_source");
            if (at(&t, v, "delivered_as_destination") > 0)
                weighted_dest += at(&t, v, "delivered_as_destination") * at(&t, v, "delay_mean_as_destination");
        }
        ck_assert_msg(n == (double)r->delay.count, "%s: nodes delivered %.0f, report %llu", what, n,
                      (unsigned long long)r->delay.count);
        ck_assert(sum(&t, "delivered_as_destination") == n);
        ck_assert_msg(close_to(weighted / n, r->delay.mean, 1e-8), "%s: nodes' mean %.12g, report %.12g", what,
                      weighted / n, r->delay.mean);
        ck_assert(close_to(weighted_dest / n, r->delay.mean, 1e-8));
        ck_assert_msg(sum(&t, "backlog_end") == r->backlog_end, "%s: backlog %.0f, report %.0f", what,
                      sum(&t, "backlog_end"), r->backlog_end);
        free(t.v);
        unlink(paths[1]);
    }
    if (cfg->files.series) {
        table_read(&t, paths[3]);
        double in_window = 0;
        int first_window = -1;
        ck_assert(at(&t, 0, "start") == 0);
        for (int i = 0; i < t.rows; i++) {
            if (i > 0)
                ck_assert_msg(at(&t, i, "start") == at(&t, i - 1, "end"), "%s: row %d not contiguous", what, i);
            bool w = at(&t, i, "window") == 1;
            if (w && first_window < 0)
                first_window = i;
            ck_assert_msg(!(first_window >= 0 && !w), "%s: a warm-up interval after the window", what);
            if (w)
                in_window += at(&t, i, "delivered");
            else
                ck_assert(at(&t, i, "measured") == 0);
        }
        ck_assert_int_ge(first_window, 0);
        ck_assert_msg(close_to(at(&t, first_window, "start"), r->warmup_time, 1e-9), "%s: window starts at %.12g, not %.12g",
                      what, at(&t, first_window, "start"), r->warmup_time);
        ck_assert_msg(sum(&t, "measured") == (double)r->delay.count, "%s: series measured %.0f, report %llu", what,
                      sum(&t, "measured"), (unsigned long long)r->delay.count);
        ck_assert_msg(close_to(in_window / r->window / r->nodes, r->throughput, 1e-9), "%s: series throughput %.12g, report %.12g",
                      what, in_window / r->window / r->nodes, r->throughput);
        ck_assert(at(&t, t.rows - 1, "backlog") == r->backlog_end);
        free(t.v);
        unlink(paths[3]);
    }
}

static void run_and_check(const char *what, const char *const *settings, bool per_message, bool waits, bool blocking)
{
    struct config cfg;
    test_config(&cfg, settings);
    cfg.files.nodes = cfg.files.series = per_message ? "" : NULL;
    struct run_report r;
    char paths[4][64];
    run_with_files(&cfg, &r, paths);
    check_files(what, &cfg, &r, paths, waits, blocking);
}

START_TEST(files_agree_with_the_report)
{
    const char *saf[] = { "network.dimension=5", "workload.rate=1", "run.warmup_messages=1000", "run.messages=8000", NULL };
    run_and_check("store-and-forward", saf, true, true, true);
    const char *timed[] = { "network.dimension=4", "workload.rate=1", "run.warmup_time=20", "run.duration=200",
                            "protocol.link=token", NULL };
    run_and_check("time mode, token", timed, true, true, true);
    const char *worm[] = { "network.dimension=5", "routing.switching=wormhole", "workload.rate=0.1",
                           "run.warmup_messages=500", "run.messages=4000", NULL };
    run_and_check("wormhole", worm, true, true, true);
    const char *finite[] = { "network.dimension=5", "routing.switching=cut-through", "routing.finite_buffer=true",
                             "workload.rate=0.2", "run.warmup_messages=500", "run.messages=4000", NULL };
    run_and_check("cut-through, finite buffer", finite, true, true, true);
    const char *iq[] = { "network.topology=torus", "network.radix=4", "network.dimension=2", "routing.router=iq",
                         "routing.switching=wormhole", "routing.virtual_channels=2", "workload.rate=0.05", "run.warmup_messages=500",
                         "run.messages=3000", NULL };
    run_and_check("iq router", iq, true, false, false);
    const char *bus[] = { "network.topology=dual-bus-hypercube", "network.radix=4", "network.dimension=2",
                          "workload.rate=0.15", "run.warmup_messages=500", "run.messages=4000", NULL };
    run_and_check("dual-bus hypercube", bus, true, true, true);
    /* compares queues through the observer's wrapped protocol (it crashed without one) */
    const char *adaptive[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                               "routing.algorithm=adaptive-minimal", "workload.destination=transpose",
                               "workload.rate=0.2", "run.warmup_messages=500", "run.messages=4000", NULL };
    run_and_check("store-and-forward adaptive-minimal", adaptive, true, true, true);
    const char *slotted[] = { "network.dimension=5", "routing.algorithm=backtracking", "workload.arrival=bernoulli",
                              "workload.rate=0.3", "run.warmup_messages=500", "run.messages=3000", NULL };
    run_and_check("backtracking (slotted)", slotted, false, false, false);
}
END_TEST

/* More intervals than the observer keeps: neighbours merge, the sums stay. */
START_TEST(merged_series_keeps_its_sums)
{
    const char *set[] = { "network.dimension=4", "workload.rate=1", "run.warmup_messages=500", "run.messages=3000", NULL };
    struct config cfg;
    test_config(&cfg, set);
    cfg.files.series = "";
    cfg.files.series_interval = 1e-4; /* about 0.3 time units / 1e-4: several merges */
    struct run_report r;
    char paths[4][64];
    run_with_files(&cfg, &r, paths);
    check_files("merged", &cfg, &r, paths, true, true);
}
END_TEST

START_TEST(hypercube_channels_match_the_analytic_load)
{
    check_channel_loads(4, 8, 20000, 0.8);
}
END_TEST

/* Store-and-forward FIFO channels with lengths re-drawn per hop: a Jackson network
 * whose channels see Poisson arrivals, so a request waits with the probability that
 * the channel is busy (PASTA): each class's blocking is its analytic load. */
START_TEST(blocking_is_the_load_in_a_jackson_network)
{
    const char *set[] = { "network.dimension=5", "workload.rate=1", "run.redraw_length_per_hop=true",
                          "run.warmup_messages=4000", "run.messages=40000", NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct run_report r;
    char paths[4][64];
    run_with_files(&cfg, &r, paths);
    struct table t;
    table_read(&t, paths[0]);
    for (unsigned c = 0; c < r.classes; c++) {
        double blocking = 0, requests = 0, n = 0;
        for (int row = 0; row < t.rows; row++)
            if (at(&t, row, "dimension") == c) {
                blocking += at(&t, row, "blocking") * at(&t, row, "requests");
                requests += at(&t, row, "requests");
                n++;
            }
        ck_assert_int_eq((int)n, 32);
        ck_assert_msg(fabs(blocking / requests - r.cls[c].analytic_utilization) < 0.02,
                      "dim%u: blocking %.4f, analytic load %.4f", c, blocking / requests, r.cls[c].analytic_utilization);
    }
    free(t.v);
    unlink(paths[0]);
    unlink(paths[2]);
}
END_TEST

/* --- the command line --- */

static bool exists(const char *path) { return access(path, F_OK) == 0; }

START_TEST(refused_where_they_cannot_go)
{
    static char out[OUT_SIZE], err[4096];
    char path[64];
    snprintf(path, sizeof path, "build/refused-%d.csv", (int)getpid());
    const char *b = test_binary();
    const char *cases[][10] = {
        { b, "--nodes", path, "--sweep", "workload.rate=0.1,0.2", "configs/default.ini", NULL },
        { b, "--channels", path, "--describe", "configs/default.ini", NULL },
        { b, "--histogram", path, "--replications", "2", "configs/default.ini", NULL },
        { b, "--series", path, "--series-interval", "-1", "configs/default.ini", NULL },
        { b, "--series-interval", "2", "configs/default.ini", NULL },
        { b, "--series", path, "--nodes", path, "configs/default.ini", NULL },
        { b, "--nodes", path, "-s", "run.messages=0", "configs/default.ini", NULL },
        { b, "--nodes", path, "-s", "routing.algorithm=backtracking", "-s", "workload.arrival=bernoulli",
          "configs/default.ini", NULL },
        { b, "--channels", "build/no-such-dir/x.csv", "configs/default.ini", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ck_assert_msg(test_exec(cases[i], out, sizeof out, err, sizeof err) == 2, "case %zu: %s", i, err);
        ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "case %zu: not one line: %s", i, err);
        ck_assert_str_eq(out, "");
        ck_assert_msg(!exists(path), "case %zu left %s", i, path);
    }
}
END_TEST

START_TEST(report_is_the_same_with_them)
{
    static char plain[OUT_SIZE], with[OUT_SIZE], err[4096];
    char paths[4][64];
    const char *b = test_binary();
    const char *argv[] = { b, "--no-timing", "--no-progress", "-f", "json", "-s", "run.messages=3000", "-s",
                           "run.warmup_messages=300", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(argv, plain, sizeof plain, err, sizeof err), 0);
    const char *argv2[] = { b, "--no-timing", "--no-progress", "-f", "json", "-s", "run.messages=3000", "-s",
                            "run.warmup_messages=300", "--channels", path_of(paths[0], 64, "c"), "--nodes",
                            path_of(paths[1], 64, "n"), "--histogram", path_of(paths[2], 64, "h"), "--series",
                            path_of(paths[3], 64, "s"), "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(argv2, with, sizeof with, err, sizeof err), 0);
    ck_assert_str_eq(plain, with);
    for (int i = 0; i < 4; i++) {
        ck_assert_msg(exists(paths[i]), "%s not written", paths[i]);
        unlink(paths[i]);
    }
}
END_TEST

/* scripts/plot-run.sh: every picture of one run is drawn. */
START_TEST(pictures_are_drawn)
{
    static char out[OUT_SIZE], err[OUT_SIZE];
    char dir[64], png[128];
    snprintf(dir, sizeof dir, "build/plot-run-%d", (int)getpid());
    const char *configs[] = { "configs/kary-8x8.ini", "configs/default.ini", "configs/dbh-4x4x4.ini" };
    const char *pictures[] = { "histogram.png", "series.png", "channels.png" };
    for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
        const char *argv[] = { "scripts/plot-run.sh", "-b", test_binary(), "-s", "run.messages=3000", "-s",
                               "run.warmup_messages=300", configs[c], dir, NULL };
        ck_assert_msg(test_exec(argv, out, sizeof out, err, sizeof err) == 0, "%s: %s", configs[c], err);
        for (size_t p = 0; p < sizeof pictures / sizeof *pictures; p++) {
            snprintf(png, sizeof png, "%s/%s", dir, pictures[p]);
            FILE *f = fopen(png, "rb");
            ck_assert_msg(f, "%s: %s not drawn", configs[c], png);
            unsigned char magic[8] = { 0 };
            ck_assert_uint_eq(fread(magic, 1, 8, f), 8);
            fclose(f);
            ck_assert_msg(memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0, "%s is no PNG", png);
        }
    }
    const char *rm[] = { "/bin/rm", "-rf", dir, NULL };
    test_exec(rm, out, sizeof out, err, sizeof err);
}
END_TEST

Suite *observe_suite(void)
{
    Suite *s = suite_create("observe");
    TCase *tc = tcase_create("files");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, files_agree_with_the_report);
    tcase_add_test(tc, merged_series_keeps_its_sums);
    tcase_add_test(tc, hypercube_channels_match_the_analytic_load);
    tcase_add_test(tc, blocking_is_the_load_in_a_jackson_network);
    suite_add_tcase(s, tc);
    TCase *cli = tcase_create("command line");
    tcase_set_timeout(cli, 300);
    tcase_add_test(cli, refused_where_they_cannot_go);
    tcase_add_test(cli, report_is_the_same_with_them);
    tcase_add_test(cli, pictures_are_drawn);
    suite_add_tcase(s, cli);
    return s;
}
