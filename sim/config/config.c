#include "config.h"
#include "ini_file.h"
#include "layout.h"
#include "suggest.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char COMMAND_LINE[] = "command line (-s)";

void cfg_error_set(struct cfg_error *err, const char *file, int line, const char *key, const char *fmt, ...)
{
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    snprintf(err->key, sizeof err->key, "%s", key ? key : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    /* A value echoed from -s can hold a newline or a tab: cfg_error_print escapes them,
     * so the error stays one line. */
}

/* Appends to buf (size bytes, *used of them taken), cutting at the end. */
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
    if (*used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, size - *used, fmt, ap);
    va_end(ap);
    if (n > 0)
        *used = *used + (size_t)n < size ? *used + (size_t)n : size - 1;
}

static bool parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = { "true", "yes", "on", "1" }, *const no[] = { "false", "no", "off", "0" };
    for (int i = 0; i < 4; i++) {
        if (strcmp(v, yes[i]) == 0)
            return *out = true, true;
        if (strcmp(v, no[i]) == 0)
            return *out = false, true;
    }
    return false;
}

/* strtod, but telling a number too small for a double (strtod: ERANGE and 0, refused:
 * it is not 0) from a subnormal one (ERANGE, but finite and not 0: taken). */
enum real_read { REAL_OK, REAL_NOT_FINITE, REAL_UNDERFLOW };
static const char UNDERFLOW[] = "too close to 0 for a double (it would read as 0)";
static enum real_read read_real(const char *p, char **end, double *v)
{
    errno = 0;
    *v = strtod(p, end);
    if (*end == p || !isfinite(*v))
        return REAL_NOT_FINITE;
    if (errno == ERANGE)
        return *v == 0 ? REAL_UNDERFLOW : REAL_OK; /* overflow gave inf above */
    return REAL_OK;
}

/* A bound as its key's values are written: an integer key's in full (1073741824, not
 * 1.07374e+09), a number's with %g. */
static void bound_text(const struct cfg_key *k, double v, char *buf, size_t size)
{
    if (k->type == CFG_INT && fabs(v) < 9e18)
        snprintf(buf, size, "%lld", (long long)v);
    else
        snprintf(buf, size, "%g", v);
}

static void describe_bounds(const struct cfg_key *k, char *buf, size_t size)
{
    if (k->type == CFG_UINT) {
        snprintf(buf, size, "must be a whole number from 0 to %llu", (unsigned long long)UINT64_MAX);
        return;
    }
    const char *lower = k->min_exclusive ? "greater than" : "at least";
    char min[32], max[32];
    bound_text(k, k->min, min, sizeof min);
    bound_text(k, k->max, max, sizeof max);
    if (k->max >= 1e300 || (k->type != CFG_REAL && k->max >= 9e18))
        snprintf(buf, size, "must be %s %s", lower, min);
    else
        snprintf(buf, size, "must be %s %s and at most %s", lower, min, max);
}

/* "a, b, c": numbers separated by commas (blanks allowed), each within the key's bounds. */
static bool parse_list(const struct cfg_key *k, const char *value, struct cfg_list *out, char *why, size_t size)
{
    struct cfg_list list = { 0 };
    const char *p = value;
    while (*p == ' ' || *p == '\t')
        p++;
    while (*p) {
        if (list.count == CFG_LIST_MAX) {
            snprintf(why, size, "more than %d values", CFG_LIST_MAX);
            return false;
        }
        char *end = NULL;
        double v;
        enum real_read got = read_real(p, &end, &v);
        if (got != REAL_OK) {
            snprintf(why, size, "value %u of '%s' is %s", list.count + 1, value,
                     got == REAL_UNDERFLOW ? UNDERFLOW : "not a finite number");
            return false;
        }
        if (v < k->min || v > k->max || (k->min_exclusive && v == k->min)) {
            char bounds[128];
            describe_bounds(k, bounds, sizeof bounds);
            snprintf(why, size, "every value %s (value %u is %g)", bounds, list.count + 1, v);
            return false;
        }
        list.value[list.count++] = v;
        p = end;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == ',') {
            p++;
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p) {
                snprintf(why, size, "'%s' ends with a comma", value);
                return false;
            }
        } else if (*p) {
            snprintf(why, size, "'%s': expected numbers separated by commas", value);
            return false;
        }
    }
    *out = list;
    return true;
}

