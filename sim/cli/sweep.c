/* Sweeps: the plan of points, one point run in-process, the output in sweep order
 * (see sweep.h; the whole sweep is sweep_execute.c). */
#include "file_identity.h"
#include "notes.h"
#include "output.h"
#include "sweep.h"

#include "../core/stop_signals.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analytic/model.h"
#include "../config/config.h"
#include "../run/collect.h"
#include "../run/model_input.h"
#include "../run/network.h"
#include "../run/replicate.h"
#include "../run/run_config.h"

static const char *key_name(const struct cfg_key *row, char *buf, size_t size)
{
    snprintf(buf, size, "%s.%s", row->section, row->name);
    return buf;
}

/* --- the plan: every point's settings, checked --- */

/* A stop signal held while the plan was built (it can take long: every point's
 * network is built): nothing has run and nothing is written. */
static int interrupted_while_planning(void)
{
    if (!stop_signals_pipe_closed())
        fputs("sim: interrupted before the sweep started\n", stderr);
    return SWEEP_INTERRUPTED;
}

static char *format_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format_text(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (s) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

static bool set_by_override(const struct sweep_args *a, const struct sweep_dim *d)
{
    char name[128];
    key_name(d->row, name, sizeof name);
    size_t len = strlen(name);
    for (size_t i = 0; i < a->n_overrides; i++)
        if (strncmp(a->overrides[i], name, len) == 0 && a->overrides[i][len] == '=')
            return true;
    return false;
}

/* Writes the report of a point into a malloc'd text, as `sim` prints it. */
static bool render(const struct sweep_args *a, struct run_report *r, char **text, size_t *len)
{
    r->omit_timing = a->omit_timing;
    FILE *m = open_memstream(text, len);
    if (!m)
        return false;
    bool ok = report_write(m, r, a->fmt);
    return fclose(m) == 0 && ok;
}

static int point_settings(struct sweep_plan *p, size_t i, uint64_t base_seed)
{
    const struct sweep_args *a = p->args;
    struct sweep_point *sp = &p->point[i];
    sp->settings = calloc(a->n_overrides + p->sw.dims + 1, sizeof *sp->settings);
    if (!sp->settings)
        return SWEEP_FAILED;
    for (size_t k = 0; k < a->n_overrides; k++)
        sp->settings[sp->n_settings++] = a->overrides[k];
    for (size_t d = 0; d < p->sw.dims; d++) {
        char name[128];
        const struct sweep_dim *dim = &p->sw.dim[d];
        char *s = format_text("%s=%s", key_name(dim->row, name, sizeof name),
                              dim->values[sweep_coordinate(&p->sw, i, d)]);
        if (!s)
            return SWEEP_FAILED;
        sp->settings[sp->n_settings++] = s;
    }
    uint64_t point_seed = a->common_random_numbers ? sweep_common_seed(&p->sw, i, base_seed)
                                                   : sweep_point_seed(&p->sw, i, base_seed);
    char *seed = format_text("run.seed=%llu", (unsigned long long)point_seed);
    if (!seed)
        return SWEEP_FAILED;
    sp->settings[sp->n_settings++] = seed;
    sweep_label(&p->sw, i, sp->label, sizeof sp->label);
    return 0;
}

/* A CSV sweep's columns: point i's not-run report has the header its run will print
 * (its echo and its engine's figure names, which depend on the topology's classes).
 * Points whose headers differ make the sweep collect every row and write them at the
 * end under the union.  False when out of memory. */
static bool compare_columns(struct sweep_plan *p, struct run_report *not_run)
{
    char *text;
    size_t len;
    if (!render(p->args, not_run, &text, &len))
        return false;
    size_t head = strcspn(text, "\n");
    if (!p->first_header) {
        p->first_header = text;
        p->first_header_len = head;
        return true;
    }
    if (head != p->first_header_len || memcmp(text, p->first_header, head) != 0)
        p->csv.collect = true;
    free(text);
    return true;
}

/* A swept or -s key that no chosen plug-in of any point reads changes nothing but the
 * seed: said once on stderr (the rows would not show it: the echo leaves it out). */
static void warn_without_effect(const struct sweep_plan *p, const struct config *cfg, const bool *in_effect)
{
    for (size_t d = 0; d < p->sw.dims; d++)
        if (p->sw.dim[d].key >= 0 && !in_effect[p->sw.dim[d].key])
            fprintf(stderr, "sim: --sweep %s.%s: no chosen plug-in of any point reads it; its rows differ only "
                            "by their seeds\n", p->sw.dim[d].row->section, p->sw.dim[d].row->name);
    for (size_t o = 0; o < p->args->n_overrides; o++) {
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)strcspn(p->args->overrides[o], "="), p->args->overrides[o]);
        int k = cfg_key_index(cfg, key);
        if (k >= 0 && !in_effect[k]) {
            fputs("sim: -s ", stderr);
            cfg_put_escaped(key, stderr);
            fputs(": no chosen plug-in of any point reads it\n", stderr);
        }
    }
}

