/* Replications in parallel processes, folded in order (see replicate_jobs.h). */
#include "replicate_jobs.h"

#include "../core/stop_signals.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { WAIT_MS = 100, FATAL_MAX = 512 };

/* What a child hands back through its pipe, whole or not at all. */
struct replication_result {
    int status; /* run_setup_replication()'s */
    enum kernel_stop why;
    struct cfg_error err;
    char fatal[FATAL_MAX];
    struct run_report one;
};

struct job {
    pid_t pid; /* 0: a free slot */
    int fd;
    unsigned replication;
    struct replication_result *result; /* being read */
    size_t got;
};

struct jobs_run {
    struct run_setup *setup;
    const struct config *cfg;
    unsigned replications, slots, running, next_start, finished;
    struct job *job;
    struct replication_result **result; /* by replication, once whole; NULL: none came back */
    struct pollfd *poll_fds;            /* one per running job, and the job it is */
    unsigned *poll_job;
    unsigned needed;                    /* replications past the first that fails are not run */
    int first_signal;                   /* 0 none */
    unsigned signals;
    double started;
    bool progress;
};

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Takes a held stop signal (sim/core/stop_signals.h), so that a second one can be seen. */
static int take_signal(void)
{
    sigset_t set;
    stop_signals_set(&set, false);
    struct timespec zero = { 0, 0 };
    int signo = sigtimedwait(&set, NULL, &zero);
    return signo > 0 ? signo : 0;
}

static bool write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size > 0) {
        ssize_t put = write(fd, p, size);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return false;
        p += put;
        size -= (size_t)put;
    }
    return true;
}

/* In the child: runs replication r, writes its result, exits (no atexit, no stdio). */
static _Noreturn void child(struct jobs_run *jr, unsigned r, int fd)
{
    for (unsigned j = 0; j < jr->slots; j++) /* the other children's pipes are not ours */
        if (jr->job[j].pid > 0)
            close(jr->job[j].fd);
    struct replication_result *res = calloc(1, sizeof *res);
    if (!res)
        _exit(1);
    double limit = jr->cfg->run.max_wall_seconds; /* all replications together, from the start */
    if (limit > 0) {
        double used = now_seconds() - jr->started;
        limit = limit > used ? limit - used : 1e-9;
    }
    res->status = run_setup_replication(jr->setup, r, false, limit, &res->one, &res->why, res->fatal,
                                        sizeof res->fatal, &res->err);
    _exit(write_all(fd, res, sizeof *res) ? 0 : 1);
}

/* Sends signo to the running children of replications first, first + 1, ... */
static void stop_jobs_from(struct jobs_run *jr, unsigned first, int signo)
{
    for (unsigned j = 0; j < jr->slots; j++)
        if (jr->job[j].pid > 0 && jr->job[j].replication >= first)
            kill(jr->job[j].pid, signo);
}

static bool start_job(struct jobs_run *jr, struct job *job, unsigned r)
{
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    fflush(NULL); /* nothing buffered may be written twice */
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child(jr, r, fds[1]);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return false;
    }
    *job = (struct job){ .pid = pid, .fd = fds[0], .replication = r };
    jr->running++;
    return true;
}

static void start_jobs(struct jobs_run *jr)
{
    while (!jr->first_signal && jr->running < jr->slots && jr->next_start < jr->replications &&
           jr->next_start <= jr->needed) {
        unsigned j = 0;
        while (jr->job[j].pid > 0)
            j++;
        unsigned r = jr->next_start++;
        if (!start_job(jr, &jr->job[j], r)) {
            fprintf(stderr, "sim: replication %u: cannot start a process: %s\n", r, strerror(errno));
            if (r < jr->needed)
                jr->needed = r;
        }
    }
}

/* The child of `job` has closed its pipe: reaps it and keeps its result if whole. */
static void finish_job(struct jobs_run *jr, struct job *job)
{
    close(job->fd);
    int st = 0;
    while (waitpid(job->pid, &st, 0) < 0 && errno == EINTR)
        ;
    unsigned r = job->replication;
    bool whole = job->result && job->got == sizeof *job->result && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (whole) {
        jr->result[r] = job->result;
    } else {
        free(job->result);
        /* not stopped by us or a signal: a failure of its own (a crash), said here */
        if (!jr->first_signal && r <= jr->needed) {
            if (WIFSIGNALED(st))
                fprintf(stderr, "sim: replication %u died of signal %d\n", r, WTERMSIG(st));
            else
                fprintf(stderr, "sim: replication %u failed: exit status %d\n", r, WEXITSTATUS(st));
        }
    }
    bool fails = !whole ? !jr->first_signal : jr->result[r]->status != 0 || jr->result[r]->why != KERNEL_DONE;
    if (fails && r < jr->needed) { /* the fold stops at r: later replications are not needed */
        jr->needed = r;
        stop_jobs_from(jr, r + 1, SIGKILL);
    }
    *job = (struct job){ 0 };
    jr->running--;
    jr->finished++;
    if (jr->progress)
        fprintf(stderr, "\r[replications] %u/%u done, %u running   ", jr->finished, jr->replications, jr->running);
}

