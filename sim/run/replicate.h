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

/* What run_replications() checks before simulating, without simulating: the network
 * can be built and the stability check passes.  Returns 0 when it would run,
 * RUN_BAD_INPUT with *err, or RUN_UNSTABLE when it would be refused as saturated:
 * *unstable then holds the report of a point not run (config, structure, analytic
 * model, saturated = true, stop_reason "unstable: not run", no simulated figures). */
int run_check(const struct config *cfg, struct run_report *unstable, struct cfg_error *err);

/* The report of cfg not simulated (a point not run, or one whose run failed): config,
 * structure, stability verdict and analytic model, no simulated figures, interrupted
 * false and the given stop_reason (a static string).  Returns 0, or RUN_BAD_INPUT
 * with *err when the network cannot be built. */
int run_report_unsimulated(const struct config *cfg, const char *stop_reason, struct run_report *report,
                           struct cfg_error *err);

#endif
