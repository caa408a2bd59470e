/* Shared declarations of the Check test suites (one suite per module) and small
 * helpers for building configurations and running networks in-process. */
#ifndef TESTS_TEST_H
#define TESTS_TEST_H

#include <check.h>
#include <stdbool.h>

#include "../analytic/model.h"
#include "../sim/config/config.h"
#include "../sim/run/model_input.h"
#include "../sim/run/network.h"
#include "../sim/report/report.h"
#include "../sim/run/collect.h"
#include "../sim/run/run_config.h"

Suite *eventq_suite(void);
Suite *rng_suite(void);
Suite *stats_suite(void);
Suite *config_suite(void);
Suite *cli_suite(void);
Suite *loads_suite(void);
Suite *network_suite(void);
Suite *topo_suite(void);
Suite *destinations_suite(void);
Suite *workloads_suite(void);
Suite *families_suite(void);
Suite *protocols_suite(void);
Suite *thesis_suite(void);
Suite *model_000_suite(void);
Suite *model_000_sim_suite(void);
Suite *model_001_suite(void);
Suite *backtracking_suite(void);
Suite *routing_suite(void);
Suite *model_003_suite(void);
Suite *flit_suite(void);
Suite *model002_suite(void);
Suite *sweep_suite(void);
Suite *run_values_suite(void);

/* Defaults, then each "section.key=value" (asserts that every one is accepted). */
void test_config(struct config *cfg, const char *const *settings);
/* Runs the configuration in-process and fills the report (and returns the stop reason). */
enum kernel_stop test_run(const struct config *cfg, struct run_report *report);
/* Runs seeds 1..seeds of the configuration and counts how often `exact` lies in the
 * run's 95% interval (misses are printed). */
int test_coverage(const char *const *settings, int seeds, double exact);
/* The stability check of a configuration, as sim runs it before simulating. */
void test_stability(const struct config *cfg, struct stability *out);
/* True when SIM_VALIDATE is set: long runs instead of the fast CI subset. */
bool test_validating(void);
/* Path of the sim binary under test (SIM_BINARY, default bin/sim). */
const char *test_binary(void);
/* Runs `sim` with the arguments (NULL-terminated) and captures stdout and stderr
 * (each up to size-1 bytes); returns the exit status (128+signal if killed). */
int test_exec(const char *const *argv, char *out, size_t out_size, char *err, size_t err_size);
/* The same, sending signal signo to the child after `delay` seconds. */
int test_exec_signal(const char *const *argv, double delay, int signo, char *out, size_t out_size, char *err,
                     size_t err_size);

#endif
