/* A sweep's CSV under one header (contract in sweep_csv.h). */
#include "sweep_csv.h"

#include <stdlib.h>
#include <string.h>

struct field {
    const char *at;
    size_t len;
};

/* Splits one CSV line (RFC 4180 quoting: a quoted field may hold commas and doubled
 * quotes) into at most max fields; returns how many. */
static size_t split(const char *line, size_t len, struct field *f, size_t max)
{
    size_t n = 0, i = 0;
    while (n < max) {
        size_t start = i;
        if (i < len && line[i] == '"') {
            for (i++; i < len; i++)
                if (line[i] == '"') {
                    if (i + 1 < len && line[i + 1] == '"')
                        i++;
                    else
                        break;
                }
            if (i < len)
                i++; /* the closing quote */
        }
        while (i < len && line[i] != ',')
            i++;
        f[n++] = (struct field){ line + start, i - start };
        if (i >= len)
            break;
        i++; /* the comma */
    }
    return n;
}

static bool same(struct field a, struct field b) { return a.len == b.len && memcmp(a.at, b.at, a.len) == 0; }

static size_t count_fields(const char *line, size_t len)
{
    size_t n = 1;
    bool quoted = false;
    for (size_t i = 0; i < len; i++)
        if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ',' && !quoted)
            n++;
    return n;
}

/* Writes the row under the first header, field by field by name. */
static bool write_aligned(struct sweep_csv *c, FILE *out, const char *head, size_t head_len, const char *row,
                          size_t row_len, const char *label)
{
    size_t want_n = count_fields(c->header, c->header_len), have_n = count_fields(head, head_len);
    size_t row_n = count_fields(row, row_len);
    struct field *want = malloc(want_n * sizeof *want), *have = malloc(have_n * sizeof *have);
    struct field *value = malloc((row_n > have_n ? row_n : have_n) * sizeof *value);
    bool *used = calloc(have_n, sizeof *used);
    if (!want || !have || !value || !used) {
        free(want);
        free(have);
        free(value);
        free(used);
        return false;
    }
    split(c->header, c->header_len, want, want_n);
    split(head, head_len, have, have_n);
    size_t values = split(row, row_len, value, row_n);
    for (size_t i = 0; i < want_n; i++) {
        if (i)
            fputc(',', out);
        for (size_t j = 0; j < have_n; j++)
            if (!used[j] && same(want[i], have[j])) {
                used[j] = true;
                if (j < values)
                    fwrite(value[j].at, 1, value[j].len, out);
                break;
            }
    }
    fputc('\n', out);
    if (!c->warned) {
        size_t left = 0;
        for (size_t j = 0; j < have_n; j++)
            if (!used[j]) {
                if (left++ == 0)
                    fprintf(stderr, "sim: --sweep: point %s has columns the first point's CSV header lacks, left out "
                            "(JSON keeps them): ", label);
                else
                    fputs(", ", stderr);
                fprintf(stderr, "%.*s", (int)have[j].len, have[j].at);
            }
        if (left) {
            fputc('\n', stderr);
            c->warned = true;
        }
    }
    free(want);
    free(have);
    free(value);
    free(used);
    return true;
}

static bool keep(struct sweep_csv *c, const char *text, size_t len)
{
    if (c->n_kept == c->cap_kept) {
        size_t cap = c->cap_kept ? 2 * c->cap_kept : 16;
        char **k = realloc(c->kept, cap * sizeof *k);
        if (!k)
            return false;
        c->kept = k;
        size_t *l = realloc(c->kept_len, cap * sizeof *l);
        if (!l)
            return false;
        c->kept_len = l;
        c->cap_kept = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return false;
    memcpy(copy, text, len);
    copy[len] = '\0';
    c->kept[c->n_kept] = copy;
    c->kept_len[c->n_kept++] = len;
    return true;
}

/* Appends to the header the columns of `head` it lacks, in their order. */
static bool add_columns(struct sweep_csv *c, const char *head, size_t head_len)
{
    size_t have_n = count_fields(head, head_len), want_n = count_fields(c->header, c->header_len);
    struct field *have = malloc(have_n * sizeof *have), *want = malloc(want_n * sizeof *want);
    char *grown = malloc(c->header_len + head_len + 2);
    if (!have || !want || !grown) {
        free(have);
        free(want);
        free(grown);
        return false;
    }
    split(head, head_len, have, have_n);
    split(c->header, c->header_len, want, want_n);
    memcpy(grown, c->header, c->header_len);
    size_t len = c->header_len;
    for (size_t j = 0; j < have_n; j++) {
        bool known = false;
        for (size_t i = 0; i < want_n && !known; i++)
            known = same(want[i], have[j]);
        if (!known) {
            grown[len++] = ',';
            memcpy(grown + len, have[j].at, have[j].len);
            len += have[j].len;
        }
    }
    grown[len] = '\0';
    free(have);
    free(want);
    free(c->header);
    c->header = grown;
    c->header_len = len;
    return true;
}

/* Position of column f in key_order, or n_key_order when it is not a config key. */
static size_t key_rank(const struct sweep_csv *c, struct field f)
{
    for (size_t k = 0; k < c->n_key_order; k++)
        if (strlen(c->key_order[k]) == f.len && memcmp(c->key_order[k], f.at, f.len) == 0)
            return k;
    return c->n_key_order;
}

/* Puts the header's config columns first, in listing order; the others keep theirs. */
static bool order_columns(struct sweep_csv *c)
{
    size_t n = count_fields(c->header, c->header_len);
    struct field *f = malloc(n * sizeof *f);
    size_t *rank = malloc(n * sizeof *rank);
    char *sorted = malloc(c->header_len + 1);
    if (!f || !rank || !sorted) {
        free(f);
        free(rank);
        free(sorted);
        return false;
    }
    split(c->header, c->header_len, f, n);
    for (size_t i = 0; i < n; i++)
        rank[i] = key_rank(c, f[i]);
    for (size_t i = 1; i < n; i++) { /* insertion sort, stable: non-keys share one rank */
        struct field fi = f[i];
        size_t ri = rank[i], j = i;
        for (; j > 0 && rank[j - 1] > ri; j--) {
            f[j] = f[j - 1];
            rank[j] = rank[j - 1];
        }
        f[j] = fi;
        rank[j] = ri;
    }
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            sorted[len++] = ',';
        memcpy(sorted + len, f[i].at, f[i].len);
        len += f[i].len;
    }
    sorted[len] = '\0';
    free(f);
    free(rank);
    free(c->header);
    c->header = sorted;
    c->header_len = len;
    return true;
}

