/* Input the config loader must refuse in one line, or read exactly: line endings,
 * section headers, NUL bytes, files that never end, -s overrides over the limit, blanks
 * around numbers, numbers near 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/test.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/simcfgin-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Writes len bytes (NULs included) to dir/t.ini and returns the path (static buffer). */
static const char *write_bytes(const char *bytes, size_t len)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/t.ini", dir);
    FILE *f = fopen(path, "wb");
    ck_assert(f != NULL);
    ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

/* Loads the file at path with the overrides; expects failure naming file, line, key and
 * exactly this message. */
static void expect_refused(const char *path, const char *const *ov, size_t n_ov, const char *file, int line,
                           const char *key, const char *message)
{
    struct config cfg;
    struct cfg_error err;
    ck_assert_msg(!run_config_load(&cfg, path, ov, n_ov, &err), "accepted: %s", path);
    ck_assert_str_eq(err.file, file);
    ck_assert_int_eq(err.line, line);
    ck_assert_str_eq(err.key, key);
    ck_assert_str_eq(err.message, message);
}

static void expect_file_refused(const char *text, int line, const char *message)
{
    const char *path = write_bytes(text, strlen(text));
    expect_refused(path, NULL, 0, path, line, "", message);
}

static void load(struct config *cfg, const char *text, const char *const *ov, size_t n_ov)
{
    struct cfg_error err;
    ck_assert_msg(run_config_load(cfg, write_bytes(text, strlen(text)), ov, n_ov, &err), "%s", err.message);
}

static const char CR[] = "carriage return not followed by a line feed: use LF or CRLF line endings";

START_TEST(cr_only_line_endings_are_refused_and_crlf_is_read)
{
    expect_file_refused("[network]\rdimension = 99\r", 1, CR);
    expect_file_refused("[run]\nseed = 1\r; a stray CR\n", 2, CR);
    struct config cfg;
    load(&cfg, "[network]\r\ndimension = 5\r\n[workload]\r\nrate = 0.25\r\n", NULL, 0);
    ck_assert_int_eq(cfg.network.dimension, 5);
    ck_assert_double_eq(cfg.workload.rate, 0.25);
    /* The CR of a CRLF ending is not counted in the 198 characters a line may have. */
    char text[256];
    snprintf(text, sizeof text, ";%0197d\r\n[network]\r\ndimension = 4\r\n", 0);
    load(&cfg, text, NULL, 0);
    ck_assert_int_eq(cfg.network.dimension, 4);
}
END_TEST

START_TEST(text_after_a_section_header_is_refused)
{
    expect_file_refused("[network] dimension = 99\n", 1,
                        "text after [network]: a section header must be alone on its line");
    expect_file_refused("[run]\nseed = 3\n[workload]rate = 2\n", 3,
                        "text after [workload]: a section header must be alone on its line");
    expect_file_refused("[network];x\n", 1, "text after [network]: a section header must be alone on its line");
    struct config cfg;
    load(&cfg, "[network]   ; a comment\ndimension = 5\n[run] \t\nseed = 9\n", NULL, 0);
    ck_assert_int_eq(cfg.network.dimension, 5);
    ck_assert_uint_eq(cfg.run.seed, 9);
}
END_TEST

START_TEST(unknown_section_without_keys_is_refused)
{
    expect_file_refused("[bogus]\n", 1,
                        "unknown section [bogus]; the sections are [network] [routing] [node] [protocol] [workload] "
                        "[run] [physical]");
    expect_file_refused("[run]\nseed = 2\n[netwrk]\n; nothing here\n[workload]\nrate = 1\n", 3,
                        "unknown section [netwrk] (did you mean [network]?)");
    /* One with a key is still refused at the key, which is named. */
    const char *path = write_bytes("[netwrk]\n\ndimension = 3\n", 24);
    expect_refused(path, NULL, 0, path, 3, "netwrk.dimension", "unknown section [netwrk] (did you mean [network]?)");
}
END_TEST

START_TEST(nul_byte_is_named)
{
    static const char text[] = "[network]\ndimension = 3\0 junk\n";
    const char *path = write_bytes(text, sizeof text - 1);
    expect_refused(path, NULL, 0, path, 2, "", "NUL byte: a configuration is text");
}
END_TEST

/* strtod reports ERANGE for a subnormal result too: it is a finite number all the same. */
START_TEST(subnormal_numbers_are_read_and_underflow_is_refused)
{
    struct config cfg;
    load(&cfg, "[workload]\nrate = 1e-308\n", NULL, 0);
    ck_assert(cfg.workload.rate == strtod("1e-308", NULL));
    ck_assert(cfg.workload.rate > 0);
    const char *path = write_bytes("[workload]\nrate = 1e-400\n", 25);
    expect_refused(path, NULL, 0, path, 2, "workload.rate",
                   "'1e-400' is too close to 0 for a double (it would read as 0)");
    path = write_bytes("[workload]\nrate = 1e400\n", 24);
    expect_refused(path, NULL, 0, path, 2, "workload.rate", "'1e400' is not a finite number");
    struct cfg_error err;
    run_config_defaults(&cfg);
    ck_assert(cfg_set(&cfg, "workload", "distance_weights", "1e-310, 1", "t.ini", 1, &err));
    ck_assert(!cfg_set(&cfg, "workload", "empirical_lengths", "1, 1e-999", "t.ini", 2, &err));
    ck_assert_str_eq(err.message, "value 2 of '1, 1e-999' is too close to 0 for a double (it would read as 0)");
}
END_TEST

