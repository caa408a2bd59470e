/* Sweeps with a point whose run fails (issue 21): a wormhole deadlock keeps a marked
 * row in its place, in CSV and JSON, under -j 1, -j 2 and (when built) mpirun -n 2,
 * with the same bytes each way; the sweep still exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/test.h"

enum { BIG = 1 << 20 };
static char out[BIG], other[BIG], err[65536];

/* A torus with one virtual channel and one-flit buffers deadlocks (test_flit.c's
 * torus_one_vc_deadlock_detected); two virtual channels do not.  The static check off:
 * the runtime search finds it. */
#define DEADLOCKING_TORUS                                                                                          \
    "-s", "network.topology=torus", "-s", "network.radix=8", "-s", "network.dimension=2", "-s",                  \
        "routing.switching=wormhole", "-s", "routing.flit_buffers=1", "-s", "workload.rate=0.05", "-s",          \
        "workload.mean_length=16", "-s", "workload.length=constant", "-s", "run.allow_unstable=true", "-s",      \
        "run.messages=2000", "-s", "run.warmup_messages=500", "-s", "routing.deadlock_check=off"

/* Column `name` of a CSV row under `header`, asserting the header has it. */
static void cell(const char *header, const char *row, const char *name, char *buf, size_t size)
{
    ck_assert_msg(test_csv_cell(header, row, name, buf, size), "no column %s", name);
}

static const char *next_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    ck_assert(nl != NULL);
    return nl + 1;
}

START_TEST(deadlocked_point_keeps_a_marked_row)
{
    const char *mpi = getenv("SIM_MPI_BINARY"), *mpirun = getenv("SIM_MPIRUN");
    for (int f = 0; f < 2; f++) {
        const char *fmt = f ? "json" : "csv";
        const char *argv[] = { test_binary(), DEADLOCKING_TORUS, "--sweep", "routing.virtual_channels=1,2", "-f",
                               fmt, "--no-timing", "--no-progress", "-j", "1", "configs/default.ini", NULL };
        ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 1);
        ck_assert_msg(strstr(err, "sim: deadlock at cycle "), "%s", err);
        ck_assert_msg(strstr(err, "sim: sweep point 1/2 (routing.virtual_channels=1) failed: exit status 3\n"), "%s",
                      err);
        size_t jobs = sizeof argv / sizeof argv[0] - 3;
        argv[jobs] = "2";
        ck_assert_int_eq(test_exec(argv, other, BIG, err, sizeof err), 1);
        ck_assert_msg(strcmp(out, other) == 0, "-j 2 differs from -j 1 (%s)", fmt);
        if (mpi && mpirun) {
            const char *m[] = { mpirun, "--allow-run-as-root", "--oversubscribe", "-n", "2", mpi, DEADLOCKING_TORUS,
                                "--sweep", "routing.virtual_channels=1,2", "-f", fmt, "--no-timing",
                                "configs/default.ini", NULL };
            test_exec(m, other, BIG, err, sizeof err); /* mpirun's own status varies by version */
            ck_assert_msg(strcmp(out, other) == 0, "mpirun -n 2 differs from -j 1 (%s): %s", fmt, err);
            ck_assert_msg(strstr(err, "(routing.virtual_channels=1) failed on rank 0: exit status 3"), "%s", err);
        }
        if (f == 0) { /* CSV: a header and both rows, the deadlocked one marked, its figures empty */
            const char *header = out, *marked = next_line(header), *completed = next_line(marked);
            ck_assert_str_eq(next_line(completed), "");
            char field[256];
            cell(header, marked, "routing.virtual_channels", field, sizeof field);
            ck_assert_str_eq(field, "1");
            cell(header, completed, "routing.virtual_channels", field, sizeof field);
            ck_assert_str_eq(field, "2");
            cell(header, marked, "stop_reason", field, sizeof field);
            ck_assert_str_eq(field, "deadlock: not completed");
            cell(header, completed, "stop_reason", field, sizeof field);
            ck_assert_str_eq(field, "completed");
            cell(header, marked, "delay.p50", field, sizeof field);
            ck_assert_str_eq(field, "");
            cell(header, completed, "delay.p50", field, sizeof field);
            ck_assert(field[0] != '\0');
            cell(header, marked, "network.topology", field, sizeof field);
            ck_assert_str_eq(field, "torus"); /* the configuration is filled in */
            cell(header, marked, "delay.count", field, sizeof field);
            ck_assert_str_eq(field, "0");
            cell(header, completed, "delay.count", field, sizeof field);
            ck_assert_str_eq(field, "2000");
        } else { /* JSON: two objects in sweep order, the first marked with null figures */
            ck_assert_msg(strncmp(out, "[\n{", 3) == 0, "%s", out);
            const char *first = strstr(out, "\"stop_reason\": \"deadlock: not completed\"");
            const char *second = strstr(out, "\"stop_reason\": \"completed\"");
            ck_assert(first && second && first < second);
            const char *vc1 = strstr(out, "\"virtual_channels\": 1,"), *vc2 = strstr(out, "\"virtual_channels\": 2,");
            ck_assert(vc1 && vc2 && vc1 < first && first < vc2 && vc2 < second);
            const char *median = strstr(first, "\"p50\": ");
            ck_assert(median && median < vc2 && strncmp(median, "\"p50\": null", 11) == 0);
        }
    }
}
END_TEST

Suite *sweep_failures_suite(void)
{
    Suite *s = suite_create("sweep_failures");
    TCase *c = tcase_create("deadlock");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, deadlocked_point_keeps_a_marked_row);
    suite_add_tcase(s, c);
    return s;
}
