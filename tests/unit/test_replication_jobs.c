/* `sim -j N` without --sweep (issue 21): the replications run in parallel processes
 * and give the bytes of -j 1 (--no-timing) in every format; an interrupt stops them
 * all, prints the replications folded so far as a partial report and exits 130 with
 * no child left; a deadlock is said once and exits 3 with no report. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/test.h"

enum { BIG = 1 << 20 };
static char out[BIG], other[BIG], err[65536];

START_TEST(parallel_replications_give_the_bytes_of_one_at_a_time)
{
    const char *formats[] = { "csv", "json", "table" };
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        /* unequal lengths: replications finish out of order, fold in order */
        const char *argv[] = { test_binary(), "--replications", "5", "-s", "run.messages=3000", "-s",
                               "run.warmup_messages=500", "-s", "workload.rate=0.8", "-f", formats[f],
                               "--no-timing", "--no-progress", "-j", "1", "configs/default.ini", NULL };
        ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
        ck_assert_str_eq(err, "");
        const char *without[sizeof argv / sizeof argv[0] - 2]; /* no -j at all: one at a time too */
        size_t n = 0;
        for (size_t i = 0; argv[i]; i++)
            if (i != 13 && i != 14)
                without[n++] = argv[i];
        without[n] = NULL;
        ck_assert_int_eq(test_exec(without, other, BIG, err, sizeof err), 0);
        ck_assert_msg(strcmp(out, other) == 0, "no -j differs from -j 1 (%s)", formats[f]);
        for (const char *j = "2"; j; j = strcmp(j, "2") == 0 ? "3" : NULL) {
            argv[14] = j;
            ck_assert_int_eq(test_exec(argv, other, BIG, err, sizeof err), 0);
            ck_assert_str_eq(err, "");
            ck_assert_msg(strcmp(out, other) == 0, "-j %s differs from -j 1 (%s):\n%s\n%s", j, formats[f], out,
                          other);
        }
    }
    ck_assert(strstr(out, "over 5 replications")); /* the table: every replication folded */
}
END_TEST

/* Whether any process but this one runs with `marker` in its command line. */
static bool process_with(const char *marker)
{
    DIR *d = opendir("/proc");
    ck_assert(d != NULL);
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || atoi(e->d_name) == getpid())
            continue;
        char path[300], line[4096];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        size_t got = f ? fread(line, 1, sizeof line - 1, f) : 0;
        if (f)
            fclose(f);
        for (size_t i = 0; i < got; i++)
            line[i] = line[i] ? line[i] : ' ';
        line[got] = '\0';
        found = strstr(line, marker) != NULL && strstr(line, "cmdline") == NULL;
    }
    closedir(d);
    return found;
}

START_TEST(interrupted_parallel_replications_keep_the_folded_ones)
{
    char seed[64];
    snprintf(seed, sizeof seed, "run.seed=%ld", 7000000L + (long)getpid()); /* marks this run's processes */
    /* long replications (ended after 60 s by the limit, should they be left behind) */
    const char *argv[] = { test_binary(), "--replications", "4", "-s", "run.messages=1000000000", "-s",
                           "run.max_wall_seconds=60", "-s", seed, "-f", "json", "--no-timing", "--no-progress",
                           "-j", "2", "configs/default.ini", NULL };
    /* both children running: replications 0 and 1 stop at their next event */
    int status = test_exec_signal_when_children(argv, 2, 2, SIGINT, out, BIG, err, sizeof err);
    ck_assert_int_eq(status, 130);
    ck_assert_msg(!process_with(seed), "a replication still runs after sim exited");
    ck_assert_msg(strstr(out, "\"interrupted\": true") && strstr(out, "\"stop_reason\": \"signal\""), "%s", out);
    ck_assert_msg(strstr(out, "\"count\": 1,\n    \"mean_sd\""), "only replication 0 is folded: %s", out);
}
END_TEST

START_TEST(deadlocked_parallel_replications_say_it_once)
{
    const char *argv[] = { test_binary(), "--replications", "3", "-s", "network.topology=torus", "-s",
                           "network.radix=8", "-s", "network.dimension=2", "-s", "routing.switching=wormhole", "-s",
                           "routing.flit_buffers=1", "-s", "workload.rate=0.05", "-s", "workload.mean_length=16",
                           "-s", "workload.length=constant", "-s", "run.allow_unstable=true", "-s",
                           "run.messages=2000", "-s", "run.warmup_messages=500", "-s", "routing.deadlock_check=off",
                           "-f", "csv", "--no-progress", "-j",
                           "2", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 3);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strncmp(err, "sim: deadlock at cycle ", 23) == 0, "%s", err);
    ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "one line: %s", err);
    size_t jobs = sizeof argv / sizeof argv[0] - 3;
    argv[jobs] = "1";
    ck_assert_int_eq(test_exec(argv, out, BIG, other, sizeof other), 3);
    ck_assert_str_eq(other, err); /* the same finding, replication 0's, either way */
}
END_TEST

Suite *replication_jobs_suite(void)
{
    Suite *s = suite_create("replication_jobs");
    TCase *c = tcase_create("jobs");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, parallel_replications_give_the_bytes_of_one_at_a_time);
    tcase_add_test(c, interrupted_parallel_replications_keep_the_folded_ones);
    tcase_add_test(c, deadlocked_parallel_replications_say_it_once);
    suite_add_tcase(s, c);
    return s;
}
