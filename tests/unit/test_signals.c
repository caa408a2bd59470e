/* SIGINT, SIGTERM, SIGHUP and SIGQUIT at any moment of `sim` (issue item 7, issue 37
 * item 12): held from the start of main, they give status 130 and either a partial
 * report or, before the run started, one line on stderr; the -o and --write-trace
 * temporary files never stay.  A closed pipe ends sim by SIGPIPE (issue 37 item 16). */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/test.h"

enum { BIG = 1 << 20 };
static char out[BIG], err[65536];

/* The names in dir other than . and .., newline-separated, into names. */
static void list_dir(const char *dir, char *names, size_t size)
{
    DIR *d = opendir(dir);
    ck_assert(d);
    names[0] = '\0';
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            strncat(names, e->d_name, size - strlen(names) - 2);
            strcat(names, "\n");
        }
    closedir(d);
}

/* Whether pid blocks SIGINT yet (sim's main holds the signals first thing): read
 * from /proc, so that a test's signal never lands before main, however slow the
 * start (sanitisers, a loaded machine). */
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

START_TEST(signal_while_the_network_is_built_gives_one_line_and_no_files)
{
    /* A signal sent as soon as main holds the signals comes before the run, however
     * fast the machine.  (A second case used to wait 0.05 s, counting on the 2^16-node
     * hypercube taking longer than that to build; on a fast machine the run had started
     * and the case failed.  A signal during the run is the next test's.) */
    const struct {
        int signo;
        double delay;
    } cases[] = { { SIGINT, 0 }, { SIGTERM, 0 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char dir[] = "/tmp/simtest-sig-XXXXXX";
        ck_assert(mkdtemp(dir));
        char output[64], trace[64], names[1024];
        snprintf(output, sizeof output, "%s/r.json", dir);
        snprintf(trace, sizeof trace, "%s/t.csv", dir);
        const char *argv[] = { test_binary(), "configs/default.ini", "-s", "network.dimension=16", "-f", "json",
                               "--no-progress", "-o", output, "--write-trace", trace, NULL };
        int status = test_exec_signal_when(argv, holds_signals, NULL, cases[i].delay, cases[i].signo, out, BIG, err, sizeof err);
        ck_assert_int_eq(status, 130);
        ck_assert_str_eq(err, "sim: interrupted before the run started\n");
        ck_assert_str_eq(out, "");
        list_dir(dir, names, sizeof names);
        ck_assert_msg(names[0] == '\0', "left behind in %s: %s", dir, names);
        ck_assert_int_eq(rmdir(dir), 0);
    }
}
END_TEST

START_TEST(signal_during_the_run_writes_the_partial_report_and_the_trace)
{
    char dir[] = "/tmp/simtest-sig-XXXXXX";
    ck_assert(mkdtemp(dir));
    char output[64], trace[64], names[1024];
    snprintf(output, sizeof output, "%s/r.json", dir);
    snprintf(trace, sizeof trace, "%s/t.csv", dir);
    const char *argv[] = { test_binary(), "configs/default.ini", "-s", "run.messages=1000000000", "-f", "json",
                           "--no-progress", "-o", output, "--write-trace", trace, NULL };
    ck_assert_int_eq(test_exec_signal_when(argv, holds_signals, NULL, 0.5, SIGTERM, out, BIG, err, sizeof err), 130);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(out, "");
    list_dir(dir, names, sizeof names);
    ck_assert_msg(strcmp(names, "r.json\nt.csv\n") == 0 || strcmp(names, "t.csv\nr.json\n") == 0, "%s", names);
    FILE *f = fopen(output, "r");
    ck_assert(f);
    size_t n = fread(out, 1, BIG - 1, f);
    out[n] = '\0';
    fclose(f);
    ck_assert_msg(strstr(out, "\"interrupted\": true") && strstr(out, "\"stop_reason\": \"signal\""), "%s", out);
    ck_assert_int_eq(unlink(output), 0);
    ck_assert_int_eq(unlink(trace), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(every_stop_signal_cleans_up_as_sigint_does)
{
    /* Issue 37 item 12: SIGHUP left FILE.tmp.XXXXXX files behind (single runs, observer
     * files, replications).  SIGHUP and SIGQUIT now do what SIGINT does: the run stops,
     * its files are written whole, status 130, no temporary file left. */
    const int signals[] = { SIGHUP, SIGQUIT };
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
        for (int jobs = 1; jobs <= 2; jobs++) {
            char dir[] = "/tmp/simtest-sig-XXXXXX";
            ck_assert(mkdtemp(dir));
            char output[64], trace[64], channels[64], names[1024];
            snprintf(output, sizeof output, "%s/r.json", dir);
            snprintf(trace, sizeof trace, "%s/t.csv", dir);
            snprintf(channels, sizeof channels, "%s/c.csv", dir);
            const char *single[] = { test_binary(), "configs/default.ini", "-s", "run.messages=1000000000", "-f",
                                     "json", "--no-progress", "-o", output, "--write-trace", trace, "--channels",
                                     channels, NULL };
            const char *replicated[] = { test_binary(), "configs/default.ini", "-s", "run.messages=1000000000", "-f",
                                         "json", "--no-progress", "-o", output, "--write-trace", trace,
                                         "--replications", "2", "-j", "2", NULL };
            int status = test_exec_signal_when(jobs == 1 ? single : replicated, holds_signals, NULL, 0.5, signals[i],
                                               out, BIG, err, sizeof err);
            ck_assert_int_eq(status, 130);
            list_dir(dir, names, sizeof names);
            ck_assert_msg(!strstr(names, ".tmp."), "left behind in %s: %s", dir, names);
            ck_assert_msg(strstr(names, "r.json\n"), "%s", names);
            char cmd[96];
            snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
            ck_assert_int_eq(system(cmd), 0);
        }
}
END_TEST

/* Whether the directory ctx holds a temporary output file: sim is past opening it. */
static bool temporary_file_made(pid_t pid, void *ctx)
{
    (void)pid;
    char names[1024];
    list_dir(ctx, names, sizeof names);
    return strstr(names, ".tmp.") != NULL;
}

START_TEST(stop_signal_during_analytic_to_a_file_leaves_nothing)
{
    /* --analytic (or --describe) with -o: the signals stay held while the temporary file
     * exists (they were handed back, and SIGHUP left it behind).  The CCC's models on
     * 2^18 x 18 nodes take a while: the signal comes while they compute. */
    char dir[] = "/tmp/simtest-sig-XXXXXX";
    ck_assert(mkdtemp(dir));
    char output[64], names[1024];
    snprintf(output, sizeof output, "%s/d.txt", dir);
    const char *argv[] = { test_binary(), "configs/ccc-4.ini", "--analytic", "-s", "network.dimension=18", "-o",
                           output, NULL };
    ck_assert_int_eq(test_exec_signal_when(argv, temporary_file_made, dir, 0, SIGHUP, out, BIG, err, sizeof err),
                     130);
    ck_assert_str_eq(err, "sim: interrupted before the run started\n");
    list_dir(dir, names, sizeof names);
    ck_assert_msg(names[0] == '\0', "left behind in %s: %s", dir, names);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Runs argv with stdout a pipe whose reader has gone; the raw wait status. */
static int into_closed_pipe(const char *const *argv)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    close(fds[0]);
    char err_path[] = "/tmp/simtest-err-XXXXXX";
    int err_fd = mkstemp(err_path);
    ck_assert_int_ge(err_fd, 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        dup2(fds[1], STDOUT_FILENO);
        dup2(err_fd, STDERR_FILENO);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    lseek(err_fd, 0, SEEK_SET);
    ssize_t n = read(err_fd, err, sizeof err - 1);
    err[n > 0 ? n : 0] = '\0';
    close(err_fd);
    unlink(err_path);
    return status;
}

START_TEST(closed_pipe_ends_sim_quietly_by_sigpipe)
{
    /* Item 16: the manual said every mode exits 1 with "cannot write the output"; sim
     * died of SIGPIPE.  The convention it now documents: a closed pipe ends sim by
     * SIGPIPE, silently, with no temporary file left and no -o file half written. */
    const char *list[] = { test_binary(), "--list", NULL };
    int status = into_closed_pipe(list);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE, "status %d", status);
    ck_assert_str_eq(err, "");
    char dir[] = "/tmp/simtest-sig-XXXXXX";
    ck_assert(mkdtemp(dir));
    char output[64], names[1024];
    snprintf(output, sizeof output, "%s/r.txt", dir);
    const char *trace[] = { test_binary(), "configs/default.ini", "--no-progress", "-s", "run.messages=1000000000",
                            "--write-trace", "/dev/stdout", "-o", output, NULL };
    status = into_closed_pipe(trace);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE, "status %d", status);
    ck_assert_str_eq(err, "");
    list_dir(dir, names, sizeof names);
    ck_assert_msg(!strstr(names, ".tmp."), "left behind in %s: %s", dir, names);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *signals_suite(void)
{
    Suite *s = suite_create("signals");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, signal_while_the_network_is_built_gives_one_line_and_no_files);
    tcase_add_test(tc, signal_during_the_run_writes_the_partial_report_and_the_trace);
    tcase_add_test(tc, every_stop_signal_cleans_up_as_sigint_does);
    tcase_add_test(tc, stop_signal_during_analytic_to_a_file_leaves_nothing);
    tcase_add_test(tc, closed_pipe_ends_sim_quietly_by_sigpipe);
    suite_add_tcase(s, tc);
    return s;
}
