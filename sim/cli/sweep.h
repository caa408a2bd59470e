/* Parameter sweeps: the cross product of --sweep specs, every point a whole run
 * (run.replications replications, with their intervals), one row per point.
 *
 * Promise:
 * - A spec is SECTION.KEY=A:B:STEP (A, A+STEP, ... up to B, with 1e-9 steps of slack;
 *   exact, in 64-bit integers, for a whole-number key with whole A, B and STEP)
 *   or SECTION.KEY=V1,V2,...  Each value is checked by the config loader and kept in
 *   the form the CSV prints (0.30000000000000004 becomes 0.3).  The first spec is the
 *   outermost loop, the last one varies fastest.
 * - sweep_plan_build() reads the configuration file once (every point, in this process,
 *   a child or an MPI rank, loads that same text: an edit of the file during the sweep
 *   changes nothing), then loads every point's config and builds its network before any
 *   point runs: a bad spec, or a value a point's config check rejects, is one line on
 *   stderr naming the spec (or the point) and status 2, before any output exists.  A
 *   held stop signal ends the plan with one line and status 130.
 *   A point the stability check refuses (saturated, run.allow_unstable false) is not
 *   run; its row says saturated = true, stop_reason "unstable: not run", with empty
 *   figures, and the sweep goes on.
 * - A point whose run fails without a report (a wormhole deadlock, an error, a crash)
 *   keeps a row too, built like that one: stop_reason "deadlock: not completed" or
 *   "failed: not completed", empty figures; the sweep goes on and exits 1.
 * - A point's run.seed is rng_text_seed(base, its coordinates as "section.key=value\n"
 *   lines in config-key order), where base is the swept run.seed value if run.seed is
 *   swept, else the config's run.seed.  It depends on nothing else: not on the point's
 *   index, the other points, or the order of the --sweep options.  A point without
 *   coordinates (no --sweep, or only run.seed swept) keeps base itself.  Every row
 *   prints its run.seed, so any row can be re-run alone with -s and --seed.
 * - With --common-random-numbers every point's run.seed is base itself (the swept
 *   run.seed value if run.seed is swept, else the config's): the points then differ
 *   only by their coordinates, not by sampling noise (common random numbers).
 * - A point's output is exactly what `sim -s <coordinates> --seed <seed> CONFIG`
 *   prints.  They are joined in sweep order, whatever order they finish in: CSV one
 *   header and one row per point, JSON an array of the single-run objects, table each
 *   table after a "# point i/n: coordinates" line.  A point that did not finish (sweep
 *   interrupted) has no row; the finished ones are all written (a CSV with none still
 *   has its header line).
 * - Files: sweep_spec.c (specs, order, seeds), sweep.c (plan, in-process point, output
 *   in sweep order), sweep_execute.c (the whole sweep: its -o file and its end).
 * - Runners: sweep_run_local() (sweep_run.c): -j N child processes of this binary,
 *   supervised with libev; sweep_mpi_main() (sweep_mpi.c, built with -DSIM_MPI): MPI
 *   ranks take points in turn, rank 0 writes.  Same bytes either way (--no-timing).
 * Exit status of a sweep: 0 done, 1 a point failed or output error (the output lost,
 * e.g. a closed pipe, stops the running points: one line on stderr), 2 bad input,
 * 124 some point stopped by run.max_wall_seconds (its row is kept, marked), 130
 * interrupted by SIGINT, SIGTERM, SIGHUP or SIGQUIT (finished rows kept; one line says
 * how many were written and which points are missing).
 */
#ifndef SIM_SWEEP_H
#define SIM_SWEEP_H

#include "sweep_csv.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../config/config.h"
#include "../report/report.h"

/* SWEEP_MAX_SETTINGS: the -s options a point's child process accepts (main.c's limit);
 * a point passes the user's -s, its coordinates and its run.seed. */
enum { SWEEP_MAX_DIMS = 16, SWEEP_MAX_POINTS = 100000, SWEEP_MAX_SETTINGS = 256 };
enum { SWEEP_FAILED = 1, SWEEP_BAD_INPUT = 2, SWEEP_WALL_LIMIT = 124, SWEEP_INTERRUPTED = 130 };

