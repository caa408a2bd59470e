/* Where sim's output goes (sim/cli/output.c, main.c) and how it is written: -o and
 * --write-trace files (links, FIFOs, modes, a bad path refused before the run), stdout
 * write errors, one-line messages, and the report's formatting of missing differences
 * and of text that is not UTF-8. */
#define _XOPEN_SOURCE 700 /* mknod */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/test.h"

enum { BIG = 1 << 20 };
static char out[BIG], err[65536];
static const char DEFAULT_INI[] = "configs/default.ini";
#define SHORT "-s", "run.messages=2000", "-s", "run.warmup_messages=100", "--no-progress", "--no-timing"

static char dir[] = "/tmp/simoutput-XXXXXX";

static void make_dir(void)
{
    strcpy(dir, "/tmp/simoutput-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char *in_dir(char *buf, const char *name)
{
    snprintf(buf, 128, "%s/%s", dir, name);
    return buf;
}

static size_t read_file(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
    return n;
}

static unsigned entries(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "exit $(ls -A %s | wc -l)", dir);
    int status = system(cmd);
    return (unsigned)WEXITSTATUS(status);
}

START_TEST(output_file_keeps_links_modes_and_fifos)
{
    make_dir();
    mode_t old_mask = umask(027);
    char file[128], link[128], fifo[128], fresh[128], expected[8192], got[8192];
    const char *plain[] = { test_binary(), SHORT, DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(plain, expected, sizeof expected, err, sizeof err), 0);

    /* An existing file keeps its mode; a link is kept and its target written. */
    in_dir(file, "report.txt");
    FILE *f = fopen(file, "w");
    fputs("old\n", f);
    fclose(f);
    ck_assert_int_eq(chmod(file, 0664), 0);
    ck_assert_int_eq(symlink("report.txt", in_dir(link, "link")), 0);
    const char *to_link[] = { test_binary(), SHORT, "-o", link, DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(to_link, out, BIG, err, sizeof err), 0);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "");
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_int_eq(stat(file, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert_uint_eq(st.st_mode & 07777, 0664);
    read_file(file, got, sizeof got);
    ck_assert_str_eq(got, expected);

    /* A new file: 0666 less the umask, not 0600. */
    const char *to_new[] = { test_binary(), SHORT, "-o", in_dir(fresh, "new.txt"), DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(to_new, out, BIG, err, sizeof err), 0);
    ck_assert_int_eq(stat(fresh, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0640);

    /* A link to a device is written through, never replaced. */
    ck_assert_int_eq(symlink("/dev/null", in_dir(link, "null")), 0);
    const char *to_null[] = { test_binary(), SHORT, "-o", link, DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(to_null, out, BIG, err, sizeof err), 0);
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));

    /* A FIFO is written in place: the reader gets the report, the FIFO stays. */
    ck_assert_int_eq(mkfifo(in_dir(fifo, "fifo"), 0600), 0);
    int reader = open(fifo, O_RDONLY | O_NONBLOCK);
    ck_assert_int_ge(reader, 0);
    const char *to_fifo[] = { test_binary(), SHORT, "-o", fifo, DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(to_fifo, out, BIG, err, sizeof err), 0);
    ssize_t n = read(reader, got, sizeof got - 1);
    close(reader);
    ck_assert_int_gt(n, 0);
    got[n] = '\0';
    ck_assert_str_eq(got, expected);
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));

    /* The trace likewise: through the link, the target's mode kept. */
    ck_assert_int_eq(chmod(file, 0604), 0);
    in_dir(link, "link");
    const char *trace[] = { test_binary(), SHORT, "--write-trace", link, DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(trace, out, BIG, err, sizeof err), 0);
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_int_eq(stat(file, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0604);
    read_file(file, got, sizeof got);
    ck_assert_msg(strncmp(got, "0.0", 3) == 0, "%.40s", got); /* a trace line: the time first */

    /* A sweep's -o the same way: through the link, the target's mode kept; a FIFO in place. */
    ck_assert_int_eq(chmod(file, 0660), 0);
    const char *sweep[] = { test_binary(), SHORT, "--no-progress", "-f", "csv", "--sweep", "workload.rate=0.5,0.6",
                            "-o", link, DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(sweep, out, BIG, err, sizeof err), 0);
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_int_eq(stat(file, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0660);
    read_file(file, got, sizeof got);
    ck_assert_msg(strstr(got, ",workload.rate,") && strchr(got, '\n') != strrchr(got, '\n'), "%.80s", got);
    reader = open(fifo, O_RDONLY | O_NONBLOCK);
    ck_assert_int_ge(reader, 0);
    sweep[13] = fifo; /* in place of the link */
    ck_assert_int_eq(test_exec(sweep, out, BIG, err, sizeof err), 0);
    n = read(reader, got, sizeof got - 1);
    close(reader);
    ck_assert_int_gt(n, 0);
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    ck_assert_uint_eq(entries(), 5); /* report.txt, link, new.txt, null, fifo: no temporary left */
    umask(old_mask);
    remove_dir();
}
END_TEST

START_TEST(unwritable_output_is_refused_before_the_run)
{
    const char *argv[] = { test_binary(), SHORT, "-o", "/nonexistent-dir/out.txt", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "/nonexistent-dir/out.txt: cannot write the output: No such file or directory\n");
    /* Refused before the run: a run stopped by a signal would have said so. */
    const char *slow[] = { test_binary(), "-o", "/nonexistent-dir/out.txt", "-s", "run.messages=1000000000",
                           "--no-progress", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(slow, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(err, "/nonexistent-dir/out.txt: cannot write the output: No such file or directory\n");
}
END_TEST

/* Runs sim with stdout on `path` (NULL: closed); returns the exit status, stderr in err. */
static int exec_stdout(const char *const *argv, const char *path)
{
    char err_path[] = "/tmp/simoutput-err-XXXXXX";
    int err_fd = mkstemp(err_path);
    ck_assert_int_ge(err_fd, 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(err_fd, STDERR_FILENO);
        close(STDOUT_FILENO);
        if (path && open(path, O_WRONLY) != STDOUT_FILENO)
            _exit(126);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    lseek(err_fd, 0, SEEK_SET);
    ssize_t n = read(err_fd, err, sizeof err - 1);
    err[n > 0 ? n : 0] = '\0';
    close(err_fd);
    unlink(err_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(unwritable_stdout_is_an_output_error)
{
    const char *modes[][8] = {
        { "--version" },   { "--help" },       { "--list" }, { "--describe", DEFAULT_INI },
        { "--analytic", DEFAULT_INI }, { SHORT, DEFAULT_INI },
    };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        const char *argv[10] = { test_binary() };
        for (size_t j = 0; modes[i][j]; j++)
            argv[j + 1] = modes[i][j];
        ck_assert_int_eq(exec_stdout(argv, "/dev/full"), 1);
        ck_assert_str_eq(err, "sim: cannot write the output: No space left on device\n");
        ck_assert_int_eq(exec_stdout(argv, NULL), 1);
        ck_assert_str_eq(err, "sim: cannot write the output: Bad file descriptor\n");
    }
    /* The trace too: a device that is always full (written in place, as devices are). */
    make_dir();
    char full[128];
    if (mknod(in_dir(full, "full"), S_IFCHR | 0666, makedev(1, 7)) == 0) { /* needs root: CI is */
        const char *trace[] = { test_binary(), SHORT, "--write-trace", full, DEFAULT_INI, NULL };
        ck_assert_int_eq(test_exec(trace, out, BIG, err, sizeof err), 1);
        ck_assert_str_eq(out, "");
        ck_assert_str_eq(err, "sim: cannot write the trace: No space left on device\n");
        struct stat st;
        ck_assert_int_eq(stat(full, &st), 0);
        ck_assert(S_ISCHR(st.st_mode));
        ck_assert_uint_eq(entries(), 1); /* no temporary left */
    }
    remove_dir();
}
END_TEST

START_TEST(command_line_errors_are_one_line)
{
    const char *unknown[] = { test_binary(), "--bogus", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(unknown, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(err, "sim: unknown option '--bogus' (try 'sim --help')\n");
    const char *shortopt[] = { test_binary(), "-x", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(shortopt, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(err, "sim: unknown option '-x' (try 'sim --help')\n");
    const char *missing[] = { test_binary(), DEFAULT_INI, "--seed", NULL };
    ck_assert_int_eq(test_exec(missing, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(err, "sim: option '--seed' needs a value (try 'sim --help')\n");
    const char *newline[] = { test_binary(), "-s", "run.seed=1\n2", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(newline, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "command line (-s): run.seed: '1\\n2' is not a whole number\n");
    const char *format[] = { test_binary(), "-f", "x\ty", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(format, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(err, "sim: --format: unknown format 'x\\ty' (table, csv or json)\n");
}
END_TEST

START_TEST(over_long_seed_is_refused_not_cut)
{
    /* "1" then blanks: cut short, it used to read as seed 1. */
    char value[201];
    memset(value, ' ', sizeof value - 1);
    value[0] = '1';
    value[sizeof value - 2] = 'x';
    value[sizeof value - 1] = '\0';
    const char *seed[] = { test_binary(), SHORT, "--seed", value, DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(seed, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "sim: --seed: a value of at most 118 characters\n");
    const char *reps[] = { test_binary(), SHORT, "--replications", value, DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(reps, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(err, "sim: --replications: a value of at most 110 characters\n");
}
END_TEST

START_TEST(missing_difference_prints_a_dash)
{
    char buf[32];
    report_fmt_percent(buf, sizeof buf, NAN);
    ck_assert_str_eq(buf, "-");
    report_fmt_percent(buf, sizeof buf, -INFINITY);
    ck_assert_str_eq(buf, "-");
    report_fmt_percent(buf, sizeof buf, -0.18765);
    ck_assert_str_eq(buf, "-18.77%");
    const char *argv[] = { test_binary(), "--no-progress", "--no-timing", "-s", "run.duration=1e-300", DEFAULT_INI,
                           NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
    ck_assert_ptr_null(strstr(out, "nan"));
    ck_assert_ptr_nonnull(strstr(out, "\ndelay mean   -              [-, -]                     7.80488        -\n"));
}
END_TEST

START_TEST(json_strings_are_valid_utf8)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(f);
    /* a stray byte, a quote, a newline, é, a surrogate (not UTF-8), an overlong '/', 😀 */
    report_json_string(f, "a\xff\"b\n\xc3\xa9\xed\xa0\x80\xc0\xaf\xf0\x9f\x98\x80");
    fclose(f);
    ck_assert_str_eq(text, "\"a\\ufffd\\\"b\\u000a\xc3\xa9\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\xf0\x9f\x98\x80\"");
    free(text);

    /* End to end: a trace whose path holds byte 0xff, echoed in the config. */
    make_dir();
    char path[128], opt[160];
    in_dir(path, "trace\xff.csv");
    const char *write[] = { test_binary(), SHORT, "--write-trace", path, DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(write, out, BIG, err, sizeof err), 0);
    snprintf(opt, sizeof opt, "workload.trace=%s", path);
    const char *replay[] = { test_binary(), SHORT, "-f", "json", "-s", "workload.arrival=trace", "-s", opt,
                             DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(replay, out, BIG, err, sizeof err), 0);
    char expected[192];
    snprintf(expected, sizeof expected, "\"trace\": \"%s/trace\\ufffd.csv\"", dir);
    ck_assert_ptr_nonnull(strstr(out, expected));
    ck_assert_ptr_null(strchr(out, '\xff'));
    remove_dir();
}
END_TEST

Suite *output_suite(void)
{
    Suite *s = suite_create("output");
    TCase *tc = tcase_create("output");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, output_file_keeps_links_modes_and_fifos);
    tcase_add_test(tc, unwritable_output_is_refused_before_the_run);
    tcase_add_test(tc, unwritable_stdout_is_an_output_error);
    tcase_add_test(tc, command_line_errors_are_one_line);
    tcase_add_test(tc, over_long_seed_is_refused_not_cut);
    tcase_add_test(tc, missing_difference_prints_a_dash);
    tcase_add_test(tc, json_strings_are_valid_utf8);
    suite_add_tcase(s, tc);
    return s;
}
