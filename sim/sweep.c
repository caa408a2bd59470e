#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "replicate.h"
#include "rng.h"

/* --- specs --- */

static int find_key(const char *name)
{
    for (int i = 0; i < CFG_KEY_COUNT; i++) {
        size_t len = strlen(cfg_keys[i].section);
        if (strncmp(name, cfg_keys[i].section, len) == 0 && name[len] == '.' &&
            strcmp(name + len + 1, cfg_keys[i].name) == 0)
            return i;
    }
    return -1;
}

static int compare_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Checks `value` with the config loader and appends its canonical text. */
static bool add_value(struct sweep_dim *d, const char *value, char *why, size_t size)
{
    static struct config scratch;
    cfg_defaults(&scratch);
    const struct cfg_key *k = &cfg_keys[d->key];
    struct cfg_error err;
    if (!cfg_set(&scratch, k->section, k->name, value, "--sweep", 0, &err)) {
        snprintf(why, size, "--sweep '%s': value '%s': %s", d->spec, value, err.message);
        return false;
    }
    char canonical[128];
    report_fmt_key(canonical, sizeof canonical, &scratch, d->key);
    char *copy = strdup(canonical);
    if (!copy) {
        snprintf(why, size, "--sweep '%s': out of memory", d->spec);
        return false;
    }
    d->values[d->count++] = copy;
    return true;
}

static bool parse_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno != ERANGE && isfinite(*v);
}

/* A:B:STEP into values A, A+STEP, ... <= B (slack for binary fractions like 0.1). */
static bool parse_range(struct sweep_dim *d, const char *text, char *why, size_t size)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    char *first = strchr(buf, ':'), *second = first ? strchr(first + 1, ':') : NULL;
    double a, b, step;
    if (!second || strchr(second + 1, ':')) {
        snprintf(why, size, "--sweep '%s': a range is FROM:TO:STEP", d->spec);
        return false;
    }
    *first = *second = '\0';
    if (!parse_number(buf, &a) || !parse_number(first + 1, &b) || !parse_number(second + 1, &step)) {
        snprintf(why, size, "--sweep '%s': FROM, TO and STEP must be numbers", d->spec);
        return false;
    }
    if (!(step > 0) || b < a) {
        snprintf(why, size, "--sweep '%s': needs STEP > 0 and FROM <= TO", d->spec);
        return false;
    }
    double span = floor((b - a) / step + 1e-9);
    if (span + 1 > SWEEP_MAX_POINTS) {
        snprintf(why, size, "--sweep '%s': more than %d values", d->spec, SWEEP_MAX_POINTS);
        return false;
    }
    size_t count = (size_t)span + 1;
    d->values = calloc(count, sizeof *d->values);
    if (!d->values) {
        snprintf(why, size, "--sweep '%s': out of memory", d->spec);
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        char value[64];
        snprintf(value, sizeof value, "%.17g", a + (double)i * step);
        if (!add_value(d, value, why, size))
            return false;
    }
    return true;
}

static bool parse_list(struct sweep_dim *d, const char *text, char *why, size_t size)
{
    size_t count = 1;
    for (const char *c = text; *c; c++)
        count += *c == ',';
    if (count > SWEEP_MAX_POINTS) {
        snprintf(why, size, "--sweep '%s': more than %d values", d->spec, SWEEP_MAX_POINTS);
        return false;
    }
    d->values = calloc(count, sizeof *d->values);
    if (!d->values) {
        snprintf(why, size, "--sweep '%s': out of memory", d->spec);
        return false;
    }
    const char *start = text;
    for (size_t i = 0; i < count; i++) {
        size_t len = strcspn(start, ",");
        char value[256];
        if (len == 0 || len >= sizeof value) {
            snprintf(why, size, "--sweep '%s': %s value in the list", d->spec, len ? "overlong" : "empty");
            return false;
        }
        memcpy(value, start, len);
        value[len] = '\0';
        if (!add_value(d, value, why, size))
            return false;
        start += len + 1;
    }
    return true;
}

