/* Arrival processes (mean and variance of counts per interval against theory),
 * length distributions (chi-square against their probabilities; their instances, which
 * read no config and leave it as set), workload checks and the implied mean's loading,
 * and trace replay: exactness against the run that wrote the trace, and every kind
 * of bad trace refused naming its line. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>

#include "../../workloads/workload.h"
#include "../common/test.h"

/* Sample mean and variance of counts, each against theory within 5 standard errors
 * (the variance's from the sample's fourth central moment); a zero variance must be
 * met exactly. */
static void check_counts(const char *what, const uint32_t *count, size_t n, double mean, double variance)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m += count[i];
    m /= (double)n;
    double m2 = 0, m4 = 0;
    for (size_t i = 0; i < n; i++) {
        double d = count[i] - m;
        m2 += d * d;
        m4 += d * d * d * d;
    }
    m2 /= (double)n;
    m4 /= (double)n;
    double s2 = m2 * (double)n / (double)(n - 1);
    if (variance == 0) {
        ck_assert_msg(s2 == 0 && m == mean, "%s: mean %g variance %g, expected %g and exactly 0", what, m, s2, mean);
        return;
    }
    double se_mean = sqrt(variance / (double)n), se_var = sqrt((m4 - m2 * m2) / (double)n);
    ck_assert_msg(fabs(m - mean) < 5 * se_mean, "%s: mean %.5f, theory %.5f (se %.2g)", what, m, mean, se_mean);
    ck_assert_msg(fabs(s2 - variance) < 5 * se_var, "%s: variance %.5f, theory %.5f (se %.2g)", what, s2, variance,
                  se_var);
}

enum { CYCLES = 200000, WINDOWS = 50000 };

/* The default config with this arrival process and rate; its ops. */
static const struct arrival_ops *arrival_config(struct config *cfg, const char *name, double rate)
{
    char a[64], r[64];
    snprintf(a, sizeof a, "workload.arrival=%s", name);
    snprintf(r, sizeof r, "workload.rate=%.17g", rate);
    const char *set[] = { a, r, NULL };
    test_config(cfg, set);
    return arrival_find(name);
}

static void per_cycle_counts(const char *name, double rate, double mean, double variance)
{
    struct config cfg;
    const struct arrival_ops *ops = arrival_config(&cfg, name, rate);
    struct rng g;
    rng_seed_stream(&g, 2024, RNG_TEST, 1);
    uint32_t *count = malloc(CYCLES * sizeof *count);
    for (size_t i = 0; i < CYCLES; i++)
        count[i] = ops->per_cycle(&cfg, &g);
    check_counts(name, count, CYCLES, mean, variance);
    free(count);
}

/* Event-driven: counts in consecutive windows [offset + jT, offset + (j+1)T) of one
 * node's arrival times (first(), then interarrival()). */
static void window_counts(const char *name, double rate, double window, double offset, double mean, double variance)
{
    struct config cfg;
    const struct arrival_ops *ops = arrival_config(&cfg, name, rate);
    struct rng g;
    rng_seed_stream(&g, 2025, RNG_TEST, 2);
    uint32_t *count = calloc(WINDOWS, sizeof *count);
    double t = (ops->first ? ops->first : ops->interarrival)(&cfg, &g);
    for (;;) {
        double j = floor((t - offset) / window);
        if (j >= WINDOWS)
            break;
        if (j >= 0)
            count[(size_t)j]++;
        if (!strcmp(name, "bernoulli"))
            ck_assert_double_eq(t, round(t)); /* whole cycles */
        t += ops->interarrival(&cfg, &g);
    }
    check_counts(name, count, WINDOWS, mean, variance);
    free(count);
}

START_TEST(arrival_counts_match_theory)
{
    per_cycle_counts("poisson", 0.7, 0.7, 0.7);
    per_cycle_counts("bernoulli", 0.3, 0.3, 0.3 * 0.7);
    per_cycle_counts("batch-geometric", 0.5, 0.5, 0.5 * 1.5); /* geometric on 0, 1, ...: λ(1 + λ) */
    per_cycle_counts("batch-geometric", 2.0, 2.0, 2.0 * 3.0);
    window_counts("poisson", 0.7, 5, 0, 3.5, 3.5);
    window_counts("bernoulli", 0.3, 10, 1, 3.0, 10 * 0.3 * 0.7); /* cycles 1..10, 11..20, ...: binomial */
    window_counts("bernoulli", 1.0, 10, 1, 10, 0);
    window_counts("deterministic", 0.5, 10, 0, 5, 0); /* T a multiple of the gap: always 5 */
    ck_assert_ptr_null(arrival_find("deterministic")->per_cycle);
}
END_TEST

