#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

void test_config(struct config *cfg, const char *const *settings)
{
    run_config_defaults(cfg);
    snprintf(cfg->path, sizeof cfg->path, "test");
    for (size_t i = 0; settings && settings[i]; i++) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", settings[i]);
        char *dot = strchr(buf, '.'), *eq = strchr(buf, '=');
        ck_assert_msg(dot && eq && dot < eq, "bad setting %s", settings[i]);
        *dot = *eq = '\0';
        struct cfg_error err;
        bool ok = cfg_set(cfg, buf, dot + 1, eq + 1, "test", (int)i + 1, &err);
        ck_assert_msg(ok, "setting %s refused: %s", settings[i], err.message);
    }
    struct cfg_error err;
    ck_assert_msg(run_config_workload(cfg, &err), "workload refused: %s: %s", err.key, err.message);
}

void test_network(struct network *net, struct config *cfg, const char *const *settings)
{
    test_config(cfg, settings);
    struct cfg_error err;
    ck_assert_msg(net_create(net, cfg, &err), "net_create: %s", err.message);
}

enum kernel_stop test_run(const struct config *cfg, struct run_report *report)
{
    struct network *net = calloc(1, sizeof *net);
    ck_assert(net);
    struct cfg_error err;
    ck_assert_msg(net_create(net, cfg, &err), "net_create: %s", err.message);
    struct channel_loads loads;
    struct model_in in;
    model_input(&in, cfg, &net->topo, &loads);
    struct model_result model;
    model_predict(&in, &model);
    model_input_free(&in);
    enum kernel_stop why = net_run(net);
    report_collect(report, net, &loads, &model, why, 0);
    report->cfg = cfg;
    loads_free(&loads);
    net_free(net);
    free(net);
    return why;
}

const char *test_binary(void)
{
    const char *b = getenv("SIM_BINARY");
    return b ? b : "bin/sim";
}

static void drain(int fd, char *buf, size_t size)
{
    size_t used = 0;
    ssize_t got;
    char sink[4096];
    while ((got = read(fd, used + 1 < size ? buf + used : sink, used + 1 < size ? size - 1 - used : sizeof sink)) > 0)
        if (used + 1 < size)
            used += (size_t)got;
    buf[used] = '\0';
}

int test_exec(const char *const *argv, char *out, size_t out_size, char *err, size_t err_size)
{
    return test_exec_signal(argv, 0, 0, out, out_size, err, err_size);
}

