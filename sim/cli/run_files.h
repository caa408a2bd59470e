/* The files a single run writes beside its report (sim --channels, --nodes,
 * --histogram, --series, --series-interval; sim/run/observe.h collects them).
 *
 * Promise: run_files_option() takes one option's value; run_files_check() refuses (one
 * line, false: exit 2) what cannot go together: these options with a sweep,
 * --describe or --analytic (run_files_any() says whether any was given), with more
 * than one replication, --series-interval without --series; run_files_named() lists
 * the files given, for the caller to compare with its other files (file_identity.h).
 * run_files_open() checks and prepares every file as -o does (sim/cli/output.h: written
 * atomically, nothing left behind) and points cfg->files at them; after the run
 * run_files_commit() puts them in place, or run_files_discard() removes them (a run
 * that failed leaves no file behind).
 * Needs: the output files (output.h) and the config value.
 */
#ifndef SIM_CLI_RUN_FILES_H
#define SIM_CLI_RUN_FILES_H

#include <stdbool.h>

#include "../core/config_value.h"
#include "file_identity.h"
#include "output.h"

enum run_file { RUN_FILE_CHANNELS, RUN_FILE_NODES, RUN_FILE_HISTOGRAM, RUN_FILE_SERIES, RUN_FILES,
                RUN_FILE_SERIES_INTERVAL = RUN_FILES };

struct run_files_cli {
    const char *path[RUN_FILES];
    const char *interval_text; /* --series-interval as given, NULL when not */
    double interval;
    struct output_file file[RUN_FILES];
    bool opened[RUN_FILES];
};

/* The option's name, "--channels" ... "--series-interval". */
const char *run_files_option_name(enum run_file which);
/* Takes the value of option `which`; false (one line said) when it is no value. */
bool run_files_option(struct run_files_cli *f, enum run_file which, const char *value);
bool run_files_any(const struct run_files_cli *f);
bool run_files_check(const struct run_files_cli *f, const struct config *cfg);
/* The files given (at most RUN_FILES), as outputs named by their options, into out. */
size_t run_files_named(const struct run_files_cli *f, struct named_file *out);
bool run_files_open(struct run_files_cli *f, struct config *cfg);
bool run_files_commit(struct run_files_cli *f);
void run_files_discard(struct run_files_cli *f);

#endif