/* Deterministic arrivals: each node's phase is uniform in (0, 1/rate) (chi-square
 * over 20 bins across 20,000 node streams), so nodes are not synchronised. */
START_TEST(deterministic_phases_are_uniform)
{
    const char *set[] = { "workload.arrival=deterministic", "workload.rate=0.25", NULL };
    struct config cfg;
    test_config(&cfg, set);
    const struct arrival_ops *ops = arrival_find("deterministic");
    unsigned bins[20] = { 0 }, nodes = 20000;
    for (unsigned v = 0; v < nodes; v++) {
        struct rng g;
        rng_seed_stream(&g, 1, RNG_ARRIVAL, v);
        double first = ops->first(&cfg, &g);
        ck_assert(first > 0 && first < 4);
        ck_assert_double_eq(ops->interarrival(&cfg, &g), 4);
        bins[(unsigned)(first / 4 * 20)]++;
    }
    double chi2 = 0, e = nodes / 20.0;
    for (int b = 0; b < 20; b++)
        chi2 += (bins[b] - e) * (bins[b] - e) / e;
    ck_assert_msg(gsl_cdf_chisq_Q(chi2, 19) > 0.001, "phases: chi-square %.1f", chi2);
}
END_TEST

/* Draws of a length distribution against P(L = value[i]) = p[i] (chi-square), plus
 * "everything else" which must never be drawn. */
static void check_lengths(const char *const *set, const double *value, const double *p, unsigned cells,
                          double mean)
{
    struct config cfg;
    test_config(&cfg, set);
    ck_assert_double_eq_tol(cfg.workload.mean_length, mean, 1e-12);
    struct lengths lengths;
    ck_assert(length_init(&lengths, &cfg));
    struct rng g;
    rng_seed_stream(&g, 99, RNG_TEST, 3);
    unsigned count[64] = { 0 }, draws = 200000, other = 0;
    double sum = 0, tail = 1;
    for (unsigned c = 0; c < cells; c++)
        tail -= p[c];
    for (unsigned i = 0; i < draws; i++) {
        double x = length_draw(&lengths, &g);
        sum += x;
        unsigned c = 0;
        while (c < cells && value[c] != x)
            c++;
        if (c < cells)
            count[c]++;
        else
            other++;
    }
    double chi2 = 0;
    unsigned df = 0;
    for (unsigned c = 0; c <= cells; c++) {
        double pc = c < cells ? p[c] : tail, n = c < cells ? count[c] : other;
        if (pc < 1e-12) {
            ck_assert_msg(n == 0, "length %g drawn with probability 0", c < cells ? value[c] : -1.0);
            continue;
        }
        chi2 += (n - pc * draws) * (n - pc * draws) / (pc * draws);
        df++;
    }
    ck_assert_msg(gsl_cdf_chisq_Q(chi2, df - 1) > 0.001, "%s: chi-square %.1f on %u cells", cfg.workload.length,
                  chi2, df - 1);
    length_free(&lengths);
    (void)sum;
}

START_TEST(lengths_follow_their_distributions)
{
    /* geometric, mean 4: P(L = j) = (3/4)^(j-1) / 4, j = 1..30, the rest in one tail cell */
    const char *geo[] = { "workload.length=geometric", "workload.mean_length=4", NULL };
    double v[64], p[64];
    for (unsigned j = 1; j <= 30; j++) {
        v[j - 1] = j;
        p[j - 1] = pow(0.75, j - 1) / 4;
    }
    check_lengths(geo, v, p, 30, 4);
    const char *geo1[] = { "workload.length=geometric", "workload.mean_length=1", NULL };
    double one[] = { 1 }, certain[] = { 1 };
    check_lengths(geo1, one, certain, 1, 1);
    const char *bimodal[] = { "workload.length=bimodal", "workload.short_length=2", "workload.long_length=64",
                              "workload.long_fraction=0.15", NULL };
    double bv[] = { 2, 64 }, bp[] = { 0.85, 0.15 };
    check_lengths(bimodal, bv, bp, 2, 0.85 * 2 + 0.15 * 64);
    const char *emp[] = { "workload.length=empirical", "workload.empirical_lengths=1, 8, 3, 200",
                          "workload.empirical_weights=5, 3, 0, 2", NULL };
    double ev[] = { 1, 8, 3, 200 }, ep[] = { 0.5, 0.3, 0, 0.2 };
    check_lengths(emp, ev, ep, 4, 0.5 + 2.4 + 40);
    const char *last_zero[] = { "workload.length=empirical", "workload.empirical_lengths=4,5,6",
                                "workload.empirical_weights=1,1,0", NULL };
    double zv[] = { 4, 5, 6 }, zp[] = { 0.5, 0.5, 0 };
    check_lengths(last_zero, zv, zp, 3, 4.5);
    const char *fixed[] = { "workload.length=fixed", "workload.mean_length=3.5", NULL };
    const char *constant[] = { "workload.length=constant", "workload.mean_length=3.5", NULL };
    double fv[] = { 3.5 };
    check_lengths(fixed, fv, certain, 1, 3.5);
    check_lengths(constant, fv, certain, 1, 3.5);
}
END_TEST

