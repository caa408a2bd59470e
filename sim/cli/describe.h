/* sim --describe: the structure of the configured network, without simulating.
 *
 * Promise: prints nodes, channels (servers), links (as the seed counts them),
 * degree, diameter, average distance (mean hops of the configured routing over
 * ordered pairs of distinct nodes) and the per-class load factors of the configured
 * routing and workload, as a table or one JSON object.  Returns the exit status:
 * 0, 1 on an output error, 2 on a configuration the topology rejects.
 */
#ifndef SIM_DESCRIBE_H
#define SIM_DESCRIBE_H

#include <stdio.h>

#include "../config/config.h"
#include "../report/report.h"

/* Topologies with more nodes than this and no symmetry or closed form get no
 * average distance (it would take N^2 distance evaluations). */
enum { DESCRIBE_PAIRS_MAX_NODES = 4096 };

int describe(const struct config *cfg, enum report_format fmt, FILE *out);
/* sim --check-deadlock: the static deadlock check's verdict (sim/run/deadlock_run.h) as
 * one line "deadlock check  VERDICT ..." (JSON: an object); exit status 0, 2 when the
 * check refuses (its line on stderr, as a run prints it) or the config is refused. */
int describe_deadlock_check(const struct config *cfg, enum report_format fmt, FILE *out);

#endif