static bool parse_spec(struct sweep *sw, const char *spec, char *why, size_t size)
{
    struct sweep_dim *d = &sw->dim[sw->dims];
    *d = (struct sweep_dim){ .spec = spec };
    const char *eq = strchr(spec, '=');
    char name[128];
    if (!eq || (size_t)(eq - spec) >= sizeof name || !eq[1]) {
        snprintf(why, size, "--sweep '%s': expected SECTION.KEY=FROM:TO:STEP or SECTION.KEY=V1,V2,...", spec);
        return false;
    }
    memcpy(name, spec, (size_t)(eq - spec));
    name[eq - spec] = '\0';
    d->key = find_key(name);
    if (d->key < 0) {
        static struct config scratch; /* for the loader's "did you mean" */
        cfg_defaults(&scratch);
        struct cfg_error err;
        char *dot = strchr(name, '.');
        if (dot)
            *dot = '\0';
        cfg_set(&scratch, name, dot ? dot + 1 : "", "0", "--sweep", 0, &err);
        snprintf(why, size, "--sweep '%s': %s", spec, err.message);
        return false;
    }
    for (size_t i = 0; i < sw->dims; i++)
        if (sw->dim[i].key == d->key) {
            snprintf(why, size, "--sweep '%s': %s is already swept by '%s'", spec, name, sw->dim[i].spec);
            return false;
        }
    sw->dims++; /* from here on sweep_free() releases its values */
    if (!(strchr(eq + 1, ':') ? parse_range(d, eq + 1, why, size) : parse_list(d, eq + 1, why, size)))
        return false;
    char **sorted = malloc(d->count * sizeof *sorted);
    if (!sorted) {
        snprintf(why, size, "--sweep '%s': out of memory", spec);
        return false;
    }
    memcpy(sorted, d->values, d->count * sizeof *sorted);
    qsort(sorted, d->count, sizeof *sorted, compare_text);
    for (size_t i = 1; i < d->count; i++)
        if (strcmp(sorted[i - 1], sorted[i]) == 0) {
            snprintf(why, size, "--sweep '%s': value %s appears twice (10 significant digits)", spec, sorted[i]);
            free(sorted);
            return false;
        }
    free(sorted);
    return true;
}

bool sweep_parse(struct sweep *sw, const char *const *specs, size_t n, char *why, size_t size)
{
    memset(sw, 0, sizeof *sw);
    if (n > SWEEP_MAX_DIMS) {
        snprintf(why, size, "--sweep: at most %d of them", SWEEP_MAX_DIMS);
        return false;
    }
    sw->points = 1;
    for (size_t i = 0; i < n; i++) {
        if (!parse_spec(sw, specs[i], why, size))
            return false;
        if (sw->points * sw->dim[i].count > SWEEP_MAX_POINTS) {
            snprintf(why, size, "--sweep '%s': the cross product exceeds %d points", specs[i], SWEEP_MAX_POINTS);
            return false;
        }
        sw->points *= sw->dim[i].count;
    }
    return true;
}

void sweep_free(struct sweep *sw)
{
    for (size_t d = 0; d < sw->dims; d++) {
        for (size_t i = 0; i < sw->dim[d].count; i++)
            free(sw->dim[d].values[i]);
        free(sw->dim[d].values);
    }
    sw->dims = 0;
}

size_t sweep_coordinate(const struct sweep *sw, size_t point, size_t d)
{
    size_t inner = 1; /* points per step of dimension d: the product of the later counts */
    for (size_t e = d + 1; e < sw->dims; e++)
        inner *= sw->dim[e].count;
    return point / inner % sw->dim[d].count;
}

static const char *key_name(int key, char *buf, size_t size)
{
    snprintf(buf, size, "%s.%s", cfg_keys[key].section, cfg_keys[key].name);
    return buf;
}

void sweep_label(const struct sweep *sw, size_t point, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t d = 0; d < sw->dims && used < size; d++) {
        char name[128];
        used += (size_t)snprintf(buf + used, size - used, "%s%s=%s", d ? " " : "",
                                 key_name(sw->dim[d].key, name, sizeof name),
                                 sw->dim[d].values[sweep_coordinate(sw, point, d)]);
    }
}

uint64_t sweep_point_seed(const struct sweep *sw, size_t point, uint64_t base_seed)
{
    char text[4096];
    size_t used = 0;
    text[0] = '\0';
    for (int key = 0; key < CFG_KEY_COUNT; key++) /* config-key order, not spec order */
        for (size_t d = 0; d < sw->dims; d++) {
            if (sw->dim[d].key != key)
                continue;
            const char *value = sw->dim[d].values[sweep_coordinate(sw, point, d)];
            if (key == KEY_RUN_SEED)
                base_seed = strtoull(value, NULL, 10);
            else if (used < sizeof text)
                used += (size_t)snprintf(text + used, sizeof text - used, "%s.%s=%s\n", cfg_keys[key].section,
                                         cfg_keys[key].name, value);
        }
    return used ? rng_text_seed(base_seed, text) : base_seed;
}

/* --- the plan: every point's settings, checked --- */

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
    key_name(d->key, name, sizeof name);
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
        char *s = format_text("%s=%s", key_name(dim->key, name, sizeof name),
                              dim->values[sweep_coordinate(&p->sw, i, d)]);
        if (!s)
            return SWEEP_FAILED;
        sp->settings[sp->n_settings++] = s;
    }
    char *seed = format_text("run.seed=%llu", (unsigned long long)sweep_point_seed(&p->sw, i, base_seed));
    if (!seed)
        return SWEEP_FAILED;
    sp->settings[sp->n_settings++] = seed;
    sweep_label(&p->sw, i, sp->label, sizeof sp->label);
    return 0;
}

