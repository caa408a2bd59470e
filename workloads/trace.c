/* Trace replay: reading and checking a trace file (see trace.h), and the arrival
 * process that names it.  The network schedules the records (sim/run/network.c). */
#include "../sim/core/params.h"
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stddef.h>

#include "../sim/core/text_input.h"
#include "workload.h"

struct trace_params {
    char trace[CFG_TEXT_MAX];
};

static const struct cfg_key trace_keys[] = {
    { "workload", "trace", CFG_TEXT, offsetof(struct trace_params, trace), "", 0, 0, false, NULL,
      "trace and netrace arrivals: the file to replay (trace: time,source,destination,length lines; netrace: a "
      "Netrace v1 trace, bzip2)" },
};
/* Shared with the netrace arrivals (workloads/netrace.c): one key, one meaning. */
extern const struct cfg_param_table trace_param_table;
CFG_PARAM_TABLE(trace_param_table, struct trace_params, trace_keys);

const char *trace_path(const struct config *cfg, char *buf, size_t size)
{
    return cfg_file_path(cfg, "workload.trace", buf, size);
}

const struct arrival_ops arrival_trace = {
    .name = "trace",
    .help = "replay workload.trace: time,source,destination,length lines sorted by time (rate and destination "
            "unused)",
    .params = &trace_param_table,
    .traits = ARRIVAL_REPLAY,
};

static bool fail(struct cfg_error *err, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool fail(struct cfg_error *err, const char *path, int line, const char *fmt, ...)
{
    snprintf(err->file, sizeof err->file, "%s", path);
    err->line = line;
    snprintf(err->key, sizeof err->key, "workload.trace");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return false;
}

/* Splits a line into at most `max` fields separated by a comma or blanks. */
static unsigned split(char *s, char **field, unsigned max)
{
    unsigned n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        if (n == max)
            return max + 1;
        field[n++] = s;
        while (*s && *s != ',' && *s != ' ' && *s != '\t')
            s++;
        char *end = s;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == ',') {
            s++;
            while (*s == ' ' || *s == '\t')
                s++;
            if (!*s)
                return max + 1; /* a trailing comma: an empty field */
        }
        *end = '\0';
    }
    return n;
}

static bool parse_real(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return end != s && !*end && errno != ERANGE && isfinite(*out);
}

static bool parse_node(const char *s, uint32_t nodes, uint32_t *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)s[0]))
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end || errno == ERANGE || v >= nodes)
        return false;
    *out = (uint32_t)v;
    return true;
}

static bool is_header(char **f, unsigned n)
{
    static const char *const names[] = { "time", "source", "destination", "length" };
    if (n != 4)
        return false;
    for (unsigned i = 0; i < 4; i++)
        if (strcasecmp(f[i], names[i]) != 0)
            return false;
    return true;
}

static bool grow(struct trace *tr, size_t *capacity)
{
    size_t cap = *capacity ? *capacity * 2 : 4096;
    struct trace_record *r = realloc(tr->records, cap * sizeof *r);
    if (!r)
        return false;
    tr->records = r;
    *capacity = cap;
    return true;
}

static const struct text_rules trace_rules = { "trace", "workload.trace", "cannot read the trace", TRACE_MAX_BYTES,
                                               TRACE_MAX_LINE };

/* One line of the trace (not blank, not a comment): the header, or one more record.
 * False with *err when it is refused. */
