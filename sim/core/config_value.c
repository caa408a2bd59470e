#include "config_value.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length of the UTF-8 sequence at s (1 to 4) and its code point, or 0 when it is
 * no valid sequence (a stray or overlong byte, a surrogate, past U+10FFFF). */
static size_t utf8_sequence(const unsigned char *s, unsigned long *code)
{
    size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
    if (len == 0 || s[0] > 0xf4)
        return 0;
    unsigned long c = s[0] & (0x7f >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3f);
    }
    static const unsigned long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *code = c;
    return len;
}

/* Characters that print as nothing or as a plain space, so that a value ending in one
 * would look like another value: C1 controls, no-break and other spaces, zero-width
 * characters, line and paragraph separators, the byte order mark. */
static bool invisible(unsigned long c)
{
    return (c >= 0x80 && c <= 0xa0) || c == 0xad || c == 0x1680 || (c >= 0x2000 && c <= 0x200f) ||
           (c >= 0x2028 && c <= 0x202f) || (c >= 0x205f && c <= 0x206f) || c == 0x3000 || c == 0xfeff;
}

void cfg_put_escaped(const char *s, FILE *out)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        unsigned long code = 0;
        size_t len = c >= 0x80 ? utf8_sequence(p, &code) : 1;
        if (c == '\n')
            fputs("\\n", out);
        else if (c == '\r')
            fputs("\\r", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20 || c == 0x7f || len == 0)
            fprintf(out, "\\x%02x", c);
        else if (c >= 0x80 && invisible(code))
            for (size_t i = 0; i < len; i++)
                fprintf(out, "\\x%02x", p[i]);
        else
            fwrite(p, 1, len, out);
        p += len ? len : 1;
    }
}

void cfg_error_print(const struct cfg_error *err, FILE *out)
{
    cfg_put_escaped(err->file[0] ? err->file : "sim", out);
    if (err->line > 0)
        fprintf(out, ":%d", err->line);
    if (err->key[0]) {
        fputs(": ", out);
        cfg_put_escaped(err->key, out);
    }
    fputs(": ", out);
    cfg_put_escaped(err->message, out);
    fputc('\n', out);
}

_Noreturn void cfg_internal_error(const char *fmt, const char *what)
{
    fprintf(stderr, "sim: internal error: ");
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    abort();
}

int cfg_key_index(const struct config *cfg, const char *key)
{
    const char *dot = strchr(key, '.');
    if (!dot)
        return -1;
    size_t section_len = (size_t)(dot - key);
    for (size_t i = 0; i < cfg->n_keys; i++) {
        const struct cfg_key *k = cfg->slot[i].key;
        if (strlen(k->section) == section_len && strncmp(k->section, key, section_len) == 0 &&
            strcmp(k->name, dot + 1) == 0)
            return (int)i;
    }
    return -1;
}

static size_t must_find(const struct config *cfg, const char *key, enum cfg_type type)
{
    int i = cfg_key_index(cfg, key);
    if (i < 0)
        cfg_internal_error("no key %s in the layout", key);
    enum cfg_type have = cfg->slot[i].key->type;
    if (have != type && !(type == CFG_TEXT && have == CFG_CHOICE))
        cfg_internal_error("key %s read as another type", key);
    return (size_t)i;
}

int64_t cfg_int(const struct config *cfg, const char *key)
{
    return *(const int64_t *)cfg_value_at(cfg, must_find(cfg, key, CFG_INT));
}

uint64_t cfg_uint(const struct config *cfg, const char *key)
{
    return *(const uint64_t *)cfg_value_at(cfg, must_find(cfg, key, CFG_UINT));
}

double cfg_real(const struct config *cfg, const char *key)
{
    return *(const double *)cfg_value_at(cfg, must_find(cfg, key, CFG_REAL));
}

bool cfg_bool(const struct config *cfg, const char *key)
{
    return *(const bool *)cfg_value_at(cfg, must_find(cfg, key, CFG_BOOL));
}

const char *cfg_text(const struct config *cfg, const char *key)
{
    size_t i = must_find(cfg, key, CFG_TEXT);
    const void *v = cfg_value_at(cfg, i);
    return cfg->slot[i].key->type == CFG_CHOICE ? *(const char *const *)v : (const char *)v;
}

const struct cfg_list *cfg_list_of(const struct config *cfg, const char *key)
{
    return cfg_value_at(cfg, must_find(cfg, key, CFG_LIST));
}

const struct cfg_origin *cfg_origin_of(const struct config *cfg, const char *key)
{
    int i = cfg_key_index(cfg, key);
    if (i < 0)
        cfg_internal_error("no key %s in the layout", key);
    return &cfg->origin[i];
}

bool cfg_is_set(const struct config *cfg, const char *key)
{
    return cfg_origin_of(cfg, key)->set;
}

const char *cfg_file_path(const struct config *cfg, const char *key, char *buf, size_t size)
{
    const char *path = cfg_text(cfg, key);
    const struct cfg_origin *o = cfg_origin_of(cfg, key);
    const char *slash = strrchr(cfg->path, '/');
    /* origin file NULL: set in the config file itself (struct cfg_origin) */
    if (path[0] && path[0] != '/' && o->set && !o->file && slash)
        snprintf(buf, size, "%.*s/%s", (int)(slash - cfg->path), cfg->path, path);
    else
        snprintf(buf, size, "%s", path);
    return buf;
}

const void *cfg_params(const struct config *cfg, const struct cfg_param_table *table)
{
    if (!table)
        return NULL;
    for (size_t b = 0; b < cfg->n_blocks; b++)
        if (cfg->block[b].table == table)
            return (const char *)cfg + cfg->block[b].at;
    cfg_internal_error("the key table of %s is not in the layout (is its registry in the schema?)",
                   table->count ? table->keys[0].name : "(empty)");
}

void cfg_blame(const struct config *cfg, const char *key, struct cfg_error *err, const char *fmt, ...)
{
    const struct cfg_origin *o = cfg_origin_of(cfg, key);
    snprintf(err->file, sizeof err->file, "%s", o->set && o->file ? o->file : cfg->path);
    err->line = o->set ? o->line : 0;
    snprintf(err->key, sizeof err->key, "%s", key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}
