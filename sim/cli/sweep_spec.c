/* Sweep specs: parsing, the order of points, and their seeds (see sweep.h). */
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "../core/rng.h"
#include "../run/run_config.h"


static int compare_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Checks `value` with the config loader, on `scratch` (defaults laid out once per spec:
 * laying them out per value made a range of 40,000 values take 9 s under ASan), and
 * appends its canonical text. */
static bool add_value(struct sweep_dim *d, struct config *scratch, const char *value, char *why, size_t size)
{
    const struct cfg_key *k = d->row;
    struct cfg_error err;
    scratch->origin[d->key].set = false; /* each value is set afresh, never "set twice" */
    if (!cfg_set(scratch, k->section, k->name, value, "--sweep", 0, &err)) {
        snprintf(why, size, "--sweep '%s': value '%s': %s", d->spec, value, err.message);
        return false;
    }
    char canonical[CFG_TEXT_MAX + 64];
    report_fmt_key(canonical, sizeof canonical, scratch, d->key);
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

/* A whole number in decimal digits, with a '-' when `signed_ok`, as it lies on the
 * number line shifted by 2^63 (so signed and unsigned values order alike in a uint64_t). */
static bool parse_whole(const char *s, bool signed_ok, uint64_t *shifted)
{
    const uint64_t bias = (uint64_t)1 << 63;
    bool negative = signed_ok && s[0] == '-';
    const char *digits = s + negative;
    if (!*digits || strspn(digits, "0123456789") != strlen(digits))
        return false;
    errno = 0;
    unsigned long long u = strtoull(digits, NULL, 10);
    if (errno == ERANGE)
        return false;
    if (!signed_ok) { /* a uint64_t key: the value itself */
        *shifted = u;
        return true;
    }
    if (negative ? u > bias : u >= bias)
        return false;
    *shifted = negative ? bias - u : bias + u;
    return true;
}

/* A:B:STEP of a whole-number key in whole numbers: counted in 64-bit integers, since
 * through a double the top of run.seed's range rounds (2^64 - 2 prints as 2^64). */
static bool whole_range(struct sweep_dim *d, struct config *scratch, const char *from, const char *to, const char *by,
                        bool *done, char *why, size_t size)
{
    bool is_signed = d->row->type == CFG_INT;
    uint64_t a, b, step;
    *done = false;
    if (!parse_whole(from, is_signed, &a) || !parse_whole(to, is_signed, &b) || !parse_whole(by, false, &step))
        return true; /* not whole numbers: the general range says what is wrong */
    *done = true;
    if (step == 0 || b < a) {
        snprintf(why, size, "--sweep '%s': needs STEP > 0 and FROM <= TO", d->spec);
        return false;
    }
    uint64_t span = (b - a) / step; /* the count is span + 1: no overflow before the bound */
    if (span >= SWEEP_MAX_POINTS) {
        snprintf(why, size, "--sweep '%s': more than %d values", d->spec, SWEEP_MAX_POINTS);
        return false;
    }
    d->values = calloc((size_t)span + 1, sizeof *d->values);
    if (!d->values) {
        snprintf(why, size, "--sweep '%s': out of memory", d->spec);
        return false;
    }
    const uint64_t bias = (uint64_t)1 << 63;
    for (uint64_t i = 0; i <= span; i++) {
        uint64_t v = a + i * step; /* <= b: no wrap */
        char value[32];
        if (!is_signed)
            snprintf(value, sizeof value, "%llu", (unsigned long long)v);
        else if (v >= bias)
            snprintf(value, sizeof value, "%llu", (unsigned long long)(v - bias));
        else
            snprintf(value, sizeof value, "-%llu", (unsigned long long)(bias - v));
        if (!add_value(d, scratch, value, why, size))
            return false;
    }
    return true;
}

/* A:B:STEP into values A, A+STEP, ... <= B (slack for binary fractions like 0.1). */
static bool parse_range_of(struct sweep_dim *d, struct config *scratch, char *buf, char *why, size_t size);

/* A copy of the whole range is parsed: a fixed buffer once cut a long one short, so
 * that "0:20:<249 zeros>10" read as step 1. */
static bool parse_range(struct sweep_dim *d, struct config *scratch, const char *text, char *why, size_t size)
{
    char *buf = strdup(text);
    if (!buf) {
        snprintf(why, size, "--sweep '%s': out of memory", d->spec);
        return false;
    }
    bool ok = parse_range_of(d, scratch, buf, why, size);
    free(buf);
    return ok;
}

static bool parse_range_of(struct sweep_dim *d, struct config *scratch, char *buf, char *why, size_t size)
{
    char *first = strchr(buf, ':'), *second = first ? strchr(first + 1, ':') : NULL;
    double a, b, step;
    if (!second || strchr(second + 1, ':')) {
        snprintf(why, size, "--sweep '%s': a range is FROM:TO:STEP", d->spec);
        return false;
    }
    *first = *second = '\0';
    if (d->row->type == CFG_INT || d->row->type == CFG_UINT) {
        bool done;
        bool ok = whole_range(d, scratch, buf, first + 1, second + 1, &done, why, size);
        if (done || !ok)
            return ok;
    }
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
        if (!add_value(d, scratch, value, why, size))
            return false;
    }
    return true;
}

