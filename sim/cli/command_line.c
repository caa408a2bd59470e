/* bin/sim's command line read into a value (contract in command_line.h). */
#include "command_line.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../config/config.h"

enum { OPT_SEED = 256, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_LIST, OPT_DESCRIBE, OPT_ANALYTIC, OPT_WRITE_TRACE,
       OPT_REPLICATIONS, OPT_SWEEP, OPT_NO_TIMING, OPT_LIST_MARKDOWN, OPT_CRN, OPT_NO_NOTES, OPT_CONFIG_STDIN,
       OPT_CHECK_DEADLOCK, OPT_FILES }; /* OPT_FILES + enum run_file: --channels ... --series-interval */
static const struct option long_options[] = {
    { "set", required_argument, NULL, 's' },        { "seed", required_argument, NULL, OPT_SEED },
    { "format", required_argument, NULL, 'f' },     { "output", required_argument, NULL, 'o' },
    { "progress", no_argument, NULL, OPT_PROGRESS }, { "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
    { "list", no_argument, NULL, OPT_LIST },         { "help", no_argument, NULL, 'h' },
    { "list-markdown", no_argument, NULL, OPT_LIST_MARKDOWN },
    { "describe", no_argument, NULL, OPT_DESCRIBE }, { "analytic", no_argument, NULL, OPT_ANALYTIC },
    { "check-deadlock", no_argument, NULL, OPT_CHECK_DEADLOCK },
    { "write-trace", required_argument, NULL, OPT_WRITE_TRACE },
    { "replications", required_argument, NULL, OPT_REPLICATIONS },
    { "sweep", required_argument, NULL, OPT_SWEEP }, { "jobs", required_argument, NULL, 'j' },
    { "no-timing", no_argument, NULL, OPT_NO_TIMING }, { "no-notes", no_argument, NULL, OPT_NO_NOTES },
    { "channels", required_argument, NULL, OPT_FILES + RUN_FILE_CHANNELS },
    { "nodes", required_argument, NULL, OPT_FILES + RUN_FILE_NODES },
    { "histogram", required_argument, NULL, OPT_FILES + RUN_FILE_HISTOGRAM },
    { "series", required_argument, NULL, OPT_FILES + RUN_FILE_SERIES },
    { "series-interval", required_argument, NULL, OPT_FILES + RUN_FILE_SERIES_INTERVAL },
    { "common-random-numbers", no_argument, NULL, OPT_CRN },
    { "config-stdin", no_argument, NULL, OPT_CONFIG_STDIN },
    { "version", no_argument, NULL, 'V' },           { NULL, 0, NULL, 0 },
};

void command_line_usage(FILE *out)
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
          "      --no-notes               no notes on stderr (a config that sets no key, an -s override\n"
          "                               that no chosen plug-in reads)\n"
          "      --config-stdin           read CONFIG's text from stdin; CONFIG names it in messages\n"
          "                               and reports (a sweep hands its points the text it checked)\n"
          "  -f, --format table|csv|json  output format (default table)\n"
          "  -o, --output FILE            write the results to FILE (atomically) instead of stdout\n"
          "      --progress               progress line on stderr (default: when stderr is a terminal)\n"
          "      --no-progress            no progress line\n"
          "      --list                   every key and module, with meaning and default\n"
          "      --list-markdown          the same as Markdown tables, with allowed values\n"
          "      --describe               print the network's structure and load factors; no simulation\n"
          "      --analytic               print every analytic model's predictions alone; no simulation\n"
          "      --check-deadlock         only the static deadlock check of the routing (forced whatever\n"
          "                               its size): its verdict; exit status 2 when it refuses\n"
          "                               (one of the three at a time)\n"
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
static enum command_line_ask bad_option(char *const *argv, int code, const struct option *options)
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
    return COMMAND_LINE_BAD;
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

/* -s, --seed and --replications: one more override, in the order given. */
static bool add_override(struct command_line *cl, int opt)
{
    if (cl->n_overrides == COMMAND_LINE_MAX_OVERRIDES) {
        fprintf(stderr, "sim: more than %d -s options\n", COMMAND_LINE_MAX_OVERRIDES);
        return false;
    }
    if (opt == OPT_SEED) { /* --seed N is -s run.seed=N */
        if (!shorthand(cl->seed_override, sizeof cl->seed_override, "seed", optarg, "--seed"))
            return false;
        cl->overrides[cl->n_overrides++] = cl->seed_override;
    } else if (opt == OPT_REPLICATIONS) {
        if (!shorthand(cl->replications_override, sizeof cl->replications_override, "replications", optarg,
                       "--replications"))
            return false;
        cl->overrides[cl->n_overrides++] = cl->replications_override;
    } else {
        cl->overrides[cl->n_overrides++] = optarg;
    }
    return true;
}

/* An output file's name, refused at once when empty (it could only fail after the run). */
static bool output_name(const char *value, const char *option, const char **into)
{
    if (!value[0]) {
        fprintf(stderr, "sim: %s: an empty file name\n", option);
        return false;
    }
    *into = value;
    return true;
}

/* One option (its value in optarg): COMMAND_LINE_RUN to read on, else what it asks for. */
static enum command_line_ask take_option(struct command_line *cl, int opt, char **argv)
{
    switch (opt) {
    case 's':
    case OPT_SEED:
    case OPT_REPLICATIONS:
        return add_override(cl, opt) ? COMMAND_LINE_RUN : COMMAND_LINE_BAD;
    case 'f':
        if (parse_format(optarg, &cl->fmt) != 0) {
            quoted("sim: --format: unknown format '", optarg, "' (table, csv or json)\n");
            return COMMAND_LINE_BAD;
        }
        break;
    case 'o':
        if (!output_name(optarg, "-o", &cl->output))
            return COMMAND_LINE_BAD;
        break;
    case OPT_SWEEP:
        if (cl->n_specs == SWEEP_MAX_DIMS) {
            fprintf(stderr, "sim: more than %d --sweep options\n", SWEEP_MAX_DIMS);
            return COMMAND_LINE_BAD;
        }
        cl->specs[cl->n_specs++] = optarg;
        break;
    case 'j': {
        char *end;
        cl->jobs = strtol(optarg, &end, 10);
        if (*end || end == optarg || cl->jobs < 1 || cl->jobs > 1024) {
            quoted("sim: -j '", optarg, "': a number of processes from 1 to 1024\n");
            return COMMAND_LINE_BAD;
        }
        cl->jobs_given = true;
        break;
    }
    case OPT_NO_TIMING:
        cl->omit_timing = true;
        break;
    case OPT_CRN:
        cl->common_random_numbers = true;
        break;
    case OPT_NO_NOTES:
        cl->no_notes = true;
        break;
    case OPT_CONFIG_STDIN:
        cl->config_from_stdin = true;
        break;
    case OPT_PROGRESS:
        cl->progress = 1;
        break;
    case OPT_NO_PROGRESS:
        cl->progress = 0;
        break;
    case OPT_LIST:
        return COMMAND_LINE_LIST;
    case OPT_LIST_MARKDOWN:
        return COMMAND_LINE_LIST_MARKDOWN;
    case OPT_DESCRIBE:
        cl->describe_only = true;
        break;
    case OPT_ANALYTIC:
        cl->analytic_only = true;
        break;
    case OPT_CHECK_DEADLOCK:
        cl->check_deadlock = true;
        break;
    case OPT_WRITE_TRACE:
        if (!output_name(optarg, "--write-trace", &cl->write_trace))
            return COMMAND_LINE_BAD;
        break;
    case 'h':
        return COMMAND_LINE_HELP;
    case OPT_FILES + RUN_FILE_CHANNELS:
    case OPT_FILES + RUN_FILE_NODES:
    case OPT_FILES + RUN_FILE_HISTOGRAM:
    case OPT_FILES + RUN_FILE_SERIES:
    case OPT_FILES + RUN_FILE_SERIES_INTERVAL: {
        const char *checked = optarg;
        if ((opt != OPT_FILES + RUN_FILE_SERIES_INTERVAL &&
             !output_name(optarg, run_files_option_name((enum run_file)(opt - OPT_FILES)), &checked)) ||
            !run_files_option(&cl->files, (enum run_file)(opt - OPT_FILES), checked))
            return COMMAND_LINE_BAD;
        break;
    }
    case 'V':
        return COMMAND_LINE_VERSION;
    default:
        return bad_option(argv, opt, long_options);
    }
    return COMMAND_LINE_RUN;
}

static bool ends_with(const char *s, const char *end)
{
    size_t ls = strlen(s), le = strlen(end);
    return ls >= le && strcmp(s + ls - le, end) == 0;
}

/* More than one argument left after the options: the one line says why, with what
 * BookSim's habits would have meant (`sim torus.ini workload.rate=0.3`, `-s KEY VALUE`). */
static void too_many_files(const struct command_line *cl, int n, char *const *args)
{
    for (int i = 0; i < n; i++)
        if (strchr(args[i], '=')) {
            quoted("sim: '", args[i], "' is no CONFIG.ini: a key is set with -s ");
            quoted("", args[i], " (exactly one CONFIG.ini expected)\n");
            return;
        }
    for (size_t o = 0; o < cl->n_overrides; o++)
        if (!strchr(cl->overrides[o], '=')) {
            quoted("sim: -s ", cl->overrides[o], ": the value goes in the same argument, -s ");
            quoted("", cl->overrides[o], "=");
            quoted("", ends_with(args[0], ".ini") ? "VALUE" : args[0], " (exactly one CONFIG.ini expected)\n");
            return;
        }
    fputs("sim: exactly one CONFIG.ini expected (try 'sim --help')\n", stderr);
}

/* The options given that cannot go together: false after one line on stderr. */
static bool go_together(const struct command_line *cl)
{
    if (cl->describe_only + cl->analytic_only + cl->check_deadlock > 1) { /* two reports in one output */
        fputs("sim: --describe, --analytic and --check-deadlock go one at a time (run sim twice)\n", stderr);
        return false;
    }
    if (cl->common_random_numbers && cl->n_specs == 0) { /* one run has one seed: the option would do nothing */
        fputs("sim: --common-random-numbers goes with --sweep\n", stderr);
        return false;
    }
    if (run_files_any(&cl->files) && (cl->n_specs > 0 || cl->describe_only || cl->analytic_only || cl->check_deadlock)) {
        /* they look inside one run */
        fputs("sim: --channels, --nodes, --histogram and --series go with a single run: not with --sweep, "
              "--describe or --analytic\n", stderr);
        return false;
    }
    return true;
}

enum command_line_ask command_line_parse(struct command_line *cl, int argc, char **argv)
{
    *cl = (struct command_line){ .jobs = sysconf(_SC_NPROCESSORS_ONLN), .fmt = REPORT_TABLE, .progress = -1 };
    opterr = 0; /* bad_option says it in one line */
    int opt;
    while ((opt = getopt_long(argc, argv, ":s:f:o:j:hV", long_options, NULL)) != -1) {
        enum command_line_ask ask = take_option(cl, opt, argv);
        if (ask != COMMAND_LINE_RUN)
            return ask;
    }
    if (optind != argc - 1) {
        if (optind == argc)
            fputs("sim: missing CONFIG.ini (try 'sim --help')\n", stderr);
        else
            too_many_files(cl, argc - optind, argv + optind);
        return COMMAND_LINE_BAD;
    }
    cl->config = argv[optind];
    return go_together(cl) ? COMMAND_LINE_RUN : COMMAND_LINE_BAD;
}