/* Whether v is within the key's bounds; else writes why, naming the value as given. */
static bool within_bounds(const struct cfg_key *k, double v, const char *value, char *why, size_t size)
{
    if (v < k->min || v > k->max || (k->min_exclusive && v == k->min)) {
        char bounds[128];
        describe_bounds(k, bounds, sizeof bounds);
        snprintf(why, size, "%s (got %s)", bounds, value);
        return false;
    }
    return true;
}

/* A number may have blanks around it (-s run.seed=' 5'), as in a list; nothing else.
 * *number: value without them (in trimmed), or NULL when it cannot be a number; false
 * (why: missing value) when value is blanks alone. */
static bool trim_number(const char *value, char trimmed[CFG_TEXT_MAX], const char **number, char *why, size_t size)
{
    const char *a = value + strspn(value, " \t");
    size_t len = strlen(a);
    while (len > 0 && (a[len - 1] == ' ' || a[len - 1] == '\t'))
        len--;
    if (len == 0) {
        snprintf(why, size, "missing value");
        return false;
    }
    *number = NULL;
    if (len < CFG_TEXT_MAX && !isspace((unsigned char)a[0])) { /* strto* would skip a newline */
        memcpy(trimmed, a, len);
        trimmed[len] = '\0';
        *number = trimmed;
    }
    return true;
}

static bool parse_choice(const struct cfg_choices *choices, const char *value, const char **field, char *why,
                         size_t size)
{
    for (size_t i = 0; choices->name(i); i++) {
        if (strcmp(choices->name(i), value) == 0) {
            *field = choices->name(i);
            return true;
        }
    }
    const char *near = cfg_nearest_choice(choices, value);
    size_t n = 0; /* appended with bounds: the message is cut, never overrun */
    append(why, size, &n, "unknown value '%s'", value);
    if (near)
        append(why, size, &n, " (did you mean '%s'?)", near);
    append(why, size, &n, "; one of:");
    for (size_t i = 0; choices->name(i); i++)
        append(why, size, &n, " %s", choices->name(i));
    return false;
}

/* number: value trimmed (trim_number), NULL when it cannot be one. */
static bool parse_real(const struct cfg_key *k, const char *value, const char *number, double *field, char *why,
                       size_t size)
{
    char *end = NULL;
    double v = 0;
    enum real_read got = REAL_NOT_FINITE;
    if (!number || (got = read_real(number, &end, &v)) != REAL_OK || *end) {
        snprintf(why, size, "'%s' is %s", value,
                 got == REAL_UNDERFLOW && end && !*end ? UNDERFLOW : "not a finite number");
        return false;
    }
    if (!within_bounds(k, v, value, why, size))
        return false;
    *field = v;
    return true;
}

/* CFG_INT into an int64_t, CFG_UINT into a uint64_t; number as for parse_real. */
static bool parse_whole(const struct cfg_key *k, const char *value, const char *number, void *field, char *why,
                        size_t size)
{
    if (!number) {
        snprintf(why, size, "'%s' is not a whole number", value);
        return false;
    }
    if (k->type == CFG_UINT && number[0] == '-') { /* strtoull would wrap it round */
        snprintf(why, size, "'%s' is negative; must be a whole number at least 0", value);
        return false;
    }
    char *end = NULL;
    unsigned long long u = 0;
    long long s = 0;
    errno = 0;
    if (k->type == CFG_UINT)
        u = strtoull(number, &end, 10);
    else
        s = strtoll(number, &end, 10);
    if (*end || end == number || errno == ERANGE) {
        snprintf(why, size, "'%s' is not a whole number", value);
        return false;
    }
    if (!within_bounds(k, k->type == CFG_UINT ? (double)u : (double)s, value, why, size))
        return false;
    if (k->type == CFG_UINT)
        *(uint64_t *)field = u;
    else
        *(int64_t *)field = s;
    return true;
}

