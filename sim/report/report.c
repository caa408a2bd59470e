#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void report_fmt_number(char *buf, size_t size, double v, const char *missing)
{
    if (isnan(v) || isinf(v))
        snprintf(buf, size, "%s", missing);
    else
        snprintf(buf, size, "%.10g", v == 0 ? 0.0 : v); /* no "-0" */
}

void report_fmt_percent(char *buf, size_t size, double fraction)
{
    if (isfinite(fraction))
        snprintf(buf, size, "%+.2f%%", 100 * fraction);
    else
        snprintf(buf, size, "-");
}

double report_relative_difference(const struct run_report *r)
{
    if (!r->model.model || r->model.unstable || !(r->model.delay_mean > 0))
        return NAN;
    return (r->delay.mean - r->model.delay_mean) / r->model.delay_mean;
}

/* The value of config key i as text. */
void report_fmt_key(char *buf, size_t size, const struct config *cfg, size_t i)
{
    const struct cfg_key *k = cfg_key_at(cfg, i);
    const void *field = cfg_value_at(cfg, i);
    switch (k->type) {
    case CFG_INT:
        snprintf(buf, size, "%lld", (long long)*(const int64_t *)field);
        break;
    case CFG_UINT:
        snprintf(buf, size, "%llu", (unsigned long long)*(const uint64_t *)field);
        break;
    case CFG_REAL:
        report_fmt_number(buf, size, *(const double *)field, "");
        break;
    case CFG_BOOL:
        snprintf(buf, size, "%s", *(const bool *)field ? "true" : "false");
        break;
    case CFG_CHOICE:
        snprintf(buf, size, "%s", *(const char *const *)field);
        break;
    case CFG_TEXT:
        snprintf(buf, size, "%s", (const char *)field);
        break;
    case CFG_LIST: {
        const struct cfg_list *list = field;
        size_t used = 0;
        buf[0] = '\0';
        for (uint32_t j = 0; j < list->count && used + 32 < size; j++) {
            char num[32];
            report_fmt_number(num, sizeof num, list->value[j], "");
            used += (size_t)snprintf(buf + used, size - used, "%s%s", j ? "," : "", num);
        }
        break;
    }
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
    char own_name[FIGURE_NAME_MAX + 24]; /* storage for a name made up per run ("group.name") */
};

/* Whether engine figure g is a CSV column and JSON field of the early or the late part. */
static bool is_field(const struct figure *g, bool early)
{
    return g->kind != FIGURE_LINE && g->cls == FIGURE_NO_CLASS && !(g->hints & FIGURE_TABLE_ONLY) &&
           !(g->hints & FIGURE_EARLY) == !early;
}

/* The engine figures that are CSV columns and JSON fields, early or late ones, as
 * fields named "group.name". */
static size_t figure_fields(const struct run_report *r, bool early, struct field *f)
{
    size_t n = 0;
    for (unsigned i = 0; i < r->figures.n; i++) {
        const struct figure *g = &r->figures.item[i];
        if (!is_field(g, early))
            continue;
        struct field *x = &f[n++];
        *x = (struct field){ .kind = F_NUM, .num = g->value };
        if (g->kind == FIGURE_FLAG)
            *x = (struct field){ .kind = F_BOOL, .count = g->value != 0 };
        else if (g->kind == FIGURE_TEXT)
            *x = (struct field){ .kind = F_TEXT, .text = g->text[0] ? g->text : NULL };
        snprintf(x->own_name, sizeof x->own_name, "%s.%s", g->group, g->name);
        x->name = x->own_name;
    }
    return n;
}

static size_t scalar_fields(const struct run_report *r, struct field *f)
{
    size_t n = 0;
#define NUM(nm, v) f[n++] = (struct field){ .name = nm, .kind = F_NUM, .num = (v) }
#define COUNT(nm, v) f[n++] = (struct field){ .name = nm, .kind = F_COUNT, .count = (v) }
#define TEXT(nm, v) f[n++] = (struct field){ .name = nm, .kind = F_TEXT, .text = (v) }
#define BOOL(nm, v) f[n++] = (struct field){ .name = nm, .kind = F_BOOL, .count = (v) }
    COUNT("nodes", r->nodes);
    if (r->terminals != r->nodes || r->routers != r->nodes) { /* terminals hang off routers */
        COUNT("terminals", r->terminals);
        COUNT("routers", r->routers);
    }
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
    NUM("delay.p50_ci95_low", r->delay.quantile_ci95[0][0]);
    NUM("delay.p50_ci95_high", r->delay.quantile_ci95[0][1]);
    NUM("delay.p90_ci95_low", r->delay.quantile_ci95[1][0]);
    NUM("delay.p90_ci95_high", r->delay.quantile_ci95[1][1]);
    NUM("delay.p99_ci95_low", r->delay.quantile_ci95[2][0]);
    NUM("delay.p99_ci95_high", r->delay.quantile_ci95[2][1]);
    NUM("delay.node_mean", r->node_mean);
    NUM("delay.node_variance", r->node_variance);
    NUM("delay.link_mean", r->link_mean);
    NUM("delay.link_variance", r->link_variance);
    COUNT("replications.count", r->replications);
    NUM("replications.mean_sd", r->rep_mean.sd);
    NUM("replications.stddev_mean", r->rep_stddev.mean);
    NUM("replications.stddev_ci95_low", r->rep_stddev.ci95[0]);
    NUM("replications.stddev_ci95_high", r->rep_stddev.ci95[1]);
    NUM("replications.stddev_sd", r->rep_stddev.sd);
    NUM("replications.max_mean", r->rep_max.mean);
    NUM("replications.max_ci95_low", r->rep_max.ci95[0]);
    NUM("replications.max_ci95_high", r->rep_max.ci95[1]);
    NUM("replications.max_sd", r->rep_max.sd);
    NUM("precision.reached", r->precision_reached);
    NUM("precision.batches", r->precision_batches);
    BOOL("precision.met", r->precision_met < 0 ? 2 : r->precision_met); /* 2: no target (null) */
    BOOL("saturated", r->stability.saturated);
    TEXT("saturation_note", r->stability.saturated || !r->stability.known ? r->stability.why : NULL);
    NUM("throughput", r->throughput);
    NUM("hops_mean", r->hops_mean);
    NUM("channels.utilization_mean", r->utilization_mean);
    NUM("channels.utilization_max", r->utilization_max);
    NUM("node_servers.utilization_mean", r->node_utilization_mean);
    NUM("node_servers.utilization_max", r->node_utilization_max);
    NUM("node_servers.analytic_utilization_max", r->stability.known && r->cfg->node.service_rate > 0
                                              ? r->stability.node_load : NAN);
    NUM("backlog_start", r->backlog_start);
    NUM("backlog_end", r->backlog_end);
    n += figure_fields(r, true, f + n);
    bool have = r->model.model != NULL;
    TEXT("analytic.model", have ? r->model.model : NULL);
    BOOL("analytic.exact", have && r->model.exact);
    BOOL("analytic.unstable", have && r->model.unstable);
    TEXT("analytic.note", r->model.why); /* what the model assumes, or why none applies */
    NUM("analytic.delay_mean", have && !r->model.unstable ? r->model.delay_mean : NAN);
    NUM("analytic.relative_difference", report_relative_difference(r));
    NUM("analytic.hops_mean", have ? r->model.mean_hops : NAN);
    NUM("analytic.utilization_max", have ? r->model.max_utilization : NAN);
    bool ok = have && !r->model.unstable;
    NUM("analytic.delay_stddev", ok ? sqrt(r->model.delay_variance) : NAN);
    NUM("analytic.delay_stddev_correlated", ok ? sqrt(r->model.delay_variance_correlated) : NAN);
    NUM("analytic.node_mean", ok ? r->model.node_mean : NAN);
    NUM("analytic.node_variance", ok ? r->model.node_variance : NAN);
    NUM("analytic.link_mean", ok ? r->model.link_mean : NAN);
    NUM("analytic.link_variance", ok ? r->model.link_variance : NAN);
    n += figure_fields(r, false, f + n);
    BOOL("interrupted", r->interrupted);
    TEXT("stop_reason", r->stop_reason);
    NUM("simulated_time", r->simulated_time);
    NUM("warmup_time", r->warmup_time);
    NUM("warmup_messages", r->warmup_messages);
    BOOL("warmup_settled", r->cfg->run.warmup[0] == 'a' ? !r->warmup_unsettled : 2); /* 2: fixed warm-up (null) */
    NUM("measurement_window", r->window);
    COUNT("messages_created", r->messages_created);
    COUNT("performance.events", r->events);
    if (!r->omit_timing) {
        NUM("performance.events_per_second", r->events_per_second);
        NUM("performance.wall_seconds", r->wall_seconds);
    }
#undef NUM
#undef COUNT
#undef TEXT
#undef BOOL
    return n;
}

enum { MAX_FIELDS = 96 + FIGURES_MAX };

bool report_field_number(const struct run_report *r, const char *name, double *value)
{
    struct field f[MAX_FIELDS];
    size_t n = scalar_fields(r, f);
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i].name, name) == 0 && (f[i].kind == F_NUM || f[i].kind == F_COUNT)) {
            *value = f[i].kind == F_NUM ? f[i].num : (double)f[i].count;
            return true;
        }
    return false;
}

