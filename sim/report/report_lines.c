/* The engines' table lines: templates filled in with their group's figures.
 *
 * A template is text with placeholders: {name} is the figure's value as the table
 * prints every number (10 significant digits, "-" when it does not exist) or its text;
 * {name:conversion} formats it with a printf conversion instead (one ending in s pads
 * or cuts that text, %.0f and the like take the number); {a-b} is the difference of
 * two figures, taken here so that it is the difference of the replications' averages;
 * a leading {?name} prints the line only when that figure is a number or a true flag.
 * Figures are looked up in the line's own group (and class, for class lines). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

enum { LINE_MAX = 2 * FIGURE_TEXT_MAX };

/* The value of `name` (or of `a-b`) in the group and class; NaN when absent. */
static double value_of(const struct figures *list, const char *group, int cls, const char *name,
                       const struct figure **found)
{
    *found = NULL;
    const char *minus = strchr(name, '-');
    if (minus) {
        char a[FIGURE_NAME_MAX];
        snprintf(a, sizeof a, "%.*s", (int)(minus - name), name);
        const struct figure *fa = figures_find(list, group, cls, a), *fb = figures_find(list, group, cls, minus + 1);
        return fa && fb ? fa->value - fb->value : NAN;
    }
    *found = figures_find(list, group, cls, name);
    return *found ? (*found)->value : NAN;
}

/* One placeholder, name[:conversion], appended to out. */
/* The conversion letter of a printf conversion with flags, width and precision only
 * ("%-12.12s", "%.3f"), or 0 when `c` is anything else (so that a template can never
 * pass a value printf does not expect). */
static char safe_conversion(const char *c)
{
    if (*c++ != '%')
        return 0;
    c += strspn(c, "-+ 0#");
    c += strspn(c, "0123456789");
    if (*c == '.')
        c += 1 + strspn(c + 1, "0123456789");
    return c[0] && !c[1] && strchr("feEgGs", c[0]) ? c[0] : 0;
}

static void fill(char *out, size_t size, const struct figures *list, const char *group, int cls, const char *token)
{
    char name[FIGURE_NAME_MAX * 2 + 2], conversion[16] = "";
    const char *colon = strchr(token, ':');
    snprintf(name, sizeof name, "%.*s", (int)(colon ? (size_t)(colon - token) : strlen(token)), token);
    if (colon)
        snprintf(conversion, sizeof conversion, "%s", colon + 1);
    const struct figure *f;
    double v = value_of(list, group, cls, name, &f);
    char text[FIGURE_TEXT_MAX];
    size_t used = strlen(out);
    size_t len = strlen(conversion);
    char kind = safe_conversion(conversion);
    if (len && !kind) { /* not one conversion we can pass a value to: the token as text */
        snprintf(out + used, size - used, "{%s}", token);
        return;
    }
    bool as_number = kind && kind != 's';
    if (as_number) {
        snprintf(out + used, size - used, conversion, v);
        return;
    }
    if (f && f->kind == FIGURE_TEXT)
        snprintf(text, sizeof text, "%s", f->text);
    else
        report_fmt_number(text, sizeof text, v, "-");
    snprintf(out + used, size - used, len ? conversion : "%s", text);
}

/* Fills in template t; false when its condition does not hold. */
static bool render(char *out, size_t size, const struct figures *list, const struct figure *t, int cls)
{
    const char *s = t->text;
    out[0] = '\0';
    if (strncmp(s, "{?", 2) == 0) {
        const char *end = strchr(s, '}');
        if (!end)
            return false; /* a malformed template prints nothing rather than garbage */
        char name[FIGURE_NAME_MAX];
        snprintf(name, sizeof name, "%.*s", (int)(end - s - 2), s + 2);
        const struct figure *f = figures_find(list, t->group, cls, name);
        if (!f || (f->kind == FIGURE_NUMBER && isnan(f->value)) || (f->kind == FIGURE_FLAG && !f->value))
            return false;
        s = end + 1;
    }
    while (*s) {
        const char *open = strchr(s, '{');
        size_t used = strlen(out);
        if (!open) {
            snprintf(out + used, size - used, "%s", s);
            break;
        }
        snprintf(out + used, size - used, "%.*s", (int)(open - s), s);
        const char *close = strchr(open, '}');
        if (!close) { /* unclosed: the rest is text */
            used = strlen(out);
            snprintf(out + used, size - used, "%s", open);
            break;
        }
        char token[FIGURE_NAME_MAX * 2 + 20];
        snprintf(token, sizeof token, "%.*s", (int)(close - open - 1), open + 1);
        fill(out, size, list, t->group, cls, token);
        s = close + 1;
    }
    return true;
}

unsigned report_lines(FILE *out, const struct run_report *r, enum figure_place place, int cls)
{
    unsigned printed = 0;
    for (unsigned i = 0; i < r->figures.n; i++) {
        const struct figure *t = &r->figures.item[i];
        char line[LINE_MAX];
        if (t->kind != FIGURE_LINE || t->place != place || !render(line, sizeof line, &r->figures, t, cls))
            continue;
        fprintf(out, "%s\n", line);
        printed++;
    }
    return printed;
}

bool report_has_lines(const struct run_report *r, enum figure_place place)
{
    for (unsigned i = 0; i < r->figures.n; i++)
        if (r->figures.item[i].kind == FIGURE_LINE && r->figures.item[i].place == place)
            return true;
    return false;
}

bool report_delay_withheld(const struct run_report *r)
{
    for (unsigned i = 0; i < r->figures.n; i++) {
        const struct figure *f = &r->figures.item[i];
        if (f->kind == FIGURE_FLAG && (f->hints & FIGURE_WITHHOLDS_DELAY) && f->value)
            return true;
    }
    return false;
}

void report_adopt_saturation(struct run_report *r)
{
    if (r->stability.saturated)
        return;
    for (unsigned i = 0; i < r->figures.n; i++) {
        const struct figure *f = &r->figures.item[i];
        if (f->kind != FIGURE_FLAG || !(f->hints & FIGURE_WITHHOLDS_DELAY) || !f->value)
            continue;
        r->stability.saturated = true;
        snprintf(r->stability.why, sizeof r->stability.why, "%s: the run's backlog grew", f->group);
        for (unsigned j = 0; j < r->figures.n; j++) { /* the group's own words, when it has them */
            const struct figure *g = &r->figures.item[j];
            if (g->kind == FIGURE_TEXT && strcmp(g->group, f->group) == 0 && g->text[0] &&
                strcmp(g->name, "saturation_note") == 0)
                snprintf(r->stability.why, sizeof r->stability.why, "%s", g->text);
        }
        return;
    }
}
