/* The human-readable report (sim's default output format); the engine's own lines
 * are its figures' templates (report_lines.c). */
#include <math.h>

#include "report.h"

#define FMT(buf, v) report_fmt_number(buf, sizeof buf, v, "-")

static void measured_line(FILE *out, const struct run_report *r)
{
    const struct config *c = r->cfg;
    char reps[48] = "";
    if (r->replications > 1)
        snprintf(reps, sizeof reps, " over %u replications", r->replications);
    if (c->run.duration > 0)
        fprintf(out, "measured     %llu messages delivered in [%g, %g]%s; stop: %s\n",
                (unsigned long long)r->delay.count, c->run.warmup_time, c->run.warmup_time + c->run.duration, reps,
                r->stop_reason);
    else if (c->run.warmup[0] == 'a')
        fprintf(out, "measured     %llu messages after %.10g warm-up (auto: MSER)%s; window %.6g %s; stop: %s\n",
                (unsigned long long)r->delay.count, r->warmup_messages, reps, r->window,
                r->slotted ? "cycles" : "time units", r->stop_reason);
    else
        fprintf(out, "measured     %llu messages after %lld warm-up%s; window %.6g %s; stop: %s\n",
                (unsigned long long)r->delay.count, (long long)r->warmup_messages, reps, r->window,
                r->slotted ? "cycles" : "time units", r->stop_reason);
    if (c->run.precision > 0) {
        char reached[64], batches[64];
        report_fmt_number(reached, sizeof reached, r->precision_reached, "-");
        report_fmt_number(batches, sizeof batches, r->precision_batches, "-");
        fprintf(out, "precision    %s reached (target %g: %s) with %s batches\n", reached, c->run.precision,
                r->precision_met == 1 ? "met" : "not met", batches);
    }
}

static void header(FILE *out, const struct run_report *r)
{
    const struct config *c = r->cfg;
    fprintf(out, "config       %s (seed %llu)%s\n", c->path, (unsigned long long)c->run.seed,
            r->interrupted ? "   ** INTERRUPTED: partial results **" : "");
    if (r->terminals == r->nodes && r->routers == r->nodes)
        fprintf(out, "network      %s (%s): %u nodes, %u channels, bandwidth %g\n", c->network.topology, r->network,
                r->nodes, r->channels, c->network.bandwidth);
    else
        fprintf(out, "network      %s (%s): %u terminals, %u routers, %u channels, bandwidth %g\n",
                c->network.topology, r->network, r->terminals, r->routers, r->channels, c->network.bandwidth);
    fprintf(out, "routing      %s, %s; access %s%s; queues %s\n", c->routing.algorithm, c->routing.switching,
            c->protocol.link, r->access_detail, c->protocol.priority);
    if (c->node.service_rate > 0)
        fprintf(out, "nodes        one server per node, service 1/%g per visit\n", c->node.service_rate);
    if (r->trace[0]) /* trace arrivals: times, ends and lengths are the file's */
        fprintf(out, "workload     replay of the trace %s%s\n", r->trace,
                c->run.redraw_length_per_hop ? " (lengths re-drawn per hop)" : "");
    else if (r->slotted) /* a message crosses a channel in one cycle */
        fprintf(out, "workload     %s arrivals, %g per node per cycle; %s destinations; one-cycle messages\n",
                c->workload.arrival, c->workload.rate, c->workload.destination);
    else if (c->workload.rate_unit[0] == 'f') /* as written, then in messages */
        fprintf(out, "workload     %s arrivals, %g flits (%g messages) per node per time unit; %s destinations; %s "
                "lengths, mean %g\n", c->workload.arrival, c->workload.rate, cfg_message_rate(c),
                c->workload.destination, c->workload.length, c->workload.mean_length);
    else
        fprintf(out, "workload     %s arrivals, %g per node per time unit; %s destinations; %s lengths, mean %g%s\n",
                c->workload.arrival, c->workload.rate, c->workload.destination, c->workload.length,
                c->workload.mean_length, c->run.redraw_length_per_hop ? " (re-drawn per hop)" : "");
    report_lines(out, r, FIGURE_PLACE_WORKLOAD, FIGURE_NO_CLASS);
    measured_line(out, r);
    report_lines(out, r, FIGURE_PLACE_HEADER, FIGURE_NO_CLASS);
    if (r->stability.saturated && !report_delay_withheld(r)) /* else the engine's line said it */
        fprintf(out, "** SATURATED: %s; queues grow without bound and the figures depend on the run length **\n",
                r->stability.why);
    fputc('\n', out);
}