/* The config keys in listing order, by which a union of CSV headers orders its
 * config columns (the layout is the same for every point). */
static bool keep_key_order(struct sweep_plan *p, const struct config *cfg)
{
    size_t n = cfg_key_count(cfg);
    p->key_names = calloc(n, sizeof *p->key_names);
    if (!p->key_names)
        return false;
    for (size_t i = 0; i < n; i++) {
        p->key_names[i] = format_text("%s.%s", cfg_key_at(cfg, i)->section, cfg_key_at(cfg, i)->name);
        if (!p->key_names[i])
            return false;
        p->n_key_names = i + 1;
    }
    p->csv.key_order = (const char *const *)p->key_names;
    p->csv.n_key_order = n;
    return true;
}

/* Loads and checks point i (its settings, network, stability), keeps what its columns
 * and echo say of the sweep, and renders the row of a point refused as unstable.  0, or
 * SWEEP_BAD_INPUT (said on stderr), or SWEEP_FAILED when out of memory. */
static int check_point(struct sweep_plan *p, size_t i, uint64_t base_seed, struct config *cfg,
                       struct run_report *not_run, bool *in_effect)
{
    const struct sweep_args *a = p->args;
    struct sweep_point *sp = &p->point[i];
    struct cfg_error err;
    if (point_settings(p, i, base_seed) != 0)
        return SWEEP_FAILED;
    int status = run_config_load_text(cfg, &p->config, sp->settings, sp->n_settings, &err)
                     ? run_check(cfg, not_run, true, &err)
                     : RUN_BAD_INPUT;
    if (status == RUN_BAD_INPUT && stop_signal_held())
        return SWEEP_INTERRUPTED;
    if (status == RUN_BAD_INPUT) {
        fprintf(stderr, "sim: --sweep point %s: ", sp->label[0] ? sp->label : "(none)");
        cfg_error_print(&err, stderr);
        return SWEEP_BAD_INPUT;
    }
    char trace[2 * CFG_TEXT_MAX];
    if (a->output && run_input_trace(cfg, trace, sizeof trace)[0]) { /* the -o file may not replace a point's trace */
        const struct named_file files[] = { { "-o", a->output, true }, { "workload.trace", trace, false } };
        if (!files_distinct(files, 2))
            return SWEEP_BAD_INPUT;
    }
    for (size_t e = 0; e < not_run->echo.n; e++)
        in_effect[not_run->echo.key[e]] = true;
    if (a->fmt == REPORT_CSV && !compare_columns(p, not_run))
        return SWEEP_FAILED;
    if (status == RUN_UNSTABLE) { /* its row is known now: written in place, never run */
        if (!render(a, not_run, &sp->text, &sp->len))
            return SWEEP_FAILED;
        sp->state = POINT_DONE;
    }
    return 0;
}