void report_csv_text(FILE *out, const char *s)
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
    for (size_t e = 0; e < r->echo.n; e++)
        fprintf(out, "%s.%s,", cfg_key_at(r->cfg, r->echo.key[e])->section, cfg_key_at(r->cfg, r->echo.key[e])->name);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", f[i].name, i + 1 < n ? "," : "\n");
    char buf[2048];
    for (size_t e = 0; e < r->echo.n; e++) {
        report_fmt_key(buf, sizeof buf, r->cfg, r->echo.key[e]);
        report_csv_text(out, buf);
        fputc(',', out);
    }
    for (size_t i = 0; i < n; i++) {
        switch (f[i].kind) {
        case F_NUM:
            report_fmt_number(buf, sizeof buf, f[i].num, "");
            fputs(buf, out);
            break;
        case F_COUNT:
            fprintf(out, "%llu", (unsigned long long)f[i].count);
            break;
        case F_TEXT:
            if (f[i].text)
                report_csv_text(out, f[i].text);
            break;
        case F_BOOL:
            fputs(f[i].count == 2 ? "" : f[i].count ? "true" : "false", out);
            break;
        }
        fputs(i + 1 < n ? "," : "\n", out);
    }
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong form, no
 * surrogate, nothing past U+10FFFF), or 0 if the byte at s does not start one. */
