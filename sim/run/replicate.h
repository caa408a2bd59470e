/* A whole run: every replication of a config, one after another.
 *
 * Promise: run_replications() builds the network, checks stability (a saturated
 * configuration is refused unless run.allow_unstable), then runs replication r with
 * seed rng_replication_seed(run.seed, r) for r = 0 .. run.replications-1, folding
 * each into *report; it stops early, keeping what finished, when a replication is
 * interrupted (signal, wall-clock limit).  Replication 0 is exactly the run a single
 * replication would give.  progress: 1 shows a progress line on stderr, 0 none,
 * -1 when stderr is a terminal.  Returns 0, RUN_BAD_INPUT with *err, RUN_DEADLOCK
 * (message already on stderr) when the switching found a deadlock, RUN_INTERRUPTED
 * (nothing printed, no report) when a held signal (wallclock.h) came before
 * replication 0 started, or 1 when the libev loop cannot start.
 */
#ifndef SIM_REPLICATE_H
#define SIM_REPLICATE_H

#include "../config/config.h"
#include "../core/kernel.h"
#include "../report/report.h"

enum { RUN_BAD_INPUT = 2, RUN_DEADLOCK = 3, RUN_UNSTABLE = 4, /* RUN_UNSTABLE: run_check() only, never an exit status */
       RUN_INTERRUPTED = 130 };

int run_replications(const struct config *cfg, int progress, struct run_report *report, enum kernel_stop *why,
                     struct cfg_error *err);

/* The parts of run_replications(), for a caller that runs replications elsewhere (in
 * parallel processes, sim/cli/replicate_jobs.c) and folds them itself, in order, with
 * report_add_replication() and report_finish_replications().
 * run_setup_create() checks as run_replications() does (the network, the time
 * resolution, stability) and keeps the seed-free parts (loads, model); it returns 0,
 * RUN_BAD_INPUT with *err, RUN_INTERRUPTED (a held signal, nothing built) or 1.
 * run_setup_replication() runs replication r alone (seed rng_replication_seed(run.seed,
 * r) for r > 0; the trace is replication 0's) within max_wall_seconds (0: no limit),
 * filling *one (its cfg the caller's) and *why; it returns 0, RUN_BAD_INPUT with *err,
 * RUN_DEADLOCK with the finding in fatal (not printed), RUN_INTERRUPTED (replication 0
 * only: a held signal came before it started) or 1 (said on stderr). */
struct run_setup;
int run_setup_create(const struct config *cfg, struct run_setup **setup, struct cfg_error *err);
int run_setup_replication(struct run_setup *setup, unsigned r, bool progress, double max_wall_seconds,
                          struct run_report *one, enum kernel_stop *why, char *fatal, size_t fatal_size,
                          struct cfg_error *err);
void run_setup_free(struct run_setup *setup);

/* What run_replications() checks before simulating, without simulating: the network
 * can be built and the stability check passes.  Returns 0 when it would run,
 * RUN_BAD_INPUT with *err, or RUN_UNSTABLE when it would be refused as saturated:
 * *not_run then holds the report of a point not run (config, structure, analytic
 * model, saturated = true, stop_reason "unstable: not run", no simulated figures).
 * With `always`, *not_run is filled for a configuration that would run too (stop_reason
 * "not run"): its config echo and CSV columns are the run's. */
int run_check(const struct config *cfg, struct run_report *not_run, bool always, struct cfg_error *err);

/* The report of cfg not simulated (a point not run, or one whose run failed): config,
 * structure, stability verdict and analytic model, no simulated figures, interrupted
 * false and the given stop_reason (a static string).  Returns 0, or RUN_BAD_INPUT
 * with *err when the network cannot be built. */
int run_report_unsimulated(const struct config *cfg, const char *stop_reason, struct run_report *report,
                           struct cfg_error *err);

#endif
