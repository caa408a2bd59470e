/* The local sweep runner: up to -j points at a time, each a child process of this
 * same binary (`sim --no-progress -s ... --seed S CONFIG`, via /proc/self/exe),
 * supervised with libev: an ev_child watcher for each child's exit, an ev_io watcher
 * draining each child's stdout pipe into its point's text, a one-second timer for the
 * progress bar, and watchers of the stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT:
 * held until they are started, and held again before they stop, so that none can kill
 * the sweep with its -o file half done).  A signal stops starting points and sends
 * SIGTERM to the running children (a second signal sends SIGKILL); their partial rows
 * are dropped and the finished rows written.  Losing the output (a write
 * fails, or stdout is a pipe whose reader has gone) kills the running children at once
 * (SIGKILL, again every OUTPUT_LOST_GRACE seconds while any is left), and the sweep
 * exits 1 with one line saying why: SIGPIPE is ignored here, so the parent never dies
 * leaving its children running. */
#include <errno.h>
#include <ev.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/stop_signals.h"
#include "sweep.h"

enum { OUTPUT_LOST_GRACE = 5 }; /* seconds between SIGKILLs to children left after the output is lost */
static const int watched_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
enum { WATCHED_SIGNALS = sizeof watched_signals / sizeof watched_signals[0] };

struct runner;

struct slot {
    struct runner *run;
    size_t point;
    bool busy, exited, closed;
    int wait_status;
    size_t capacity; /* of the point's text buffer */
    ev_child child;
    ev_io pipe;
};

struct runner {
    struct sweep_plan *plan;
    struct ev_loop *loop;
    struct slot *slot;
    unsigned jobs, running, signals;
    size_t next_start, finished, to_run, ran;
    bool failed, wall_limited, interrupted;
    bool show_progress;
    double started;
    char self[4096];
    int config_fd; /* an unnamed file holding the plan's config text: each child's stdin */
    ev_signal stop[WATCHED_SIGNALS];
    ev_timer tick, grace;
    ev_io reader_gone; /* stdout a pipe: readiness means an error (the reader closed it) */
};

static void progress(struct runner *r)
{
    if (!r->show_progress)
        return;
    enum { WIDTH = 24 };
    size_t n = r->plan->n;
    char bar[WIDTH + 1];
    for (size_t i = 0; i < WIDTH; i++)
        bar[i] = i < r->finished * WIDTH / (n ? n : 1) ? '#' : '.';
    bar[WIDTH] = '\0';
    ev_now_update(r->loop);
    double elapsed = ev_now(r->loop) - r->started;
    char eta[32] = "?";
    if (r->ran > 0) /* the children run so far give the pace, parallelism included */
        snprintf(eta, sizeof eta, "%.0f s", elapsed / (double)r->ran * (double)(r->to_run - r->ran));
    if (r->interrupted)
        snprintf(eta, sizeof eta, "- (interrupted)");
    fprintf(stderr, "\r[sweep] [%s] %zu/%zu points, %u running, %.0f s, ETA %s   ", bar, r->finished, n, r->running,
            elapsed, eta);
    fflush(stderr);
}

static void stop_children(struct runner *r, int signo)
{
    for (unsigned j = 0; j < r->jobs; j++)
        if (r->slot[j].busy && !r->slot[j].exited)
            kill(r->slot[j].child.pid, signo);
}

static void interrupt(struct runner *r)
{
    r->interrupted = true;
    r->plan->interrupted = true;
    stop_children(r, r->signals++ ? SIGKILL : SIGTERM);
}

static void start_points(struct runner *r);

static void done_if_idle(struct runner *r)
{
    if (r->running == 0 && (r->interrupted || r->next_start >= r->plan->n))
        ev_break(r->loop, EVBREAK_ALL);
}

/* The output is lost (sweep_emit() or on_reader_gone() has said so): no row can be
 * written any more, so the running points are stopped rather than left to run. */
static void output_lost(struct runner *r)
{
    r->failed = true;
    ev_io_stop(r->loop, &r->reader_gone);
    if (r->interrupted)
        return;
    /* SIGKILL, not SIGTERM: the children's rows are lost, and a child stopped before its
     * run started would add "interrupted before the run started" to the one line that
     * says why the sweep failed. */
    r->interrupted = true;
    r->signals++;
    stop_children(r, SIGKILL);
    ev_timer_start(r->loop, &r->grace);
}

static void on_grace(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    struct runner *r = w->data;
    r->signals++;
    stop_children(r, SIGKILL);
}

static void on_reader_gone(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)revents;
    struct runner *r = w->data;
    struct pollfd pf = { .fd = w->fd, .events = 0 };
    ev_io_stop(loop, w);
    if (poll(&pf, 1, 0) != 1 || !(pf.revents & (POLLERR | POLLHUP)))
        return; /* not an error after all: the write errors alone will tell */
    if (!r->plan->out_failed) {
        r->plan->out_failed = true;
        fprintf(stderr, "%ssim: cannot write the results: %s\n", r->show_progress ? "\n" : "", strerror(EPIPE));
    }
    output_lost(r);
    done_if_idle(r);
}