START_TEST(overrides_are_never_cut_and_blanks_around_numbers_are_read_alike)
{
    const char *path = write_bytes("[run]\n", 6);
    char longest[600], too_long[600];
    snprintf(longest, sizeof longest, "run.seed=%0501d7", 0); /* 511 characters: read whole */
    snprintf(too_long, sizeof too_long, "run.seed=%0505d7", 0);
    struct config cfg;
    struct cfg_error err;
    const char *ov[] = { longest };
    ck_assert_msg(run_config_load(&cfg, path, ov, 1, &err), "%s", err.message);
    ck_assert_uint_eq(cfg.run.seed, 7);
    const char *cut[] = { too_long };
    expect_refused(path, cut, 1, "command line (-s)", 0, "run.seed", "-s override longer than 511 characters");

    const char *negative[] = { "run.seed= -5" };
    expect_refused(path, negative, 1, "command line (-s)", 0, "run.seed",
                   "' -5' is negative; must be a whole number at least 0");
    const char *newline[] = { "run.seed=\n5" }; /* strtoull would skip it; printed, the newline is escaped (test_output.c) */
    expect_refused(path, newline, 1, "command line (-s)", 0, "run.seed", "'\n5' is not a whole number");
    const char *blank[] = { "run.seed= \t" };
    expect_refused(path, blank, 1, "command line (-s)", 0, "run.seed", "missing value");
    const char *blanks[] = { "run.seed= 5 ", "workload.rate=\t0.5 ", "network.dimension=  4" };
    ck_assert_msg(run_config_load(&cfg, path, blanks, 3, &err), "%s", err.message);
    ck_assert_uint_eq(cfg.run.seed, 5);
    ck_assert_double_eq(cfg.workload.rate, 0.5);
    ck_assert_int_eq(cfg.network.dimension, 4);
}
END_TEST

/* A file that never ends, or never ends a line, fails at the first error: the limit is
 * 1 MiB, and /dev/zero fails on its first byte. */
START_TEST(endless_files_stop_at_the_first_error)
{
    expect_refused("/dev/zero", NULL, 0, "/dev/zero", 1, "", "NUL byte: a configuration is text");
    size_t lines = (1u << 20) / 4, size = lines * 4 + 64;
    char *text = malloc(size);
    ck_assert(text != NULL);
    for (size_t i = 0; i < lines; i++)
        memcpy(text + 4 * i, "; c\n", 4);
    strcpy(text + 4 * lines, "[network]\ndimension = 3\n");
    const char *path = write_bytes(text, 4 * lines); /* exactly 1 MiB: read */
    struct config cfg;
    struct cfg_error err;
    ck_assert_msg(run_config_load(&cfg, path, NULL, 0, &err), "%s", err.message);
    path = write_bytes(text, strlen(text));
    expect_refused(path, NULL, 0, path, (int)lines + 1, "", "file larger than 1048576 bytes: not a configuration");
    free(text);
    expect_refused(dir, NULL, 0, dir, 0, "", "cannot read: Is a directory");
}
END_TEST

/* Through the binary: one line on stderr, status 2, nothing on stdout. */
static void expect_cli(const char *text, const char *opt, const char *line)
{
    const char *path = write_bytes(text, strlen(text));
    const char *argv[] = { test_binary(), "--no-progress", "-s", opt, path, NULL };
    char out[4096], err[4096], expected[1024];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    snprintf(expected, sizeof expected, line[0] == ':' ? "%s%s\n" : "%.0s%s\n", path, line);
    ck_assert_str_eq(err, expected);
}

START_TEST(binary_refuses_each_in_one_line)
{
    expect_cli("[network]\rdimension = 99\r", "run.seed=1", ":1: carriage return not followed by a line feed: use "
                                                          "LF or CRLF line endings");
    expect_cli("[bogus]\n", "run.seed=1", ":1: unknown section [bogus]; the sections are [network] [routing] "
                                          "[node] [protocol] [workload] [run] [physical]");
    expect_cli("[network] dimension = 99\n", "run.seed=1",
               ":1: text after [network]: a section header must be alone on its line");
    expect_cli("[run]\n", "run.seed= -5",
               "command line (-s): run.seed: ' -5' is negative; must be a whole number at least 0");
    /* --seed N: a long N is refused too, not cut to a shorter number. */
    char seed[700];
    snprintf(seed, sizeof seed, "%0600d7", 0);
    const char *argv[] = { test_binary(), "--no-progress", "--seed", seed, write_bytes("[run]\n", 6), NULL };
    char out[4096], err[4096];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "sim: --seed: a value of at most 118 characters\n");
}
END_TEST

Suite *config_input_suite(void)
{
    Suite *s = suite_create("config_input");
    TCase *tc = tcase_create("input");
    tcase_add_checked_fixture(tc, make_dir, remove_dir);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cr_only_line_endings_are_refused_and_crlf_is_read);
    tcase_add_test(tc, text_after_a_section_header_is_refused);
    tcase_add_test(tc, unknown_section_without_keys_is_refused);
    tcase_add_test(tc, nul_byte_is_named);
    tcase_add_test(tc, subnormal_numbers_are_read_and_underflow_is_refused);
    tcase_add_test(tc, overrides_are_never_cut_and_blanks_around_numbers_are_read_alike);
    tcase_add_test(tc, endless_files_stop_at_the_first_error);
    tcase_add_test(tc, binary_refuses_each_in_one_line);
    suite_add_tcase(s, tc);
    return s;
}
