/* Report: the results of one run, and the only code that writes them.
 *
 * Promise: report_write() prints a run_report (filled by report_collect() in
 * sim/run/collect.h) as a table, CSV (one header row, one data row) or
 * one JSON object, with the same field names in CSV and JSON.  The engine's own
 * figures arrive as named figures (sim/core/figures.h) and the model's as a
 * model_result (sim/core/prediction.h): the report formats whatever arrives and
 * knows no engine or model by name.  Everything outside
 * `performance` is a function of the config and seed only.  Numbers are printed
 * with 10 significant digits; a figure that does not exist (NaN) is null in JSON,
 * empty in CSV and "-" in the table.  With omit_timing the output is a function of
 * the config and seed only, byte for byte.
 */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <stdio.h>

#include "../core/config_value.h"
#include "../core/figures.h"
#include "../core/kernel.h"
#include "../core/prediction.h"
#include "../core/stats.h"

enum report_format { REPORT_TABLE, REPORT_CSV, REPORT_JSON };
enum { REPORT_MAX_CLASSES = 64 }; /* channel classes a report holds (>= TOPO_MAX_CLASSES) */

struct class_report {
    char name[24];
    uint64_t channels;
    double utilization_mean, utilization_max;
    double analytic_utilization; /* NaN when loads are unknown */
};

/* The stability check (analytic/model.h's struct stability), as the report prints it. */
struct report_stability {
    bool known;       /* false when the loads are unknown (why says so) */
    bool saturated;
    double node_load; /* busiest node server: visit rate / service rate */
    char why[256];
};

/* Across replications: the spread of one figure (mean, σ or max of a replication). */
struct replication_spread {
    double mean, sd;  /* over replications */
    double ci95[2];   /* Student t interval of the mean over replications */
};

struct run_report {
    const struct config *cfg;
    /* The keys the CSV and JSON echo (sim/run's run_config_echo): what was in effect. */
    struct cfg_echo echo;
    char trace[CFG_TEXT_MAX]; /* the replayed trace's path ("": no trace); a copy, as replications
                               * free the configs they ran */
    uint32_t nodes, channels;
    uint32_t terminals, routers; /* as struct topo's: equal to nodes on a network whose every node is a terminal */
    char network[192]; /* the topology's label */
    char access_detail[96]; /* the access protocol's parameters, as the table shows them ("" when none) */
    /* With run.replications > 1 every figure is the average of the replications'
     * figures (counts, events and wall time are totals, min the smallest), and
     * delay.ci95 is the across-replication interval instead of batch means. */
    unsigned replications;
    struct replication_spread rep_mean, rep_stddev, rep_max;
    struct stats_summary delay;
    double node_mean, node_variance, link_mean, link_variance; /* the two parts of delay */
    double node_utilization_mean, node_utilization_max;          /* NaN without the node model */
    struct report_stability stability;
    double backlog_start, backlog_end; /* messages in the network when the window opened and closed */
    double throughput;       /* messages delivered per node per time unit, measurement window */
    double hops_mean;        /* over measured messages */
    double utilization_mean, utilization_max;
    unsigned classes;
    struct class_report cls[REPORT_MAX_CLASSES];
    struct model_result model;
    /* The engine's own figures, and the names of those every report has a column
     * for (figures.h): averaged over replications by their hints. */
    struct figures figures;
    bool slotted;             /* time is whole cycles; the engine admits its own input */
    double delivered_total;   /* messages delivered in the whole run (replications: total) */
    bool interrupted;
    const char *stop_reason;
    struct moments rep_moments[3]; /* per-replication mean, σ, max (for the intervals) */
    double simulated_time, window;
    double warmup_time; /* simulated time when the warm-up ended (the window opened) */
    double warmup_messages; /* messages discarded as warm-up: run.warmup_messages, or MSER-5's cut
                             * (run.warmup = auto); NaN in time mode */
    /* The delay mean's 95% interval: relative half-width, batches it used (NaN across
     * replications), and whether run.precision's target was met (-1: no target). */
    double precision_reached, precision_batches;
    int precision_met;
    /* run.warmup = auto cut the most it may, half the recorded messages: the run had not
     * settled (any replication), so the delays still carry the start's bias. */
    bool warmup_unsettled;
    struct moments rep_quantiles[STATS_QUANTILE_CIS]; /* per-replication p50, p90, p99 */
    uint64_t messages_created;
    uint64_t events;
    double wall_seconds, events_per_second;
    /* Leave out the wall-clock figures (performance.wall_seconds, .events_per_second,
     * the only ones that differ between identical runs): set before report_write. */
    bool omit_timing;
};