/* Workload parameters no process can honour: refused by the loading's workload step
 * (workload_check, then the arrival's check), blaming the key. */
START_TEST(workload_checks_blame_the_key)
{
    const struct {
        const char *set[4];
        const char *key;
    } bad[] = {
        { { "workload.arrival=bernoulli", "workload.rate=1.5", NULL }, "workload.rate" },
        { { "workload.length=geometric", "workload.mean_length=0.5", NULL }, "workload.mean_length" },
        { { "workload.length=bimodal", "workload.mean_length=3", NULL }, "workload.mean_length" },
        { { "workload.length=empirical", NULL }, "workload.empirical_lengths" },
        { { "workload.length=empirical", "workload.empirical_lengths=1,2", "workload.empirical_weights=1", NULL },
          "workload.empirical_weights" },
        { { "workload.length=empirical", "workload.empirical_lengths=1,2", "workload.empirical_weights=0,0", NULL },
          "workload.empirical_weights" },
        { { "workload.arrival=trace", NULL }, "workload.arrival" },
        { { "workload.trace=x.csv", NULL }, "workload.trace" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct config cfg;
        struct cfg_error err;
        run_config_defaults(&cfg);
        for (size_t j = 0; bad[i].set[j]; j++) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s", bad[i].set[j]);
            char *dot = strchr(buf, '.'), *eq = strchr(buf, '=');
            *dot = *eq = '\0';
            ck_assert(cfg_set(&cfg, buf, dot + 1, eq + 1, "t.ini", (int)j + 1, &err));
        }
        ck_assert_msg(!run_config_workload(&cfg, &err), "case %zu accepted", i);
        ck_assert_str_eq(err.key, bad[i].key);
    }
    /* lists: bounds and syntax */
    struct config cfg;
    struct cfg_error err;
    run_config_defaults(&cfg);
    ck_assert(!cfg_set(&cfg, "workload", "distance_weights", "1,-2", "t.ini", 1, &err));
    ck_assert(!cfg_set(&cfg, "workload", "distance_weights", "1,,2", "t.ini", 2, &err));
    ck_assert(!cfg_set(&cfg, "workload", "distance_weights", "1,2,", "t.ini", 3, &err));
    ck_assert(!cfg_set(&cfg, "workload", "empirical_lengths", "0,2", "t.ini", 4, &err));
    ck_assert(cfg_set(&cfg, "workload", "distance_weights", " 1 ,2.5,0 ", "t.ini", 5, &err));
    ck_assert_uint_eq((*cfg_list_of(&cfg, "workload.distance_weights")).count, 3);
    ck_assert_double_eq((*cfg_list_of(&cfg, "workload.distance_weights")).value[1], 2.5);
}
END_TEST

