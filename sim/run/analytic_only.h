/* `sim --analytic`: the analytic models for a configuration, no simulation.
 *
 * Promise: run_analytic_only() builds the topology, the model input and the channel
 * loads (model_input.h), runs every model and has the report write the prediction in
 * fmt; omit_timing (--no-timing) leaves out the wall-clock figure, so the output is a
 * function of the config alone.  Returns the exit status (2 with the message on stderr
 * when the topology cannot be built, 1 on an output error).
 * Needs: topo, the analytic models, the report's writer.
 */
#ifndef SIM_RUN_ANALYTIC_ONLY_H
#define SIM_RUN_ANALYTIC_ONLY_H

#include <stdbool.h>
#include <stdio.h>

#include "../config/config.h"
#include "../report/report.h"

int run_analytic_only(const struct config *cfg, enum report_format fmt, bool omit_timing, FILE *out);

#endif