static void read_job(struct jobs_run *jr, struct job *job)
{
    if (!job->result)
        job->result = malloc(sizeof *job->result);
    for (;;) {
        char sink[4096];
        char *into = job->result && job->got < sizeof *job->result ? (char *)job->result + job->got : sink;
        size_t room = into == sink ? sizeof sink : sizeof *job->result - job->got;
        ssize_t got = read(job->fd, into, room);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) { /* end of file (or an error): the child is done */
            finish_job(jr, job);
            return;
        }
        if (into != sink)
            job->got += (size_t)got;
        return; /* more when poll says so */
    }
}

/* A signal while waiting: the first stops every replication at its next event
 * (SIGTERM, which they hold and see as a single run does), a second kills them. */
static void on_signal(struct jobs_run *jr, int signo)
{
    if (!jr->first_signal)
        jr->first_signal = signo;
    stop_jobs_from(jr, 0, jr->signals++ ? SIGKILL : SIGTERM);
}

/* Signals are held, so poll() is never cut short by one: it is looked for every
 * WAIT_MS milliseconds. */
static void supervise(struct jobs_run *jr)
{
    start_jobs(jr);
    while (jr->running > 0) {
        nfds_t n = 0;
        for (unsigned j = 0; j < jr->slots; j++)
            if (jr->job[j].pid > 0) {
                jr->poll_fds[n] = (struct pollfd){ .fd = jr->job[j].fd, .events = POLLIN };
                jr->poll_job[n++] = j;
            }
        int ready = poll(jr->poll_fds, n, WAIT_MS);
        int signo = take_signal();
        if (signo)
            on_signal(jr, signo);
        for (nfds_t k = 0; ready > 0 && k < n; k++)
            if (jr->poll_fds[k].revents)
                read_job(jr, &jr->job[jr->poll_job[k]]);
        start_jobs(jr);
    }
}

/* Folds the replications in order up to the first that ended the run; returns the
 * run's status as run_replications() would. */
static int fold(struct jobs_run *jr, struct run_report *report, enum kernel_stop *why, struct cfg_error *err)
{
    unsigned r = 0;
    for (; r < jr->replications; r++) {
        struct replication_result *res = jr->result[r];
        if (!res || res->status == RUN_INTERRUPTED)
            break; /* stopped by a signal before it ran, or failed (said) */
        if (res->status != 0) {
            if (res->status == RUN_DEADLOCK)
                fprintf(stderr, "sim: %s\n", res->fatal);
            *err = res->err;
            return res->status;
        }
        report_add_replication(report, &res->one, r);
        *why = res->why;
        if (res->why != KERNEL_DONE)
            break;
    }
    if (r < jr->replications && (!jr->result[r] || jr->result[r]->status == RUN_INTERRUPTED)) {
        if (!jr->first_signal)
            return 1; /* a child failed on its own: said in finish_job() */
        if (r == 0)
            return RUN_INTERRUPTED;
        report->interrupted = true; /* as if the signal had reached replication r at its start */
        report->stop_reason = "signal";
        *why = KERNEL_INTERRUPTED;
    }
    report_finish_replications(report);
    return 0;
}

int run_replications_jobs(const struct config *cfg, unsigned jobs, int progress, struct run_report *report,
                          enum kernel_stop *why, struct cfg_error *err)
{
    struct jobs_run jr = { .cfg = cfg, .replications = (unsigned)cfg->run.replications };
    int status = run_setup_create(cfg, &jr.setup, err);
    if (status != 0)
        return status;
    jr.slots = jobs < jr.replications ? jobs : jr.replications;
    jr.needed = jr.replications;
    jr.job = calloc(jr.slots, sizeof *jr.job);
    jr.result = calloc(jr.replications, sizeof *jr.result);
    jr.poll_fds = calloc(jr.slots, sizeof *jr.poll_fds);
    jr.poll_job = calloc(jr.slots, sizeof *jr.poll_job);
    if (!jr.job || !jr.result || !jr.poll_fds || !jr.poll_job) {
        fputs("sim: out of memory\n", stderr);
        status = 1;
    } else {
        jr.progress = progress < 0 ? isatty(STDERR_FILENO) : progress;
        jr.started = now_seconds();
        supervise(&jr);
        if (jr.progress)
            fputs("\n", stderr);
        status = fold(&jr, report, why, err);
        if (jr.first_signal) /* held again for the caller: its exit status is 130 */
            raise(jr.first_signal);
    }
    for (unsigned r = 0; jr.result && r < jr.replications; r++)
        free(jr.result[r]);
    free(jr.result);
    free(jr.poll_fds);
    free(jr.poll_job);
    free(jr.job);
    run_setup_free(jr.setup);
    return status;
}