bool sweep_csv_finish(struct sweep_csv *c, FILE *out)
{
    if (!c->collect || c->n_kept == 0)
        return true;
    for (size_t k = 0; k < c->n_kept; k++) {
        const char *nl = memchr(c->kept[k], '\n', c->kept_len[k]);
        size_t head_len = nl ? (size_t)(nl - c->kept[k]) : c->kept_len[k];
        if (k == 0) {
            c->header = malloc(head_len + 1);
            if (!c->header)
                return false;
            memcpy(c->header, c->kept[k], head_len);
            c->header[head_len] = '\0';
            c->header_len = head_len;
        } else if (!add_columns(c, c->kept[k], head_len)) {
            return false;
        }
    }
    if (!order_columns(c))
        return false;
    fwrite(c->header, 1, c->header_len, out);
    fputc('\n', out);
    for (size_t k = 0; k < c->n_kept; k++) {
        const char *text = c->kept[k];
        size_t len = c->kept_len[k];
        const char *nl = memchr(text, '\n', len);
        size_t head_len = nl ? (size_t)(nl - text) : len;
        const char *rows = nl ? nl + 1 : text + len;
        size_t rows_len = len - (size_t)(rows - text);
        while (rows_len) {
            const char *end = memchr(rows, '\n', rows_len);
            size_t row_len = end ? (size_t)(end - rows) : rows_len;
            if (!write_aligned(c, out, text, head_len, rows, row_len, ""))
                return false;
            rows_len -= row_len + (end ? 1 : 0);
            rows += row_len + (end ? 1 : 0);
        }
    }
    return true;
}

bool sweep_csv_write(struct sweep_csv *c, FILE *out, const char *text, size_t len, const char *label)
{
    if (c->collect)
        return keep(c, text, len);
    const char *nl = memchr(text, '\n', len);
    size_t head_len = nl ? (size_t)(nl - text) : len;
    if (!c->header) {
        c->header = malloc(head_len + 1);
        if (!c->header)
            return false;
        memcpy(c->header, text, head_len);
        c->header[head_len] = '\0';
        c->header_len = head_len;
        fwrite(text, 1, len, out);
        return true;
    }
    const char *rows = nl ? nl + 1 : text + len;
    size_t rows_len = len - (size_t)(rows - text);
    if (head_len == c->header_len && memcmp(text, c->header, head_len) == 0) {
        fwrite(rows, 1, rows_len, out); /* the same columns: as it is */
        return true;
    }
    while (rows_len) {
        const char *end = memchr(rows, '\n', rows_len);
        size_t row_len = end ? (size_t)(end - rows) : rows_len;
        if (!write_aligned(c, out, text, head_len, rows, row_len, label))
            return false;
        rows_len -= row_len + (end ? 1 : 0);
        rows += row_len + (end ? 1 : 0);
    }
    return true;
}

void sweep_csv_free(struct sweep_csv *c)
{
    free(c->header);
    c->header = NULL;
    for (size_t k = 0; k < c->n_kept; k++)
        free(c->kept[k]);
    free(c->kept);
    free(c->kept_len);
    c->kept = NULL;
    c->kept_len = NULL;
    c->n_kept = c->cap_kept = 0;
}
