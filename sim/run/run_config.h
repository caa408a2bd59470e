/* Loading the configuration of a run: the generic loader (sim/config: files, -s
 * overrides, types, bounds, choices), handed the registries whose plug-ins declare
 * keys (the schema), and then the checks plug-ins make across their own keys (the
 * analytic models', the workload's: arrival, lengths, trace); the values they imply,
 * the mean length of a bimodal or empirical distribution and, for a rate in flits, the
 * mean whole flits of a message, are set here, since the plug-ins never write the
 * config.  The loader itself knows no plug-in.
 * Promise: true with *cfg ready for net_create(), or false with *err naming the file,
 * line and key at fault.
 */
#ifndef SIM_RUN_CONFIG_H
#define SIM_RUN_CONFIG_H

#include <stddef.h>

#include "../config/config.h"
#include "../core/prediction.h"

/* The registries the loader lays keys out from, in listing order. */
const struct cfg_schema *run_config_schema(void);
/* Every key at its default (tests and tools build configs this way). */
void run_config_defaults(struct config *cfg);
bool run_config_load(struct config *cfg, const char *path, const char *const *overrides, size_t n_overrides,
                     struct cfg_error *err);
/* The same from a text read once (cfg_read_whole_file): a sweep's points. */
bool run_config_load_text(struct config *cfg, const struct cfg_text *text, const char *const *overrides,
                          size_t n_overrides, struct cfg_error *err);
/* The workload's step of run_config_load: workload_check(), then workload.mean_length
 * set to the mean it returns and, with workload.rate_unit = flits, workload.mean_flits
 * to the length distribution's mean whole flits (length_mean_flits(); a distribution
 * that cannot give it is refused, blaming workload.rate_unit), then the arrival
 * process's check, which reads the message rate those make (workload_check_arrival()).
 * Tests and tools that build a config key by key (cfg_set) take this step themselves. */
bool run_config_workload(struct config *cfg, struct cfg_error *err);

/* The config echo of a run of cfg (what its reports list): the framework's keys, the
 * keys of the plug-in each keyed registry of the schema chose, and those of the
 * analytic models that applied (models->applied; NULL: none), each with the shared
 * keys its table says it reads (cfg_param_table.reads); in listing order.  Adding a
 * plug-in that a config does not choose leaves the config's echo as it was. */
void run_config_echo(const struct config *cfg, const struct model_result *models, struct cfg_echo *out);

/* The keys a run of cfg may read, known before its network is built: run_config_echo
 * with every analytic model counted as applying (which do is known only once the network
 * is built).  What a note on a -s override that cannot take effect goes by. */
void run_config_echo_any_model(const struct config *cfg, struct cfg_echo *out);

/* The name of the engine a configuration runs (the switching's, or the one its router
 * model or path selection needs): points of a sweep with different engines report
 * different figures. */
const char *run_engine_name(const struct config *cfg);

/* The file a run of cfg reads besides its configuration: the trace it replays (its path
 * as the run opens it, relative to the config's folder where it was set there, written
 * into buf), or "". */
const char *run_input_trace(const struct config *cfg, char *buf, size_t size);

/* The traits (sim/core/traits.h) of the engine cfg selects; 0 when none. */
unsigned run_engine_traits(const struct config *cfg);

#endif