/* Writes text to /tmp/simtest-PID-name; the path goes to p (256 bytes). */
static const char *write_file(char *p, const char *name, const char *text)
{
    snprintf(p, 256, "/tmp/simtest-%d-%s", (int)getpid(), name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return p;
}

/* Skips one CSV cell (quoted or not) and the comma after it. */
static const char *csv_skip(const char *c)
{
    if (*c == '"') {
        for (c++; *c && !(*c == '"' && c[1] != '"'); c += *c == '"' ? 2 : 1)
            ;
        c++;
    } else {
        c += strcspn(c, ",\n");
    }
    return *c == ',' ? c + 1 : c;
}

/* The value of CSV column `name` (header line, then one row), as text. */
static void csv_column(const char *csv, const char *name, char *out, size_t size)
{
    const char *row = strchr(csv, '\n');
    ck_assert_ptr_nonnull(row);
    row++;
    size_t want = strlen(name);
    for (const char *h = csv; h < row - 1; h = csv_skip(h), row = csv_skip(row)) {
        if (strncmp(h, name, want) == 0 && (h[want] == ',' || h[want] == '\n')) {
            snprintf(out, size, "%.*s", (int)strcspn(row, ",\n"), row);
            return;
        }
    }
    ck_abort_msg("no column %s", name);
}

/* A run writes its messages as a trace; replaying the trace reproduces every delay
 * figure to the last digit. */
static void check_replay(const char *workload)
{
    char ini_path[256], ini_text[512];
    snprintf(ini_text, sizeof ini_text, "[network]\ndimension = 4\n[workload]\n%s\n[run]\nwarmup_messages = 500\n"
                                        "messages = 4000\n", workload);
    const char *ini = write_file(ini_path, "replay.ini", ini_text);
    char trace[256];
    snprintf(trace, sizeof trace, "/tmp/simtest-%d-replay.csv", (int)getpid());
    static char out1[1 << 16], out2[1 << 16], err[4096];
    const char *write[] = { test_binary(), ini, "-f", "csv", "--no-progress", "--write-trace", trace, NULL };
    ck_assert_int_eq(test_exec(write, out1, sizeof out1, err, sizeof err), 0);
    char set_trace[300];
    snprintf(set_trace, sizeof set_trace, "workload.trace=%s", trace);
    const char *replay[] = { test_binary(), ini, "-f", "csv", "--no-progress", "-s", "workload.arrival=trace",
                             "-s", set_trace, NULL };
    ck_assert_int_eq(test_exec(replay, out2, sizeof out2, err, sizeof err), 0);
    const char *same[] = { "delay.count", "delay.mean", "delay.variance", "delay.min", "delay.max", "delay.p50",
                           "delay.p99", "delay.ci95_low", "hops_mean", "throughput", "messages_created",
                           "simulated_time", "channels.utilization_max" };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        char a[64], b[64];
        csv_column(out1, same[i], a, sizeof a);
        csv_column(out2, same[i], b, sizeof b);
        ck_assert_msg(strcmp(a, b) == 0, "%s: %s: run %s, replay %s", workload, same[i], a, b);
    }
    char created[64];
    csv_column(out1, "messages_created", created, sizeof created);
    FILE *f = fopen(trace, "r");
    unsigned lines = 0;
    for (int c; (c = fgetc(f)) != EOF;)
        lines += c == '\n';
    fclose(f);
    ck_assert_uint_eq(lines, strtoul(created, NULL, 10)); /* one line per message created */
    unlink(trace);
    unlink(ini);
}

START_TEST(trace_replay_reproduces_the_run)
{
    check_replay("rate = 0.35");
    /* integer arrival times and fixed lengths: simultaneous events, replayed in the same order */
    check_replay("arrival = bernoulli\nrate = 0.3\nlength = fixed\ndestination = uniform-with-self");
}
END_TEST

/* Every kind of bad trace: exit 2, one line naming the trace file and the line. */
START_TEST(bad_traces_name_the_line)
{
    char ini_path[256], trace_path[256];
    const char *ini = write_file(ini_path, "bad.ini", "[network]\ndimension = 4\n[workload]\narrival = trace\n"
                                            "[run]\nmessages = 10\nwarmup_messages = 0\n");
    const struct {
        const char *text;
        int line;
        const char *says;
    } bad[] = {
        { "time,source,destination,length\n0.5,1,2,1\n0.7,1,2\n", 3, "expected 4 fields" },
        { "# comment\n0.5,1,2,1\nabc,1,2,1\n", 3, "time 'abc'" },
        { "0.5 1 16 1\n", 1, "destination '16' is not a node" },
        { "0.5,-1,2,1\n", 1, "source '-1' is not a node" },
        { "0.5,1,2,1\n\n0.4,1,2,1\n", 3, "goes backwards" },
        { "0.5,1,2,0\n", 1, "length '0'" },
        { "-1,1,2,1\n", 1, "time '-1'" },
        { "0.5,1,2,1,7\n", 1, "expected 4 fields" },
        { "0.5,1,2,1\n0.6,1,,1\n", 2, "destination '' is not a node" },
        { "# only a comment\n\n", 2, "no messages" },
    };
    static char out[4096], err[4096];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *trace = write_file(trace_path, "bad.csv", bad[i].text);
        char set[300], want[400], output[300];
        snprintf(set, sizeof set, "workload.trace=%s", trace);
        snprintf(output, sizeof output, "%s.out", trace);
        const char *argv[] = { test_binary(), ini, "-s", set, "-o", output, NULL };
        ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
        snprintf(want, sizeof want, "%s:%d: workload.trace: ", trace, bad[i].line);
        ck_assert_msg(strncmp(err, want, strlen(want)) == 0 && strstr(err, bad[i].says), "case %zu: %s", i, err);
        ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "case %zu: not one line: %s", i, err);
        ck_assert_int_ne(access(output, F_OK), 0); /* no partial output */
        unlink(trace);
    }
    const char *argv[] = { test_binary(), ini, "-s", "workload.trace=/nonexistent/t.csv", NULL };
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    /* unreadable: named with the place workload.trace was set */
    ck_assert_msg(strstr(err, "command line (-s): workload.trace: cannot read the trace /nonexistent/t.csv: "), "%s",
                  err);
    unlink(ini);
}
END_TEST