static size_t utf8_sequence(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    /* The second byte's range is narrower after E0, ED, F0 and F4. */
    unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
    unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    for (size_t i = 1; i < n; i++)
        if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xbf))
            return 0;
    return n;
}

void report_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = utf8_sequence(p);
        if (n == 0) { /* JSON is UTF-8: a byte that is not (a path, say) becomes U+FFFD */
            fputs("\\ufffd", out);
            p++;
        } else if (*p == '"' || *p == '\\') {
            fprintf(out, "\\%c", *p++);
        } else if (*p < 0x20) {
            fprintf(out, "\\u%04x", *p++);
        } else {
            fwrite(p, 1, n, out);
            p += n;
        }
    }
    fputc('"', out);
}

void report_json_number(FILE *out, double v)
{
    char buf[64];
    report_fmt_number(buf, sizeof buf, v, "null");
    fputs(buf, out);
}

static void json_field(FILE *out, const struct field *f)
{
    const char *dot = strrchr(f->name, '.');
    fprintf(out, "\"%s\": ", dot ? dot + 1 : f->name);
    switch (f->kind) {
    case F_NUM:
        report_json_number(out, f->num);
        break;
    case F_COUNT:
        fprintf(out, "%llu", (unsigned long long)f->count);
        break;
    case F_TEXT:
        if (f->text)
            report_json_string(out, f->text);
        else
            fputs("null", out);
        break;
    case F_BOOL:
        fputs(f->count == 2 ? "null" : f->count ? "true" : "false", out);
        break;
    }
}

/* A delay interval's low end ("delay.ci95_low", "delay.p50_ci95_low"): JSON writes
 * it and the high end that follows as one "...ci95": [low, high]. */
static bool interval_low(const char *name)
{
    size_t n = strlen(name);
    return strncmp(name, "delay.", 6) == 0 && n >= 8 && strcmp(name + n - 8, "ci95_low") == 0;
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
        if (i > 0 && interval_low(f[i - 1].name))
            continue; /* written with its low end */
        fprintf(out, "%s\n%s", first ? "" : ",", indent);
        first = false;
        if (interval_low(f[i].name)) {
            fprintf(out, "\"%.*s\": [", (int)(strlen(f[i].name) - 10), f[i].name + 6);
            report_json_number(out, f[i].num);
            fputs(", ", out);
            report_json_number(out, f[i + 1].num);
            fputc(']', out);
        } else {
            json_field(out, &f[i]);
        }
    }
}