static void warnings(FILE *out, const struct run_report *r)
{
    const struct config *c = r->cfg;
    if (c->run.duration > 0) {
        if (c->run.warmup_time < 5 * r->delay.mean)
            fprintf(out, "%-12s the warm-up lasted %.3g time units, under 5 mean delays: measured delays are biased "
                         "low; raise run.warmup_time\n", "  warning", c->run.warmup_time);
    } else if (c->run.warmup[0] == 'a') { /* the warm-up is the run's own finding, unless at its limit */
        if (r->warmup_unsettled)
            fprintf(out, "%-12s the warm-up found is half the run, the most MSER may cut: the run had not settled "
                         "and delays are biased; raise run.messages\n", "  warning");
    } else if (r->warmup_messages > 0 && r->warmup_time < 5 * r->delay.mean) { /* the probe's (netrace: 0) */
        fprintf(out, "%-12s the warm-up lasted %.3g time units, under 5 mean delays: measured delays are biased low; "
                     "raise run.warmup_messages\n", "  warning", r->warmup_time);
    } else if (r->warmup_messages == 0 && c->run.warmup[0] != 'a') {
        fprintf(out, "%-12s no warm-up: measurement starts with an empty network and delays are biased low\n",
                "  warning");
    }
    if (r->delay.batch_correlation > 0.5)
        fprintf(out, "%-12s batch means correlated (lag-1 %.2f): the interval is too narrow; use fewer, longer "
                     "batches (run.batches) or more messages\n", "  warning", r->delay.batch_correlation);
}

static void interval(char *buf, size_t size, const double ci[2])
{
    char a[64], b[64];
    FMT(a, ci[0]);
    FMT(b, ci[1]);
    snprintf(buf, size, "[%.10s, %.10s]", a, b);
}

/* The delay mean beside the model's, the standard deviation (with its model and, over
 * replications, its interval), the quantiles and the maximum. */
static void delay_lines(FILE *out, const struct run_report *r)
{
    char a[64], b[64], m[64], ci[160];
    bool have = r->model.model && !r->model.unstable;
    bool reps = r->replications > 1;
    fprintf(out, "%-12s %-14s %-26s %-14s %s\n", "", reps ? "simulated (avg)" : "simulated",
            reps ? "95% CI (replications)" : "95% CI (batch means)", have ? r->model.model : "analytic",
            have ? "difference" : "");
    FMT(m, r->delay.mean);
    interval(ci, sizeof ci, r->delay.ci95);
    char diff[64];
    if (have) {
        report_fmt_percent(diff, sizeof diff, report_relative_difference(r));
        fprintf(out, "%-12s %-14.14s %-26s %-14.6g %s\n", "delay mean", m, ci, r->model.delay_mean, diff);
    }
    else
        fprintf(out, "%-12s %-14.14s %-26s %s\n", "delay mean", m, ci, r->model.model ? "unstable" : "-");
    warnings(out, r);
    bool model_sd = have && !isnan(r->model.delay_variance);
    char sd_model[160] = "";
    if (model_sd) {
        report_fmt_percent(diff, sizeof diff, r->delay.stddev / sqrt(r->model.delay_variance) - 1);
        snprintf(sd_model, sizeof sd_model, "%-14.6g %s (with covariances %.6g)", sqrt(r->model.delay_variance), diff,
                 sqrt(r->model.delay_variance_correlated));
    }
    if (reps) {
        FMT(m, r->delay.stddev);
        interval(ci, sizeof ci, r->rep_stddev.ci95);
        if (model_sd)
            fprintf(out, "%-12s %-14.14s %-26s %s\n", "stddev", m, ci, sd_model);
        else
            fprintf(out, "%-12s %-14.14s %s\n", "stddev", m, ci);
        FMT(m, r->delay.max);
        interval(ci, sizeof ci, r->rep_max.ci95);
        fprintf(out, "%-12s %-14.14s %-26s (mean of each replication's maximum)\n", "max", m, ci);
        FMT(a, r->rep_mean.sd);
        FMT(b, r->rep_stddev.sd);
        FMT(m, r->rep_max.sd);
        fprintf(out, "%-12s replication-to-replication sd: mean %s, stddev %s, max %s\n", "spread", a, b, m);
    }
    const struct {
        const char *label;
        double v;
    } rows[] = {
        { "stddev", r->delay.stddev }, { "variance", r->delay.variance }, { "min", r->delay.min },
        { "p50", r->delay.p50 },       { "p90", r->delay.p90 },           { "p99", r->delay.p99 },
        { "p99.9", r->delay.p999 },    { "max", r->delay.max },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (reps && (i == 0 || i + 1 == sizeof rows / sizeof rows[0]))
            continue; /* printed above with their intervals */
        FMT(a, rows[i].v);
        if (i >= 3 && i <= 5) { /* p50, p90, p99: with their intervals */
            interval(ci, sizeof ci, r->delay.quantile_ci95[i - 3]);
            fprintf(out, "%-12s %-14.14s %s\n", rows[i].label, a, ci);
        } else if (i == 0 && model_sd)
            fprintf(out, "%-12s %-14.14s %-26s %s\n", rows[i].label, a, "", sd_model);
        else
            fprintf(out, "%-12s %s\n", rows[i].label, a);
    }
}