/* --write-trace goes through a temporary file: a run that fails (here a wormhole
 * deadlock, exit 3) leaves neither the trace nor the temporary behind, and an
 * unwritable path is one line naming it, exit 2. */
START_TEST(failed_runs_leave_no_trace_file)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/simtest-%d-tracedir", (int)getpid());
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    char trace[128];
    snprintf(trace, sizeof trace, "%s/trace.csv", dir);
    static char out[4096], err[4096];
    const char *deadlock[] = { test_binary(), "configs/default.ini", "--no-progress", "--write-trace", trace,
                               "-s", "network.topology=torus", "-s", "network.radix=8", "-s", "network.dimension=2",
                               "-s", "routing.switching=wormhole", "-s", "routing.flit_buffers=1", "-s",
                               "workload.rate=0.05", "-s", "workload.mean_length=16", "-s", "workload.length=constant",
                               "-s", "run.allow_unstable=true", "-s", "run.messages=1000000", "-s",
                               "run.max_wall_seconds=30", "-s", "routing.deadlock_check=off", NULL };
    ck_assert_int_eq(test_exec(deadlock, out, sizeof out, err, sizeof err), 3);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    unsigned entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    ck_assert_uint_eq(entries, 0);
    ck_assert_int_eq(rmdir(dir), 0);
    const char *unwritable[] = { test_binary(), "configs/default.ini", "--no-progress", "--write-trace",
                                 "/nonexistent-dir/trace.csv", NULL };
    ck_assert_int_eq(test_exec(unwritable, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strncmp(err, "/nonexistent-dir/trace.csv: cannot write the trace: ", 52) == 0, "%s", err);
    ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1);
}
END_TEST

/* A channel's utilisation counts only the part of each hold inside the window, for
 * holds that span its opening, its close or both (store-and-forward counts a hold at
 * its grant and brings the running ones to the window's edges).  Window [3, 7] on a
 * 1-cube: channel 0 (0 -> 1) holds [0, 10], so 1; channel 1 holds [1, 2] (outside),
 * [2.5, 3.5] (0.5 inside), [6, 6.5] (0.5) and [6.75, 7.75] (0.25): 1.25 / 4. */
START_TEST(utilisation_counts_the_window_part_of_holds_across_its_edges)
{
    char trace_path[256], ini_path[256], ini_text[512], channels[256];
    const char *trace = write_file(trace_path, "edges.csv", "0,0,1,10\n1,1,0,1\n2.5,1,0,1\n6,1,0,0.5\n6.75,1,0,1\n");
    snprintf(ini_text, sizeof ini_text, "[network]\ndimension = 1\n[workload]\narrival = trace\ntrace = %s\n"
                                        "[run]\nwarmup_time = 3\nduration = 4\n", trace);
    const char *ini = write_file(ini_path, "edges.ini", ini_text);
    snprintf(channels, sizeof channels, "/tmp/simtest-%d-edges-channels.csv", (int)getpid());
    static char out[1 << 14], err[4096], csv[4096];
    const char *run[] = { test_binary(), ini, "--no-progress", "--channels", channels, NULL };
    ck_assert_int_eq(test_exec(run, out, sizeof out, err, sizeof err), 0);
    FILE *f = fopen(channels, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(csv, 1, sizeof csv - 1, f);
    csv[n] = '\0';
    fclose(f);
    ck_assert_str_eq(csv, "channel,kind,from,to,senders,class,dimension,utilization,queue_mean,wait_mean,blocking,"
                          "requests\n0,link,0,1,1,dim0,0,1,0,,,0\n1,link,1,0,1,dim0,0,0.3125,0,0,0,2\n");
    unlink(channels);
    unlink(ini);
    unlink(trace);
}
END_TEST

/* Holds far longer than the window, running across both its edges: each counts the
 * window's length, read off the clock as a busy-since clock would (taking the part
 * past the close back from a hold counted whole gave 1.000000002). */
START_TEST(utilisation_of_holds_across_a_short_window_is_at_most_1)
{
    static char out[1 << 16], err[4096];
    const char *run[] = { test_binary(), "configs/default.ini", "-f", "csv", "--no-progress", "--no-timing",
                          "-s", "run.warmup_time=1", "-s", "run.duration=0.0001", "-s", "workload.mean_length=1000",
                          "-s", "workload.rate=0.1", "-s", "run.allow_unstable=true", NULL };
    ck_assert_int_eq(test_exec(run, out, sizeof out, err, sizeof err), 0);
    char max[64];
    csv_column(out, "channels.utilization_max", max, sizeof max);
    ck_assert_str_eq(max, "1");
}
END_TEST

/* The defaults with these keys set, as the loader sets them, and nothing more: no
 * workload step (run_config_workload), so that a test sees what that step does. */
static void keys_set(struct config *cfg, const char *const *set)
{
    run_config_defaults(cfg);
    snprintf(cfg->path, sizeof cfg->path, "test");
    for (size_t i = 0; set[i]; i++) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", set[i]);
        char *dot = strchr(buf, '.'), *eq = strchr(buf, '=');
        *dot = *eq = '\0';
        struct cfg_error err;
        ck_assert_msg(cfg_set(cfg, buf, dot + 1, eq + 1, "test", (int)i + 1, &err), "%s: %s", set[i], err.message);
    }
}

