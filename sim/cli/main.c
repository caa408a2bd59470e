/* sim: command-line entry point.  Parses options, loads and checks the config,
 * runs the network, prints the report; with --sweep hands over to sweep.c.  Exit
 * status: 0 done, 1 internal or output failure, 2 bad input, 3 deadlock (wormhole),
 * 124 stopped by run.max_wall_seconds, 130 interrupted. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analytic/model.h"
#include "../config/config.h"
#include "command_line.h"
#include "describe.h"
#include "../run/analytic_only.h"
#include "../run/model_input.h"
#include "../run/network.h"
#include "../run/replicate.h"
#include "../run/run_config.h"
#include "../report/report.h"
#include "notes.h"
#include "output.h"
#include "replicate_jobs.h"
#include "run_files.h"
#include "sweep.h"
#include "../run/wallclock.h"

#ifndef SIM_VERSION
#define SIM_VERSION "0.1.0"
#endif

enum { EXIT_INPUT = 2, EXIT_WALL_LIMIT = 124, EXIT_INTERRUPTED = 130 };

static int interrupted_before_run(void);

/* Bad input, or input whose reading a held stop signal cut short (a FIFO that never
 * ended): that is an interruption, said as one. */
static int input_error(const struct cfg_error *err)
{
    if (stop_signal_held())
        return interrupted_before_run();
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
    return status == 0 && stop_signal_held() ? EXIT_INTERRUPTED : status;
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

/* A held signal (sim/core/stop_signals.h) that came before any run started.  A closed
 * pipe alone says nothing: main ends by its SIGPIPE. */
static int interrupted_before_run(void)
{
    if (!stop_signals_pipe_closed())
        fputs("sim: interrupted before the run started\n", stderr);
    return EXIT_INTERRUPTED;
}

/* Hands the stop signals back to a path that may die of them as any tool would
 * (--describe and --analytic to stdout: nothing to clean up); false when one is already
 * held: the user asked to stop. */
static bool release_signals(void)
{
    if (stop_signal_held())
        return false;
    stop_signals_release();
    return true;
}

/* --list and --list-markdown: every key and module, from the layout alone. */
static int list_keys(bool markdown)
{
    struct config *layout = malloc(sizeof *layout);
    if (!layout) {
        fputs("sim: out of memory\n", stderr);
        return 1;
    }
    run_config_defaults(layout);
    (markdown ? cfg_print_keys_markdown : cfg_print_keys)(layout, stdout);
    free(layout);
    return finish_stdout(0);
}

static int print_version(void)
{
    fputs("sim " SIM_VERSION "\n"
          "Copyright (C) 2026 the sim authors.\n"
          "License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
          "This is free software: you are free to change and redistribute it.\n"
          "There is NO WARRANTY, to the extent permitted by law.\n",
          stdout);
    return finish_stdout(0);
}

static struct sweep_args sweep_args_of(const struct command_line *cl)
{
    return (struct sweep_args){ cl->config, cl->overrides, cl->n_overrides, cl->specs, cl->n_specs, cl->fmt, cl->output,
                                (unsigned)(cl->jobs > 0 ? cl->jobs : 1), cl->progress, cl->omit_timing,
                                cl->common_random_numbers, NULL };
}

/* The -o and --write-trace files opened by open_outputs(), removed unwritten. */
static void discard_outputs(const struct command_line *cl, struct output_file *out_file, struct output_file *trace_file)
{
    if (cl->output)
        output_discard(out_file);
    if (cl->write_trace)
        output_discard(trace_file);
}

/* Every file is checked (and its temporary file made) before anything runs: a path that
 * cannot be written is bad input, refused without a run.  False: said, nothing left behind. */
static bool open_outputs(struct command_line *cl, struct config *cfg, struct output_file *out_file,
                         struct output_file *trace_file)
{
    if (cl->output && !output_open(out_file, cl->output, "output"))
        return false;
    if (cl->write_trace && !output_open(trace_file, cl->write_trace, "trace")) {
        if (cl->output)
            output_discard(out_file);
        return false;
    }
    if (!run_files_open(&cl->files, cfg)) {
        discard_outputs(cl, out_file, trace_file);
        return false;
    }
    return true;
}

/* --describe or --analytic: no simulation; the report to -o or stdout. */
static int describe_or_analytic(const struct command_line *cl, const struct config *cfg, struct output_file *out_file,
                                struct output_file *trace_file)
{
    /* With -o the signals stay held (a temporary file exists): one is looked for at the
     * end, and the file then removed. */
    if (cl->output ? stop_signal_held() : !release_signals()) { /* held while the config was read */
        discard_outputs(cl, out_file, trace_file);
        return interrupted_before_run();
    }
    FILE *out = cl->output ? output_stream(out_file) : stdout;
    if (!out) {
        output_discard(out_file);
        return 1;
    }
    int status = cl->describe_only    ? describe(cfg, cl->fmt, out)
                 : cl->check_deadlock ? describe_deadlock_check(cfg, cl->fmt, out)
                                      : run_analytic_only(cfg, cl->fmt, cl->omit_timing, out);
    if (!cl->output)
        return finish_stdout(status);
    if (status == EXIT_INPUT || stop_signal_held()) { /* refused (said so) or interrupted: nothing left behind */
        fclose(out);
        output_discard(out_file);
        return status == EXIT_INPUT ? status : interrupted_before_run();
    }
    return output_commit(out_file, out, status == 0) ? status : 1;
}

/* The report to -o (written atomically) or stdout: false when it could not be written. */
static bool write_report(const struct command_line *cl, struct output_file *out_file, const struct run_report *report)
{
    if (cl->output) {
        FILE *out = output_stream(out_file);
        if (!out) {
            output_discard(out_file);
            return false;
        }
        return output_commit(out_file, out, report_write(out, report, cl->fmt));
    }
    bool ok = report_write(stdout, report, cl->fmt);
    return output_close_stdout() && ok;
}

/* The exit status of a run whose report was written, by why its kernel stopped. */
static int run_exit_status(enum kernel_stop why, const struct run_report *report)
{
    switch (why) {
    case KERNEL_DONE: /* a signal held while the report was written: whole report, status 130 */
        return stop_signal_held() ? EXIT_INTERRUPTED : 0;
    case KERNEL_INTERRUPTED:
        return EXIT_INTERRUPTED;
    case KERNEL_WALL_LIMIT:
        return EXIT_WALL_LIMIT;
    default:
        fprintf(stderr, "sim: run ended early: %s\n", report->stop_reason);
        return 1;
    }
}

/* One run (its replications), its trace and files kept only when it succeeded, then its
 * report. */
static int run_and_report(struct command_line *cl, struct config *cfg, struct output_file *out_file,
                          struct output_file *trace_file)
{
    if (cl->write_trace)
        cfg->write_trace = output_write_path(trace_file);
    struct run_report report;
    enum kernel_stop why;
    struct cfg_error err;
    int status = cl->jobs_given && cl->jobs > 1 && cfg->run.replications > 1
                     ? run_replications_jobs(cfg, (unsigned)cl->jobs, cl->progress, &report, &why, &err)
                     : run_replications(cfg, cl->progress, &report, &why, &err);
    /* A failed run leaves no trace (and no output file) behind; an interrupted one keeps
     * the trace of the messages created until it stopped. */
    if (cl->write_trace &&
        (status == 0 ? !output_commit(trace_file, NULL, true) : (output_discard(trace_file), false)))
        status = 1;
    /* The same for --channels and the like: written by the run, kept only when it succeeded. */
    if (status == 0 ? !run_files_commit(&cl->files) : (run_files_discard(&cl->files), false))
        status = 1;
    if (status != 0) {
        if (cl->output)
            output_discard(out_file);
        if (status == RUN_INTERRUPTED) /* both temporary files are gone (above) */
            return interrupted_before_run();
        return status == EXIT_INPUT ? input_error(&err) : status;
    }
    report.omit_timing = cl->omit_timing;
    if (!write_report(cl, out_file, &report))
        return 1;
    return run_exit_status(why, &report);
}

/* Not a sweep: the config loaded and checked, the files opened, then --describe,
 * --analytic or the run. */
/* The config of one run: the file, or with --config-stdin the text on stdin (a
 * sweep's point: the text its parent checked), named as CONFIG. */
static bool load_config(const struct command_line *cl, struct config *cfg, struct cfg_error *err)
{
    if (!cl->config_from_stdin)
        return run_config_load(cfg, cl->config, cl->overrides, cl->n_overrides, err);
    /* /dev/stdin opens the file anew: a regular file is read from its start, whatever
     * other processes sharing the descriptor have read. */
    struct cfg_text text = { cl->config, NULL, 0 };
    if (cfg_read_whole_file("/dev/stdin", &text.text, &text.len, err) != TEXT_END) {
        snprintf(err->file, sizeof err->file, "%s (stdin)", cl->config);
        return false;
    }
    bool ok = run_config_load_text(cfg, &text, cl->overrides, cl->n_overrides, err);
    free(text.text);
    return ok;
}

/* Every output compared with every other and with the inputs (the configuration, the
 * replayed trace) by the file each names: false (said) when two are one file. */
static bool files_distinct_from_inputs(const struct command_line *cl, const struct config *cfg)
{
    char trace[2 * CFG_TEXT_MAX];
    struct named_file files[RUN_FILES + 4] = {
        { "-o", cl->output, true },
        { "--write-trace", cl->write_trace, true },
        { "configuration", cl->config_from_stdin ? "/dev/stdin" : cl->config, false }, /* stdin: the file it is */
        { "workload.trace", run_input_trace(cfg, trace, sizeof trace), false },
    };
    size_t n = 4 + run_files_named(&cl->files, files + 4);
    return files_distinct(files, n);
}

static int run_single(struct command_line *cl)
{
    struct config cfg;
    struct cfg_error err;
    if (!load_config(cl, &cfg, &err))
        return input_error(&err);
    if (!cl->no_notes) {
        note_defaults_only(&cfg);
        note_overrides_without_effect(&cfg, cl->overrides, cl->n_overrides);
    }
    if (!run_files_check(&cl->files, &cfg) || !files_distinct_from_inputs(cl, &cfg))
        return EXIT_INPUT;
    struct output_file out_file, trace_file;
    if (!open_outputs(cl, &cfg, &out_file, &trace_file))
        return EXIT_INPUT;
    if (cl->describe_only || cl->analytic_only || cl->check_deadlock)
        return describe_or_analytic(cl, &cfg, &out_file, &trace_file);
    return run_and_report(cl, &cfg, &out_file, &trace_file);
}

/* Everything main does but the end by a closed pipe. */
static int run_command(int argc, char **argv)
{
    keep_standard_fds_taken();
    struct command_line cl;
    enum command_line_ask ask = command_line_parse(&cl, argc, argv);
    switch (ask) {
    case COMMAND_LINE_BAD:
        return EXIT_INPUT;
    case COMMAND_LINE_LIST:
    case COMMAND_LINE_LIST_MARKDOWN:
        return list_keys(ask == COMMAND_LINE_LIST_MARKDOWN);
    case COMMAND_LINE_HELP:
        command_line_usage(stdout);
        return finish_stdout(0);
    case COMMAND_LINE_VERSION:
        return print_version();
    case COMMAND_LINE_RUN:
        break;
    }
    bool single_only = cl.describe_only || cl.analytic_only || cl.check_deadlock || cl.write_trace ||
                       run_files_any(&cl.files);
    const struct sweep_args sweep = sweep_args_of(&cl);
#ifdef SIM_MPI
    if (!single_only)
        return sweep_mpi_main(&sweep); /* the signals stay held: each run looks for them */
#endif
    if (cl.n_specs > 0) {
        if (single_only) {
            fputs("sim: --sweep does not go with --describe, --analytic, --check-deadlock or --write-trace\n", stderr);
            return EXIT_INPUT;
        }
        return sweep_main(&sweep); /* held while the plan is built; the runner takes them with libev */
    }
    return run_single(&cl);
}

int main(int argc, char **argv)
{
    /* Before any work: from here on a signal cannot kill the process halfway (leaving
     * temporary files); it is held and read at the run's next turn (stop_signals.h). */
    if (!stop_signals_hold()) {
        fputs("sim: cannot block the stop signals\n", stderr);
        return 1;
    }
    int status = run_command(argc, argv);
    /* A write to a pipe whose reader had gone (held SIGPIPE): every temporary file is
     * removed by now, so sim ends as a tool writing to a closed pipe does. */
    if (stop_signals_pipe_closed())
        stop_signals_die_of_pipe();
    return status;
}