int sweep_plan_build(struct sweep_plan *p, const struct sweep_args *a)
{
    memset(p, 0, sizeof *p);
    p->args = a;
    char why[1024];
    if (!sweep_parse(&p->sw, a->specs, a->n_specs, why, sizeof why)) {
        fputs("sim: ", stderr);
        cfg_put_escaped(why, stderr); /* it echoes the spec: one line whatever it holds */
        fputc('\n', stderr);
        return SWEEP_BAD_INPUT;
    }
    if (p->sw.dims > 0 && a->n_overrides + p->sw.dims + 1 > SWEEP_MAX_SETTINGS) {
        /* refused now rather than by every point's child at run time */
        fprintf(stderr, "sim: --sweep: %zu -s options are too many with %zu swept key%s: at most %zu (each point "
                        "adds its coordinates and run.seed to at most %d)\n",
                a->n_overrides, p->sw.dims, p->sw.dims > 1 ? "s" : "",
                (size_t)SWEEP_MAX_SETTINGS - 1 - p->sw.dims, SWEEP_MAX_SETTINGS);
        return SWEEP_BAD_INPUT;
    }
    for (size_t d = 0; d < p->sw.dims; d++)
        if (set_by_override(a, &p->sw.dim[d])) {
            fputs("sim: --sweep '", stderr);
            cfg_put_escaped(p->sw.dim[d].spec, stderr);
            fputs("': the key is also set with -s\n", stderr);
            return SWEEP_BAD_INPUT;
        }
    struct config cfg;
    struct cfg_error err;
    if (a->config_text) {
        p->config = *a->config_text;
        p->config.text = malloc(p->config.len + 1);
        if (p->config.text)
            memcpy(p->config.text, a->config_text->text, p->config.len + 1);
    } else {
        p->config.path = a->config;
        enum text_status read = cfg_read_whole_file(a->config, &p->config.text, &p->config.len, &err);
        if (read != TEXT_END)
            return read == TEXT_INTERRUPTED ? interrupted_while_planning() : (cfg_error_print(&err, stderr),
                                                                             SWEEP_BAD_INPUT);
    }
    if (!p->config.text) {
        fputs("sim: out of memory\n", stderr);
        return SWEEP_FAILED;
    }
    if (!run_config_load_text(&cfg, &p->config, a->overrides, a->n_overrides, &err)) {
        if (stop_signal_held())
            return interrupted_while_planning();
        cfg_error_print(&err, stderr);
        return SWEEP_BAD_INPUT;
    }
    note_defaults_only(&cfg);
    uint64_t base_seed = cfg.run.seed;
    if (!keep_key_order(p, &cfg)) {
        fputs("sim: out of memory\n", stderr);
        return SWEEP_FAILED;
    }
    bool in_effect[CFG_KEYS_MAX] = { false };
    p->n = p->sw.points;
    p->point = calloc(p->n, sizeof *p->point);
    struct run_report *not_run = malloc(sizeof *not_run);
    int status = p->point && not_run ? 0 : SWEEP_FAILED;
    for (size_t i = 0; i < p->n && status == 0; i++)
        status = stop_signal_held() ? SWEEP_INTERRUPTED : check_point(p, i, base_seed, &cfg, not_run, in_effect);
    free(not_run);
    if (status == SWEEP_FAILED)
        fputs("sim: out of memory\n", stderr);
    if (status == SWEEP_INTERRUPTED || (status == SWEEP_BAD_INPUT && stop_signal_held()))
        return interrupted_while_planning(); /* a point's trace cut short by the signal is no bad input */
    if (status == 0)
        warn_without_effect(p, &cfg, in_effect);
    return status;
}

void sweep_plan_free(struct sweep_plan *p)
{
    for (size_t i = 0; p->point && i < p->n; i++) {
        struct sweep_point *sp = &p->point[i];
        for (size_t k = p->args->n_overrides; k < sp->n_settings; k++)
            free((char *)sp->settings[k]);
        free(sp->settings);
        free(sp->text);
    }
    sweep_csv_free(&p->csv);
    free(p->first_header);
    p->first_header = NULL;
    for (size_t k = 0; k < p->n_key_names; k++)
        free(p->key_names[k]);
    free(p->key_names);
    p->key_names = NULL;
    free(p->point);
    sweep_free(&p->sw);
    p->point = NULL;
    free(p->config.text);
    p->config.text = NULL;
}

int sweep_point_run(const struct sweep_plan *p, size_t i, char **text, size_t *len)
{
    const struct sweep_point *sp = &p->point[i];
    struct config cfg;
    struct cfg_error err;
    *text = NULL;
    *len = 0;
    if (!run_config_load_text(&cfg, &p->config, sp->settings, sp->n_settings, &err)) {
        cfg_error_print(&err, stderr);
        return SWEEP_BAD_INPUT;
    }
    struct run_report report;
    enum kernel_stop why;
    int status = run_replications(&cfg, 0, &report, &why, &err);
    if (status != 0) {
        if (status == RUN_BAD_INPUT)
            cfg_error_print(&err, stderr);
        return status;
    }
    if (!render(p->args, &report, text, len))
        return SWEEP_FAILED;
    switch (why) {
    case KERNEL_DONE:
        return 0;
    case KERNEL_INTERRUPTED:
        return SWEEP_INTERRUPTED;
    case KERNEL_WALL_LIMIT:
        return SWEEP_WALL_LIMIT;
    default:
        fprintf(stderr, "sim: run ended early: %s\n", report.stop_reason);
        return SWEEP_FAILED;
    }
}

