/* Every external text file (a configuration, a trace) is read by sim/core/text_input:
 * bounded in size and line length, control bytes and CR-only endings refused, a byte
 * order mark skipped, and a FIFO that never ends given up on a stop signal (issue 37,
 * items 4, 5, 8, 9 and 15). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../sim/core/text_input.h"
#include "../../workloads/trace.h"
#include "../common/test.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/simtext-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Writes len bytes (NULs included) to dir/name; the path in a static buffer. */
static const char *write_bytes(const char *name, const char *bytes, size_t len)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    ck_assert(f != NULL);
    ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

/* trace_load of len bytes on 16 nodes: refused on `line` with exactly `message`. */
static void expect_trace_refused(const char *bytes, size_t len, int line, const char *message)
{
    const char *path = write_bytes("t.csv", bytes, len);
    struct trace tr;
    struct cfg_error err;
    ck_assert_msg(!trace_load_file(&tr, path, 16, &err), "accepted: %s", bytes);
    ck_assert_str_eq(err.file, path);
    ck_assert_int_eq(err.line, line);
    ck_assert_str_eq(err.key, "workload.trace");
    ck_assert_str_eq(err.message, message);
}

/* trace_load of the text on 16 nodes: read, with `count` records. */
static void expect_trace_read(const char *text, size_t count, struct trace *tr)
{
    const char *path = write_bytes("t.csv", text, strlen(text));
    struct cfg_error err;
    ck_assert_msg(trace_load_file(tr, path, 16, &err), "%s", err.message);
    ck_assert_uint_eq(tr->count, count);
}

START_TEST(trace_with_cr_only_endings_is_refused_and_crlf_is_read)
{
    /* Item 4: it used to read as one line, its first record, the rest dropped. */
    static const char cr_only[] = "0,1,2,3\r1,2,3,4\r2,3,4,5\r";
    expect_trace_refused(cr_only, sizeof cr_only - 1, 1,
                         "carriage return not followed by a line feed: use LF or CRLF line endings");
    struct trace tr;
    expect_trace_read("0,1,2,3\r\n1,2,3,4\r\n2,3,4,5\r\n", 3, &tr);
    ck_assert(tr.records[2].time == 2 && tr.records[2].length == 5);
    trace_free(&tr);
}
END_TEST

START_TEST(trace_with_a_nul_or_control_byte_is_refused)
{
    /* Item 5: the rest of the line after a NUL was silently dropped. */
    static const char nul[] = "0,1,2,3\n1,2\0xx,3,4\n";
    expect_trace_refused(nul, sizeof nul - 1, 2, "NUL byte: a trace is text");
    static const char escape[] = "0,1,2,3\x1b[0m\n";
    expect_trace_refused(escape, sizeof escape - 1, 1, "control character \\x1b: a trace is text");
    static const char del[] = "# a comment\x7f\n0,1,2,3\n";
    expect_trace_refused(del, sizeof del - 1, 1, "control character \\x7f: a trace is text");
    struct trace tr; /* a tab is a blank between fields */
    expect_trace_read("0\t1\t2\t3\n", 1, &tr);
    trace_free(&tr);
}
END_TEST

START_TEST(trace_opening_with_a_byte_order_mark_is_read)
{
    /* Item 15: refused with an error showing an invisible byte; configs accept it. */
    struct trace tr;
    expect_trace_read("\xEF\xBB\xBF" "0,1,2,3\n", 1, &tr);
    trace_free(&tr);
    expect_trace_read("\xEF\xBB\xBF" "time,source,destination,length\r\n0.5,1,2,3\r\n", 1, &tr);
    ck_assert(tr.records[0].time == 0.5);
    trace_free(&tr);
    /* Only at the start of the file: elsewhere it is no number. */
    static const char later[] = "0,1,2,3\n\xEF\xBB\xBF" "1,1,2,3\n";
    expect_trace_refused(later, sizeof later - 1, 2, "time '\xEF\xBB\xBF" "1' is not a finite number >= 0");
}
END_TEST

START_TEST(endless_or_huge_traces_stop_at_a_limit)
{
    /* Item 8: /dev/zero filled memory (23 GB in 10 s) before the kernel killed sim. */
    struct trace tr;
    struct cfg_error err;
    ck_assert(!trace_load_file(&tr, "/dev/zero", 16, &err));
    ck_assert_int_eq(err.line, 1);
    ck_assert_str_eq(err.message, "NUL byte: a trace is text");
    /* A line that never ends: refused at its limit, not read into memory. */
    size_t len = TRACE_MAX_LINE + 1;
    char *line = malloc(len);
    ck_assert(line != NULL);
    memset(line, '0', len);
    char message[64];
    snprintf(message, sizeof message, "line longer than %d characters", TRACE_MAX_LINE);
    expect_trace_refused(line, len, 1, message);
    const char *path = write_bytes("t.csv", "", 0);
    FILE *f = fopen(path, "w");
    ck_assert(f);
    fprintf(f, "0,1,2,%.*s1\n", TRACE_MAX_LINE - 7, line); /* length 1, written long */
    fclose(f);
    ck_assert_msg(trace_load_file(&tr, path, 16, &err), "%s", err.message);
    trace_free(&tr);
    free(line);
    /* The size limit, by the reader's own rules (a trace's is 8 GiB). */
    static const struct text_rules small = { "trace", "workload.trace", "cannot read the trace", 16, 100 };
    path = write_bytes("t.csv", "0,1,2,3\n1,1,2,3\n2,1,2,3\n", 24);
    struct text_input in;
    ck_assert(text_input_open(&in, path, &small, &err));
    char *got;
    size_t n;
    ck_assert_int_eq(text_input_next(&in, &got, &n, &err), TEXT_LINE);
    ck_assert_int_eq(text_input_next(&in, &got, &n, &err), TEXT_LINE);
    ck_assert_int_eq(text_input_next(&in, &got, &n, &err), TEXT_REFUSED);
    ck_assert_int_eq(err.line, 3);
    ck_assert_str_eq(err.message, "file larger than 16 bytes: not a trace");
    text_input_close(&in);
}
END_TEST

