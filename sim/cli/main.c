/* sim: command-line entry point.  Parses options, loads and checks the config,
 * runs the network, prints the report; with --sweep hands over to sweep.c.  Exit
 * status: 0 done, 1 internal or output failure, 2 bad input, 3 deadlock (wormhole),
 * 124 stopped by run.max_wall_seconds, 130 interrupted. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analytic/model.h"
#include "../config/config.h"
#include "describe.h"
#include "../run/analytic_only.h"
#include "../run/model_input.h"
#include "../run/network.h"
#include "../run/replicate.h"
#include "../run/run_config.h"
#include "../report/report.h"
#include "output.h"
#include "replicate_jobs.h"
#include "run_files.h"
#include "sweep.h"
#include "../run/wallclock.h"

#ifndef SIM_VERSION
#define SIM_VERSION "0.1.0"
#endif

enum { EXIT_INPUT = 2, EXIT_WALL_LIMIT = 124, EXIT_INTERRUPTED = 130, MAX_OVERRIDES = 256 };

static void usage(FILE *out)
{
    fputs("usage: sim [options] CONFIG.ini\n"
          "\n"
          "Simulates the multicomputer network described by CONFIG.ini and prints message\n"
          "delay, throughput and channel figures beside the analytic model's prediction.\n"
          "\n"
          "options:\n"
          "  -s, --set SECTION.KEY=VALUE  override a key of the file (repeatable)\n"
          "      --seed N                 same as -s run.seed=N\n"
          "      --replications R         same as -s run.replications=R\n"
          "      --sweep SECTION.KEY=FROM:TO:STEP | SECTION.KEY=V1,V2,...\n"
          "                               run every point of the cross product (repeatable)\n"
          "      --common-random-numbers  sweep: every point uses the base seed (default: a seed\n"
          "                               derived from the point's coordinates)\n"
          "  -j, --jobs N                 sweep: N points at a time (default: online CPUs);\n"
          "                               one run: N replications at a time (default 1)\n"
          "      --no-timing              leave out wall_seconds and events_per_second\n"
          "  -f, --format table|csv|json  output format (default table)\n"
          "  -o, --output FILE            write the results to FILE (atomically) instead of stdout\n"
          "      --progress               progress line on stderr (default: when stderr is a terminal)\n"
          "      --no-progress            no progress line\n"
          "      --list                   every key and module, with meaning and default\n"
          "      --list-markdown          the same as Markdown tables, with allowed values\n"
          "      --describe               print the network's structure and load factors; no simulation\n"
          "      --analytic               print every analytic model's predictions alone; no simulation\n"
          "                               (one of the two at a time)\n"
          "      --write-trace FILE       write every message created (replication 0) as a trace line\n"
          "                               time,source,destination,length; workload.arrival = trace replays it\n"
          "      --channels FILE          also write one CSV row per channel: ends, class, utilisation, queue,\n"
          "                               wait, blocking (one replication; not with --sweep)\n"
          "      --nodes FILE             also write one CSV row per node: offered, delivered, mean delays\n"
          "                               as source and as destination, backlog at the end\n"
          "      --histogram FILE         also write the delay histogram as CSV (about 100 log-spaced bins)\n"
          "      --series FILE            also write a time series as CSV: per interval throughput, mean\n"
          "                               delay, backlog, whether in the measurement window\n"
          "      --series-interval T      the series' interval in time units (default: window / 100)\n"
          "  -h, --help                   this text\n"
          "  -V, --version                version, copyright and licence\n"
          "\n"
          "exit status: 0 done, 2 bad input, 3 deadlock found (wormhole; channels named),\n"
          "124 stopped by run.max_wall_seconds,\n"
          "130 interrupted by SIGINT/SIGTERM (partial results are still printed), 1 other failure.\n",
          out);
}

static int input_error(const struct cfg_error *err)
{
    cfg_error_print(err, stderr);
    return EXIT_INPUT;
}

/* The end of a mode that wrote to stdout: its status, or 1 when stdout could not be
 * written (one line says why), or 130 when a signal came while it wrote (held: the
 * output is whole, as a run's report is). */