/* One saturation verdict: when an engine's figure says its backlog grew
 * (FIGURE_WITHHOLDS_DELAY), the report's own `saturated` says so too, with the
 * engine's note; otherwise it keeps the stability check's verdict. */
void report_adopt_saturation(struct run_report *r);
/* True when an engine's figure says the delay means mean nothing (FIGURE_WITHHOLDS_DELAY). */
bool report_delay_withheld(const struct run_report *r);
/* Folds replication number k (0, 1, ...) into the running report `acc` (k = 0 copies). */
void report_add_replication(struct run_report *acc, const struct run_report *one, unsigned k);
/* precision_reached and precision_batches from the report's delay interval. */
void report_set_precision(struct run_report *r);
/* After the last replication: the across-replication intervals. */
void report_finish_replications(struct run_report *acc);
/* Shared by the writers: a number with 10 significant digits, `missing` for NaN;
 * the relative difference of the simulated mean from the model's (NaN if none). */
void report_fmt_number(char *buf, size_t size, double v, const char *missing);
/* A relative difference as "+12.34%"; "-" (a missing figure) when it is not finite. */
void report_fmt_percent(char *buf, size_t size, double fraction);
double report_relative_difference(const struct run_report *r);
void report_write_table(FILE *out, const struct run_report *r); /* report_table.c */
/* report_lines.c: the engine's table lines for `place` (class cls for
 * FIGURE_PLACE_CLASS, else FIGURE_NO_CLASS), each filled in from its group's figures
 * and ended by a newline; returns how many were printed.  report_has_lines() tells
 * whether any line of that place arrived (it replaces the report's own lines). */
unsigned report_lines(FILE *out, const struct run_report *r, enum figure_place place, int cls);
bool report_has_lines(const struct run_report *r, enum figure_place place);
/* The simulated value of a numeric CSV/JSON field ("delay.mean", "throughput"...). */
bool report_field_number(const struct run_report *r, const char *name, double *value);
void report_json_string(FILE *out, const char *s);
/* "config": {...}: the echoed keys of cfg, grouped by section. */
void report_json_config(FILE *out, const struct config *cfg, const struct cfg_echo *echo);
/* A CSV cell: as it is, or quoted (inner quotes doubled) when it holds a comma, quote or line break. */
void report_csv_text(FILE *out, const char *s);
void report_fmt_key(char *buf, size_t size, const struct config *cfg, size_t key); /* layout key's value as text */
void report_json_number(FILE *out, double v);

/* report_analytic.c: every model figure.  JSON: one object per model, figure name
 * to value.  Table: one line per figure, with the simulated value and the relative
 * difference where the run reports a field of that name (r may be NULL: the model
 * alone, as `sim --analytic` prints it). */
void report_json_figures(FILE *out, const struct model_result *m, const char *indent);
void report_table_figures(FILE *out, const struct model_result *m, const struct run_report *r);
/* `sim --analytic` (run by sim/run/analytic_only.c): the models' prediction for cfg on
 * the network `label` of nodes and channels; seconds NaN (--no-timing) leaves out the
 * wall-clock figure.  Returns false on an output error. */
bool report_write_analytic(FILE *out, const struct config *cfg, const struct cfg_echo *echo, const char *label,
                           uint32_t nodes, uint32_t channels, const struct model_result *m, enum report_format fmt,
                           double seconds);

/* Returns false on an output error. */
bool report_write(FILE *out, const struct run_report *r, enum report_format fmt);

#endif