/* The child has exited and its pipe is drained: judge its status. */
static void finish(struct slot *s)
{
    struct runner *r = s->run;
    struct sweep_plan *p = r->plan;
    struct sweep_point *sp = &p->point[s->point];
    int st = s->wait_status;
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    sp->status = code;
    sp->state = POINT_LOST;
    if (code == 0 || code == SWEEP_WALL_LIMIT) {
        sp->state = POINT_DONE;
        r->wall_limited |= code == SWEEP_WALL_LIMIT;
    } else if (code == SWEEP_INTERRUPTED || r->interrupted) {
        if (!r->interrupted) /* a child interrupted on its own (Ctrl-C reaches the whole group) */
            interrupt(r);
    } else {
        fprintf(stderr, "%ssim: sweep point %zu/%zu (%s) failed: exit status %d\n", r->show_progress ? "\n" : "",
                s->point + 1, p->n, sp->label, code);
        r->failed = true;
        if (code == SWEEP_FAILED && sp->len) /* a complete report of a run that ended early */
            sp->state = POINT_DONE;
        else /* no report (a deadlock, an error, a crash): a marked row in its place */
            sweep_point_mark_failed(p, s->point, code);
    }
    if (sp->state == POINT_LOST) {
        free(sp->text);
        sp->text = NULL;
        sp->len = 0;
    }
    s->busy = false;
    r->running--;
    r->finished++;
    r->ran++;
    if (!sweep_emit(p, false))
        output_lost(r);
    start_points(r);
    progress(r);
    done_if_idle(r);
}

static void on_child(struct ev_loop *loop, ev_child *w, int revents)
{
    (void)revents;
    struct slot *s = w->data;
    ev_child_stop(loop, w);
    s->wait_status = w->rstatus;
    s->exited = true;
    if (s->closed)
        finish(s);
}

static void on_pipe(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)revents;
    struct slot *s = w->data;
    struct sweep_point *sp = &s->run->plan->point[s->point];
    for (;;) {
        if (sp->len + 4096 > s->capacity) {
            size_t capacity = s->capacity ? 2 * s->capacity : 16384;
            char *grown = realloc(sp->text, capacity);
            if (!grown)
                break; /* keep the child blocked; its row is lost at EOF below */
            sp->text = grown;
            s->capacity = capacity;
        }
        ssize_t got = read(w->fd, sp->text + sp->len, s->capacity - sp->len - 1);
        if (got > 0) {
            sp->len += (size_t)got;
            continue;
        }
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        break; /* end of file or error */
    }
    ev_io_stop(loop, w);
    close(w->fd);
    if (sp->text)
        sp->text[sp->len] = '\0';
    s->closed = true;
    if (s->exited)
        finish(s);
}

static const char *format_name(enum report_format fmt)
{
    return fmt == REPORT_CSV ? "csv" : fmt == REPORT_JSON ? "json" : "table";
}

static bool spawn(struct runner *r, struct slot *s, size_t point)
{
    const struct sweep_args *a = r->plan->args;
    struct sweep_point *sp = &r->plan->point[point];
    size_t argc = 0, max = 10 + 2 * sp->n_settings; /* the program, 6 options, "--", the config, NULL */
    const char **argv = calloc(max, sizeof *argv);
    int fds[2];
    if (!argv || pipe(fds) != 0) {
        free(argv);
        return false;
    }
    argv[argc++] = r->self;
    argv[argc++] = "--no-progress";
    argv[argc++] = "--no-notes"; /* the sweep noted what it had to, once */
    argv[argc++] = "-f";
    argv[argc++] = format_name(a->fmt);
    if (a->omit_timing)
        argv[argc++] = "--no-timing";
    for (size_t k = 0; k < sp->n_settings; k++) {
        argv[argc++] = "-s";
        argv[argc++] = sp->settings[k];
    }
    argv[argc++] = "--config-stdin"; /* the text the plan checked, not the file as it is now */
    argv[argc++] = "--"; /* a config named like an option ("-x.ini") is still the config */
    argv[argc++] = a->config;
    argv[argc] = NULL;
    fflush(NULL); /* nothing buffered may be written twice */
    /* Held across fork: a signal for the child before it execs stays pending until it has
     * the default dispositions back (below), instead of reaching libev's handler in the
     * copy of the parent, where it would be lost. */
    sigset_t hold, old_mask;
    stop_signals_set(&hold, false);
    sigprocmask(SIG_BLOCK, &hold, &old_mask);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(r->config_fd, STDIN_FILENO);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        /* The default dispositions first, then no signal held (libev blocks what it
         * watches): the child sees SIGINT and SIGTERM as a fresh process would. */
        for (int i = 0; i < WATCHED_SIGNALS; i++)
            signal(watched_signals[i], SIG_DFL);
        signal(SIGPIPE, SIG_DFL); /* an ignored signal stays ignored across exec */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execv(r->self, (char *const *)argv);
        _exit(127);
    }
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    free(argv);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return false;
    }
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    *s = (struct slot){ .run = r, .point = point, .busy = true };
    ev_child_init(&s->child, on_child, pid, 0);
    ev_io_init(&s->pipe, on_pipe, fds[0], EV_READ);
    s->child.data = s->pipe.data = s;
    ev_child_start(r->loop, &s->child);
    ev_io_start(r->loop, &s->pipe);
    sp->state = POINT_RUNNING;
    r->running++;
    return true;
}

