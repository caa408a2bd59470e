/* Sweeps: spec parsing, point seeds, and the runner through the binary (-j 1, -j 2,
 * -j 3 and, when built, mpirun -n 2 give the same bytes; interrupts keep finished
 * rows; bad specs are exit 2 before any output). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../sim/core/rng.h"
#include "../../sim/cli/sweep.h"
#include "../common/test.h"

enum { BIG = 1 << 20 };
static char out[BIG], out2[BIG], err[65536];
static const char DEFAULT_INI[] = "configs/default.ini";

START_TEST(specs_expand_in_sweep_order)
{
    struct sweep sw;
    char why[512];
    const char *specs[] = { "workload.rate=0.1:0.9:0.1", "protocol.link=fifo,tdm,token" };
    ck_assert_msg(sweep_parse(&sw, specs, 2, why, sizeof why), "%s", why);
    ck_assert_uint_eq(sw.dim[0].count, 9);
    const char *rates[] = { "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9" };
    for (size_t i = 0; i < 9; i++)
        ck_assert_str_eq(sw.dim[0].values[i], rates[i]); /* 0.1 + 2 * 0.1 prints as 0.3 */
    ck_assert_uint_eq(sw.points, 27);
    char label[256];
    sweep_label(&sw, 0, label, sizeof label);
    ck_assert_str_eq(label, "workload.rate=0.1 protocol.link=fifo");
    sweep_label(&sw, 1, label, sizeof label); /* the last spec varies fastest */
    ck_assert_str_eq(label, "workload.rate=0.1 protocol.link=tdm");
    sweep_label(&sw, 26, label, sizeof label);
    ck_assert_str_eq(label, "workload.rate=0.9 protocol.link=token");
    ck_assert_uint_eq(sweep_coordinate(&sw, 5, 0), 1);
    ck_assert_uint_eq(sweep_coordinate(&sw, 5, 1), 2);
    sweep_free(&sw);

    const char *ints[] = { "network.dimension=2:10:4", "run.seed=7" };
    ck_assert(sweep_parse(&sw, ints, 2, why, sizeof why));
    ck_assert_uint_eq(sw.points, 3);
    ck_assert_str_eq(sw.dim[0].values[2], "10");
    sweep_free(&sw);
}
END_TEST

START_TEST(bad_specs_name_the_spec)
{
    const char *bad[] = { "workload.rat=0.1:0.9:0.1", "workload.rate=0.9:0.1:0.1", "workload.rate=0.1:0.9:0",
                          "workload.rate=0.1:0.9", "workload.rate=1:2:x", "workload.rate=-1,2",
                          "workload.rate=1,,2", "workload.rate=1,1.0", "workload.rate", "network.dimension=1:3:0.5",
                          "protocol.link=fifo,tdn", "workload.rate=0:1e9:1e-9", "workload.empirical_lengths=1,2" };
    const char *reason[] = { "did you mean workload.rate", "FROM <= TO", "STEP > 0", "FROM:TO:STEP", "numbers",
                             "must be greater than 0", "empty value", "appears twice", "SECTION.KEY=",
                             "not a whole number", "did you mean 'tdm'", "more than 100000 values", "list key" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct sweep sw;
        char why[512];
        ck_assert_msg(!sweep_parse(&sw, &bad[i], 1, why, sizeof why), "accepted %s", bad[i]);
        char quoted[128];
        snprintf(quoted, sizeof quoted, "'%s'", bad[i]);
        ck_assert_msg(strstr(why, quoted) && strstr(why, reason[i]), "%s: %s", bad[i], why);
        sweep_free(&sw);
    }
    const char *twice[] = { "workload.rate=1,2", "workload.rate=3" };
    struct sweep sw;
    char why[512];
    ck_assert(!sweep_parse(&sw, twice, 2, why, sizeof why));
    ck_assert(strstr(why, "already swept"));
    sweep_free(&sw);
}
END_TEST

static uint64_t seed_of(const char *const *specs, size_t n, size_t point, uint64_t base)
{
    struct sweep sw;
    char why[512];
    ck_assert_msg(sweep_parse(&sw, specs, n, why, sizeof why), "%s", why);
    uint64_t seed = sweep_point_seed(&sw, point, base);
    sweep_free(&sw);
    return seed;
}

