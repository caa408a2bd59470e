/* Report: the results of one run, and the only code that writes them.
 *
 * Promise: report_collect() gathers everything printed from a finished (or stopped)
 * run; report_write() prints it as a table, CSV (one header row, one data row) or
 * one JSON object, with the same field names in CSV and JSON.  Everything outside
 * `performance` is a function of the config and seed only.  Numbers are printed
 * with 10 significant digits; a figure that does not exist (NaN) is null in JSON,
 * empty in CSV and "-" in the table.
 */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <stdio.h>

#include "../analytic/model.h"
#include "network.h"

enum report_format { REPORT_TABLE, REPORT_CSV, REPORT_JSON };

struct class_report {
    char name[24];
    uint64_t channels;
    double utilization_mean, utilization_max;
    double analytic_utilization; /* NaN when loads are unknown */
};

struct run_report {
    const struct config *cfg;
    uint32_t nodes, channels;
    const char *network; /* the topology's label */
    struct stats_summary delay;
    double throughput;       /* messages delivered per node per time unit, measurement window */
    double hops_mean;        /* over measured messages */
    double utilization_mean, utilization_max;
    unsigned classes;
    struct class_report cls[TOPO_MAX_CLASSES];
    struct model_result model;
    bool interrupted;
    const char *stop_reason;
    double simulated_time, window;
    double warmup_time; /* simulated time when the warm-up ended (the window opened) */
    uint64_t messages_created;
    uint64_t events;
    double wall_seconds, events_per_second;
};

void report_collect(struct run_report *r, const struct network *net, const struct channel_loads *loads,
                    const struct model_result *model, enum kernel_stop why, double wall_seconds);
/* Returns false on an output error. */
bool report_write(FILE *out, const struct run_report *r, enum report_format fmt);

#endif
