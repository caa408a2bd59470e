/* The MPI sweep runner (bin/sim-mpi, `make mpi`, compiled with mpicc -DSIM_MPI).
 *
 * Rank 0 reads the configuration file once and sends its text to every rank; every
 * rank builds the same plan from it (so every rank refuses a bad sweep alike, rank 0
 * alone saying why).  Point i belongs to rank i mod size (round robin); a rank runs
 * its points in order, in its own process (sweep_point_run(), the code path of a
 * single `sim` run, so the bytes are the same as the child processes' of -j), and
 * sends each point's status and text to rank 0.  Rank 0 takes the points in sweep
 * order, its own as it runs them and the others' as they arrive, and writes them.
 * Points the stability check refuses are written by rank 0 without a run, and so are
 * the marked rows of points that failed without a report (a deadlock).  After an
 * interrupted point a rank runs no more points (it still reports each as lost).
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

enum { TAG_HEADER = 1, TAG_TEXT = 2 };

/* This process's part of the sweep: handed to every function, never a global. */
struct mpi_sweep {
    int rank, ranks;
    int saved_stderr; /* ranks other than 0 while the plan is checked; -1 otherwise */
    bool interrupted; /* a point was interrupted here: run no more */
};

/* Waits for a request by polling every millisecond: Open MPI's blocking calls spin,
 * and a rank that waits (rank 0 for a point, any rank for the others at the end)
 * would take a core from the ranks still simulating when cores are shared. */