/* An empirical distribution's instance draws lengths[i] with probability weights[i] /
 * sum of weights: each frequency within 5 standard deviations of it over 600,000 draws
 * (one stream, so the same counts every run), and a length of weight 0, in the middle
 * or trailing, never. */
START_TEST(empirical_lengths_draw_their_weights)
{
    const char *set[] = { "workload.length=empirical", "workload.empirical_lengths=2, 3, 5, 7, 11, 13",
                          "workload.empirical_weights=1, 0, 3, 2, 0, 0", NULL };
    const double length[] = { 2, 3, 5, 7, 11, 13 }, p[] = { 1 / 6.0, 0, 3 / 6.0, 2 / 6.0, 0, 0 };
    enum { CELLS = 6, DRAWS = 600000 };
    struct config *cfg = malloc(sizeof *cfg);
    ck_assert_ptr_nonnull(cfg);
    test_config(cfg, set);
    ck_assert_double_eq_tol(cfg->workload.mean_length, (2 + 15 + 14) / 6.0, 1e-12);
    struct lengths lengths;
    ck_assert(length_init(&lengths, cfg));
    struct rng g;
    rng_seed_stream(&g, 7, RNG_TEST, 4);
    unsigned count[CELLS] = { 0 };
    for (unsigned i = 0; i < DRAWS; i++) {
        double x = length_draw(&lengths, &g);
        unsigned c = 0;
        while (c < CELLS && length[c] != x)
            c++;
        ck_assert_msg(c < CELLS, "drew %g, not one of the lengths", x);
        count[c]++;
    }
    for (unsigned c = 0; c < CELLS; c++) {
        if (p[c] == 0) {
            ck_assert_msg(count[c] == 0, "length %g has weight 0 but was drawn %u times", length[c], count[c]);
            continue;
        }
        double expect = p[c] * DRAWS, sd = sqrt(DRAWS * p[c] * (1 - p[c]));
        ck_assert_msg(fabs(count[c] - expect) < 5 * sd, "length %g: %u draws, expected %.0f (sd %.0f)", length[c],
                      count[c], expect, sd);
    }
    length_free(&lengths);
    free(cfg);
}
END_TEST

/* A draw reads its instance and the stream, never the config: with the whole config
 * overwritten after creation, an instance draws the same lengths as before. */
START_TEST(length_draws_read_only_their_instance)
{
    const char *const sets[][5] = {
        { "workload.length=exponential", "workload.mean_length=2.5", NULL },
        { "workload.length=fixed", "workload.mean_length=3.5", NULL },
        { "workload.length=geometric", "workload.mean_length=4", NULL },
        { "workload.length=bimodal", "workload.short_length=2", "workload.long_length=9", NULL },
        { "workload.length=empirical", "workload.empirical_lengths=1, 8, 3", "workload.empirical_weights=5, 3, 2",
          NULL },
    };
    enum { DRAWS = 1000 };
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        struct config *cfg = malloc(sizeof *cfg);
        ck_assert_ptr_nonnull(cfg);
        test_config(cfg, sets[s]);
        struct lengths lengths;
        ck_assert(length_init(&lengths, cfg));
        double first[DRAWS];
        struct rng g;
        rng_seed_stream(&g, 11, RNG_TEST, 5);
        for (unsigned i = 0; i < DRAWS; i++)
            first[i] = length_draw(&lengths, &g);
        memset(cfg, 0xa5, sizeof *cfg);
        rng_seed_stream(&g, 11, RNG_TEST, 5);
        for (unsigned i = 0; i < DRAWS; i++)
            ck_assert_msg(length_draw(&lengths, &g) == first[i], "%s: draw %u changed with the config",
                          sets[s][0], i);
        length_free(&lengths);
        free(cfg);
    }
}
END_TEST

/* Loading and creating the run's lengths leave the config as its keys set it: the
 * workload's check writes nothing, the loading's workload step sets only
 * workload.mean_length (to the mean the distribution implies) and, with a rate in
 * flits, workload.mean_flits, and creating the
 * instance and drawing from it write nothing (the distribution's key block is compared
 * on its own, then the whole config). */
