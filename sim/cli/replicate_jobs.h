/* Replications in parallel (`sim -j N` without --sweep): up to N child processes, each
 * running one replication, folded by the parent in replication order.
 *
 * Promise: run_replications_jobs() gives what run_replications() (sim/run/replicate.h)
 * gives, the same report byte for byte once timing is left out: replication r still
 * uses rng_replication_seed(run.seed, r), and the parent folds replications 0, 1, ...
 * in order, stopping after the first that did not complete (interrupted, wall-clock
 * limit) as the sequential loop does.  The check (network, stability) is made once,
 * before any child starts; the children are forked, not exec'd, so each hands its
 * report back through a pipe as the struct itself (its pointers are to the parent's
 * copy of the same memory).  SIGINT and SIGTERM stay held (wallclock.h): the parent
 * sees one while it waits, passes SIGTERM to the running children (a second signal:
 * SIGKILL), starts no more, folds what came back and leaves the signal pending for
 * the caller, so the exit status is 130 as for one process.  A deadlock or error of
 * the earliest failing replication is said (once) and returned; the other children
 * are killed.  The parent waits for every child it started: none is left running.
 * run.max_wall_seconds bounds the elapsed time of all replications together.
 * progress: 1 a progress line on stderr, 0 none, -1 when stderr is a terminal.
 * Needs: POSIX fork, pipe, poll.  Never touches libev (the children run it).
 */
#ifndef SIM_CLI_REPLICATE_JOBS_H
#define SIM_CLI_REPLICATE_JOBS_H

#include "../run/replicate.h"

int run_replications_jobs(const struct config *cfg, unsigned jobs, int progress, struct run_report *report,
                          enum kernel_stop *why, struct cfg_error *err);

#endif