static void wait_politely(MPI_Request *request)
{
    int done = 0;
    struct timespec pause = { 0, 1000000 };
    while (MPI_Test(request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        nanosleep(&pause, NULL);
}

/* Runs point i here unless the sweep was interrupted; the status as `sim` would exit. */
static int run_here(struct mpi_sweep *m, struct sweep_plan *p, size_t i, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    if (m->interrupted)
        return SWEEP_INTERRUPTED;
    int status = sweep_point_run(p, i, text, len);
    m->interrupted |= status == SWEEP_INTERRUPTED;
    return status;
}

static void worker(struct mpi_sweep *m, struct sweep_plan *p)
{
    for (size_t i = (size_t)m->rank; i < p->n; i += (size_t)m->ranks) {
        if (p->point[i].state != POINT_PENDING)
            continue; /* rank 0 writes it without a run */
        char *text;
        size_t len;
        long long header[2];
        header[0] = run_here(m, p, i, &text, &len);
        header[1] = (long long)len;
        MPI_Send(header, 2, MPI_LONG_LONG, 0, TAG_HEADER, MPI_COMM_WORLD);
        if (len)
            MPI_Send(text, (int)len, MPI_CHAR, 0, TAG_TEXT, MPI_COMM_WORLD);
        free(text);
    }
}

static int writer(struct mpi_sweep *m, struct sweep_plan *p)
{
    bool failed = false, wall_limited = false;
    bool show_progress = p->args->progress < 0 ? isatty(STDERR_FILENO) : p->args->progress;
    for (size_t i = 0; i < p->n; i++) {
        struct sweep_point *sp = &p->point[i];
        if (sp->state == POINT_PENDING) {
            int owner = (int)(i % (size_t)m->ranks);
            if (owner == 0) {
                sp->status = run_here(m, p, i, &sp->text, &sp->len);
            } else {
                long long header[2];
                MPI_Request request;
                MPI_Irecv(header, 2, MPI_LONG_LONG, owner, TAG_HEADER, MPI_COMM_WORLD, &request);
                wait_politely(&request);
                sp->status = (int)header[0];
                sp->len = (size_t)header[1];
                sp->text = sp->len ? malloc(sp->len + 1) : NULL;
                if (sp->len && !sp->text) {
                    fputs("sim: out of memory\n", stderr);
                    MPI_Abort(MPI_COMM_WORLD, SWEEP_FAILED);
                }
                if (sp->len) {
                    MPI_Recv(sp->text, (int)sp->len, MPI_CHAR, owner, TAG_TEXT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    sp->text[sp->len] = '\0';
                }
            }
            bool kept = sp->status == 0 || sp->status == SWEEP_WALL_LIMIT || (sp->status == SWEEP_FAILED && sp->len);
            sp->state = kept ? POINT_DONE : POINT_LOST;
            wall_limited |= sp->status == SWEEP_WALL_LIMIT;
            m->interrupted |= sp->status == SWEEP_INTERRUPTED;
            if (sp->status != 0 && sp->status != SWEEP_WALL_LIMIT && sp->status != SWEEP_INTERRUPTED) {
                fprintf(stderr, "sim: sweep point %zu/%zu (%s) failed on rank %d: exit status %d\n", i + 1, p->n,
                        sp->label, owner, sp->status);
                failed = true;
                if (!kept) /* no report (a deadlock, an error): a marked row in its place */
                    sweep_point_mark_failed(p, i, sp->status);
            }
        }
        if (!sweep_emit(p, false))
            failed = true;
        if (show_progress)
            fprintf(stderr, "\r[sweep] %zu/%zu points on %d ranks   ", i + 1, p->n, m->ranks);
    }
    if (show_progress)
        fputs("\n", stderr);
    if (m->interrupted && !failed)
        return SWEEP_INTERRUPTED;
    return failed ? SWEEP_FAILED : wall_limited ? SWEEP_WALL_LIMIT : 0;
}

static int run_mpi(struct sweep_plan *p, void *ctx)
{
    struct mpi_sweep *m = ctx;
    if (m->saved_stderr >= 0) { /* the plan is good: errors of runs are worth seeing */
        dup2(m->saved_stderr, STDERR_FILENO);
        close(m->saved_stderr);
        m->saved_stderr = -1;
    }
    if (m->rank == 0)
        return writer(m, p);
    worker(m, p);
    return 0;
}

/* Rank 0 reads the configuration once and hands every rank its text, so that all
 * points load the same bytes whatever happens to the file meanwhile.  0, or the
 * sweep's status (rank 0 has said why) when it cannot be read. */
static int share_config(struct mpi_sweep *m, struct cfg_text *config)
{
    long long len = 0; /* negative: minus the status */
    if (m->rank == 0) {
        struct cfg_error err;
        enum text_status read = cfg_read_whole_file(config->path, &config->text, &config->len, &err);
        if (read == TEXT_END) {
            len = (long long)config->len;
        } else if (read == TEXT_INTERRUPTED) {
            fputs("sim: interrupted before the sweep started\n", stderr);
            len = -SWEEP_INTERRUPTED;
        } else {
            cfg_error_print(&err, stderr);
            len = -SWEEP_BAD_INPUT;
        }
    }
    MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (len < 0)
        return (int)-len;
    if (m->rank != 0) {
        config->len = (size_t)len;
        if (!(config->text = malloc(config->len + 1))) {
            fputs("sim: out of memory\n", stderr);
            MPI_Abort(MPI_COMM_WORLD, SWEEP_FAILED);
        }
    }
    MPI_Bcast(config->text, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD); /* at most CFG_FILE_MAX_BYTES */
    config->text[len] = '\0';
    return 0;
}

int sweep_mpi_main(const struct sweep_args *a)
{
    struct mpi_sweep m = { .saved_stderr = -1 };
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m.ranks);
    if (m.rank != 0) { /* every rank checks the sweep; rank 0 alone says what is wrong */
        int null = open("/dev/null", O_WRONLY);
        m.saved_stderr = dup(STDERR_FILENO);
        if (null >= 0) {
            dup2(null, STDERR_FILENO);
            close(null);
        }
    }
    struct sweep_args mine = *a;
    mine.progress = m.rank == 0 ? a->progress : 0;
    struct cfg_text config = { a->config, NULL, 0 };
    int status = share_config(&m, &config);
    mine.config_text = &config;
    if (status == 0)
        status = sweep_execute(&mine, run_mpi, &m, m.rank == 0);
    free(config.text);
    MPI_Request request;
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    wait_politely(&request);
    MPI_Finalize();
    return status;
}