START_TEST(loading_and_creating_lengths_leave_the_config_as_set)
{
    const struct {
        const char *set[4];
        double mean, flits; /* flits: the mean whole flits with a rate in flits, else 0 */
    } cases[] = {
        { { "workload.length=empirical", "workload.empirical_lengths=4, 5, 6", "workload.empirical_weights=1, 3, 0" },
          4.75, 0 },
        { { "workload.length=bimodal", "workload.long_fraction=0.25", NULL }, 0.75 + 4, 0 },
        { { "workload.length=geometric", "workload.mean_length=3", NULL }, 3, 0 },
        { { "workload.length=exponential", NULL }, 1, 0 },
        { { "workload.length=bimodal", "workload.long_fraction=0.25", "workload.rate_unit=flits" }, 0.75 + 4,
          0.75 + 4 },
        { { "workload.length=exponential", "workload.rate_unit=flits", NULL }, 1, 1 / (1 - exp(-1)) },
    };
    struct config *cfg = malloc(sizeof *cfg), *as_set = malloc(sizeof *as_set);
    ck_assert(cfg && as_set);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        keys_set(cfg, cases[i].set);
        memcpy(as_set, cfg, sizeof *cfg);
        struct cfg_error err;
        double mean = -1;
        ck_assert_msg(workload_check(cfg, &mean, &err), "%s: %s", cases[i].set[0], err.message);
        ck_assert_double_eq_tol(mean, cases[i].mean, 1e-12);
        ck_assert_msg(memcmp(cfg, as_set, sizeof *cfg) == 0, "%s: workload_check wrote the config", cases[i].set[0]);
        ck_assert(run_config_workload(cfg, &err));
        ck_assert_double_eq(cfg->workload.mean_length, mean);
        ck_assert_double_eq_tol(cfg->workload.mean_flits, cases[i].flits, 1e-12);
        as_set->workload.mean_length = mean;
        as_set->workload.mean_flits = cfg->workload.mean_flits;
        ck_assert_msg(memcmp(cfg, as_set, sizeof *cfg) == 0, "%s: the workload step wrote more than the mean length and flits",
                      cases[i].set[0]);
        const struct cfg_param_table *table = length_find(cfg->workload.length)->params;
        struct lengths lengths;
        ck_assert(length_init(&lengths, cfg));
        struct rng g;
        rng_seed_stream(&g, 5, RNG_TEST, 6);
        for (unsigned d = 0; d < 1000; d++)
            ck_assert(length_draw(&lengths, &g) > 0);
        length_free(&lengths);
        if (table)
            ck_assert_msg(memcmp(cfg_params(cfg, table), cfg_params(as_set, table), table->size) == 0,
                          "%s: its key block changed", cases[i].set[0]);
        ck_assert_msg(memcmp(cfg, as_set, sizeof *cfg) == 0, "%s: creating the lengths wrote the config",
                      cases[i].set[0]);
    }
    free(cfg);
    free(as_set);
}
END_TEST

/* The run's loading (run_config_load) sets workload.mean_length to the mean a
 * distribution implies when it is left out, takes a hand-set mean equal to it, and
 * refuses a different one blaming the line that set it. */
START_TEST(loading_sets_or_refuses_the_implied_mean)
{
    const char *lists = "[workload]\nrate = 0.5\nlength = empirical\nempirical_lengths = 1, 4\n"
                        "empirical_weights = 3, 1\n";
    char path[256], text[512];
    struct config *cfg = malloc(sizeof *cfg);
    ck_assert_ptr_nonnull(cfg);
    struct cfg_error err;
    const char *ini = write_file(path, "implied.ini", lists);
    ck_assert_msg(run_config_load(cfg, ini, NULL, 0, &err), "%s", err.message);
    ck_assert_double_eq(cfg->workload.mean_length, 1.75);
    const char *same[] = { "workload.mean_length=1.75" };
    ck_assert_msg(run_config_load(cfg, ini, same, 1, &err), "%s", err.message);
    ck_assert_double_eq(cfg->workload.mean_length, 1.75);
    snprintf(text, sizeof text, "%smean_length = 2\n", lists);
    ini = write_file(path, "implied.ini", text);
    ck_assert(!run_config_load(cfg, ini, NULL, 0, &err));
    ck_assert_str_eq(err.key, "workload.mean_length");
    ck_assert_str_eq(err.file, ini);
    ck_assert_int_eq(err.line, 6);
    ck_assert_str_eq(err.message, "empirical lengths have mean 1.75; leave mean_length out or set it to that");
    unlink(ini);
    free(cfg);
}
END_TEST