START_TEST(config_with_a_control_byte_is_refused)
{
    /* The principle of items 4, 5 and 8 for the other external text file. */
    static const char text[] = "[network]\ndimension = 3\x1b\n";
    const char *path = write_bytes("c.ini", text, sizeof text - 1);
    struct config cfg;
    struct cfg_error err;
    ck_assert(!run_config_load(&cfg, path, NULL, 0, &err));
    ck_assert_int_eq(err.line, 2);
    ck_assert_str_eq(err.message, "control character \\x1b: a configuration is text");
}
END_TEST

/* Whether pid (sim, past exec: it holds SIGINT; the fork before exec has this
 * process's descriptors) has `ctx` (a path) open: it is reading it. */
static bool reads(pid_t pid, void *ctx)
{
    char status_path[64], text[256];
    snprintf(status_path, sizeof status_path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(status_path, "r");
    if (!f)
        return false;
    unsigned long long blocked = 0;
    while (fgets(text, sizeof text, f))
        if (sscanf(text, "SigBlk: %llx", &blocked) == 1)
            break;
    fclose(f);
    if (!(blocked & (1ull << (SIGINT - 1))))
        return false;
    char fd_path[64], target[256];
    for (int fd = 0; fd < 64; fd++) {
        snprintf(fd_path, sizeof fd_path, "/proc/%d/fd/%d", (int)pid, fd);
        ssize_t n = readlink(fd_path, target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            if (strcmp(target, ctx) == 0)
                return true;
        }
    }
    return false;
}

/* sim reading a FIFO whose writer stays open (this process): each stop signal ends it
 * at once with status 130 and the one line of an interruption before the run. */
static void expect_fifo_interruptible(bool as_trace)
{
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    int writer = open(fifo, O_RDWR | O_CLOEXEC); /* a writer that never closes, opened without waiting */
    ck_assert_int_ge(writer, 0);
    ck_assert_int_eq(write(writer, "# a first line\n", 15), 15);
    char set[160];
    snprintf(set, sizeof set, "workload.trace=%s", fifo);
    const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        const char *trace_argv[] = { test_binary(), "--no-progress", "-s", "workload.arrival=trace", "-s", set,
                                     "configs/default.ini", NULL };
        const char *config_argv[] = { test_binary(), "--no-progress", fifo, NULL };
        char out[4096], err[4096];
        int status = test_exec_signal_when(as_trace ? trace_argv : config_argv, reads, fifo, 0, signals[i], out,
                                           sizeof out, err, sizeof err);
        ck_assert_int_eq(status, 130);
        ck_assert_str_eq(out, "");
        ck_assert_str_eq(err, "sim: interrupted before the run started\n");
    }
    close(writer);
}

START_TEST(trace_from_a_fifo_that_stays_open_is_interruptible)
{
    /* Item 9: SIGINT and SIGTERM waited for the writer; only SIGKILL ended it. */
    expect_fifo_interruptible(true);
}
END_TEST

START_TEST(config_from_a_fifo_that_stays_open_is_interruptible)
{
    expect_fifo_interruptible(false);
}
END_TEST

Suite *text_input_suite(void)
{
    Suite *s = suite_create("text_input");
    TCase *tc = tcase_create("input");
    tcase_add_checked_fixture(tc, make_dir, remove_dir);
    tcase_set_timeout(tc, 120); /* a hang (item 9) fails here rather than hold make test */
    tcase_add_test(tc, trace_with_cr_only_endings_is_refused_and_crlf_is_read);
    tcase_add_test(tc, trace_with_a_nul_or_control_byte_is_refused);
    tcase_add_test(tc, trace_opening_with_a_byte_order_mark_is_read);
    tcase_add_test(tc, endless_or_huge_traces_stop_at_a_limit);
    tcase_add_test(tc, config_with_a_control_byte_is_refused);
    tcase_add_test(tc, trace_from_a_fifo_that_stays_open_is_interruptible);
    tcase_add_test(tc, config_from_a_fifo_that_stays_open_is_interruptible);
    suite_add_tcase(s, tc);
    return s;
}