static int finish_stdout(int status)
{
    bool ok = output_close_stdout();
    if (status == 0 && !ok)
        return 1;
    return status == 0 && wallclock_signalled() ? EXIT_INTERRUPTED : status;
}

/* An error line echoing a value: its control characters escaped, so it stays one line. */
static void quoted(const char *before, const char *value, const char *after)
{
    fputs(before, stderr);
    cfg_put_escaped(value, stderr);
    fputs(after, stderr);
}

/* Option text as the user wrote it, for a message: "--name" (without "=value") or "-c". */
static void option_text(char *buf, size_t size, char *const *argv, int opt)
{
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    if (strncmp(arg, "--", 2) == 0)
        snprintf(buf, size, "%.*s", (int)strcspn(arg, "="), arg);
    else
        snprintf(buf, size, "-%c", opt);
}

/* getopt's own messages are off (opterr = 0): the one line here replaces them. */
static int bad_option(char *const *argv, int code, const struct option *options)
{
    char text[80];
    option_text(text, sizeof text, argv, optopt);
    fputs("sim: ", stderr);
    if (code == ':') {
        fputs("option '", stderr);
        cfg_put_escaped(text, stderr);
        fputs("' needs a value", stderr);
    } else {
        unsigned matches = 0;
        bool exact = false;
        for (const struct option *o = options; text[0] == '-' && text[1] == '-' && o->name; o++)
            if (strncmp(o->name, text + 2, strlen(text + 2)) == 0) {
                matches++;
                exact = exact || strcmp(o->name, text + 2) == 0;
            }
        fputs(exact || matches == 1 ? "option '" : matches > 1 ? "ambiguous option '" : "unknown option '", stderr);
        cfg_put_escaped(text, stderr);
        fputs(exact || matches == 1 ? "' takes no value" : "'", stderr);
    }
    fputs(" (try 'sim --help')\n", stderr);
    return EXIT_INPUT;
}

/* --seed N and --replications R as the override "run.KEY=VALUE"; a value too long for
 * the buffer is refused rather than cut. */
static bool shorthand(char *buf, size_t size, const char *key, const char *value, const char *option)
{
    if ((size_t)snprintf(buf, size, "run.%s=%s", key, value) < size)
        return true;
    fprintf(stderr, "sim: %s: a value of at most %zu characters\n", option,
            size - strlen(key) - sizeof "run.=");
    return false;
}

/* A standard descriptor that is closed would be handed to the next file opened (the
 * trace, say), and stdout's report would land in it: each closed one is taken by
 * /dev/null opened read-only, on which a write fails as it should. */
static void keep_standard_fds_taken(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int got = open("/dev/null", O_RDONLY);
            if (got >= 0 && got != fd)
                close(got); /* a lower descriptor was free after all: leave things be */
        }
}

/* A held signal (wallclock.h) that came before any run started. */
static int interrupted_before_run(void)
{
    fputs("sim: interrupted before the run started\n", stderr);
    return EXIT_INTERRUPTED;
}

/* Hands SIGINT and SIGTERM back to a path that catches them itself (sweeps) or may
 * die of them as any tool would (--describe, --analytic); false when one is already
 * held: the user asked to stop. */
static bool release_signals(void)
{
    if (wallclock_signalled())
        return false;
    wallclock_release_signals();
    return true;
}