/* On-off arrivals against the chain's closed forms, 400,000 gaps from the stream the
 * run would use: the mean gap is 1/p (the long-run rate p = workload.rate); a gap of one
 * cycle has probability (1 - beta) r1 (the source stays on and fires again), r1 =
 * p (alpha + beta) / alpha; a gap of two (1 - beta)^2 (1 - r1) r1 + beta alpha r1; the
 * first arrival, from the stationary state, takes 1 cycle with probability
 * alpha / (alpha + beta) * r1 (on at time 0, stays on, fires) + beta / (alpha + beta) *
 * alpha * r1. Each within 4 standard errors; and a rate the on state cannot carry is
 * refused. */
START_TEST(on_off_matches_its_chain)
{
    const double alpha = 0.02, beta = 0.05, rate = 0.1, r1 = rate * (alpha + beta) / alpha;
    const char *set[] = { "workload.arrival=on-off", "workload.burst_alpha=0.02", "workload.burst_beta=0.05",
                          "workload.rate=0.1", NULL };
    struct config cfg;
    test_config(&cfg, set);
    const struct arrival_ops *a = arrival_find("on-off");
    struct cfg_error err;
    ck_assert(a->check(&cfg, &err));
    struct rng r;
    rng_seed_stream(&r, 7, RNG_TEST, 0);
    enum { N = 400000 };
    double sum = 0, sum2 = 0, ones = 0, twos = 0, first_ones = 0;
    for (int i = 0; i < N; i++) {
        double g = a->interarrival(&cfg, &r);
        ck_assert(g >= 1 && g == floor(g));
        sum += g;
        sum2 += g * g;
        ones += g == 1;
        twos += g == 2;
        first_ones += a->first(&cfg, &r) == 1;
    }
    double mean = sum / N, se = sqrt((sum2 / N - mean * mean) / N);
    ck_assert_msg(fabs(mean - 1 / rate) < 4 * se, "mean gap %g, expected %g (se %g)", mean, 1 / rate, se);
    double p1 = (1 - beta) * r1, p2 = (1 - beta) * (1 - beta) * (1 - r1) * r1 + beta * alpha * r1;
    double pf = alpha / (alpha + beta) * (1 - beta) * r1 + beta / (alpha + beta) * alpha * r1;
    ck_assert_msg(fabs(ones / N - p1) < 4 * sqrt(p1 * (1 - p1) / N), "P(gap = 1) %g, expected %g", ones / N, p1);
    ck_assert_msg(fabs(twos / N - p2) < 4 * sqrt(p2 * (1 - p2) / N), "P(gap = 2) %g, expected %g", twos / N, p2);
    ck_assert_msg(fabs(first_ones / N - pf) < 4 * sqrt(pf * (1 - pf) / N), "P(first = 1) %g, expected %g",
                  first_ones / N, pf);
    const char *too_fast[] = { test_binary(), "-s", "workload.arrival=on-off", "-s", "workload.burst_alpha=0.01",
                               "-s", "workload.burst_beta=0.1", "-s", "workload.rate=0.2", "configs/default.ini", NULL };
    static char out[4096], errs[4096];
    ck_assert_int_eq(test_exec(too_fast, out, sizeof out, errs, sizeof errs), 2);
    ck_assert_msg(strstr(errs, "workload.rate: on-off arrivals"), "%s", errs);
}
END_TEST

Suite *workloads_suite(void)
{
    Suite *s = suite_create("workloads");
    TCase *tc = tcase_create("processes");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, arrival_counts_match_theory);
    tcase_add_test(tc, on_off_matches_its_chain);
    tcase_add_test(tc, deterministic_phases_are_uniform);
    tcase_add_test(tc, lengths_follow_their_distributions);
    tcase_add_test(tc, workload_checks_blame_the_key);
    tcase_add_test(tc, empirical_lengths_draw_their_weights);
    tcase_add_test(tc, length_draws_read_only_their_instance);
    tcase_add_test(tc, loading_and_creating_lengths_leave_the_config_as_set);
    tcase_add_test(tc, loading_sets_or_refuses_the_implied_mean);
    suite_add_tcase(s, tc);
    TCase *replay = tcase_create("trace");
    tcase_set_timeout(replay, 60);
    tcase_add_test(replay, trace_replay_reproduces_the_run);
    tcase_add_test(replay, bad_traces_name_the_line);
    tcase_add_test(replay, failed_runs_leave_no_trace_file);
    tcase_add_test(replay, utilisation_counts_the_window_part_of_holds_across_its_edges);
    tcase_add_test(replay, utilisation_of_holds_across_a_short_window_is_at_most_1);
    suite_add_tcase(s, replay);
    return s;
}
