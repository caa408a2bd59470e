/* The key reference as Markdown (sim --list-markdown): one table per section, each
 * key with its type, default, allowed values (from its table's bounds and choices)
 * and meaning.  docs/manual.md holds this text between two markers (its sections are
 * level-4 headings there), `make manual` rewrites it, and tests/unit/test_params.c
 * checks that it is current. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

static const char *type_word(enum cfg_type type)
{
    static const char *const words[] = { [CFG_INT] = "integer", [CFG_UINT] = "integer", [CFG_REAL] = "number",
                                         [CFG_BOOL] = "boolean", [CFG_CHOICE] = "choice", [CFG_LIST] = "list",
                                         [CFG_TEXT] = "text" };
    return words[type];
}

/* A table cell's text: '|' would end the cell. */
static void put_cell(const char *text, FILE *out)
{
    for (; *text; text++) {
        if (*text == '|')
            fputc('\\', out);
        fputc(*text, out);
    }
}

/* A bound as people write it: 2^k and 10^k for the large round bounds the tables use. */
static void put_number(double v, FILE *out)
{
    int exponent;
    double tens = v >= 1e6 ? log10(v) : 0;
    if (v >= 1024 && frexp(v, &exponent) == 0.5)
        fprintf(out, "2^%d", exponent - 1);
    else if (tens == floor(tens) && tens > 0 && pow(10, tens) == v)
        fprintf(out, "10^%.0f", tens);
    else
        fprintf(out, "%.15g", v);
}

static bool unbounded_above(const struct cfg_key *k)
{
    return k->max >= 1e300 || (k->type != CFG_REAL && k->max >= 9e18);
}

static void put_allowed(const struct config *cfg, size_t i, FILE *out)
{
    const struct cfg_key *k = cfg_key_at(cfg, i);
    switch (k->type) {
    case CFG_CHOICE: {
        const struct cfg_choices *choices = cfg->slot[i].choices;
        for (size_t c = 0; choices->name(c); c++) {
            fprintf(out, "%s`%s`: ", c ? "; " : "", choices->name(c));
            put_cell(choices->help(c), out);
        }
        return;
    }
    case CFG_BOOL:
        fputs("`true`, `false`", out);
        return;
    case CFG_TEXT:
        fputs("text", out);
        return;
    case CFG_UINT:
        fputs("0 to 2^64 − 1", out);
        return;
    case CFG_LIST:
        fputs("comma-separated numbers, each ", out);
        break;
    case CFG_INT:
    case CFG_REAL:
        break;
    }
    if (unbounded_above(k)) {
        fputs(k->min_exclusive ? "> " : "≥ ", out);
        put_number(k->min, out);
    } else if (k->min_exclusive) {
        fputs("> ", out);
        put_number(k->min, out);
        fputs(" and ≤ ", out);
        put_number(k->max, out);
    } else {
        put_number(k->min, out);
        fputs(" to ", out);
        put_number(k->max, out);
    }
}

void cfg_print_keys_markdown(const struct config *cfg, FILE *out)
{
    const char *section = "";
    for (size_t i = 0; i < cfg_key_count(cfg); i++) {
        const struct cfg_key *k = cfg_key_at(cfg, i);
        if (strcmp(section, k->section) != 0) {
            section = k->section;
            fprintf(out, "%s#### `[%s]`\n\n", i ? "\n" : "", section);
            fputs("| key | type | default | allowed values | meaning |\n|---|---|---|---|---|\n", out);
        }
        fprintf(out, "| `%s` | %s | ", k->name, type_word(k->type));
        if (k->fallback[0])
            fprintf(out, "`%s`", k->fallback);
        else
            fputs("(none)", out);
        fputs(" | ", out);
        put_allowed(cfg, i, out);
        fputs(" | ", out);
        put_cell(k->help, out);
        fputs(" |\n", out);
    }
}
