/* Every analytic figure, beside the simulation or alone (`sim --analytic`).
 *
 * A figure named after a report field ("delay.mean", "throughput") is printed with
 * the simulated value and (simulated − model) / model; the others alone.  The model
 * alone needs only the topology and the channel loads, so it answers in
 * milliseconds and can be swept over quickly (sim/run/analytic_only.c runs it). */
#include <math.h>
#include <string.h>

#include "report.h"

void report_json_figures(FILE *out, const struct model_result *m, const char *indent)
{
    fputc('{', out);
    const char *open = NULL;
    for (unsigned i = 0; i < m->n_figures; i++) {
        const struct model_figure *f = &m->figures[i];
        if (!open || strcmp(open, f->model) != 0) {
            fprintf(out, "%s\n%s  ", open ? "\n" : "", indent);
            if (open)
                fprintf(out, "%s},\n%s  ", indent, indent);
            report_json_string(out, f->model);
            fputs(": {", out);
            open = f->model;
        } else {
            fputs(", ", out);
        }
        report_json_string(out, f->name);
        fputs(": ", out);
        report_json_number(out, f->value);
    }
    if (open)
        fprintf(out, "}\n%s", indent);
    fputc('}', out);
}

void report_table_figures(FILE *out, const struct model_result *m, const struct run_report *r)
{
    if (!m->n_figures)
        return;
    if (r)
        fprintf(out, "%-56s %-14s %-14s %s\n", "model figures", "model", "simulated", "difference");
    else
        fprintf(out, "%-56s %s\n", "model figures", "value");
    for (unsigned i = 0; i < m->n_figures; i++) {
        const struct model_figure *f = &m->figures[i];
        char label[96], value[64], sim[64];
        snprintf(label, sizeof label, "  %s.%s", f->model, f->name);
        report_fmt_number(value, sizeof value, f->value, "-");
        double simulated;
        if (r && report_field_number(r, f->name, &simulated) && !isnan(simulated)) {
            report_fmt_number(sim, sizeof sim, simulated, "-");
            if (f->value != 0 && isfinite(f->value)) {
                char diff[64];
                report_fmt_percent(diff, sizeof diff, (simulated - f->value) / f->value);
                fprintf(out, "%-56s %-14.14s %-14.14s %s\n", label, value, sim, diff);
            } else
                fprintf(out, "%-56s %-14.14s %s\n", label, value, sim);
        } else {
            fprintf(out, "%-56s %s\n", label, value);
        }
    }
}

static void write_csv(FILE *out, const struct config *cfg, const struct cfg_echo *echo, const struct model_result *m)
{
    for (size_t e = 0; e < echo->n; e++)
        fprintf(out, "%s.%s,", cfg_key_at(cfg, echo->key[e])->section, cfg_key_at(cfg, echo->key[e])->name);
    fputs("analytic.model,analytic.unstable", out);
    for (unsigned i = 0; i < m->n_figures; i++)
        fprintf(out, ",%s.%s", m->figures[i].model, m->figures[i].name);
    fputc('\n', out);
    char buf[2048]; /* text and list keys (a trace path, a weight table) can be long */
    for (size_t e = 0; e < echo->n; e++) {
        report_fmt_key(buf, sizeof buf, cfg, echo->key[e]);
        report_csv_text(out, buf);
        fputc(',', out);
    }
    fprintf(out, "%s,%s", m->model ? m->model : "", m->unstable ? "true" : "false");
    for (unsigned i = 0; i < m->n_figures; i++) {
        report_fmt_number(buf, sizeof buf, m->figures[i].value, "");
        fprintf(out, ",%s", buf);
    }
    fputc('\n', out);
}

static void write_json(FILE *out, const struct config *cfg, const struct cfg_echo *echo, const struct model_result *m,
                       double seconds)
{
    fputs("{\n  ", out);
    report_json_config(out, cfg, echo);
    fputs(",\n  \"analytic\": {\n    \"model\": ", out);
    if (m->model)
        report_json_string(out, m->model);
    else
        fputs("null", out);
    fprintf(out, ",\n    \"exact\": %s,\n    \"unstable\": %s,\n    \"note\": ", m->exact ? "true" : "false",
            m->unstable ? "true" : "false");
    report_json_string(out, m->why);
    fputs(",\n    \"figures\": ", out);
    report_json_figures(out, m, "    ");
    fputs("\n  }", out);
    if (!isnan(seconds)) { /* NaN: --no-timing, the output is a function of the config alone */
        fputs(",\n  \"performance\": {\n    \"wall_seconds\": ", out);
        report_json_number(out, seconds);
        fputs("\n  }", out);
    }
    fputs("\n}\n", out);
}

bool report_write_analytic(FILE *out, const struct config *cfg, const struct cfg_echo *echo, const char *label,
                           uint32_t nodes, uint32_t channels, const struct model_result *m, enum report_format fmt,
                           double seconds)
{
    switch (fmt) {
    case REPORT_TABLE:
        fprintf(out, "config       %s\n", cfg->path);
        fprintf(out, "network      %s (%s): %u nodes, %u channels\n", cfg->network.topology, label, nodes, channels);
        fprintf(out, "delay model  %s%s\n", m->model ? m->model : "none",
                m->model ? (m->unstable ? " (unstable)" : m->exact ? " (exact)" : " (approximation)") : "");
        fprintf(out, "note         %s\n", m->why[0] ? m->why : "-");
        report_table_figures(out, m, NULL);
        if (!isnan(seconds))
            fprintf(out, "performance  %.3f ms\n", 1e3 * seconds);
        break;
    case REPORT_CSV:
        write_csv(out, cfg, echo, m);
        break;
    case REPORT_JSON:
        write_json(out, cfg, echo, m, seconds);
        break;
    }
    return !ferror(out);
}
