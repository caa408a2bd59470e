/* The list sink of named figures (figures.h). */
#include "figures.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The next free entry, named; NULL when the list is full. */
static struct figure *append(void *ctx, const char *group, const char *name, enum figure_kind kind, unsigned hints)
{
    struct figures *list = ctx;
    if (list->n == FIGURES_MAX)
        return NULL;
    struct figure *f = &list->item[list->n++];
    memset(f, 0, sizeof *f);
    f->group = group;
    snprintf(f->name, sizeof f->name, "%s", name);
    f->kind = kind;
    f->hints = hints;
    f->cls = FIGURE_NO_CLASS;
    return f;
}

/* The sink's context is the list itself: a sink for a module that did not run is
 * told apart by its own functions (below), so it needs no state of its own. */
static void number(void *ctx, const char *group, const char *name, double v, unsigned hints)
{
    struct figure *f = append(ctx, group, name, FIGURE_NUMBER, hints);
    if (f)
        f->value = v;
}

static void flag(void *ctx, const char *group, const char *name, bool v, unsigned hints)
{
    struct figure *f = append(ctx, group, name, FIGURE_FLAG, hints);
    if (f)
        f->value = v;
}

static void text(void *ctx, const char *group, const char *name, const char *v, unsigned hints)
{
    struct figure *f = append(ctx, group, name, FIGURE_TEXT, hints);
    if (f)
        snprintf(f->text, sizeof f->text, "%s", v);
}

static void class_number(void *ctx, const char *group, int cls, const char *name, double v)
{
    struct figure *f = append(ctx, group, name, FIGURE_NUMBER, FIGURE_TABLE_ONLY);
    if (f) {
        f->cls = cls;
        f->value = v;
    }
}

static void line(void *ctx, const char *group, enum figure_place place, const char *template_text)
{
    struct figure *f = append(ctx, group, "", FIGURE_LINE, FIGURE_TABLE_ONLY);
    if (f) {
        f->place = place;
        snprintf(f->text, sizeof f->text, "%s", template_text);
    }
}

/* A module that did not run: names only, no values, no lines. */
static void absent_number(void *ctx, const char *group, const char *name, double v, unsigned hints)
{
    (void)v;
    number(ctx, group, name, NAN, hints | FIGURE_NOT_RUN);
}

static void absent_flag(void *ctx, const char *group, const char *name, bool v, unsigned hints)
{
    (void)v;
    flag(ctx, group, name, false, hints | FIGURE_NOT_RUN);
}

static void absent_text(void *ctx, const char *group, const char *name, const char *v, unsigned hints)
{
    (void)v;
    text(ctx, group, name, "", hints | FIGURE_NOT_RUN);
}

static void absent_class_number(void *ctx, const char *group, int cls, const char *name, double v)
{
    (void)ctx, (void)group, (void)cls, (void)name, (void)v;
}

static void absent_line(void *ctx, const char *group, enum figure_place place, const char *template_text)
{
    (void)ctx, (void)group, (void)place, (void)template_text;
}

struct figure_sink figures_sink(struct figures *list, bool not_run)
{
    if (not_run)
        return (struct figure_sink){ list, absent_number, absent_flag, absent_text, absent_class_number, absent_line };
    return (struct figure_sink){ list, number, flag, text, class_number, line };
}

const struct figure *figures_find(const struct figures *list, const char *group, int cls, const char *name)
{
    for (unsigned i = 0; i < list->n; i++) {
        const struct figure *f = &list->item[i];
        if (f->cls == cls && f->kind != FIGURE_LINE && strcmp(f->group, group) == 0 && strcmp(f->name, name) == 0)
            return f;
    }
    return NULL;
}
