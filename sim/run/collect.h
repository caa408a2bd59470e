/* Collecting a run's report: reads a finished (or stopped) network, its engine's own
 * figures (engine_ops.figures, through a sink of named figures) and the analytic
 * model into the run_report value that sim/report formats.
 *
 * Promise: report_collect() fills every field of *r that is a function of the run
 * (figures that do not exist are NaN); it does not touch the network.  r->cfg borrows
 * the network's config: the caller sets it to a config that outlives the report
 * (replications point it at the caller's own) before writing the report.
 * Needs: the run (network.h), the engine registry, the analytic models' stability
 * check, the report value type.
 */
#ifndef SIM_RUN_COLLECT_H
#define SIM_RUN_COLLECT_H

#include "../../analytic/model.h"
#include "../report/report.h"
#include "network.h"

void report_collect(struct run_report *r, const struct network *net, const struct channel_loads *loads,
                    const struct model_result *model, enum kernel_stop why, double wall_seconds);

#endif
