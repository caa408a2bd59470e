/* Helpers shared by both Check runners (tests/unit, tests/validate) for building
 * configurations and running networks in-process; the suites each runner adds are
 * declared in its own suites.h. */
#ifndef TESTS_TEST_H
#define TESTS_TEST_H

#include <check.h>
#include <stdbool.h>
#include <sys/types.h>

/* A passing ck_assert records its place (Check's _mark_point) by a write to the
 * runner's pipe: in a loop of a million draws that alone took seconds.  Passing checks
 * leave no trace here; a failing one still names its file and line, and a crash is
 * placed by the sanitised run's stack trace. */
#undef mark_point
#define _mark_point(file, line) ((void)0)

#include "../../analytic/model.h"
#include "../../sim/config/config.h"
#include "../../sim/report/report.h"
#include "../../sim/run/collect.h"
#include "../../sim/run/model_input.h"
#include "../../sim/run/network.h"
#include "../../sim/run/run_config.h"

/* The cell of column `name` of a CSV row (RFC 4180 quoting, quotes kept), given the
 * header line and the row line (each ended by a newline or the string's end): false
 * when the header has no such column or the row is short. */
bool test_csv_cell(const char *header, const char *row, const char *name, char *cell, size_t size);

/* Defaults, then each "section.key=value" (asserts that every one is accepted). */
void test_config(struct config *cfg, const char *const *settings);
/* test_config(cfg, settings), then the network built (asserting it is); cfg must
 * outlive net (net_free(net) when done). */
void test_network(struct network *net, struct config *cfg, const char *const *settings);
/* Runs the configuration in-process and fills the report (and returns the stop reason). */
enum kernel_stop test_run(const struct config *cfg, struct run_report *report);
/* Runs seeds 1..seeds of the configuration and counts how often `exact` lies in the
 * run's 95% interval (misses are printed). */
int test_coverage(const char *const *settings, int seeds, double exact);
/* What a coverage check needs of one run (plain data, so a child process can send it). */
struct test_outcome {
    int seed, stop; /* stop: the enum kernel_stop */
    struct stats_summary delay;
    double precision_reached, precision_batches, warmup_messages;
    int precision_met;
};
/* Runs seeds 1..seeds of the configuration in `workers` (at most 8) child processes
 * (seed s in child s mod workers: make validate's seeds use both cores) and fills
 * out[s - 1]; asserts that every child sent every one of its outcomes.  For Check's
 * fork mode (make validate's): a check failing in a child ends that child. */
void test_outcomes(const char *const *settings, int seeds, int workers, struct test_outcome *out);
/* The stability check of a configuration, as sim runs it before simulating. */
void test_stability(const struct config *cfg, struct stability *out);
/* A configuration with its topology, channel loads and model prediction. */
struct analysed {
    struct config cfg;
    struct topo t;
    struct channel_loads loads;
    struct model_result model;
};
/* Builds the configuration's network, loads and model (asserting each step). */
void analyse(struct analysed *a, const char *const *settings);
void release(struct analysed *a);
/* The value of an engine's figure (a flag: 1 or 0) or its text; asserts it was reported. */
double test_figure(const struct run_report *r, const char *group, const char *name);
const char *test_figure_text(const struct run_report *r, const char *group, const char *name);
/* Path of the sim binary under test (SIM_BINARY, default bin/sim). */
const char *test_binary(void);
/* Runs `sim` with the arguments (NULL-terminated) and captures stdout and stderr
 * (each up to size-1 bytes); returns the exit status (128+signal if killed). */
int test_exec(const char *const *argv, char *out, size_t out_size, char *err, size_t err_size);
/* The same, sending signal signo to the child after `delay` seconds. */
/* Runs argv as test_exec does; once ready(pid, ctx) holds (polled every millisecond, at
 * most 120 s; NULL: at once), waits `delay` seconds and sends signo (0: none).  The
 * exit status, 128 + the signal when killed. */
typedef bool test_ready_fn(pid_t pid, void *ctx);
int test_exec_signal_when(const char *const *argv, test_ready_fn *ready, void *ctx, double delay, int signo,
                          char *out, size_t out_size, char *err, size_t err_size);
/* Signals once `started` distinct children of the process have been seen and only
 * `running` are left (a sweep whose short points are done), read from /proc: no fixed
 * delay to guess. */
int test_exec_signal_when_children(const char *const *argv, unsigned started, unsigned running, int signo,
                                   char *out, size_t out_size, char *err, size_t err_size);
int test_exec_signal(const char *const *argv, double delay, int signo, char *out, size_t out_size, char *err,
                     size_t err_size);

#endif