static int parse_format(const char *s, enum report_format *fmt)
{
    if (strcmp(s, "table") == 0)
        *fmt = REPORT_TABLE;
    else if (strcmp(s, "csv") == 0)
        *fmt = REPORT_CSV;
    else if (strcmp(s, "json") == 0)
        *fmt = REPORT_JSON;
    else
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    /* Before any work: from here on a signal cannot kill the process halfway (leaving
     * temporary files); it is held and read at the run's next turn (wallclock.h). */
    if (!wallclock_hold_signals()) {
        fputs("sim: cannot block SIGINT and SIGTERM\n", stderr);
        return 1;
    }
    enum { OPT_SEED = 256, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_LIST, OPT_DESCRIBE, OPT_ANALYTIC, OPT_WRITE_TRACE,
           OPT_REPLICATIONS, OPT_SWEEP, OPT_NO_TIMING, OPT_LIST_MARKDOWN, OPT_CRN,
           OPT_FILES }; /* OPT_FILES + enum run_file: --channels ... --series-interval */
    static const struct option options[] = {
        { "set", required_argument, NULL, 's' },        { "seed", required_argument, NULL, OPT_SEED },
        { "format", required_argument, NULL, 'f' },     { "output", required_argument, NULL, 'o' },
        { "progress", no_argument, NULL, OPT_PROGRESS }, { "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
        { "list", no_argument, NULL, OPT_LIST },         { "help", no_argument, NULL, 'h' },
        { "list-markdown", no_argument, NULL, OPT_LIST_MARKDOWN },
        { "describe", no_argument, NULL, OPT_DESCRIBE }, { "analytic", no_argument, NULL, OPT_ANALYTIC },
        { "write-trace", required_argument, NULL, OPT_WRITE_TRACE },
        { "replications", required_argument, NULL, OPT_REPLICATIONS },
        { "sweep", required_argument, NULL, OPT_SWEEP }, { "jobs", required_argument, NULL, 'j' },
        { "no-timing", no_argument, NULL, OPT_NO_TIMING },
        { "channels", required_argument, NULL, OPT_FILES + RUN_FILE_CHANNELS },
        { "nodes", required_argument, NULL, OPT_FILES + RUN_FILE_NODES },
        { "histogram", required_argument, NULL, OPT_FILES + RUN_FILE_HISTOGRAM },
        { "series", required_argument, NULL, OPT_FILES + RUN_FILE_SERIES },
        { "series-interval", required_argument, NULL, OPT_FILES + RUN_FILE_SERIES_INTERVAL },
        { "common-random-numbers", no_argument, NULL, OPT_CRN },
        { "version", no_argument, NULL, 'V' },           { NULL, 0, NULL, 0 },
    };
    const char *overrides[MAX_OVERRIDES + 1];
    size_t n_overrides = 0;
    char seed_override[128], replications_override[128];
    const char *specs[SWEEP_MAX_DIMS + 1];
    size_t n_specs = 0;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    bool jobs_given = false; /* a single run's replications go one at a time unless -j says */
    bool omit_timing = false;
    bool common_random_numbers = false;
    const char *output = NULL;
    enum report_format fmt = REPORT_TABLE;
    int progress = -1; /* -1: decide by isatty */
    bool describe_only = false, analytic_only = false;
    const char *write_trace = NULL;
    struct run_files_cli files = { 0 };
    int opt;
    keep_standard_fds_taken();
    opterr = 0; /* bad_option says it in one line */
    while ((opt = getopt_long(argc, argv, ":s:f:o:j:hV", options, NULL)) != -1) {
        switch (opt) {
        case 's':
        case OPT_SEED:
        case OPT_REPLICATIONS:
            if (n_overrides == MAX_OVERRIDES) {
                fprintf(stderr, "sim: more than %d -s options\n", MAX_OVERRIDES);
                return EXIT_INPUT;
            }
            if (opt == OPT_SEED) { /* --seed N is -s run.seed=N */
                if (!shorthand(seed_override, sizeof seed_override, "seed", optarg, "--seed"))
                    return EXIT_INPUT;
                overrides[n_overrides++] = seed_override;
            } else if (opt == OPT_REPLICATIONS) {
                if (!shorthand(replications_override, sizeof replications_override, "replications", optarg,
                               "--replications"))
                    return EXIT_INPUT;
                overrides[n_overrides++] = replications_override;
            } else {
                overrides[n_overrides++] = optarg;
            }
            break;
        case 'f':
            if (parse_format(optarg, &fmt) != 0) {
                quoted("sim: --format: unknown format '", optarg, "' (table, csv or json)\n");
                return EXIT_INPUT;
            }
            break;
        case 'o':
            output = optarg;
            break;
        case OPT_SWEEP:
            if (n_specs == SWEEP_MAX_DIMS) {
                fprintf(stderr, "sim: more than %d --sweep options\n", SWEEP_MAX_DIMS);
                return EXIT_INPUT;
            }
            specs[n_specs++] = optarg;
            break;
        case 'j': {
            char *end;
            jobs = strtol(optarg, &end, 10);
            if (*end || end == optarg || jobs < 1 || jobs > 1024) {
                quoted("sim: -j '", optarg, "': a number of processes from 1 to 1024\n");
                return EXIT_INPUT;
            }
            jobs_given = true;
            break;
        }
        case OPT_NO_TIMING:
            omit_timing = true;
            break;
        case OPT_CRN:
            common_random_numbers = true;
            break;
        case OPT_PROGRESS:
            progress = 1;
            break;
        case OPT_NO_PROGRESS:
            progress = 0;
            break;
        case OPT_LIST:
        case OPT_LIST_MARKDOWN: {
            struct config *layout = malloc(sizeof *layout);
            if (!layout) {
                fputs("sim: out of memory\n", stderr);
                return 1;
            }
            run_config_defaults(layout);
            (opt == OPT_LIST ? cfg_print_keys : cfg_print_keys_markdown)(layout, stdout);
            free(layout);
            return finish_stdout(0);
        }
        case OPT_DESCRIBE:
            describe_only = true;
            break;
        case OPT_ANALYTIC:
            analytic_only = true;
            break;
        case OPT_WRITE_TRACE:
            write_trace = optarg;
            break;
        case 'h':
            usage(stdout);
            return finish_stdout(0);
        case OPT_FILES + RUN_FILE_CHANNELS:
        case OPT_FILES + RUN_FILE_NODES:
        case OPT_FILES + RUN_FILE_HISTOGRAM:
        case OPT_FILES + RUN_FILE_SERIES:
        case OPT_FILES + RUN_FILE_SERIES_INTERVAL:
            if (!run_files_option(&files, (enum run_file)(opt - OPT_FILES), optarg))
                return EXIT_INPUT;
            break;
        case 'V':
            fputs("sim " SIM_VERSION "\n"
                  "Copyright (C) 2026 the sim authors.\n"
                  "License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
                  "This is free software: you are free to change and redistribute it.\n"
                  "There is NO WARRANTY, to the extent permitted by law.\n",
                  stdout);
            return finish_stdout(0);
        default:
            return bad_option(argv, opt, options);
        }
    }
    if (optind != argc - 1) {
        fputs(optind == argc ? "sim: missing CONFIG.ini (try 'sim --help')\n"
                             : "sim: exactly one CONFIG.ini expected (try 'sim --help')\n",
              stderr);
        return EXIT_INPUT;
    }

    if (describe_only && analytic_only) { /* two reports in one output would be neither format */
        fputs("sim: --describe and --analytic go one at a time (run sim twice)\n", stderr);
        return EXIT_INPUT;
    }

    struct sweep_args sweep = { argv[optind], overrides, n_overrides, specs, n_specs, fmt, output,
                                (unsigned)(jobs > 0 ? jobs : 1), progress, omit_timing, common_random_numbers };
    if (common_random_numbers && n_specs == 0) { /* one run has one seed: the option would do nothing */
        fputs("sim: --common-random-numbers goes with --sweep\n", stderr);
        return EXIT_INPUT;
    }
    if (run_files_any(&files) && (n_specs > 0 || describe_only || analytic_only)) { /* they look inside one run */
        fputs("sim: --channels, --nodes, --histogram and --series go with a single run: not with --sweep, "
              "--describe or --analytic\n", stderr);
        return EXIT_INPUT;
    }
    bool single_only = describe_only || analytic_only || write_trace || run_files_any(&files);
#ifdef SIM_MPI
    if (!single_only)
        return release_signals() ? sweep_mpi_main(&sweep) : interrupted_before_run();
#endif
    if (n_specs > 0) {
        if (single_only) {
            fputs("sim: --sweep does not go with --describe, --analytic or --write-trace\n", stderr);
            return EXIT_INPUT;
        }
        return release_signals() ? sweep_main(&sweep) : interrupted_before_run();
    }

    struct config cfg;
    struct cfg_error err;
    if (!run_config_load(&cfg, argv[optind], overrides, n_overrides, &err))
        return input_error(&err);
    if (!run_files_check(&files, &cfg, output, write_trace))
        return EXIT_INPUT;
    /* Both files are checked (and their temporary files made) before anything runs: a
     * path that cannot be written is bad input, refused without a run. */
    struct output_file out_file, trace_file;
    if (output && !output_open(&out_file, output, "output"))
        return EXIT_INPUT;
    if (write_trace && !output_open(&trace_file, write_trace, "trace")) {
        if (output)
            output_discard(&out_file);
        return EXIT_INPUT;
    }
    if (!run_files_open(&files, &cfg)) {
        if (output)
            output_discard(&out_file);
        if (write_trace)
            output_discard(&trace_file);
        return EXIT_INPUT;
    }
    if (describe_only || analytic_only) {
        if (!release_signals()) { /* a signal held while the config was read */
            if (output)
                output_discard(&out_file);
            if (write_trace)
                output_discard(&trace_file);
            return interrupted_before_run();
        }
        FILE *out = output ? output_stream(&out_file) : stdout;
        if (!out) {
            output_discard(&out_file);
            return 1;
        }
        int status = describe_only ? describe(&cfg, fmt, out) : run_analytic_only(&cfg, fmt, omit_timing, out);
        if (!output)
            return finish_stdout(status);
        if (status == EXIT_INPUT) { /* refused: said so, and nothing is left behind */
            fclose(out);
            output_discard(&out_file);
            return status;
        }
        return output_commit(&out_file, out, status == 0) ? status : 1;
    }

    if (write_trace)
        cfg.write_trace = output_write_path(&trace_file);
    struct run_report report;
    enum kernel_stop why;
    int status = jobs_given && jobs > 1 && cfg.run.replications > 1
                     ? run_replications_jobs(&cfg, (unsigned)jobs, progress, &report, &why, &err)
                     : run_replications(&cfg, progress, &report, &why, &err);
    /* A failed run leaves no trace (and no output file) behind; an interrupted one keeps
     * the trace of the messages created until it stopped. */
    if (write_trace && (status == 0 ? !output_commit(&trace_file, NULL, true) : (output_discard(&trace_file), false)))
        status = 1;
    /* The same for --channels and the like: written by the run, kept only when it succeeded. */
    if (status == 0 ? !run_files_commit(&files) : (run_files_discard(&files), false))
        status = 1;
    if (status != 0) {
        if (output)
            output_discard(&out_file);
        if (status == RUN_INTERRUPTED) /* both temporary files are gone (above) */
            return interrupted_before_run();
        return status == EXIT_INPUT ? input_error(&err) : status;
    }
    report.omit_timing = omit_timing;
    bool ok;
    if (output) {
        FILE *out = output_stream(&out_file);
        if (out) {
            ok = output_commit(&out_file, out, report_write(out, &report, fmt));
        } else {
            output_discard(&out_file);
            ok = false;
        }
    } else {
        ok = report_write(stdout, &report, fmt);
        ok = output_close_stdout() && ok;
    }

    if (!ok)
        return 1;
    switch (why) {
    case KERNEL_DONE: /* a signal held while the report was written: whole report, status 130 */
        return wallclock_signalled() ? EXIT_INTERRUPTED : 0;
    case KERNEL_INTERRUPTED:
        return EXIT_INTERRUPTED;
    case KERNEL_WALL_LIMIT:
        return EXIT_WALL_LIMIT;
    default:
        fprintf(stderr, "sim: run ended early: %s\n", report.stop_reason);
        return 1;
    }
}