/* Item 18: a range of a whole-number key is counted in 64-bit integers, never through a
 * double, so it reaches the top of run.seed's range exactly. */
START_TEST(whole_number_ranges_are_exact_to_the_top)
{
    struct sweep sw;
    char why[512];
    const char *top[] = { "run.seed=18446744073709551614:18446744073709551615:1" };
    ck_assert_msg(sweep_parse(&sw, top, 1, why, sizeof why), "%s", why);
    ck_assert_uint_eq(sw.dim[0].count, 2);
    ck_assert_str_eq(sw.dim[0].values[0], "18446744073709551614");
    ck_assert_str_eq(sw.dim[0].values[1], "18446744073709551615");
    ck_assert(sweep_point_seed(&sw, 1, 1) == UINT64_MAX); /* swept alone, the values are the seeds */
    ck_assert(sweep_point_seed(&sw, 0, 1) == UINT64_MAX - 1);
    sweep_free(&sw);
    const char *stepped[] = { "run.seed=18446744073709551605:18446744073709551615:4" }; /* TO off the steps */
    ck_assert_msg(sweep_parse(&sw, stepped, 1, why, sizeof why), "%s", why);
    ck_assert_uint_eq(sw.dim[0].count, 3);
    ck_assert_str_eq(sw.dim[0].values[0], "18446744073709551605");
    ck_assert_str_eq(sw.dim[0].values[1], "18446744073709551609");
    ck_assert_str_eq(sw.dim[0].values[2], "18446744073709551613");
    sweep_free(&sw);
    const char *ints[] = { "network.radix=1000000000:1073741824:36870912" }; /* a signed key, to its bound */
    ck_assert_msg(sweep_parse(&sw, ints, 1, why, sizeof why), "%s", why);
    ck_assert_uint_eq(sw.dim[0].count, 3);
    ck_assert_str_eq(sw.dim[0].values[2], "1073741824");
    sweep_free(&sw);
    const char *bad[] = { "run.seed=18446744073709551615:18446744073709551614:1", "run.seed=0:18446744073709551615:1",
                          "run.seed=18446744073709551615:18446744073709551616:1", "network.radix=-2:4:2", "run.seed=1:5:0" };
    const char *reason[] = { "FROM <= TO", "more than 100000 values", "not a whole number", "at least 2",
                             "STEP > 0" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(!sweep_parse(&sw, &bad[i], 1, why, sizeof why), "accepted %s", bad[i]);
        ck_assert_msg(strstr(why, bad[i]) && strstr(why, reason[i]), "%s: %s", bad[i], why);
        sweep_free(&sw);
    }
}
END_TEST

/* A point's seed is a function of the base seed and its coordinates only. */
START_TEST(point_seeds_follow_coordinates_not_indices)
{
    const char *two[] = { "workload.rate=0.2,0.4" };
    const char *four[] = { "workload.rate=0.1,0.2,0.3,0.4" };
    ck_assert_uint_eq(seed_of(two, 1, 0, 1), seed_of(four, 1, 1, 1));
    ck_assert_uint_eq(seed_of(two, 1, 1, 1), seed_of(four, 1, 3, 1));
    ck_assert_uint_ne(seed_of(two, 1, 0, 1), seed_of(two, 1, 1, 1));
    ck_assert_uint_ne(seed_of(two, 1, 0, 1), seed_of(two, 1, 0, 2)); /* the base seed matters */
    const char *range[] = { "workload.rate=0.2:0.4:0.2" };                 /* same values, other spelling */
    ck_assert_uint_eq(seed_of(range, 1, 1, 1), seed_of(two, 1, 1, 1));
    const char *ab[] = { "workload.rate=0.2,0.4", "protocol.link=fifo,tdm" };
    const char *ba[] = { "protocol.link=tdm,fifo", "workload.rate=0.4,0.2" };
    ck_assert_uint_eq(seed_of(ab, 2, 3, 1), seed_of(ba, 2, 0, 1)); /* rate 0.4, tdm: option order is irrelevant */
    ck_assert_uint_eq(seed_of(ab, 2, 0, 1), seed_of(ba, 2, 3, 1));
    /* Pinned: a sweep re-run with a later version must give the same rows. */
    ck_assert_uint_eq(seed_of(two, 1, 0, 1), rng_text_seed(1, "workload.rate=0.2\n"));
    /* run.seed swept is the base itself; alone it is the point's seed. */
    const char *seeds[] = { "run.seed=5,6" };
    ck_assert_uint_eq(seed_of(seeds, 1, 1, 1), 6);
    const char *both[] = { "run.seed=5,6", "workload.rate=0.2" };
    ck_assert_uint_eq(seed_of(both, 2, 1, 1), rng_text_seed(6, "workload.rate=0.2\n"));
    ck_assert_uint_eq(seed_of(NULL, 0, 0, 42), 42); /* no coordinates: the config's seed */
}
END_TEST

