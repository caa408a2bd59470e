#include "report.h"

#include <math.h>
#include <string.h>

static const char *stop_reason(enum kernel_stop why)
{
    switch (why) {
    case KERNEL_DONE:
        return "completed";
    case KERNEL_INTERRUPTED:
        return "signal";
    case KERNEL_WALL_LIMIT:
        return "max_wall_seconds";
    case KERNEL_EMPTY:
        return "no events left";
    case KERNEL_FAILED:
        return "out of memory";
    case KERNEL_RUNNING:
        break;
    }
    return "running";
}

void report_collect(struct run_report *r, const struct network *net, const struct channel_loads *loads,
                    const struct model_result *model, enum kernel_stop why, double wall_seconds)
{
    memset(r, 0, sizeof *r);
    const struct topo *t = &net->topo;
    r->cfg = net->cfg;
    r->nodes = t->nodes;
    r->channels = t->channels;
    r->network = t->label;
    stats_summarize(&net->delay, &r->delay);
    r->window = net->window_end - net->window_start;
    r->warmup_time = net->window_start;
    r->throughput = r->window > 0 ? (double)net->delivered_in_window / r->window / t->nodes : NAN;
    r->hops_mean = net->delay.count ? (double)net->hops_measured / (double)net->delay.count : NAN;
    r->classes = t->classes;
    double sum = 0, max = 0;
    for (unsigned c = 0; c < t->classes; c++) {
        t->ops->class_name(t, c, r->cls[c].name, sizeof r->cls[c].name);
        r->cls[c].analytic_utilization = loads->known ? loads->class_utilization[c] : NAN;
    }
    for (uint32_t ch = 0; ch < t->channels; ch++) {
        double u = r->window > 0 ? net->chan[ch].busy_time / r->window : NAN;
        struct class_report *cr = &r->cls[t->ops->channel_class(t, ch)];
        cr->channels++;
        cr->utilization_mean += u;
        if (u > cr->utilization_max)
            cr->utilization_max = u;
        sum += u;
        if (u > max)
            max = u;
    }
    for (unsigned c = 0; c < t->classes; c++)
        if (r->cls[c].channels)
            r->cls[c].utilization_mean /= (double)r->cls[c].channels;
    r->utilization_mean = r->window > 0 ? sum / t->channels : NAN;
    r->utilization_max = r->window > 0 ? max : NAN;
    r->model = *model;
    r->interrupted = why != KERNEL_DONE;
    r->stop_reason = stop_reason(why);
    r->simulated_time = net->kernel.now;
    r->messages_created = net->created;
    r->events = net->kernel.events;
    r->wall_seconds = wall_seconds;
    r->events_per_second = wall_seconds > 0 ? (double)r->events / wall_seconds : NAN;
}

/* --- value formatting shared by the three formats --- */

static void fmt_number(char *buf, size_t size, double v, const char *missing)
{
    if (isnan(v) || isinf(v))
        snprintf(buf, size, "%s", missing);
    else
        snprintf(buf, size, "%.10g", v == 0 ? 0.0 : v); /* no "-0" */
}

static double relative_difference(const struct run_report *r)
{
    if (!r->model.model || r->model.unstable || !(r->model.delay_mean > 0))
        return NAN;
    return (r->delay.mean - r->model.delay_mean) / r->model.delay_mean;
}

/* The value of config key i as text. */
static void fmt_key(char *buf, size_t size, const struct config *cfg, int i)
{
    const struct cfg_key *k = &cfg_keys[i];
    const void *field = (const char *)cfg + k->offset;
    switch (k->type) {
    case CFG_INT:
        snprintf(buf, size, "%lld", (long long)*(const int64_t *)field);
        break;
    case CFG_UINT:
        snprintf(buf, size, "%llu", (unsigned long long)*(const uint64_t *)field);
        break;
    case CFG_REAL:
        fmt_number(buf, size, *(const double *)field, "");
        break;
    case CFG_BOOL:
        snprintf(buf, size, "%s", *(const bool *)field ? "true" : "false");
        break;
    case CFG_CHOICE:
        snprintf(buf, size, "%s", *(const char *const *)field);
        break;
    }
}

/* The flat list of scalar fields shared by CSV and JSON, in output order. */
enum field_kind { F_NUM, F_COUNT, F_TEXT, F_BOOL };
struct field {
    const char *name;
    enum field_kind kind;
    double num;
    uint64_t count;
    const char *text; /* NULL prints as null */
};