static void start_points(struct runner *r)
{
    struct sweep_plan *p = r->plan;
    while (!r->interrupted && r->running < r->jobs && r->next_start < p->n) {
        size_t i = r->next_start++;
        if (p->point[i].state != POINT_PENDING)
            continue; /* not run: written in place (unstable) */
        unsigned j = 0;
        while (r->slot[j].busy)
            j++;
        if (!spawn(r, &r->slot[j], i)) {
            fprintf(stderr, "sim: sweep point %zu/%zu: cannot start a process: %s\n", i + 1, p->n, strerror(errno));
            p->point[i].state = POINT_LOST;
            r->failed = true;
            interrupt(r);
        }
    }
}

static void on_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)loop;
    (void)revents;
    struct runner *r = w->data;
    interrupt(r);
    done_if_idle(r);
}

static void on_tick(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    progress(w->data);
}

int sweep_run_local(struct sweep_plan *p, void *unused)
{
    (void)unused;
    struct runner r = { .plan = p, .jobs = p->args->jobs ? p->args->jobs : 1 };
    ssize_t got = readlink("/proc/self/exe", r.self, sizeof r.self - 1);
    r.loop = ev_default_loop(EVFLAG_AUTO);
    r.slot = calloc(r.jobs, sizeof *r.slot);
    if (got <= 0 || !r.loop || !r.slot) {
        fputs("sim: cannot start the sweep (no /proc/self/exe, libev loop or memory)\n", stderr);
        free(r.slot);
        return SWEEP_FAILED;
    }
    r.self[got] = '\0';
    FILE *config = tmpfile(); /* removed by the system once closed, whatever happens */
    if (!config || fwrite(p->config.text, 1, p->config.len, config) != p->config.len || fflush(config) != 0) {
        fprintf(stderr, "sim: cannot start the sweep: a temporary copy of the configuration: %s\n", strerror(errno));
        if (config)
            fclose(config);
        free(r.slot);
        return SWEEP_FAILED;
    }
    r.config_fd = fileno(config);
    for (size_t i = 0; i < p->n; i++) {
        r.to_run += p->point[i].state == POINT_PENDING;
        r.finished += p->point[i].state == POINT_DONE;
    }
    r.show_progress = p->args->progress < 0 ? isatty(STDERR_FILENO) : p->args->progress;
    ev_now_update(r.loop);
    r.started = ev_now(r.loop);
    for (int i = 0; i < WATCHED_SIGNALS; i++) {
        ev_signal_init(&r.stop[i], on_signal, watched_signals[i]);
        r.stop[i].data = &r;
    }
    ev_timer_init(&r.tick, on_tick, 1.0, 1.0);
    ev_timer_init(&r.grace, on_grace, OUTPUT_LOST_GRACE, OUTPUT_LOST_GRACE);
    ev_io_init(&r.reader_gone, on_reader_gone, STDOUT_FILENO, EV_READ);
    r.tick.data = r.grace.data = r.reader_gone.data = &r;
    struct stat st; /* a pipe's write end is never readable: EV_READ fires only on its error */
    if (!p->args->output && fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))
        ev_io_start(r.loop, &r.reader_gone);
    /* A write to a closed pipe fails with EPIPE instead of killing this process. */
    struct sigaction ignore = { .sa_handler = SIG_IGN };
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, NULL);
    for (int i = 0; i < WATCHED_SIGNALS; i++)
        ev_signal_start(r.loop, &r.stop[i]);
    stop_signals_release(); /* libev's handlers take them now, a pending one first */
    if (r.show_progress)
        ev_timer_start(r.loop, &r.tick);
    if (!sweep_emit(p, false)) { /* already lost: start nothing */
        r.failed = true;
        r.interrupted = true;
    }
    start_points(&r);
    progress(&r);
    if (r.running > 0)
        ev_run(r.loop, 0);
    ev_timer_stop(r.loop, &r.tick);
    ev_timer_stop(r.loop, &r.grace);
    ev_io_stop(r.loop, &r.reader_gone);
    stop_signals_hold(); /* held again while the rows are written: sweep_execute() looks */
    for (int i = 0; i < WATCHED_SIGNALS; i++)
        ev_signal_stop(r.loop, &r.stop[i]);
    if (r.show_progress)
        fputs("\n", stderr);
    fclose(config);
    free(r.slot);
    if (r.interrupted && !r.failed)
        return SWEEP_INTERRUPTED;
    return r.failed ? SWEEP_FAILED : r.wall_limited ? SWEEP_WALL_LIMIT : 0;
}
