#include "run_files.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = { "--channels", "--nodes", "--histogram", "--series", "--series-interval" };

const char *run_files_option_name(enum run_file which) { return names[which]; }

bool run_files_option(struct run_files_cli *f, enum run_file which, const char *value)
{
    if (which != RUN_FILE_SERIES_INTERVAL) {
        f->path[which] = value;
        return true;
    }
    char *end;
    double t = strtod(value, &end);
    if (end == value || *end || !isfinite(t) || t <= 0) {
        fputs("sim: --series-interval '", stderr);
        cfg_put_escaped(value, stderr);
        fputs("': a positive number of time units\n", stderr);
        return false;
    }
    f->interval_text = value;
    f->interval = t;
    return true;
}

bool run_files_any(const struct run_files_cli *f)
{
    for (int i = 0; i < RUN_FILES; i++)
        if (f->path[i])
            return true;
    return f->interval_text != NULL;
}

bool run_files_check(const struct run_files_cli *f, const struct config *cfg)
{
    const char *first = NULL;
    for (int i = 0; i < RUN_FILES && !first; i++)
        if (f->path[i])
            first = names[i];
    if (f->interval_text && !f->path[RUN_FILE_SERIES]) {
        fputs("sim: --series-interval goes with --series\n", stderr);
        return false;
    }
    if (first && cfg->run.replications > 1) {
        fprintf(stderr, "sim: %s writes one run's figures: set run.replications = 1 (each replication is a run "
                        "of its own seed, --seed)\n", first);
        return false;
    }
    return true;
}

size_t run_files_named(const struct run_files_cli *f, struct named_file *out)
{
    size_t n = 0;
    for (int i = 0; i < RUN_FILES; i++)
        if (f->path[i])
            out[n++] = (struct named_file){ names[i], f->path[i], true };
    return n;
}

bool run_files_open(struct run_files_cli *f, struct config *cfg)
{
    const char **slot[RUN_FILES] = { &cfg->files.channels, &cfg->files.nodes, &cfg->files.histogram,
                                     &cfg->files.series };
    for (int i = 0; i < RUN_FILES; i++) {
        if (!f->path[i])
            continue;
        if (!output_open(&f->file[i], f->path[i], names[i] + 2)) {
            run_files_discard(f);
            return false;
        }
        f->opened[i] = true;
        *slot[i] = output_write_path(&f->file[i]);
    }
    cfg->files.series_interval = f->interval;
    return true;
}

bool run_files_commit(struct run_files_cli *f)
{
    bool ok = true;
    for (int i = 0; i < RUN_FILES; i++)
        if (f->opened[i]) {
            f->opened[i] = false;
            ok = (ok ? output_commit(&f->file[i], NULL, true) : (output_discard(&f->file[i]), false)) && ok;
        }
    return ok;
}

void run_files_discard(struct run_files_cli *f)
{
    for (int i = 0; i < RUN_FILES; i++)
        if (f->opened[i]) {
            f->opened[i] = false;
            output_discard(&f->file[i]);
        }
}