int test_exec_signal_when(const char *const *argv, test_ready_fn *ready, void *ctx, double delay, int signo,
                          char *out, size_t out_size, char *err, size_t err_size)
{
    char out_path[] = "/tmp/simtest-out-XXXXXX", err_path[] = "/tmp/simtest-err-XXXXXX";
    int out_fd = mkstemp(out_path), err_fd = mkstemp(err_path);
    ck_assert(out_fd >= 0 && err_fd >= 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        dup2(out_fd, STDOUT_FILENO);
        dup2(err_fd, STDERR_FILENO);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    if (signo) {
        const struct timespec ms = { 0, 1000000 };
        for (int waited = 0; ready && !ready(pid, ctx); waited++) { /* every millisecond, at most 120 s */
            ck_assert_msg(waited < 120000 && waitpid(pid, &status, WNOHANG) == 0,
                          "%s never got ready for the signal", argv[0]);
            nanosleep(&ms, NULL);
        }
        struct timespec pause = { (time_t)delay, (long)((delay - (time_t)delay) * 1e9) };
        nanosleep(&pause, NULL);
        kill(pid, signo);
    }
    waitpid(pid, &status, 0);
    lseek(out_fd, 0, SEEK_SET);
    lseek(err_fd, 0, SEEK_SET);
    drain(out_fd, out, out_size);
    drain(err_fd, err, err_size);
    close(out_fd);
    close(err_fd);
    unlink(out_path);
    unlink(err_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int test_exec_signal(const char *const *argv, double delay, int signo, char *out, size_t out_size, char *err,
                     size_t err_size)
{
    return test_exec_signal_when(argv, NULL, NULL, delay, signo, out, out_size, err, err_size);
}

/* test_exec_signal_when_children's readiness: `started` distinct children seen, `running` left. */
struct children_wanted {
    unsigned started, running, n_seen;
    pid_t seen[64];
};

static bool children_ready(pid_t pid, void *ctx)
{
    struct children_wanted *w = ctx;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    FILE *f = fopen(path, "r");
    unsigned n = 0;
    int child;
    while (f && fscanf(f, "%d", &child) == 1) {
        n++;
        bool known = false;
        for (unsigned j = 0; j < w->n_seen; j++)
            known = known || w->seen[j] == child;
        if (!known && w->n_seen < sizeof w->seen / sizeof w->seen[0])
            w->seen[w->n_seen++] = child;
    }
    if (f)
        fclose(f);
    return w->n_seen >= w->started && n == w->running;
}

int test_exec_signal_when_children(const char *const *argv, unsigned started, unsigned running, int signo,
                                   char *out, size_t out_size, char *err, size_t err_size)
{
    struct children_wanted w = { .started = started, .running = running };
    return test_exec_signal_when(argv, children_ready, &w, 0, signo, out, out_size, err, err_size);
}

int test_coverage(const char *const *settings, int seeds, double exact)
{
    int covered = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        struct config cfg;
        test_config(&cfg, settings);
        cfg.run.seed = (uint64_t)seed;
        struct run_report r;
        ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
        bool in = r.delay.ci95[0] <= exact && exact <= r.delay.ci95[1];
        covered += in;
        if (!in)
            fprintf(stderr, "  seed %d: mean %.5f, CI [%.5f, %.5f] misses %.5f\n", seed, r.delay.mean,
                    r.delay.ci95[0], r.delay.ci95[1], exact);
    }
    return covered;
}

_Static_assert(sizeof(struct test_outcome) <= PIPE_BUF, "one outcome, one atomic write");

void test_outcomes(const char *const *settings, int seeds, int workers, struct test_outcome *out)
{
    int fd[2];
    ck_assert(seeds > 0 && workers > 0 && workers <= 8 && pipe(fd) == 0);
    pid_t pid[8];
    for (int w = 0; w < workers; w++) {
        pid[w] = fork();
        ck_assert(pid[w] >= 0);
        if (pid[w] > 0)
            continue;
        close(fd[0]);
        for (int seed = 1 + w; seed <= seeds; seed += workers) {
            struct config cfg;
            test_config(&cfg, settings);
            cfg.run.seed = (uint64_t)seed;
            struct run_report r;
            struct test_outcome o = { .seed = seed, .stop = (int)test_run(&cfg, &r) };
            o.delay = r.delay;
            o.precision_reached = r.precision_reached;
            o.precision_batches = r.precision_batches;
            o.warmup_messages = r.warmup_messages;
            o.precision_met = r.precision_met;
            /* One write of under PIPE_BUF bytes: the children's records never interleave. */
            if (write(fd[1], &o, sizeof o) != (ssize_t)sizeof o)
                _exit(1);
        }
        _exit(0);
    }
    close(fd[1]);
    int got = 0;
    struct test_outcome o;
    while (read(fd[0], &o, sizeof o) == (ssize_t)sizeof o) {
        ck_assert(o.seed >= 1 && o.seed <= seeds);
        out[o.seed - 1] = o;
        got++;
    }
    close(fd[0]);
    for (int w = 0; w < workers; w++) {
        int status;
        waitpid(pid[w], &status, 0);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "worker %d failed", w);
    }
    ck_assert_int_eq(got, seeds);
}

void test_stability(const struct config *cfg, struct stability *out)
{
    struct topo t;
    struct cfg_error err;
    ck_assert_msg(topo_build(&t, cfg, &err), "%s", err.message);
    struct channel_loads l;
    struct model_in in;
    ck_assert_msg(model_input(&in, cfg, &t, &l), "%s", l.why);
    stability_check(cfg, &t, &l, out);
    model_input_free(&in);
    loads_free(&l);
    topo_free(&t);
}

void analyse(struct analysed *a, const char *const *settings)
{
    struct cfg_error err;
    test_config(&a->cfg, settings);
    ck_assert_msg(topo_build(&a->t, &a->cfg, &err), "%s", err.message);
    struct model_in in;
    ck_assert(model_input(&in, &a->cfg, &a->t, &a->loads));
    model_predict(&in, &a->model);
    model_input_free(&in);
}

void release(struct analysed *a)
{
    loads_free(&a->loads);
    topo_free(&a->t);
}

double test_figure(const struct run_report *r, const char *group, const char *name)
{
    const struct figure *f = figures_find(&r->figures, group, FIGURE_NO_CLASS, name);
    ck_assert_msg(f != NULL, "no figure %s.%s", group, name);
    return f->value;
}

const char *test_figure_text(const struct run_report *r, const char *group, const char *name)
{
    const struct figure *f = figures_find(&r->figures, group, FIGURE_NO_CLASS, name);
    ck_assert_msg(f != NULL && f->kind == FIGURE_TEXT, "no text figure %s.%s", group, name);
    return f->text;
}

/* The start of field i of a CSV line (quoted fields may hold commas), or NULL. */
static const char *csv_field(const char *line, size_t i, size_t *len)
{
    const char *p = line;
    for (size_t f = 0;; f++) {
        const char *start = p;
        bool quoted = false;
        while (*p && *p != '\n' && (quoted || *p != ',')) {
            if (*p == '"')
                quoted = !quoted;
            p++;
        }
        if (f == i) {
            *len = (size_t)(p - start);
            return start;
        }
        if (*p != ',')
            return NULL;
        p++;
    }
}

bool test_csv_cell(const char *header, const char *row, const char *name, char *cell, size_t size)
{
    size_t len;
    for (size_t i = 0;; i++) {
        const char *h = csv_field(header, i, &len);
        if (!h)
            return false;
        if (len == strlen(name) && strncmp(h, name, len) == 0) {
            const char *v = csv_field(row, i, &len);
            if (!v)
                return false;
            snprintf(cell, size, "%.*s", (int)len, v);
            return true;
        }
    }
}