/* Parses `value` into the field of key `id`; on failure writes the reason into why. */
static bool parse_value(struct config *cfg, size_t id, const char *value, char *why, size_t size)
{
    const struct cfg_key *k = cfg->slot[id].key;
    void *field = (char *)cfg + cfg->slot[id].at;
    if (k->type == CFG_TEXT) {
        if (strlen(value) >= CFG_TEXT_MAX) {
            snprintf(why, size, "longer than %d characters", CFG_TEXT_MAX - 1);
            return false;
        }
        snprintf(field, CFG_TEXT_MAX, "%s", value);
        return true;
    }
    if (k->type == CFG_LIST)
        return parse_list(k, value, field, why, size);
    char trimmed[CFG_TEXT_MAX];
    const char *number = NULL;
    bool numeric = k->type == CFG_REAL || k->type == CFG_INT || k->type == CFG_UINT;
    if (numeric && !trim_number(value, trimmed, &number, why, size))
        return false;
    if (!*value) {
        snprintf(why, size, "missing value");
        return false;
    }
    switch (k->type) {
    case CFG_BOOL:
        if (!parse_bool(value, field)) {
            snprintf(why, size, "'%s' is not a boolean (use true or false)", value);
            return false;
        }
        return true;
    case CFG_CHOICE:
        return parse_choice(cfg->slot[id].choices, value, field, why, size);
    case CFG_REAL:
        return parse_real(k, value, number, field, why, size);
    case CFG_INT:
    case CFG_UINT:
        return parse_whole(k, value, number, field, why, size);
    case CFG_LIST:
    case CFG_TEXT:
        break; /* parsed above */
    }
    return false;
}

bool cfg_set(struct config *cfg, const char *section, const char *name, const char *value, const char *file,
             int line, struct cfg_error *err)
{
    char key[128], hint[256];
    snprintf(key, sizeof key, "%s.%s", section, name);
    if (!name[0] && !cfg_known_section(cfg, section)) { /* "rate" alone (--sweep rate=...): a key without section */
        const char *near = cfg_key_elsewhere(cfg, section, hint, sizeof hint);
        cfg_error_set(err, file, line, section, "a key is SECTION.KEY%s%s%s", near ? " (did you mean " : "",
                      near ? near : "", near ? "?)" : "");
        return false;
    }
    if (!cfg_known_section(cfg, section)) {
        char elsewhere[192]; /* no section near, but the key exists under another: that was meant */
        if (!cfg_nearest_section(cfg, section) && cfg_key_named(cfg, name, elsewhere, sizeof elsewhere))
            snprintf(hint, sizeof hint, "unknown section [%s] (did you mean %s?)", section, elsewhere);
        else
            cfg_unknown_section(cfg, section, hint, sizeof hint);
        cfg_error_set(err, file, line, key, "%s", hint);
        return false;
    }
    int id = cfg_key_index(cfg, key);
    if (id < 0) { /* the name under other sections (every one that has it), or the nearest key */
        const char *near = cfg_key_named(cfg, name, hint, sizeof hint);
        if (!near)
            near = cfg_nearest_key(cfg, section, name, hint, sizeof hint);
        cfg_error_set(err, file, line, key, "unknown key%s%s%s", near ? " (did you mean " : "", near ? near : "",
                      near ? "?)" : "");
        return false;
    }
    struct cfg_origin *o = &cfg->origin[id];
    const char *was = o->file ? o->file : cfg->path;
    if (o->set && file != COMMAND_LINE && was != COMMAND_LINE && strcmp(was, file) == 0) {
        cfg_error_set(err, file, line, key, "set twice (first on line %d)", o->line);
        return false;
    }
    char why[CFG_TEXT_MAX];
    if (!parse_value(cfg, (size_t)id, value, why, sizeof why)) {
        /* "torus # comment": inih ends a value at " ;" only, so a '#' is part of it. */
        const char *comment = strchr(value, '#') ? "'#' starts no comment in a value (';' does): " : "";
        cfg_error_set(err, file, line, key, "%s%s", comment, why);
        return false;
    }
    o->set = true;
    o->file = file == cfg->path ? NULL : file;
    o->line = line;
    return true;
}

void cfg_defaults(struct config *cfg, const struct cfg_schema *schema)
{
    memset(cfg, 0, sizeof *cfg);
    cfg_lay_out(cfg, schema);
    char why[CFG_TEXT_MAX];
    for (size_t i = 0; i < cfg->n_keys; i++)
        if (!parse_value(cfg, i, cfg->slot[i].key->fallback, why, sizeof why))
            cfg_internal_error("a default is refused: %s", why); /* a programming error: say so loudly */
}