/* --common-random-numbers: every point runs on the base seed (the swept run.seed, if
 * swept), so points differing in a key that draws nothing give the same delays. */
START_TEST(common_random_numbers_use_the_base_seed)
{
    const char *two[] = { "workload.rate=0.2,0.4", "protocol.link=fifo,tdm" };
    struct sweep sw;
    char why[256];
    ck_assert(sweep_parse(&sw, two, 2, why, sizeof why));
    for (size_t i = 0; i < sw.points; i++)
        ck_assert_uint_eq(sweep_common_seed(&sw, i, 9), 9);
    sweep_free(&sw);
    const char *seeds[] = { "run.seed=5,6", "workload.rate=0.2" };
    ck_assert(sweep_parse(&sw, seeds, 2, why, sizeof why));
    ck_assert_uint_eq(sweep_common_seed(&sw, 1, 9), 6);
    sweep_free(&sw);
    /* run.batches changes no draw: with common random numbers both rows' delays match */
    const char *crn[] = { test_binary(), "--sweep", "run.batches=10,20", "--common-random-numbers", "--seed", "7",
                          "-s", "run.messages=2000", "-s", "run.warmup_messages=200", "-f", "json", "--no-timing",
                          "-j", "1", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(crn, out, BIG, err, sizeof err), 0);
    const char *a = strstr(out, "\"seed\": 7,"), *b = a ? strstr(a + 1, "\"seed\": 7,") : NULL;
    ck_assert_msg(a && b, "%s", out);
    const char *ma = strstr(a, "\"mean\": "), *mb = strstr(b, "\"mean\": ");
    ck_assert(ma && mb);
    ck_assert_int_eq(strncmp(ma, mb, strcspn(ma, ",")), 0);
    const char *alone[] = { test_binary(), "--common-random-numbers", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(alone, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(err, "sim: --common-random-numbers goes with --sweep\n");
}
END_TEST

/* The data rows of a CSV output (the text after the header line). */
static const char *rows(const char *csv)
{
    const char *nl = strchr(csv, '\n');
    ck_assert(nl != NULL);
    return nl + 1;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Whether `row` (under `header`) has the same cell as `other` (under `other_header`)
 * in every column of `header`. */
static bool same_cells(const char *header, const char *row, const char *other_header, const char *other)
{
    for (const char *h = header; *h && *h != '\n'; h += strcspn(h, ",\n") + (h[strcspn(h, ",\n")] == ',')) {
        char name[128], a[4096], b[4096];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(h, ",\n"), h);
        if (!test_csv_cell(header, row, name, a, sizeof a) || !test_csv_cell(other_header, other, name, b, sizeof b) ||
            strcmp(a, b) != 0)
            return false;
    }
    return true;
}

/* Adding a point leaves every other row as it was, cell for cell. */
START_TEST(adding_a_point_changes_no_other_row)
{
    const char *few[] = { test_binary(), "--sweep", "workload.rate=0.4,1.2", "--sweep", "protocol.link=fifo,tdm",
                          "-s", "run.messages=3000", "-s", "run.warmup_messages=500", "-f", "csv", "--no-timing",
                          "-j", "2", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(few, out, BIG, err, sizeof err), 0);
    const char *more[] = { test_binary(), "--sweep", "workload.rate=0.4,0.8,1.2", "--sweep",
                           "protocol.link=fifo,token,tdm", "-s", "run.messages=3000", "-s",
                           "run.warmup_messages=500", "-f", "csv", "--no-timing", "-j", "2", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(more, out2, BIG, err, sizeof err), 0);
    ck_assert_int_eq(count_lines(out), 5);
    ck_assert_int_eq(count_lines(out2), 10);
    /* Every row of the small sweep is a row of the larger one, cell for cell by column
     * name (token's keys add columns, empty in the other protocols' rows). */
    int found = 0;
    for (const char *line = rows(out); *line; line = strchr(line, '\n') + 1) {
        bool same = false;
        for (const char *other = rows(out2); *other && !same; other = strchr(other, '\n') + 1)
            same = same_cells(out, line, out2, other);
        ck_assert_msg(same, "row lost: %.*s", (int)strcspn(line, "\n"), line);
        found++;
    }
    ck_assert_int_eq(found, 4);
    /* The union of the points' columns, config keys in listing order (token's point
     * comes before tdm's, its keys after tdm's), before every figure. */
    ck_assert_msg(strstr(out2, ",protocol.priority,protocol.slot,protocol.tdm_rule,protocol.token_time,"
                               "protocol.max_per_capture,workload.arrival,"), "%.*s", (int)strcspn(out2, "\n"), out2);
    ck_assert(strstr(out2, "run.max_wall_seconds,nodes,"));
    /* The fifo rows of the larger sweep leave token's key empty. */
    char cell[64];
    ck_assert(test_csv_cell(out2, rows(out2), "protocol.max_per_capture", cell, sizeof cell));
    ck_assert_str_eq(cell, "");
}
END_TEST

/* Points with the same engine and echo may still differ in columns: a flit engine's
 * blocking figures are per channel class, and a 5-cube has two classes more than a
 * 3-cube.  Every column of every point is kept.  A swept key no chosen plug-in reads is
 * said on stderr. */
START_TEST(columns_are_the_union_of_every_points)
{
    const char *argv[] = { test_binary(), "--sweep", "network.dimension=3,5", "-s", "routing.switching=wormhole",
                           "-s", "workload.rate=0.05", "-s", "run.messages=2000", "-s", "run.warmup_messages=200",
                           "-f", "csv", "--no-timing", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
    ck_assert_msg(!strstr(err, "left out"), "%s", err);
    ck_assert_int_eq(count_lines(out), 3);
    const char *row3 = rows(out), *row5 = strchr(row3, '\n') + 1;
    char cell[64];
    ck_assert(test_csv_cell(out, row5, "switching.blocking_dim4", cell, sizeof cell) && cell[0]);
    ck_assert(test_csv_cell(out, row3, "switching.blocking_dim4", cell, sizeof cell));
    ck_assert_str_eq(cell, ""); /* a 3-cube has no dimension 4 */
    ck_assert(test_csv_cell(out, row3, "switching.blocking_dim2", cell, sizeof cell) && cell[0]);

    const char *idle[] = { test_binary(), "--sweep", "protocol.slot=1,2", "-s", "protocol.token_time=0.2", "-s",
                           "run.messages=2000", "-f", "csv", "--no-timing", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(idle, out, BIG, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "sim: --sweep protocol.slot: no chosen plug-in of any point reads it"), "%s", err);
    ck_assert_msg(strstr(err, "sim: -s protocol.token_time: no chosen plug-in of any point reads it"), "%s", err);
    const char *used[] = { test_binary(), "--sweep", "protocol.link=fifo,tdm", "--sweep", "protocol.slot=1,2", "-s",
                           "run.messages=2000", "-f", "csv", "--no-timing", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(used, out, BIG, err, sizeof err), 0);
    ck_assert_msg(!strstr(err, "no chosen plug-in"), "%s", err); /* tdm's points read it */
}
END_TEST

/* -j 1, -j 2, -j 3 (and mpirun -n 2 when built): identical bytes with --no-timing;
 * points of unequal lengths finish out of order, rows still come in sweep order. */
START_TEST(parallel_runs_give_identical_output)
{
    static char j1[BIG], other[BIG];
    for (int f = 0; f < 2; f++) {
        const char *fmt = f ? "json" : "csv";
        const char *argv[] = { test_binary(), "--sweep", "run.messages=30000,2000,10000", "--sweep",
                               "workload.rate=0.6,1.2", "--replications", "3", "-s", "run.warmup_messages=500",
                               "-f", fmt, "--no-timing", "-j", "1", DEFAULT_INI, NULL };
        ck_assert_int_eq(test_exec(argv, j1, BIG, err, sizeof err), 0);
        for (const char *j = "2"; j; j = strcmp(j, "2") == 0 ? "3" : NULL) {
            argv[13] = j;
            ck_assert_int_eq(test_exec(argv, other, BIG, err, sizeof err), 0);
            ck_assert_msg(strcmp(j1, other) == 0, "-j %s differs from -j 1 (%s)", j, fmt);
        }
        const char *mpi = getenv("SIM_MPI_BINARY"), *mpirun = getenv("SIM_MPIRUN");
        if (mpi && mpirun) {
            const char *m[] = { mpirun, "--allow-run-as-root", "--oversubscribe", "-n", "2", mpi, "--sweep",
                                "run.messages=30000,2000,10000", "--sweep", "workload.rate=0.6,1.2",
                                "--replications", "3", "-s", "run.warmup_messages=500", "-f", fmt, "--no-timing",
                                DEFAULT_INI, NULL };
            ck_assert_int_eq(test_exec(m, other, BIG, err, sizeof err), 0);
            ck_assert_msg(strcmp(j1, other) == 0, "mpirun -n 2 differs from -j 1 (%s): %s", fmt, err);
        }
    }
    /* CSV: one header, six rows in sweep order, each with its replication interval */
    const char *csv[] = { test_binary(), "--sweep", "run.messages=30000,2000,10000", "--sweep",
                          "workload.rate=0.6,1.2", "--replications", "3", "-s", "run.warmup_messages=500", "-f",
                          "csv", "--no-timing", "-j", "2", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(csv, j1, BIG, err, sizeof err), 0);
    ck_assert_int_eq(count_lines(j1), 7);
    ck_assert(strstr(j1, "replications.count") && !strstr(j1, "performance.wall_seconds"));
    const char *order[] = { ",30000,", ",30000,", ",2000,", ",2000,", ",10000,", ",10000," };
    const char *line = rows(j1);
    for (int i = 0; i < 6; i++) {
        const char *end = strchr(line, '\n');
        char row[8192];
        snprintf(row, sizeof row, "%.*s", (int)(end - line), line);
        ck_assert_msg(strstr(row, order[i]), "row %d out of order: %s", i, row);
        ck_assert_msg(strstr(row, i % 2 ? ",1.2," : ",0.6,"), "row %d: %s", i, row);
        ck_assert_msg(strstr(row, ",3,"), "row %d lacks its 3 replications", i);
        line = end + 1;
    }
    /* a row is exactly the single run with the printed seed */
    char single_seed[32];
    ck_assert(test_csv_cell(j1, rows(j1), "run.seed", single_seed, sizeof single_seed));
    const char *single[] = { test_binary(), "-s", "run.messages=30000", "-s", "workload.rate=0.6", "--replications",
                             "3", "-s", "run.warmup_messages=500", "--seed", single_seed, "-f", "csv",
                             "--no-timing", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(single, other, BIG, err, sizeof err), 0);
    ck_assert(strncmp(rows(j1), rows(other), strlen(rows(other))) == 0);
}
END_TEST

/* SIGINT to the parent: the running points stop, the finished rows are written (in
 * sweep order, to stdout or atomically to -o), status 130. */
START_TEST(interrupted_sweep_keeps_finished_rows)
{
    char dir[] = "/tmp/simsweep-XXXXXX";
    ck_assert(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/rows.csv", dir);
    for (int to_file = 0; to_file < 2; to_file++) {
        const char *argv[] = { test_binary(), "--sweep", "run.messages=1000000000,1000,2000", "-f", "csv",
                               "--no-timing", "-j", "2", to_file ? "-o" : "--no-progress",
                               to_file ? path : "--no-progress", DEFAULT_INI, NULL };
        /* once the two short points are done (three children started, one left running):
         * the 10^9-message point still runs */
        int status = test_exec_signal_when_children(argv, 3, 1, SIGINT, out, BIG, err, sizeof err);
        ck_assert_int_eq(status, 130);
        if (to_file) {
            ck_assert_str_eq(out, "");
            FILE *f = fopen(path, "r");
            ck_assert(f != NULL);
            size_t n = fread(out, 1, BIG - 1, f);
            out[n] = '\0';
            fclose(f);
        }
        ck_assert_msg(count_lines(out) == 3, "%s", out);
        const char *r = rows(out);
        ck_assert(strstr(r, ",1000,") && strstr(r, ",2000,") && strstr(r, ",1000,") < strstr(r, ",2000,"));
        ck_assert(!strstr(out, "1000000000"));
        ck_assert(!strstr(out, "true,signal"));
    }
    char cmd[160];
    snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) -eq 1 && rm -rf %s", dir, dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Item 2: the sweep's stdout is a pipe whose reader goes away (at once, or after the
 * first row): the sweep stops its points, says so in one line and exits 1, leaving no
 * process of its group running.  The sweep runs in a process group of its own, so
 * whatever it would leave behind is found (and killed) by the group. */
static int sweep_into_closed_pipe(const char *const *argv, int rows_first, bool *left_behind)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    char err_path[] = "/tmp/simtest-err-XXXXXX";
    int err_fd = mkstemp(err_path);
    ck_assert(err_fd >= 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        setpgid(0, 0);
        dup2(fds[1], STDOUT_FILENO);
        dup2(err_fd, STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    setpgid(pid, pid); /* either side may win the race; both ask for the same */
    close(fds[1]);
    for (int lines = 0; lines < rows_first;) { /* the header and the first rows, then go away */
        char c;
        ssize_t got = read(fds[0], &c, 1);
        if (got <= 0 && errno != EINTR)
            break;
        lines += got == 1 && c == '\n';
    }
    close(fds[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    *left_behind = kill(-pid, 0) == 0;
    if (*left_behind)
        kill(-pid, SIGKILL);
    lseek(err_fd, 0, SEEK_SET);
    ssize_t n = read(err_fd, err, sizeof err - 1);
    err[n > 0 ? n : 0] = '\0';
    close(err_fd);
    unlink(err_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(lost_output_stops_every_point)
{
    /* the long points end on their own after 30 s, should they be left behind */
    const char *argv[] = { test_binary(), "--sweep", "run.messages=2000,1000000000,1000000001", "-s",
                           "run.max_wall_seconds=30", "-f", "csv", "--no-timing", "--no-progress", "-j", "3",
                           DEFAULT_INI, NULL };
    for (int rows_first = 0; rows_first <= 2; rows_first += 2) {
        bool left_behind;
        int status = sweep_into_closed_pipe(argv, rows_first, &left_behind);
        ck_assert_msg(!left_behind, "a point still ran after the sweep exited (%d lines read)", rows_first);
        ck_assert_int_eq(status, 1);
        ck_assert_str_eq(err, "sim: cannot write the results: Broken pipe\n");
    }
}
END_TEST

/* Item 8: the children are handed the config after "--", so a config named like an
 * option is still the config. */
START_TEST(config_named_like_an_option)
{
    char name[64];
    snprintf(name, sizeof name, "-simsweep-%ld.ini", (long)getpid());
    char cmd[160];
    snprintf(cmd, sizeof cmd, "cp %s ./%s", DEFAULT_INI, name);
    ck_assert_int_eq(system(cmd), 0);
    const char *argv[] = { test_binary(), "--sweep", "workload.rate=0.4,0.8", "-s", "run.messages=2000", "-s",
                           "run.warmup_messages=500", "-f", "csv", "--no-timing", "-j", "2", "--", name, NULL };
    int status = test_exec(argv, out, BIG, err, sizeof err);
    const char *plain[] = { test_binary(), "--sweep", "workload.rate=0.4,0.8", "-s", "run.messages=2000", "-s",
                            "run.warmup_messages=500", "-f", "csv", "--no-timing", "-j", "2", DEFAULT_INI, NULL };
    int plain_status = test_exec(plain, out2, BIG, err, sizeof err);
    unlink(name);
    ck_assert_msg(status == 0, "exit %d", status);
    ck_assert_int_eq(plain_status, 0);
    ck_assert_int_eq(count_lines(out), 3);
    ck_assert_str_eq(out, out2); /* the same file under another name: the same rows */
}
END_TEST

/* Item 9: a CSV sweep interrupted before any point finished still writes its header
 * (exactly that of a single run of the configuration); JSON writes an empty array. */
START_TEST(interrupted_csv_sweep_without_rows_keeps_its_header)
{
    const char *single[] = { test_binary(), "-s", "run.messages=2000", "-s", "run.warmup_messages=500", "-f",
                             "csv", "--no-timing", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(single, out2, BIG, err, sizeof err), 0);
    *strchr(out2, '\n') = '\0';
    strcat(out2, "\n");
    const char *argv[] = { test_binary(), "--sweep", "run.messages=1000000000,2000000000", "-f", "csv",
                           "--no-timing", "--no-progress", "-j", "2", DEFAULT_INI, NULL };
    /* The signal as soon as both children exist, perhaps before they exec: it once hung
     * the sweep, a child's copy of libev's handler taking the parent's SIGTERM. */
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(test_exec_signal_when_children(argv, 2, 2, SIGINT, out, BIG, err, sizeof err), 130);
        ck_assert_str_eq(out, out2);
    }
    argv[4] = "json";
    ck_assert_int_eq(test_exec_signal_when_children(argv, 2, 2, SIGINT, out, BIG, err, sizeof err), 130);
    ck_assert_str_eq(out, "[]\n");
}
END_TEST

/* Item 10: every point's child takes at most 256 -s (the user's, the coordinates and
 * run.seed): more are refused before anything runs, not by every point at run time. */
START_TEST(too_many_settings_refused_up_front)
{
    enum { USER = 254 }; /* 254 + 1 coordinate + run.seed = 256: the most that runs */
    const char *argv[2 * (USER + 1) + 16];
    size_t n = 0;
    argv[n++] = test_binary();
    argv[n++] = "--sweep";
    argv[n++] = "workload.rate=0.4,0.8";
    for (int i = 0; i < USER; i++) {
        argv[n++] = "-s";
        argv[n++] = i % 2 ? "run.messages=2000" : "run.warmup_messages=500";
    }
    size_t tail = n;
    argv[n++] = "-f";
    argv[n++] = "csv";
    argv[n++] = DEFAULT_INI;
    argv[n] = NULL;
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
    ck_assert_int_eq(count_lines(out), 3);
    argv[tail] = "-s"; /* one more */
    argv[tail + 1] = "run.messages=2000";
    argv[tail + 2] = "-f";
    argv[tail + 3] = "csv";
    argv[tail + 4] = DEFAULT_INI;
    argv[tail + 5] = NULL;
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "sim: --sweep: 255 -s options are too many with 1 swept key: at most 254 (each point "
                          "adds its coordinates and run.seed to at most 256)\n");
}
END_TEST

/* Bad specs: one line naming the spec, exit 2, nothing written, no output file. */
START_TEST(bad_sweep_is_exit_2_before_any_output)
{
    char path[] = "/tmp/simsweep-never.csv";
    unlink(path);
    const char *specs[] = { "workload.rate=0.9:0.1:0.1", "workload.rat=1,2", "network.topology=hypercube,bh-ccc",
                            "workload.rate=0.5,-2" };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        const char *argv[] = { test_binary(), "--sweep", specs[i], "-o", path, DEFAULT_INI, NULL };
        ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 2);
        ck_assert_str_eq(out, "");
        ck_assert_msg(count_lines(err) == 1 && strncmp(err, "sim: --sweep ", 13) == 0, "%s", err);
        ck_assert_msg(strstr(err, i == 2 ? "network.topology=bh-ccc" : specs[i]), "%s", err);
        ck_assert(access(path, F_OK) != 0);
    }
    const char *both[] = { test_binary(), "--sweep", "workload.rate=1,2", "-s", "workload.rate=3", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(both, out, BIG, err, sizeof err), 2);
    ck_assert(strstr(err, "also set with -s"));
    const char *jobs[] = { test_binary(), "--sweep", "workload.rate=1,2", "-j", "0", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(jobs, out, BIG, err, sizeof err), 2);
}
END_TEST

/* A saturated point is not run: its row is marked, the stable rows are all there, exit 0. */
START_TEST(unstable_point_is_marked_and_the_sweep_goes_on)
{
    const char *argv[] = { test_binary(), "--sweep", "workload.rate=0.8,1.6,2.4,3.2", "-s", "run.messages=2000",
                           "-f", "csv", "--no-timing", "-j", "2", "--progress", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
    ck_assert_int_eq(count_lines(out), 5);
    const char *r = rows(out);
    const char *third = strchr(strchr(r, '\n') + 1, '\n') + 1;
    ck_assert_msg(strstr(third, ",true,channel utilisation ") && strstr(third, " >= 1 on class dim0,"), "%s", third);
    ck_assert(strstr(third, "unstable: not run"));
    ck_assert(strstr(r, ",completed,"));
    ck_assert_msg(strstr(err, "[sweep]") && strstr(err, "4/4 points") && strstr(err, "ETA"), "%s", err);
}
END_TEST

/* A point stopped by run.max_wall_seconds keeps its (marked) row; the sweep says 124. */
START_TEST(wall_limited_point_keeps_its_row)
{
    const char *argv[] = { test_binary(), "--sweep", "workload.rate=0.5,1", "-s", "run.messages=1000000000", "-s",
                           "run.max_wall_seconds=0.3", "-f", "csv", "-j", "2", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 124);
    ck_assert_int_eq(count_lines(out), 3);
    ck_assert(strstr(out, ",true,max_wall_seconds,"));
}
END_TEST

/* scripts/sweep.sh: one header, one row per value; scripts/plot.sh: a PNG (when gnuplot is there). */
START_TEST(shell_scripts_sweep_and_plot)
{
    setenv("SIM", test_binary(), 1);
    setenv("SIM_ARGS", "-s run.messages=2000 -s run.warmup_messages=500", 1);
    const char *argv[] = { "/bin/sh", "scripts/sweep.sh", DEFAULT_INI, "workload.rate", "0.4", "0.8", "1.2", NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
    ck_assert_int_eq(count_lines(out), 4);
    ck_assert(strncmp(out, "network.topology,", 17) == 0 && strstr(rows(out), ",poisson,0.8,"));
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        return;
    char dir[] = "/tmp/simplot-XXXXXX", csv[64], png[64];
    ck_assert(mkdtemp(dir) != NULL);
    snprintf(csv, sizeof csv, "%s/s.csv", dir);
    snprintf(png, sizeof png, "%s/s.png", dir);
    FILE *f = fopen(csv, "w");
    ck_assert(f && fputs(out, f) >= 0 && fclose(f) == 0);
    const char *plot[] = { "/bin/sh", "scripts/plot.sh", "-g", "protocol.link", "-e",
                           "delay.ci95_low,delay.ci95_high", "-o", png, csv, "workload.rate", "delay.mean", NULL };
    ck_assert_msg(test_exec(plot, out, BIG, err, sizeof err) == 0, "%s", err);
    f = fopen(png, "rb");
    ck_assert(f != NULL);
    unsigned char magic[8];
    ck_assert_uint_eq(fread(magic, 1, 8, f), 8);
    fclose(f);
    ck_assert(memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0);
    const char *bad[] = { "/bin/sh", "scripts/plot.sh", csv, "workload.rate", "delay.nope", NULL };
    ck_assert_int_eq(test_exec(bad, out, BIG, err, sizeof err), 2);
    ck_assert(strstr(err, "no column delay.nope"));
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *unit = tcase_create("specs");
    tcase_add_test(unit, specs_expand_in_sweep_order);
    tcase_add_test(unit, bad_specs_name_the_spec);
    tcase_add_test(unit, point_seeds_follow_coordinates_not_indices);
    tcase_add_test(unit, whole_number_ranges_are_exact_to_the_top);
    suite_add_tcase(s, unit);
    TCase *cli = tcase_create("runner");
    tcase_set_timeout(cli, 300);
    tcase_add_test(cli, adding_a_point_changes_no_other_row);
    tcase_add_test(cli, columns_are_the_union_of_every_points);
    tcase_add_test(cli, common_random_numbers_use_the_base_seed);
    tcase_add_test(cli, parallel_runs_give_identical_output);
    tcase_add_test(cli, interrupted_sweep_keeps_finished_rows);
    tcase_add_test(cli, bad_sweep_is_exit_2_before_any_output);
    tcase_add_test(cli, unstable_point_is_marked_and_the_sweep_goes_on);
    tcase_add_test(cli, wall_limited_point_keeps_its_row);
    tcase_add_test(cli, shell_scripts_sweep_and_plot);
    tcase_add_test(cli, lost_output_stops_every_point);
    tcase_add_test(cli, config_named_like_an_option);
    tcase_add_test(cli, interrupted_csv_sweep_without_rows_keeps_its_header);
    tcase_add_test(cli, too_many_settings_refused_up_front);
    suite_add_tcase(s, cli);
    return s;
}
