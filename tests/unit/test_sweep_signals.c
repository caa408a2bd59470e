/* Sweeps against their surroundings (issue 37): the configuration edited while the
 * sweep runs (item 3), every stop signal while the plan is built or the points run
 * (items 12, 13, 14), a failed -o write said once (item 11), a long range (item 6). */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/test.h"

enum { BIG = 1 << 20 };
static char out[BIG], err[65536];
static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/simsweepsig-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char *in_dir(char *buf, const char *name)
{
    snprintf(buf, 128, "%s/%s", dir, name);
    return buf;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* How many entries dir holds (a temporary file left behind shows here). */
static unsigned entries(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "exit $(ls -A %s | wc -l)", dir);
    return (unsigned)WEXITSTATUS(system(cmd));
}

/* The first child of pid, once it has one: the config is then edited (ctx: its path). */
static bool edit_once_running(pid_t pid, void *ctx)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    FILE *f = fopen(path, "r");
    int child = 0;
    bool running = f && fscanf(f, "%d", &child) == 1;
    if (f)
        fclose(f);
    if (running)
        write_text(ctx, "[network]\ndimension = 4\n");
    return running;
}

START_TEST(points_use_the_config_text_the_plan_checked)
{
    /* Item 3: the children re-read the file, so an edit 0.3 s in gave rows of a 6-cube
     * and then of a 4-cube.  Edited once the first point runs: every row is a 6-cube. */
    char config[128];
    in_dir(config, "c.ini");
    write_text(config, "[network]\ndimension = 6\n[run]\nmessages = 20000\nwarmup_messages = 500\n");
    const char *argv[] = { test_binary(), "--sweep", "workload.rate=0.1,0.2,0.3,0.4", "-j", "1", "-f", "csv",
                           "--no-timing", "--no-progress", config, NULL };
    /* SIGCONT: no signal at all to sim; the callback's edit is the point */
    ck_assert_int_eq(test_exec_signal_when(argv, edit_once_running, config, 0, SIGCONT, out, BIG, err, sizeof err),
                     0);
    char *header = out, *row = strchr(out, '\n');
    int rows = 0;
    for (; row && row[1]; row = strchr(row + 1, '\n'), rows++) {
        char cell[32];
        ck_assert(test_csv_cell(header, row + 1, "network.dimension", cell, sizeof cell));
        ck_assert_msg(strcmp(cell, "6") == 0, "row %d: dimension %s", rows + 1, cell);
    }
    ck_assert_int_eq(rows, 4);
}
END_TEST

/* Whether pid (sim, past exec) holds SIGINT: it is in main. */
static bool holds_signals(pid_t pid, void *ctx)
{
    (void)ctx;
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    unsigned long long blocked = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "SigBlk: %llx", &blocked) == 1)
            break;
    fclose(f);
    return blocked & (1ull << (SIGINT - 1));
}

START_TEST(stop_signal_while_planning_gives_one_line)
{
    /* Item 14: SIGTERM while a large sweep was planned killed it (143), silently.  Each
     * stop signal, as soon as main holds them: status 130, one line, no -o file. */
    const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    char output[128];
    in_dir(output, "rows.csv");
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        const char *argv[] = { test_binary(), "--sweep", "run.seed=1:300:1", "-f", "csv", "--no-progress", "-o", output, "configs/default.ini", NULL };
        int status = test_exec_signal_when(argv, holds_signals, NULL, 0, signals[i], out, BIG, err, sizeof err);
        ck_assert_int_eq(status, 130);
        ck_assert_str_eq(err, "sim: interrupted before the sweep started\n");
        ck_assert_str_eq(out, "");
        ck_assert_uint_eq(entries(), 0);
    }
}
END_TEST

START_TEST(every_stop_signal_ends_a_sweep_as_sigint_does)
{
    /* Items 12 and 13: SIGHUP left FILE.tmp.XXXXXX behind; SIGINT said nothing.  Once
     * the two short points are done and the long one runs: the finished rows, atomically,
     * and one line saying what is missing. */
    const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    char output[128];
    in_dir(output, "rows.csv");
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        const char *argv[] = { test_binary(), "--sweep", "run.messages=1000,1000000000,2000", "-f", "csv",
                               "--no-timing", "--no-progress", "-j", "2", "-o", output, "configs/default.ini", NULL };
        int status = test_exec_signal_when_children(argv, 3, 1, signals[i], out, BIG, err, sizeof err);
        ck_assert_int_eq(status, 130);
        /* the last line (a child stopped before its run started may say so first) */
        static const char said[] = "sim: sweep interrupted: 2 of 3 points written; missing: 2\n";
        size_t len = strlen(err);
        ck_assert_msg(len >= sizeof said - 1 && strcmp(err + len - (sizeof said - 1), said) == 0 &&
                          (len == sizeof said - 1 || err[len - sizeof said] == '\n'), "%s", err);
        ck_assert_uint_eq(entries(), 1); /* rows.csv alone */
        FILE *f = fopen(output, "r");
        ck_assert(f != NULL);
        size_t n = fread(out, 1, BIG - 1, f);
        out[n] = '\0';
        fclose(f);
        ck_assert_msg(strstr(out, ",1000,") && strstr(out, ",2000,") && !strstr(out, "1000000000"), "%s", out);
        ck_assert_int_eq(unlink(output), 0);
    }
}
END_TEST