/* --- output in sweep order --- */

static void write_point(struct sweep_plan *p, size_t i)
{
    struct sweep_point *sp = &p->point[i];
    const char *text = sp->text ? sp->text : "";
    size_t len = sp->len;
    switch (p->args->fmt) {
    case REPORT_CSV: /* one header: every point's rows under the first point's columns */
        if (!sweep_csv_write(&p->csv, p->out, text, len, sp->label[0] ? sp->label : "(no coordinates)"))
            fputs("sim: out of memory writing the CSV\n", stderr);
        p->emitted++;
        free(sp->text);
        sp->text = NULL;
        return;
    case REPORT_JSON:
        fputs(p->emitted ? ",\n" : "[\n", p->out);
        if (len && text[len - 1] == '\n')
            len--;
        break;
    case REPORT_TABLE:
        fprintf(p->out, "%s# point %zu/%zu: %s\n", p->emitted ? "\n" : "", i + 1, p->n,
                sp->label[0] ? sp->label : "(no coordinates)");
        break;
    }
    fwrite(text, 1, len, p->out);
    p->emitted++;
    free(sp->text);
    sp->text = NULL;
}

/* The CSV header line of point 0, from the report of it not run (the columns depend
 * on the configuration: the engine's figures).  False when it cannot be built. */
static bool write_csv_header(const struct sweep_plan *p)
{
    if (p->n == 0)
        return false;
    const struct sweep_point *sp = &p->point[0];
    struct config cfg;
    struct cfg_error err;
    struct run_report r;
    if (!run_config_load_text(&cfg, &p->config, sp->settings, sp->n_settings, &err) ||
        run_report_unsimulated(&cfg, "not run", &r, &err) != 0)
        return false;
    char *text;
    size_t len;
    bool ok = render(p->args, &r, &text, &len);
    const char *nl = ok ? memchr(text, '\n', len) : NULL;
    if (nl)
        fwrite(text, 1, (size_t)(nl - text) + 1, p->out);
    free(text);
    return nl != NULL;
}

bool sweep_point_mark_failed(struct sweep_plan *p, size_t i, int status)
{
    struct sweep_point *sp = &p->point[i];
    free(sp->text);
    sp->text = NULL;
    sp->len = 0;
    struct config cfg;
    struct cfg_error err;
    struct run_report r;
    const char *reason = status == RUN_DEADLOCK ? "deadlock: not completed" : "failed: not completed";
    if (!run_config_load_text(&cfg, &p->config, sp->settings, sp->n_settings, &err) ||
        run_report_unsimulated(&cfg, reason, &r, &err) != 0 || !render(p->args, &r, &sp->text, &sp->len)) {
        free(sp->text);
        sp->text = NULL;
        sp->len = 0;
        sp->state = POINT_LOST;
        return false;
    }
    sp->state = POINT_DONE;
    return true;
}

bool sweep_emit(struct sweep_plan *p, bool final)
{
    if (!p->out)
        return true;
    if (p->out_failed)
        return false;
    for (; p->next_emit < p->n; p->next_emit++) {
        enum point_state s = p->point[p->next_emit].state;
        if (s == POINT_DONE)
            write_point(p, p->next_emit);
        else if (s != POINT_LOST && !final)
            break;
    }
    if (final && p->args->fmt == REPORT_JSON)
        fputs(p->emitted ? "\n]\n" : "[]\n", p->out);
    if (final && p->args->fmt == REPORT_CSV && p->csv.collect && !sweep_csv_finish(&p->csv, p->out))
        fputs("sim: out of memory writing the CSV\n", stderr);
    if (final && p->args->fmt == REPORT_CSV && !p->emitted && !write_csv_header(p))
        fputs("sim: cannot build the CSV header\n", stderr); /* not a write error: the rest holds */
    if (fflush(p->out) == 0 && !ferror(p->out))
        return true;
    p->out_failed = true;
    if (p->args->output)
        fprintf(stderr, "sim: %s: cannot write: %s\n", p->args->output, strerror(errno));
    else
        fprintf(stderr, "sim: cannot write the results: %s\n", strerror(errno));
    return false;
}
