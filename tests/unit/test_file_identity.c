/* No output replaces another output or an input (issue 37, items 1, 2 and 10): every
 * output path is compared with every other output and every input by the file it
 * names (sim/cli/file_identity.h), and an empty output name is refused at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../sim/cli/file_identity.h"
#include "../common/test.h"

static char out[1 << 16], err[1 << 16];
static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/simident-XXXXXX");
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
    snprintf(buf, 160, "%s/%s", dir, name);
    return buf;
}

static unsigned entries(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "exit $(ls -A %s | wc -l)", dir);
    return (unsigned)WEXITSTATUS(system(cmd));
}

static void copy_file(const char *from, const char *to)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "cp %s %s", from, to);
    ck_assert_int_eq(system(cmd), 0);
}

/* Two paths: the same file (by file_identity) or not. */
static bool same(const char *a, const char *b)
{
    struct file_identity x, y;
    file_identity_of(a, &x);
    file_identity_of(b, &y);
    bool is = file_identity_same(&x, &y);
    file_identity_free(&x);
    file_identity_free(&y);
    return is;
}

START_TEST(spellings_of_one_file_are_one_identity)
{
    char y[160], dot[160], up[160], soft[160], hard[160], other[160], sub[160];
    in_dir(y, "y.csv");
    in_dir(dot, "./y.csv");
    snprintf(up, sizeof up, "%s/sub/../y.csv", dir);
    in_dir(soft, "l");
    in_dir(hard, "h");
    in_dir(other, "z.csv");
    ck_assert_int_eq(mkdir(in_dir(sub, "sub"), 0700), 0);
    ck_assert_int_eq(symlink("y.csv", soft), 0); /* dangling until y.csv exists */
    /* Before the file exists: its directory and name. */
    ck_assert(same(y, dot) && same(y, up) && same(y, soft));
    ck_assert(!same(y, other));
    FILE *f = fopen(y, "w");
    ck_assert(f);
    fclose(f);
    ck_assert_int_eq(link(y, hard), 0);
    /* Once it exists: its device and inode. */
    ck_assert(same(y, dot) && same(y, up) && same(y, soft) && same(y, hard));
    ck_assert(!same(y, other) && !same(y, sub));
}
END_TEST

START_TEST(two_outputs_naming_one_file_are_refused_before_the_run)
{
    /* Item 1: `-o d/y.csv --channels d/l` (l a link to y.csv) exited 0 and lost one. */
    char y[160], link[160], dot[160], z[160];
    in_dir(y, "y.csv");
    in_dir(link, "l");
    ck_assert_int_eq(symlink(y, link), 0);
    const char *by_link[] = { test_binary(), "-s", "run.messages=2000", "--no-progress", "-o", y, "--channels", link,
                              "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(by_link, out, sizeof out, err, sizeof err), 2);
    char want[600];
    snprintf(want, sizeof want, "sim: --channels '%s': the same file as -o '%s'\n", link, y);
    ck_assert_str_eq(err, want);
    ck_assert_uint_eq(entries(), 1); /* the link alone: nothing written */
    const char *by_dot[] = { test_binary(), "-s", "run.messages=2000", "--no-progress", "-o", in_dir(z, "z.csv"),
                             "--write-trace", in_dir(dot, "./z.csv"), "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(by_dot, out, sizeof out, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "the same file as -o"), "%s", err);
    ck_assert_uint_eq(entries(), 1);
}
END_TEST

START_TEST(an_output_that_is_an_input_is_refused_and_the_input_kept)
{
    /* Item 2: the report replaced the config; --write-trace the replayed trace; a
     * sweep's -o the config. */
    char config[160], trace[160], set[200];
    copy_file("configs/default.ini", in_dir(config, "c.ini"));
    struct stat before;
    ck_assert_int_eq(stat(config, &before), 0);
    const char *report[] = { test_binary(), "-s", "run.messages=2000", "--no-progress", "-o", config, config, NULL };
    ck_assert_int_eq(test_exec(report, out, sizeof out, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "the same file as the input configuration"), "%s", err);
    const char *channels[] = { test_binary(), "-s", "run.messages=2000", "--no-progress", "--channels", config,
                               config, NULL };
    ck_assert_int_eq(test_exec(channels, out, sizeof out, err, sizeof err), 2);
    const char *sweep[] = { test_binary(), "--sweep", "workload.rate=0.2,0.4", "-s", "run.messages=1000",
                            "--no-progress", "-o", config, config, NULL };
    ck_assert_int_eq(test_exec(sweep, out, sizeof out, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "the same file as the input configuration"), "%s", err);
    FILE *f = fopen(in_dir(trace, "t.csv"), "w");
    ck_assert(f);
    fputs("0,1,2,1\n1,2,3,1\n", f);
    fclose(f);
    snprintf(set, sizeof set, "workload.trace=%s", trace);
    const char *replay[] = { test_binary(), "-s", "network.dimension=4", "-s", "workload.arrival=trace", "-s", set,
                             "-s", "run.messages=2", "-s", "run.warmup_messages=0", "--no-progress", "--write-trace",
                             trace, "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(replay, out, sizeof out, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "the same file as the input workload.trace"), "%s", err);
    struct stat after;
    ck_assert_int_eq(stat(config, &after), 0);
    ck_assert(after.st_ino == before.st_ino && after.st_size == before.st_size);
    ck_assert_uint_eq(entries(), 2); /* c.ini and t.csv, nothing else */
    f = fopen(trace, "r");
    ck_assert(f);
    char text[64] = "";
    ck_assert_uint_eq(fread(text, 1, sizeof text - 1, f), 16);
    fclose(f);
}
END_TEST

START_TEST(empty_output_names_are_refused_at_once)
{
    /* Item 10: found only after the whole run (exit 1). */
    const char *options[] = { "-o", "--channels", "--nodes", "--histogram", "--series", "--write-trace" };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        const char *argv[] = { test_binary(), "-s", "run.messages=20000", "--no-progress", options[i], "",
                               "configs/default.ini", NULL };
        ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
        char want[80];
        snprintf(want, sizeof want, "sim: %s: an empty file name\n", options[i]);
        ck_assert_str_eq(err, want);
    }
    const char *describe[] = { test_binary(), "--describe", "-o", "", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(describe, out, sizeof out, err, sizeof err), 2);
    const char *sweep[] = { test_binary(), "--sweep", "run.messages=20000,30000", "-o", "",
                            "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(sweep, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(err, "sim: -o: an empty file name\n");
}
END_TEST

Suite *file_identity_suite(void)
{
    Suite *s = suite_create("file_identity");
    TCase *tc = tcase_create("outputs");
    tcase_add_checked_fixture(tc, make_dir, remove_dir);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, spellings_of_one_file_are_one_identity);
    tcase_add_test(tc, two_outputs_naming_one_file_are_refused_before_the_run);
    tcase_add_test(tc, an_output_that_is_an_input_is_refused_and_the_input_kept);
    tcase_add_test(tc, empty_output_names_are_refused_at_once);
    suite_add_tcase(s, tc);
    return s;
}
