/* bin/sim's command line: the options read into a value, before anything else is done.
 *
 * Promise: command_line_parse() reads argv (getopt_long) into a struct command_line and
 * says what it asks for: a run of cl->config (a single run, a sweep, --describe or
 * --analytic: main.c picks), or one of the printouts that need no config (--list,
 * --list-markdown, --help, --version), which end the reading where they stand, as the
 * options after them are not looked at; or bad input, said in one line on stderr (exit
 * status 2): an unknown or ambiguous option, a value it cannot take, not exactly one
 * CONFIG.ini, options that do not go together (--describe with --analytic,
 * --common-random-numbers without --sweep, --channels and the like with --sweep,
 * --describe or --analytic).  command_line_usage() prints the options' help.
 * Needs: getopt_long, the report formats, the sweep's limits and the run files' options.
 */
#ifndef SIM_CLI_COMMAND_LINE_H
#define SIM_CLI_COMMAND_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../report/report.h"
#include "run_files.h"
#include "sweep.h"

enum { COMMAND_LINE_MAX_OVERRIDES = 256 };

enum command_line_ask {
    COMMAND_LINE_RUN,           /* run cl->config: one run, a sweep, --describe or --analytic */
    COMMAND_LINE_LIST,          /* --list */
    COMMAND_LINE_LIST_MARKDOWN, /* --list-markdown */
    COMMAND_LINE_HELP,          /* -h, --help */
    COMMAND_LINE_VERSION,       /* -V, --version */
    COMMAND_LINE_BAD,           /* bad input, said on stderr */
};

/* Pinned once parsed: overrides may point into seed_override and replications_override. */
struct command_line {
    const char *config; /* CONFIG.ini */
    const char *overrides[COMMAND_LINE_MAX_OVERRIDES + 1]; /* -s, --seed, --replications, in order */
    size_t n_overrides;
    char seed_override[128], replications_override[128]; /* "run.seed=N", "run.replications=R" */
    const char *specs[SWEEP_MAX_DIMS + 1]; /* --sweep, in order */
    size_t n_specs;
    long jobs;       /* -j, else the online CPUs (sysconf: may be -1) */
    bool jobs_given; /* a single run's replications go one at a time unless -j says */
    bool omit_timing, common_random_numbers;
    bool no_notes; /* --no-notes: no notes on stderr (sim/cli/notes.h) */
    const char *output; /* -o, NULL: stdout */
    enum report_format fmt;
    int progress; /* -1: decide by isatty */
    bool describe_only, analytic_only, check_deadlock;
    bool config_from_stdin; /* --config-stdin: CONFIG's text is stdin, CONFIG names it */
    const char *write_trace; /* NULL when not asked */
    struct run_files_cli files;
};

enum command_line_ask command_line_parse(struct command_line *cl, int argc, char **argv);
void command_line_usage(FILE *out);

#endif