/* The delay's node and link parts: the engine's own lines, or the measured moments
 * beside the model's. */
static void delay_part_lines(FILE *out, const struct run_report *r)
{
    char a[64], b[64];
    bool have = r->model.model && !r->model.unstable;
    if (report_has_lines(r, FIGURE_PLACE_DELAY_PARTS)) { /* the engine's reading of the two parts */
        report_lines(out, r, FIGURE_PLACE_DELAY_PARTS, FIGURE_NO_CLASS);
    } else {
        FMT(a, r->node_mean);
        FMT(b, r->node_variance);
        fprintf(out, "%-12s mean %-12.12s variance %-12.12s (queueing and service at nodes)\n", "node part", a, b);
        if (have && !isnan(r->model.node_mean))
            fprintf(out, "%-12s mean %-12.6g variance %.6g\n", "  model", r->model.node_mean, r->model.node_variance);
        FMT(a, r->link_mean);
        FMT(b, r->link_variance);
        fprintf(out, "%-12s mean %-12.12s variance %-12.12s (waiting for and crossing channels)\n", "link part", a, b);
        if (have && !isnan(r->model.link_mean))
            fprintf(out, "%-12s mean %-12.6g variance %.6g\n", "  model", r->model.link_mean, r->model.link_variance);
    }
}

/* Hops, throughput, and the channels' (per class) and nodes' utilisation. */
static void traffic_lines(FILE *out, const struct run_report *r)
{
    const struct config *c = r->cfg;
    char a[64], b[64], m[64];
    bool have = r->model.model && !r->model.unstable;
    FMT(a, r->hops_mean);
    if (have)
        fprintf(out, "%-12s %-14.14s %-26s %.6g\n", "hops mean", a, "", r->model.mean_hops);
    else
        fprintf(out, "%-12s %s\n", "hops mean", a);
    FMT(a, r->throughput);
    fprintf(out, "%-12s %s per node per %s (offered %g)\n", "throughput", a, r->slotted ? "cycle, delivered" : "time unit",
            cfg_message_rate(c));
    report_lines(out, r, FIGURE_PLACE_RATES, FIGURE_NO_CLASS);
    FMT(a, r->utilization_mean);
    FMT(b, r->utilization_max);
    fprintf(out, "%-12s mean %s, max %s (message transmission only)\n", "utilisation", a, b);
    bool class_lines = report_has_lines(r, FIGURE_PLACE_CLASS);
    for (unsigned k = 0; k < r->classes; k++) {
        FMT(a, r->cls[k].utilization_mean);
        FMT(b, r->cls[k].analytic_utilization);
        if (class_lines) { /* the engine's figures of the class instead of the analytic utilisation */
            fprintf(out, "  %-10s mean %-12.12s ", r->cls[k].name, a);
            report_lines(out, r, FIGURE_PLACE_CLASS, (int)k);
        } else {
            fprintf(out, "  %-10s mean %-12.12s analytic %s\n", r->cls[k].name, a, b);
        }
    }
    if (c->node.service_rate > 0) {
        FMT(a, r->node_utilization_mean);
        FMT(b, r->node_utilization_max);
        FMT(m, r->stability.known ? r->stability.node_load : NAN);
        fprintf(out, "%-12s mean %s, max %s, analytic max %s\n", "node busy", a, b, m);
    }
}

void report_write_table(FILE *out, const struct run_report *r)
{
    header(out, r);
    delay_lines(out, r);
    delay_part_lines(out, r);
    traffic_lines(out, r);
    fprintf(out, "analytic     %s\n", r->model.why[0] ? r->model.why : "-");
    report_table_figures(out, &r->model, r);
    if (r->omit_timing)
        fprintf(out, "performance  %llu events\n", (unsigned long long)r->events);
    else if (r->slotted) /* one event per cycle */
        fprintf(out, "performance  %llu cycles in %.3f s (%.3g cycles/s, %.3g messages delivered/s)\n",
                (unsigned long long)r->events, r->wall_seconds, r->events_per_second,
                r->wall_seconds > 0 ? r->delivered_total / r->wall_seconds : (double)NAN);
    else
        fprintf(out, "performance  %llu events in %.3f s (%.3g events/s)\n", (unsigned long long)r->events,
                r->wall_seconds, r->events_per_second);
}