static bool parse_list(struct sweep_dim *d, struct config *scratch, const char *text, char *why, size_t size)
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
        char value[CFG_TEXT_MAX];
        if (len == 0 || len >= sizeof value) {
            snprintf(why, size, "--sweep '%s': %s value in the list", d->spec, len ? "overlong" : "empty");
            return false;
        }
        memcpy(value, start, len);
        value[len] = '\0';
        if (!add_value(d, scratch, value, why, size))
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
    struct config layout;
    run_config_defaults(&layout);
    d->key = cfg_key_index(&layout, name);
    d->row = d->key >= 0 ? cfg_key_at(&layout, (size_t)d->key) : NULL;
    if (d->key < 0) {
        struct config scratch; /* for the loader's "did you mean" */
        run_config_defaults(&scratch);
        struct cfg_error err;
        char *dot = strchr(name, '.');
        if (dot)
            *dot = '\0';
        cfg_set(&scratch, name, dot ? dot + 1 : "", "0", "--sweep", 0, &err);
        snprintf(why, size, "--sweep '%s': %s", spec, err.message);
        return false;
    }
    if (d->row->type == CFG_LIST) { /* its values hold commas: one list key value per point is unreadable */
        snprintf(why, size, "--sweep '%s': %s is a list key; sweep it with a shell loop over -s", spec, name);
        return false;
    }
    for (size_t i = 0; i < sw->dims; i++)
        if (sw->dim[i].key == d->key) {
            snprintf(why, size, "--sweep '%s': %s is already swept by '%s'", spec, name, sw->dim[i].spec);
            return false;
        }
    sw->dims++; /* from here on sweep_free() releases its values */
    struct config *scratch = malloc(sizeof *scratch);
    if (!scratch) {
        snprintf(why, size, "--sweep '%s': out of memory", spec);
        return false;
    }
    run_config_defaults(scratch);
    bool parsed = strchr(eq + 1, ':') ? parse_range(d, scratch, eq + 1, why, size)
                                      : parse_list(d, scratch, eq + 1, why, size);
    free(scratch);
    if (!parsed)
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

static const char *key_name(const struct cfg_key *row, char *buf, size_t size)
{
    snprintf(buf, size, "%s.%s", row->section, row->name);
    return buf;
}

void sweep_label(const struct sweep *sw, size_t point, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t d = 0; d < sw->dims && used < size; d++) {
        char name[128];
        used += (size_t)snprintf(buf + used, size - used, "%s%s=%s", d ? " " : "",
                                 key_name(sw->dim[d].row, name, sizeof name),
                                 sw->dim[d].values[sweep_coordinate(sw, point, d)]);
    }
}

uint64_t sweep_point_seed(const struct sweep *sw, size_t point, uint64_t base_seed)
{
    char text[SWEEP_MAX_DIMS * (CFG_TEXT_MAX + 128)];
    size_t used = 0;
    text[0] = '\0';
    for (int key = 0; key < CFG_KEYS_MAX; key++) /* config-key order, not spec order */
        for (size_t d = 0; d < sw->dims; d++) {
            if (sw->dim[d].key != key)
                continue;
            const struct cfg_key *row = sw->dim[d].row;
            const char *value = sw->dim[d].values[sweep_coordinate(sw, point, d)];
            if (strcmp(row->section, "run") == 0 && strcmp(row->name, "seed") == 0)
                base_seed = strtoull(value, NULL, 10);
            else if (used < sizeof text)
                used += (size_t)snprintf(text + used, sizeof text - used, "%s.%s=%s\n", row->section, row->name,
                                         value);
        }
    return used ? rng_text_seed(base_seed, text) : base_seed;
}


uint64_t sweep_common_seed(const struct sweep *sw, size_t point, uint64_t base_seed)
{
    for (size_t d = 0; d < sw->dims; d++) {
        const struct cfg_key *row = sw->dim[d].row;
        if (strcmp(row->section, "run") == 0 && strcmp(row->name, "seed") == 0)
            return strtoull(sw->dim[d].values[sweep_coordinate(sw, point, d)], NULL, 10);
    }
    return base_seed;
}