START_TEST(a_point_killed_then_the_sweep_interrupted_says_both)
{
    /* Item 14: a point killed (SIGKILL) and then SIGINT to the sweep exited 1 with
     * nothing saying the sweep was interrupted. */
    const char *argv[] = { test_binary(), "--sweep", "run.messages=1000000000,2000000000", "-f", "csv",
                           "--no-timing", "--no-progress", "-j", "1", "configs/default.ini", NULL };
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        close(fds[0]);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    /* The first point's process, past exec (it holds the signals): killed outright. */
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    int child = 0;
    const struct timespec ms = { 0, 1000000 };
    for (int waited = 0; waited < 120000; waited++) {
        FILE *f = fopen(path, "r");
        int got = f && fscanf(f, "%d", &child) == 1;
        if (f)
            fclose(f);
        if (got && holds_signals(child, NULL))
            break;
        child = 0;
        nanosleep(&ms, NULL);
    }
    ck_assert_int_gt(child, 0);
    ck_assert_int_eq(kill(child, SIGKILL), 0);
    /* Then the second point's process runs: SIGINT to the sweep. */
    for (int waited = 0; waited < 120000; waited++) {
        int next = 0;
        FILE *f = fopen(path, "r");
        int got = f && fscanf(f, "%d", &next) == 1;
        if (f)
            fclose(f);
        if (got && next != child && holds_signals(next, NULL))
            break;
        nanosleep(&ms, NULL);
    }
    ck_assert_int_eq(kill(pid, SIGINT), 0);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ssize_t n = read(fds[0], err, sizeof err - 1);
    close(fds[0]);
    err[n > 0 ? n : 0] = '\0';
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 1); /* a point failed */
    ck_assert_msg(strstr(err, "sim: sweep point 1/2 (run.messages=1000000000) failed: exit status 137\n"), "%s", err);
    ck_assert_msg(strstr(err, "sim: sweep interrupted: 1 of 2 points written; missing: 2\n"), "%s", err);
}
END_TEST

START_TEST(failed_output_write_is_said_once)
{
    /* Item 11: a second line, "cannot write the output: No child processes" (a stale
     * errno), followed the write error. */
    const char *argv[] = { test_binary(), "--sweep", "workload.rate=0.2,0.4", "-s", "run.messages=1000", "-f", "csv",
                           "--no-progress", "-j", "2", "-o", "/dev/full", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 1);
    ck_assert_str_eq(err, "sim: /dev/full: cannot write: No space left on device\n");
}
END_TEST

START_TEST(a_range_longer_than_255_characters_is_read_whole)
{
    /* Item 6: run.seed=0:20:<249 zeros>10 (step 10, 3 points) was cut and ran 21. */
    char spec[400];
    int n = snprintf(spec, sizeof spec, "run.seed=0:20:");
    memset(spec + n, '0', 249);
    strcpy(spec + n + 249, "10");
    ck_assert_uint_gt(strlen(spec), 255);
    const char *argv[] = { test_binary(), "--sweep", spec, "-s", "run.messages=200", "-s", "run.warmup_messages=50",
                           "-f", "csv", "--no-timing", "--no-progress", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
    int lines = 0;
    for (const char *c = out; *c; c++)
        lines += *c == '\n';
    ck_assert_int_eq(lines, 1 + 3);
}
END_TEST

Suite *sweep_signals_suite(void)
{
    Suite *s = suite_create("sweep_signals");
    TCase *tc = tcase_create("surroundings");
    tcase_add_checked_fixture(tc, make_dir, remove_dir);
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, points_use_the_config_text_the_plan_checked);
    tcase_add_test(tc, stop_signal_while_planning_gives_one_line);
    tcase_add_test(tc, every_stop_signal_ends_a_sweep_as_sigint_does);
    tcase_add_test(tc, a_point_killed_then_the_sweep_interrupted_says_both);
    tcase_add_test(tc, failed_output_write_is_said_once);
    tcase_add_test(tc, a_range_longer_than_255_characters_is_read_whole);
    suite_add_tcase(s, tc);
    return s;
}