struct sweep_args {
    const char *config;
    const char *const *overrides; /* -s SECTION.KEY=VALUE, in order */
    size_t n_overrides;
    const char *const *specs; /* --sweep, in order */
    size_t n_specs;
    enum report_format fmt;
    const char *output; /* NULL: stdout */
    unsigned jobs;      /* child processes at a time */
    int progress;       /* 1 progress bar on stderr, 0 none, -1 when stderr is a terminal */
    bool omit_timing;   /* --no-timing */
    bool common_random_numbers; /* --common-random-numbers: sweep_common_seed() for every point */
    const struct cfg_text *config_text; /* the text of config already read (MPI: rank 0's), or NULL */
};

struct sweep_dim {
    const char *spec;
    int key;              /* position in the config layout (the same for every config) */
    const struct cfg_key *row; /* its row: section, name, type */
    size_t count;
    char **values; /* canonical text */
};

struct sweep {
    size_t dims;
    struct sweep_dim dim[SWEEP_MAX_DIMS];
    size_t points; /* product of the counts */
};

/* Parses the specs; on failure writes a one-line reason naming the spec into why. */
bool sweep_parse(struct sweep *sw, const char *const *specs, size_t n, char *why, size_t size);
void sweep_free(struct sweep *sw);
/* Index into dim[d].values of point `point`. */
size_t sweep_coordinate(const struct sweep *sw, size_t point, size_t d);
/* "section.key=value section.key=value" in spec order. */
void sweep_label(const struct sweep *sw, size_t point, char *buf, size_t size);
uint64_t sweep_point_seed(const struct sweep *sw, size_t point, uint64_t base_seed);
/* --common-random-numbers: the base seed of the point (its swept run.seed, else base_seed). */
uint64_t sweep_common_seed(const struct sweep *sw, size_t point, uint64_t base_seed);

enum point_state { POINT_PENDING, POINT_RUNNING, POINT_DONE, POINT_LOST };

struct sweep_point {
    const char **settings; /* the user's -s, the coordinates, run.seed=S */
    size_t n_settings;
    char label[512];
    enum point_state state;
    int status; /* as `sim` exits for this point alone: 0, 124, 130, 1 */
    char *text; /* its output once done */
    size_t len;
};

struct sweep_plan {
    const struct sweep_args *args;
    struct sweep sw;
    size_t n;
    struct sweep_point *point;
    FILE *out;
    size_t next_emit, emitted;
    bool out_failed; /* a write failed: said once on stderr, nothing more is written */
    bool interrupted; /* a stop signal stopped the sweep: said once when its rows are written */
    struct cfg_text config; /* the configuration's text, read once: every point loads these bytes */
    struct sweep_csv csv; /* CSV: the first point's header, every row under it */
    char **key_names;     /* "section.key" of every config key, in listing order (csv.key_order) */
    size_t n_key_names;
    char *first_header;   /* CSV: point 0's header line (not ended), to tell when columns differ */
    size_t first_header_len;
};

/* Parses, loads and checks every point; prints the error and returns 2 on bad input. */
int sweep_plan_build(struct sweep_plan *p, const struct sweep_args *a);
void sweep_plan_free(struct sweep_plan *p);
/* Runs point i in this process; *text (malloc'd) is what `sim` prints for it alone.
 * Returns the status `sim` would exit with for it (0, 1, 124, 130). */
int sweep_point_run(const struct sweep_plan *p, size_t i, char **text, size_t *len);
/* Writes the done points in front of the first unfinished one (all done points when
 * final, then closes the JSON array; a CSV with no row still gets its header, that of
 * point 1).  Returns false on an output error, which it alone reports, once (a closed
 * pipe, EPIPE, is one: the runner then stops its children). */
bool sweep_emit(struct sweep_plan *p, bool final);
/* Point i failed with `status` (as `sim` exited for it: RUN_DEADLOCK, 1, 2, 128 + a
 * signal) and left no report: its marked row replaces whatever text it had, and it
 * is POINT_DONE.  False (POINT_LOST, no text) when even that row cannot be built. */
bool sweep_point_mark_failed(struct sweep_plan *p, size_t i, int status);

/* The runners; each returns the sweep's exit status.  sweep_execute() builds the plan,
 * lets `runner` fill the points, and (when writer) writes the rows to stdout or,
 * atomically, to the -o file. */
int sweep_run_local(struct sweep_plan *p, void *unused);
/* ctx is handed to runner: the runner's own state (the MPI ranks), never a global. */
int sweep_execute(const struct sweep_args *a, int (*runner)(struct sweep_plan *, void *ctx), void *ctx, bool writer);
int sweep_main(const struct sweep_args *a);
#ifdef SIM_MPI
int sweep_mpi_main(const struct sweep_args *a);
#endif

#endif
