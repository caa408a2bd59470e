/* Named figures: what an engine (or any module) reports about its run, as a list of
 * names and values with the hints the writers and replications need.
 *
 * Promise: a module reports through a figure_sink, which knows nothing of the module;
 * figures_sink() gives one that appends to a `struct figures` list, in the order the
 * module reports them (that order is the output's).  A figure belongs to a group (the
 * JSON object it is printed in, the CSV prefix "group.name"); per-class figures carry
 * their channel class.  Lines are table templates: text with {name} or
 * {name:printf-conversion} placeholders, filled in by the report with the group's
 * figures once replications are folded (see sim/report/report_lines.c).  Names are
 * lower-case, dotted only by the group.  Past FIGURES_MAX a figure is dropped (a module
 * reports a fixed, small number).
 * Needs: nothing but the C library.
 */
#ifndef SIM_CORE_FIGURES_H
#define SIM_CORE_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

enum { FIGURES_MAX = 160, FIGURE_NAME_MAX = 48, FIGURE_TEXT_MAX = 320 };

enum figure_kind {
    FIGURE_NUMBER, /* a value; NaN when it does not exist */
    FIGURE_FLAG,   /* true or false (value 1 or 0) */
    FIGURE_TEXT,   /* a note; empty prints as null */
    FIGURE_LINE,   /* a table line template (text), placed by `place` */
};

/* Hints: how replications fold a figure and where the writers put it. */
enum figure_hints {
    FIGURE_TOTAL = 1u << 0,      /* replications add it up (default: average it; a flag: any; a text: first non-empty) */
    FIGURE_TABLE_ONLY = 1u << 1, /* used by table lines only: no CSV column, no JSON field */
    /* The group's CSV columns come before the analytic ones and its JSON object after
     * "replications" (default: after the analytic columns, JSON object after "channels"). */
    FIGURE_EARLY = 1u << 2,
    /* A flag that, when true, means the delay means mean nothing (past saturation): the
     * report withholds them and prints the group's "saturation_note" in the table header. */
    FIGURE_WITHHOLDS_DELAY = 1u << 3,
    /* The module did not run: its figures are named only (NaN), so that its CSV
     * columns are in every report; its JSON object is null. */
    FIGURE_NOT_RUN = 1u << 4,
};

/* Where a table line goes. */
enum figure_place {
    FIGURE_PLACE_WORKLOAD,    /* instead of the header's workload line */
    FIGURE_PLACE_HEADER,      /* after the header's "measured" line (a warning) */
    FIGURE_PLACE_DELAY_PARTS, /* instead of the node-part and link-part lines */
    FIGURE_PLACE_RATES,       /* after the throughput line */
    FIGURE_PLACE_CLASS,       /* ends each channel class's line instead of its analytic utilisation */
};

enum { FIGURE_NO_CLASS = -1 };

struct figure {
    const char *group;          /* static string */
    char name[FIGURE_NAME_MAX];
    enum figure_kind kind;
    unsigned hints;             /* enum figure_hints */
    int cls;                    /* channel class, FIGURE_NO_CLASS for a whole-network figure */
    enum figure_place place;    /* FIGURE_LINE only */
    double value;
    char text[FIGURE_TEXT_MAX]; /* FIGURE_TEXT and FIGURE_LINE */
};

struct figures {
    unsigned n;
    struct figure item[FIGURES_MAX];
};

/* Where a module reports.  Every call names the group; `hints` as above. */
struct figure_sink {
    void *ctx;
    void (*number)(void *ctx, const char *group, const char *name, double v, unsigned hints);
    void (*flag)(void *ctx, const char *group, const char *name, bool v, unsigned hints);
    void (*text)(void *ctx, const char *group, const char *name, const char *v, unsigned hints);
    /* A figure of channel class cls (JSON: in the class's object; table: class lines). */
    void (*class_number)(void *ctx, const char *group, int cls, const char *name, double v);
    void (*line)(void *ctx, const char *group, enum figure_place place, const char *template_text);
};

/* A sink appending to *list.  not_run: the module did not run; its numbers, flags
 * and texts are listed without values (FIGURE_NOT_RUN), its class figures and lines
 * not at all. */
struct figure_sink figures_sink(struct figures *list, bool not_run);
/* The figure of that group and name (cls: FIGURE_NO_CLASS or a class), NULL if none. */
const struct figure *figures_find(const struct figures *list, const char *group, int cls, const char *name);

#endif