void report_json_config(FILE *out, const struct config *cfg, const struct cfg_echo *echo)
{
    fputs("\"config\": {", out);
    char buf[2048];
    const char *section = "";
    for (size_t e = 0; e < echo->n; e++) {
        size_t i = echo->key[e];
        const struct cfg_key *k = cfg_key_at(cfg, i);
        if (strcmp(section, k->section) != 0) {
            fprintf(out, "%s\n    \"%s\": {", e ? "}," : "", k->section);
            section = k->section;
        } else {
            fputs(", ", out);
        }
        report_fmt_key(buf, sizeof buf, cfg, i);
        fprintf(out, "\"%s\": ", k->name);
        if (k->type == CFG_CHOICE || k->type == CFG_TEXT || k->type == CFG_LIST)
            report_json_string(out, buf);
        else if (k->type == CFG_REAL)
            report_json_number(out, *(const double *)cfg_value_at(cfg, i));
        else
            fputs(buf, out);
    }
    fputs("}\n  }", out);
}

/* The engine's figure groups as JSON objects: the late ones (after "channels") each
 * followed by a comma, the early ones (after "replications") each preceded by one; a
 * group of an engine that did not run is null. */
static void json_groups(FILE *out, const struct run_report *r, const struct field *f, size_t n, bool early)
{
    const char *done[FIGURES_MAX]; /* groups written, at most one per figure */
    size_t n_done = 0;
    for (unsigned i = 0; i < r->figures.n; i++) {
        const struct figure *g = &r->figures.item[i];
        if (!is_field(g, early))
            continue;
        bool seen = false;
        for (size_t k = 0; k < n_done; k++)
            seen = seen || strcmp(done[k], g->group) == 0;
        if (seen || n_done == sizeof done / sizeof done[0])
            continue;
        done[n_done++] = g->group;
        char prefix[FIGURE_NAME_MAX];
        snprintf(prefix, sizeof prefix, "%s.", g->group);
        fprintf(out, early ? ",\n  \"%s\": " : "\n  \"%s\": ", g->group);
        if (g->hints & FIGURE_NOT_RUN) {
            fputs("null", out);
        } else {
            fputc('{', out);
            json_fields(out, f, n, prefix, "    ");
            fputs("\n  }", out);
        }
        if (!early)
            fputc(',', out);
    }
}

static void write_json(FILE *out, const struct run_report *r)
{
    fputs("{\n  ", out);
    report_json_config(out, r->cfg, &r->echo);
    fputc(',', out);

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
        report_json_string(out, cr->name);
        fprintf(out, ", \"channels\": %llu, \"utilization_mean\": ", (unsigned long long)cr->channels);
        report_json_number(out, cr->utilization_mean);
        fputs(", \"utilization_max\": ", out);
        report_json_number(out, cr->utilization_max);
        fputs(", \"analytic_utilization\": ", out);
        report_json_number(out, cr->analytic_utilization);
        for (unsigned i = 0; i < r->figures.n; i++) { /* the engine's figures of this class */
            const struct figure *g = &r->figures.item[i];
            if (g->cls == (int)c && g->kind == FIGURE_NUMBER) {
                fprintf(out, ", \"%s\": ", g->name);
                report_json_number(out, g->value);
            }
        }
        fputc('}', out);
    }
    fputs("\n    ]\n  },", out);
    json_groups(out, r, f, n, false);
    fputs("\n  \"node_servers\": {", out);
    json_fields(out, f, n, "node_servers.", "    ");
    fputs("\n  },\n  \"replications\": {", out);
    json_fields(out, f, n, "replications.", "    ");
    fputs("\n  },\n  \"precision\": {", out);
    json_fields(out, f, n, "precision.", "    ");
    fputs("\n  }", out);
    json_groups(out, r, f, n, true);
    fputs(",\n  \"analytic\": ", out);
    if (r->model.model || r->model.n_figures) {
        fputc('{', out);
        json_fields(out, f, n, "analytic.", "    ");
        fputs(",\n    \"figures\": ", out);
        report_json_figures(out, &r->model, "    ");
        fputs("\n  },\n  \"analytic_note\": null", out);
    } else {
        fputs("null,\n  \"analytic_note\": ", out);
        report_json_string(out, r->model.why);
    }
    fputs(",\n  \"performance\": {", out);
    json_fields(out, f, n, "performance.", "    ");
    fputs("\n  }\n}\n", out);
}

bool report_write(FILE *out, const struct run_report *r, enum report_format fmt)
{
    switch (fmt) {
    case REPORT_TABLE:
        report_write_table(out, r);
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