int sweep_plan_build(struct sweep_plan *p, const struct sweep_args *a)
{
    memset(p, 0, sizeof *p);
    p->args = a;
    char why[1024];
    if (!sweep_parse(&p->sw, a->specs, a->n_specs, why, sizeof why)) {
        fprintf(stderr, "sim: %s\n", why);
        return SWEEP_BAD_INPUT;
    }
    for (size_t d = 0; d < p->sw.dims; d++)
        if (set_by_override(a, &p->sw.dim[d])) {
            fprintf(stderr, "sim: --sweep '%s': the key is also set with -s\n", p->sw.dim[d].spec);
            return SWEEP_BAD_INPUT;
        }
    static struct config cfg;
    struct cfg_error err;
    if (!cfg_load(&cfg, a->config, a->overrides, a->n_overrides, &err)) {
        cfg_error_print(&err, stderr);
        return SWEEP_BAD_INPUT;
    }
    uint64_t base_seed = cfg.run.seed;
    p->n = p->sw.points;
    p->point = calloc(p->n, sizeof *p->point);
    if (!p->point) {
        fputs("sim: out of memory\n", stderr);
        return SWEEP_FAILED;
    }
    for (size_t i = 0; i < p->n; i++) {
        struct sweep_point *sp = &p->point[i];
        if (point_settings(p, i, base_seed) != 0) {
            fputs("sim: out of memory\n", stderr);
            return SWEEP_FAILED;
        }
        static struct run_report unstable;
        int status = cfg_load(&cfg, a->config, sp->settings, sp->n_settings, &err) ? run_check(&cfg, &unstable, &err)
                                                                                     : RUN_BAD_INPUT;
        if (status == RUN_BAD_INPUT) {
            fprintf(stderr, "sim: --sweep point %s: ", sp->label[0] ? sp->label : "(none)");
            cfg_error_print(&err, stderr);
            return SWEEP_BAD_INPUT;
        }
        if (status == RUN_UNSTABLE) { /* its row is known now: written in place, never run */
            if (!render(a, &unstable, &sp->text, &sp->len)) {
                fputs("sim: out of memory\n", stderr);
                return SWEEP_FAILED;
            }
            sp->state = POINT_DONE;
        }
    }
    return 0;
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
    free(p->point);
    sweep_free(&p->sw);
    p->point = NULL;
}

int sweep_point_run(const struct sweep_plan *p, size_t i, char **text, size_t *len)
{
    const struct sweep_point *sp = &p->point[i];
    static struct config cfg;
    struct cfg_error err;
    *text = NULL;
    *len = 0;
    if (!cfg_load(&cfg, p->args->config, sp->settings, sp->n_settings, &err)) {
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
    case REPORT_CSV:
        if (p->emitted) { /* one header: drop the line every point's output starts with */
            const char *row = memchr(text, '\n', len);
            row = row ? row + 1 : text + len;
            len -= (size_t)(row - text);
            text = row;
        }
        break;
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

bool sweep_emit(struct sweep_plan *p, bool final)
{
    if (!p->out)
        return true;
    for (; p->next_emit < p->n; p->next_emit++) {
        enum point_state s = p->point[p->next_emit].state;
        if (s == POINT_DONE)
            write_point(p, p->next_emit);
        else if (s != POINT_LOST && !final)
            break;
    }
    if (final && p->args->fmt == REPORT_JSON)
        fputs(p->emitted ? "\n]\n" : "[]\n", p->out);
    return fflush(p->out) == 0 && !ferror(p->out);
}

/* --- the whole sweep --- */

struct output_file {
    const char *path;
    char *tmp;
};

static FILE *open_output(struct output_file *o)
{
    if (!o->path)
        return stdout;
    size_t len = strlen(o->path) + 16;
    o->tmp = malloc(len);
    if (!o->tmp)
        return NULL;
    snprintf(o->tmp, len, "%s.tmp.XXXXXX", o->path);
    int fd = mkstemp(o->tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        fprintf(stderr, "sim: %s: cannot create: %s\n", o->path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
    }
    return f;
}

/* Closes the output; a file is renamed into place only when written whole. */
static bool close_output(struct output_file *o, FILE *f, bool ok)
{
    if (!o->path) {
        if (!ok)
            fprintf(stderr, "sim: cannot write the results: %s\n", strerror(errno));
        return ok;
    }
    ok = fsync(fileno(f)) == 0 && ok;
    ok = fclose(f) == 0 && ok;
    if (ok && rename(o->tmp, o->path) != 0)
        ok = false;
    if (!ok) {
        fprintf(stderr, "sim: %s: cannot write: %s\n", o->path, strerror(errno));
        unlink(o->tmp);
    }
    free(o->tmp);
    return ok;
}

int sweep_execute(const struct sweep_args *a, int (*runner)(struct sweep_plan *), bool writer)
{
    static struct sweep_plan plan;
    int status = sweep_plan_build(&plan, a);
    if (status != 0) {
        sweep_plan_free(&plan);
        return status;
    }
    struct output_file o = { writer ? a->output : NULL, NULL };
    if (writer && !(plan.out = open_output(&o))) {
        sweep_plan_free(&plan);
        return SWEEP_FAILED;
    }
    status = runner(&plan);
    if (writer) {
        bool ok = sweep_emit(&plan, true);
        if (!close_output(&o, plan.out, ok))
            status = SWEEP_FAILED;
    }
    sweep_plan_free(&plan);
    return status;
}

int sweep_main(const struct sweep_args *a) { return sweep_execute(a, sweep_run_local, true); }