static size_t scalar_fields(const struct run_report *r, struct field *f)
{
    size_t n = 0;
#define NUM(nm, v) f[n++] = (struct field){ nm, F_NUM, (v), 0, NULL }
#define COUNT(nm, v) f[n++] = (struct field){ nm, F_COUNT, 0, (v), NULL }
#define TEXT(nm, v) f[n++] = (struct field){ nm, F_TEXT, 0, 0, (v) }
#define BOOL(nm, v) f[n++] = (struct field){ nm, F_BOOL, 0, (v), NULL }
    COUNT("nodes", r->nodes);
    COUNT("channels.count", r->channels);
    COUNT("delay.count", r->delay.count);
    NUM("delay.mean", r->delay.mean);
    NUM("delay.variance", r->delay.variance);
    NUM("delay.stddev", r->delay.stddev);
    NUM("delay.min", r->delay.min);
    NUM("delay.max", r->delay.max);
    NUM("delay.p50", r->delay.p50);
    NUM("delay.p90", r->delay.p90);
    NUM("delay.p99", r->delay.p99);
    NUM("delay.p999", r->delay.p999);
    NUM("delay.ci95_low", r->delay.ci95[0]);
    NUM("delay.ci95_high", r->delay.ci95[1]);
    NUM("delay.batch_correlation", r->delay.batch_correlation);
    NUM("throughput", r->throughput);
    NUM("hops_mean", r->hops_mean);
    NUM("channels.utilization_mean", r->utilization_mean);
    NUM("channels.utilization_max", r->utilization_max);
    bool have = r->model.model != NULL;
    TEXT("analytic.model", have ? r->model.model : NULL);
    BOOL("analytic.exact", have && r->model.exact);
    BOOL("analytic.unstable", have && r->model.unstable);
    TEXT("analytic.note", r->model.why); /* what the model assumes, or why none applies */
    NUM("analytic.delay_mean", have && !r->model.unstable ? r->model.delay_mean : NAN);
    NUM("analytic.relative_difference", relative_difference(r));
    NUM("analytic.hops_mean", have ? r->model.mean_hops : NAN);
    NUM("analytic.utilization_max", have ? r->model.max_utilization : NAN);
    BOOL("interrupted", r->interrupted);
    TEXT("stop_reason", r->stop_reason);
    NUM("simulated_time", r->simulated_time);
    NUM("warmup_time", r->warmup_time);
    NUM("measurement_window", r->window);
    COUNT("messages_created", r->messages_created);
    COUNT("performance.events", r->events);
    NUM("performance.events_per_second", r->events_per_second);
    NUM("performance.wall_seconds", r->wall_seconds);
#undef NUM
#undef COUNT
#undef TEXT
#undef BOOL
    return n;
}

enum { MAX_FIELDS = 64 };