static bool take_line(struct trace *tr, size_t *capacity, const char *path, int number, char *line, bool *seen_data,
                      struct cfg_error *err)
{
    char *field[4];
    unsigned n = split(line, field, 4);
    if (!*seen_data && is_header(field, n)) {
        *seen_data = true;
        return true;
    }
    *seen_data = true;
    struct trace_record r;
    if (n != 4)
        return fail(err, path, number, "expected 4 fields time,source,destination,length (got %s)",
                    n > 4 ? "more, or an empty one" : n == 1 ? "1" : n == 2 ? "2" : "3");
    if (!parse_real(field[0], &r.time) || r.time < 0)
        return fail(err, path, number, "time '%s' is not a finite number >= 0", field[0]);
    if (!parse_node(field[1], tr->nodes, &r.src))
        return fail(err, path, number, "source '%s' is not a node (0 to %u)", field[1], tr->nodes - 1);
    if (!parse_node(field[2], tr->nodes, &r.dst))
        return fail(err, path, number, "destination '%s' is not a node (0 to %u)", field[2], tr->nodes - 1);
    if (!parse_real(field[3], &r.length) || !(r.length > 0))
        return fail(err, path, number, "length '%s' is not a finite number > 0", field[3]);
    if (tr->count > 0 && r.time < tr->records[tr->count - 1].time)
        return fail(err, path, number, "time %s goes backwards (the previous message is at %.17g)", field[0],
                    tr->records[tr->count - 1].time);
    if (tr->count == TRACE_MAX_MESSAGES)
        return fail(err, path, number, "more than %u messages", (unsigned)TRACE_MAX_MESSAGES);
    if (tr->count == *capacity && !grow(tr, capacity))
        return fail(err, path, number, "out of memory");
    tr->records[tr->count++] = r;
    return true;
}

/* Reads the trace at path; *opened says whether the file could be opened at all. */
static bool load(struct trace *tr, const char *path, uint32_t nodes, bool *opened, struct cfg_error *err)
{
    *tr = (struct trace){ .nodes = nodes };
    struct text_input in;
    *opened = text_input_open(&in, path, &trace_rules, err);
    if (!*opened)
        return false;
    size_t capacity = 0;
    bool ok = true, seen_data = false;
    char *line;
    size_t len;
    enum text_status status;
    while (ok && (status = text_input_next(&in, &line, &len, err)) == TEXT_LINE) {
        const char *c = line;
        while (*c == ' ' || *c == '\t')
            c++;
        if (*c && *c != '#')
            ok = take_line(tr, &capacity, path, text_input_line_number(&in), line, &seen_data, err);
    }
    int number = text_input_line_number(&in);
    text_input_close(&in);
    ok = ok && status == TEXT_END;
    if (ok && tr->count == 0)
        ok = fail(err, path, number, "the trace has no messages");
    if (ok && !(tr->first = malloc((size_t)nodes * sizeof *tr->first)))
        ok = fail(err, path, number, "out of memory");
    if (ok) { /* chain each source's records, from its last backwards */
        for (uint32_t v = 0; v < nodes; v++)
            tr->first[v] = TRACE_NONE;
        for (size_t i = tr->count; i-- > 0;) {
            tr->records[i].next = tr->first[tr->records[i].src];
            tr->first[tr->records[i].src] = (uint32_t)i;
        }
    }
    if (!ok)
        trace_free(tr);
    return ok;
}

bool trace_load_file(struct trace *tr, const char *path, uint32_t nodes, struct cfg_error *err)
{
    bool opened;
    return load(tr, path, nodes, &opened, err);
}

bool trace_load(struct trace *tr, const struct config *cfg, uint32_t nodes, struct cfg_error *err)
{
    char path[2 * CFG_TEXT_MAX];
    trace_path(cfg, path, sizeof path);
    bool opened, ok = load(tr, path, nodes, &opened, err);
    if (ok || opened)
        return ok;
    /* Not opened: named with the config's file and line, as the key that names it. */
    char why[sizeof err->message];
    const char *colon = strstr(err->message, ": ");
    snprintf(why, sizeof why, "%s", colon ? colon + 2 : err->message);
    trace_blame_unreadable(cfg, path, why, err);
    return false;
}

void trace_blame_unreadable(const struct config *cfg, const char *path, const char *why, struct cfg_error *err)
{
    const char *relative = strcmp(path, ((const struct trace_params *)cfg_params(cfg, &trace_param_table))->trace)
                               ? " (relative to the config's folder)"
                               : "";
    cfg_blame(cfg, "workload.trace", err, "cannot read the trace %s%s: %s", path, relative, why);
}

void trace_free(struct trace *tr)
{
    free(tr->records);
    free(tr->first);
    *tr = (struct trace){ 0 };
}

void trace_write_record(FILE *out, double time, uint32_t src, uint32_t dst, double length)
{
    fprintf(out, "%.17g,%u,%u,%.17g\n", time, src, dst, length);
}