/* The overrides and the checks across keys, after the file (cfg_load, cfg_load_text). */
static bool load_overrides(struct config *cfg, const char *const *overrides, size_t n_overrides,
                           struct cfg_error *err)
{
    for (size_t i = 0; i < n_overrides; i++) {
        char buf[CFG_TEXT_MAX];
        size_t len = strlen(overrides[i]);
        if (len >= sizeof buf) { /* refused, never cut: a cut number would be another number */
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(overrides[i], "="), overrides[i]);
            cfg_error_set(err, COMMAND_LINE, 0, name, "-s override longer than %zu characters", sizeof buf - 1);
            return false;
        }
        memcpy(buf, overrides[i], len + 1);
        char *eq = strchr(buf, '=');
        char *dot = strchr(buf, '.');
        if (!eq || !dot || dot > eq) {
            char name[64], hint[192];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(buf, "="), buf);
            const char *near = !dot || (eq && dot > eq) ? cfg_key_elsewhere(cfg, name, hint, sizeof hint) : NULL;
            if (!near && dot && !eq) /* the value given as the next argument (-s workload.rate 0.3) */
                near = strcat(strcpy(hint, name), "=VALUE");
            cfg_error_set(err, COMMAND_LINE, 0, "", "-s %s: expected section.key=value%s%s%s", overrides[i],
                          near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
            return false;
        }
        *eq = *dot = '\0';
        if (!cfg_set(cfg, buf, dot + 1, eq + 1, COMMAND_LINE, 0, err))
            return false;
    }
    /* Checks across keys: each blames the key that is set but cannot take effect. */
    if (cfg->run.warmup_time > 0 && cfg->run.duration == 0) {
        cfg_blame(cfg, "run.warmup_time", err, "run.warmup_time needs run.duration > 0 (time mode)");
        return false;
    }
    return true;
}

bool cfg_load(struct config *cfg, const char *path, const char *const *overrides, size_t n_overrides,
              const struct cfg_schema *schema, struct cfg_error *err)
{
    cfg_defaults(cfg, schema);
    return cfg_read_file(cfg, path, err) && load_overrides(cfg, overrides, n_overrides, err);
}

bool cfg_load_text(struct config *cfg, const struct cfg_text *text, const char *const *overrides,
                   size_t n_overrides, const struct cfg_schema *schema, struct cfg_error *err)
{
    cfg_defaults(cfg, schema);
    return cfg_read_text(cfg, text->path, text->text, text->len, err) &&
           load_overrides(cfg, overrides, n_overrides, err);
}

bool cfg_file_sets_keys(const struct config *cfg)
{
    for (size_t i = 0; i < cfg->n_keys; i++)
        if (cfg->origin[i].set && !cfg->origin[i].file) /* file NULL: the config's own (config_value.h) */
            return true;
    return false;
}

static const char *type_name(const struct cfg_key *k)
{
    switch (k->type) {
    case CFG_INT:
    case CFG_UINT:
        return "integer";
    case CFG_REAL:
        return "number";
    case CFG_BOOL:
        return "boolean";
    case CFG_CHOICE:
        return "choice";
    case CFG_LIST:
        return "list";
    case CFG_TEXT:
        return "text";
    }
    return "?";
}

void cfg_print_keys(const struct config *cfg, FILE *out)
{
    const char *section = "";
    for (size_t i = 0; i < cfg->n_keys; i++) {
        const struct cfg_key *k = cfg->slot[i].key;
        const struct cfg_choices *choices = cfg->slot[i].choices;
        if (strcmp(section, k->section) != 0) {
            section = k->section;
            fprintf(out, "%s[%s]\n", i ? "\n" : "", section);
        }
        fprintf(out, "  %-24s %-8s default %-18s %s\n", k->name, type_name(k), k->fallback[0] ? k->fallback : "(none)",
                k->help);
        if (k->type == CFG_CHOICE)
            for (size_t c = 0; choices->name(c); c++)
                fprintf(out, "      %-20s %s\n", choices->name(c), choices->help(c));
    }
}