static void csv_text(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void write_csv(FILE *out, const struct run_report *r)
{
    struct field f[MAX_FIELDS];
    size_t n = scalar_fields(r, f);
    for (int i = 0; i < CFG_KEY_COUNT; i++)
        fprintf(out, "%s.%s,", cfg_keys[i].section, cfg_keys[i].name);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", f[i].name, i + 1 < n ? "," : "\n");
    char buf[64];
    for (int i = 0; i < CFG_KEY_COUNT; i++) {
        fmt_key(buf, sizeof buf, r->cfg, i);
        csv_text(out, buf);
        fputc(',', out);
    }
    for (size_t i = 0; i < n; i++) {
        switch (f[i].kind) {
        case F_NUM:
            fmt_number(buf, sizeof buf, f[i].num, "");
            fputs(buf, out);
            break;
        case F_COUNT:
            fprintf(out, "%llu", (unsigned long long)f[i].count);
            break;
        case F_TEXT:
            if (f[i].text)
                csv_text(out, f[i].text);
            break;
        case F_BOOL:
            fputs(f[i].count ? "true" : "false", out);
            break;
        }
        fputs(i + 1 < n ? "," : "\n", out);
    }
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(out, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

static void json_number(FILE *out, double v)
{
    char buf[64];
    fmt_number(buf, sizeof buf, v, "null");
    fputs(buf, out);
}

static void json_field(FILE *out, const struct field *f)
{
    const char *dot = strrchr(f->name, '.');
    fprintf(out, "\"%s\": ", dot ? dot + 1 : f->name);
    switch (f->kind) {
    case F_NUM:
        json_number(out, f->num);
        break;
    case F_COUNT:
        fprintf(out, "%llu", (unsigned long long)f->count);
        break;
    case F_TEXT:
        if (f->text)
            json_string(out, f->text);
        else
            fputs("null", out);
        break;
    case F_BOOL:
        fputs(f->count ? "true" : "false", out);
        break;
    }
}

/* Writes the fields whose names start with `prefix` (all of them when prefix is "").
*/
static void json_fields(FILE *out, const struct field *f, size_t n, const char *prefix, const char *indent)
{
    size_t len = strlen(prefix);
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        bool nested = strchr(f[i].name, '.') != NULL;
        if (len ? strncmp(f[i].name, prefix, len) != 0 : nested)
            continue;
        if (strcmp(f[i].name, "delay.ci95_high") == 0)
            continue;
        fprintf(out, "%s\n%s", first ? "" : ",", indent);
        first = false;
        if (strcmp(f[i].name, "delay.ci95_low") == 0) {
            fputs("\"ci95\": [", out);
            json_number(out, f[i].num);
            fputs(", ", out);
            json_number(out, f[i + 1].num);
            fputc(']', out);
        } else {
            json_field(out, &f[i]);
        }
    }
}

static void write_json(FILE *out, const struct run_report *r)
{
    fputs("{\n  \"config\": {", out);
    char buf[64];
    const char *section = "";
    for (int i = 0; i < CFG_KEY_COUNT; i++) {
        const struct cfg_key *k = &cfg_keys[i];
        if (strcmp(section, k->section) != 0) {
            fprintf(out, "%s\n    \"%s\": {", i ? "}," : "", k->section);
            section = k->section;
        } else {
            fputs(", ", out);
        }
        fmt_key(buf, sizeof buf, r->cfg, i);
        fprintf(out, "\"%s\": ", k->name);
        if (k->type == CFG_CHOICE)
            json_string(out, buf);
        else if (k->type == CFG_REAL)
            json_number(out, *(const double *)((const char *)r->cfg + k->offset));
        else
            fputs(buf, out);
    }
    fputs("}\n  },", out);

    struct field f[MAX_FIELDS];
    size_t n = scalar_fields(r, f);
    json_fields(out, f, n, "", "  ");
    fputs(",\n  \"delay\": {", out);
    json_fields(out, f, n, "delay.", "    ");
    fputs("\n  },\n  \"channels\": {", out);
    json_fields(out, f, n, "channels.", "    ");
    fputs(",\n    \"classes\": [", out);
    for (unsigned c = 0; c < r->classes; c++) {
        const struct class_report *cr = &r->cls[c];
        fprintf(out, "%s\n      {\"name\": ", c ? "," : "");
        json_string(out, cr->name);
        fprintf(out, ", \"channels\": %llu, \"utilization_mean\": ", (unsigned long long)cr->channels);
        json_number(out, cr->utilization_mean);
        fputs(", \"utilization_max\": ", out);
        json_number(out, cr->utilization_max);
        fputs(", \"analytic_utilization\": ", out);
        json_number(out, cr->analytic_utilization);
        fputc('}', out);
    }
    fputs("\n    ]\n  },\n  \"analytic\": ", out);
    if (r->model.model) {
        fputc('{', out);
        json_fields(out, f, n, "analytic.", "    ");
        fputs("\n  },\n  \"analytic_note\": null", out);
    } else {
        fputs("null,\n  \"analytic_note\": ", out);
        json_string(out, r->model.why);
    }
    fputs(",\n  \"performance\": {", out);
    json_fields(out, f, n, "performance.", "    ");
    fputs("\n  }\n}\n", out);
}

static void write_table(FILE *out, const struct run_report *r)
{
    const struct config *c = r->cfg;
    char a[64], b[64], m[64];
    fprintf(out, "config       %s (seed %llu)%s\n", c->path, (unsigned long long)c->run.seed,
            r->interrupted ? "   ** INTERRUPTED: partial results **" : "");
    fprintf(out, "network      %s (%s): %u nodes, %u channels, bandwidth %g\n", c->network.topology, r->network,
            r->nodes, r->channels, c->network.bandwidth);
    fprintf(out, "routing      %s, %s; access %s\n", c->routing.algorithm, c->routing.switching, c->protocol.link);
    fprintf(out, "workload     %s arrivals, %g per node per time unit; %s destinations; %s lengths, mean %g%s\n",
            c->workload.arrival, c->workload.rate, c->workload.destination, c->workload.length,
            c->workload.mean_length, c->run.redraw_length_per_hop ? " (re-drawn per hop)" : "");
    fprintf(out, "measured     %llu messages after %lld warm-up; window %.6g time units; stop: %s\n\n",
            (unsigned long long)r->delay.count, (long long)c->run.warmup_messages, r->window, r->stop_reason);

    bool have = r->model.model && !r->model.unstable;
    fprintf(out, "%-12s %-14s %-26s %-14s %s\n", "", "simulated", "95% CI (batch means)",
            have ? r->model.model : "analytic", have ? "difference" : "");
    fmt_number(a, sizeof a, r->delay.ci95[0], "-");
    fmt_number(b, sizeof b, r->delay.ci95[1], "-");
    fmt_number(m, sizeof m, r->delay.mean, "-");
    char ci[160];
    snprintf(ci, sizeof ci, "[%.10s, %.10s]", a, b);
    if (have)
        fprintf(out, "%-12s %-14.14s %-26s %-14.6g %+.2f%%\n", "delay mean", m, ci, r->model.delay_mean,
                100 * relative_difference(r));
    else
        fprintf(out, "%-12s %-14.14s %-26s %s\n", "delay mean", m, ci, r->model.model ? "unstable" : "-");
    /* A network needs several delays' worth of time to fill its queues from empty. */
    if (c->run.warmup_messages > 0 && r->warmup_time < 5 * r->delay.mean)
        fprintf(out, "%-12s the warm-up lasted %.3g time units, under 5 mean delays: measured delays are biased low; "
                     "raise run.warmup_messages\n",
                "  warning", r->warmup_time);
    else if (c->run.warmup_messages == 0)
        fprintf(out, "%-12s no warm-up: measurement starts with an empty network and delays are biased low\n",
                "  warning");
    if (r->delay.batch_correlation > 0.5)
        fprintf(out, "%-12s batch means correlated (lag-1 %.2f): the interval is too narrow; use fewer, longer "
                     "batches (run.batches) or more messages\n",
                "  warning", r->delay.batch_correlation);
    const struct {
        const char *label;
        double v;
    } rows[] = {
        { "stddev", r->delay.stddev }, { "variance", r->delay.variance }, { "min", r->delay.min },
        { "p50", r->delay.p50 },       { "p90", r->delay.p90 },           { "p99", r->delay.p99 },
        { "p99.9", r->delay.p999 },    { "max", r->delay.max },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fmt_number(a, sizeof a, rows[i].v, "-");
        fprintf(out, "%-12s %s\n", rows[i].label, a);
    }
    fmt_number(a, sizeof a, r->hops_mean, "-");
    if (have)
        fprintf(out, "%-12s %-14.14s %-26s %.6g\n", "hops mean", a, "", r->model.mean_hops);
    else
        fprintf(out, "%-12s %s\n", "hops mean", a);
    fmt_number(a, sizeof a, r->throughput, "-");
    fprintf(out, "%-12s %s per node per time unit (offered %g)\n", "throughput", a, c->workload.rate);
    fmt_number(a, sizeof a, r->utilization_mean, "-");
    fmt_number(b, sizeof b, r->utilization_max, "-");
    fprintf(out, "%-12s mean %s, max %s\n", "utilisation", a, b);
    for (unsigned k = 0; k < r->classes; k++) {
        fmt_number(a, sizeof a, r->cls[k].utilization_mean, "-");
        fmt_number(b, sizeof b, r->cls[k].analytic_utilization, "-");
        fprintf(out, "  %-10s mean %-12.12s analytic %s\n", r->cls[k].name, a, b);
    }
    fprintf(out, "analytic     %s\n", r->model.why[0] ? r->model.why : "-");
    fprintf(out, "performance  %llu events in %.3f s (%.3g events/s)\n", (unsigned long long)r->events,
            r->wall_seconds, r->events_per_second);
}

bool report_write(FILE *out, const struct run_report *r, enum report_format fmt)
{
    switch (fmt) {
    case REPORT_TABLE:
        write_table(out, r);
        break;
    case REPORT_CSV:
        write_csv(out, r);
        break;
    case REPORT_JSON:
        write_json(out, r);
        break;
    }
    return !ferror(out);
}
