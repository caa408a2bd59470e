/* A whole sweep: the plan, its -o file (compared with the inputs, written atomically),
 * the runner, the rows in sweep order, and the one line of an interruption (see
 * sweep.h). */
#include <stdio.h>
#include <string.h>

#include "../core/stop_signals.h"
#include "file_identity.h"
#include "output.h"
#include "sweep.h"

/* The one line of an interrupted sweep: how many points were written, and which are
 * missing (numbered as in the table's "# point i/n"), so that a sweep over those
 * coordinates alone can finish it (a point's seed depends on its coordinates only). */
static void say_interrupted(const struct sweep_plan *p)
{
    char missing[256] = "";
    size_t used = 0, written = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->point[i].state == POINT_DONE) {
            written++;
            continue;
        }
        size_t last = i;
        while (last + 1 < p->n && p->point[last + 1].state != POINT_DONE)
            last++;
        char range[64];
        if (last > i)
            snprintf(range, sizeof range, "%s%zu-%zu", used ? ", " : "", i + 1, last + 1);
        else
            snprintf(range, sizeof range, "%s%zu", used ? ", " : "", i + 1);
        size_t len = strlen(range);
        if (used + len + sizeof ", ..." < sizeof missing) { /* room left for the ellipsis */
            memcpy(missing + used, range, len + 1);
            used += len;
        } else if (!strstr(missing, "...")) {
            memcpy(missing + used, ", ...", sizeof ", ...");
        }
        i = last;
    }
    fprintf(stderr, "sim: sweep interrupted: %zu of %zu points written%s%s\n", written, p->n,
            written < p->n ? "; missing: " : "", written < p->n ? missing : "");
}

int sweep_execute(const struct sweep_args *a, int (*runner)(struct sweep_plan *, void *ctx), void *ctx, bool writer)
{
    struct sweep_plan plan;
    int status = sweep_plan_build(&plan, a);
    if (status != 0) {
        sweep_plan_free(&plan);
        return status;
    }
    /* -o: checked before any point runs (a bad path is bad input), then written as a
     * single run's -o is (sim/cli/output.h): special files in place, modes kept. */
    struct output_file o;
    bool to_file = writer && a->output;
    const struct named_file files[] = { { "-o", a->output, true }, { "configuration", a->config, false } };
    if (to_file && (!files_distinct(files, 2) || !output_open(&o, a->output, "output"))) {
        sweep_plan_free(&plan);
        return SWEEP_BAD_INPUT;
    }
    if (writer)
        plan.out = to_file ? output_stream(&o) : stdout;
    if (to_file && !plan.out) {
        output_discard(&o);
        sweep_plan_free(&plan);
        return SWEEP_FAILED;
    }
    status = runner(&plan, ctx);
    if (writer) {
        bool ok = sweep_emit(&plan, true);
        if (!ok && to_file) { /* sweep_emit() has said why: the old file stays as it was */
            fclose(plan.out);
            output_discard(&o);
        }
        if (!ok || (to_file && !output_commit(&o, plan.out, true)))
            status = SWEEP_FAILED;
        /* A signal held while the rows were written (the runner holds them again): the
         * output is whole, and the status says the sweep was interrupted. */
        if (stop_signal_held() && !stop_signals_pipe_closed()) {
            plan.interrupted = true;
            if (status == 0 || status == SWEEP_WALL_LIMIT)
                status = SWEEP_INTERRUPTED;
        }
        if (plan.interrupted && !plan.out_failed)
            say_interrupted(&plan);
    }
    sweep_plan_free(&plan);
    return status;
}

int sweep_main(const struct sweep_args *a) { return sweep_execute(a, sweep_run_local, NULL, true); }
