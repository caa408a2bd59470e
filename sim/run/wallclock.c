#include "wallclock.h"

#include <ev.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static const int stop_watched[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
enum { STOP_WATCHED = sizeof stop_watched / sizeof stop_watched[0] };

struct wallclock {
    struct ev_loop *loop;
    struct network *net;
    ev_timer progress, limit;
    ev_signal stop[STOP_WATCHED]; /* SIGINT, SIGTERM, SIGHUP, SIGQUIT */
    bool show_progress;
    double started;
    uint64_t last_events;
    double last_time;
};

static void on_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)loop;
    (void)revents;
    struct wallclock *wc = w->data;
    kernel_request_stop(&wc->net->kernel, KERNEL_INTERRUPTED);
}

static void on_limit(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    struct wallclock *wc = w->data;
    kernel_request_stop(&wc->net->kernel, KERNEL_WALL_LIMIT);
}

static void on_progress(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)revents;
    struct wallclock *wc = w->data;
    const struct network *net = wc->net;
    double now = ev_now(loop);
    double rate = (double)(net->kernel.events - wc->last_events) / (now - wc->last_time);
    wc->last_events = net->kernel.events;
    wc->last_time = now;
    double fraction;
    if (net->probe.time_mode) { /* time mode: the fraction of simulated time */
        fraction = net->kernel.now / (net->cfg->run.warmup_time + net->cfg->run.duration);
    } else { /* ETA from the fraction of messages created so far (creation keeps pace with delivery) */
        double target = (double)(net->probe.spec.warmup_messages + net->probe.spec.messages);
        double done = (double)net->probe.measured_done + (double)net->probe.spec.warmup_messages;
        if (net->created < net->probe.spec.warmup_messages)
            done = (double)net->created;
        fraction = target > 0 ? done / target : 0;
    }
    double elapsed = now - wc->started;
    char eta[32] = "?";
    if (fraction > 0.001)
        snprintf(eta, sizeof eta, "%.0f s", elapsed * (1 - fraction) / fraction);
    if (net->probe.time_mode)
        fprintf(stderr, "\r[sim] t=%.6g of %.6g  measured %llu  %.3g events/s  ETA %s   ", net->kernel.now,
                net->cfg->run.warmup_time + net->cfg->run.duration, (unsigned long long)net->probe.delay.count, rate, eta);
    else
        fprintf(stderr, "\r[sim] t=%.6g  messages %llu/%llu  %.3g events/s  ETA %s   ", net->kernel.now,
                (unsigned long long)net->probe.measured_done, (unsigned long long)net->probe.spec.messages, rate, eta);
    fflush(stderr);
}

static void poll_libev(struct kernel *k, void *ctx)
{
    struct wallclock *wc = ctx;
    ev_run(wc->loop, EVRUN_NOWAIT);
    /* Held signals never reach libev's handler: they wait, pending, to be seen here. */
    if (stop_signal_held())
        kernel_request_stop(k, KERNEL_INTERRUPTED);
}

struct wallclock *wallclock_attach(struct network *net, bool progress, double max_wall_seconds)
{
    struct wallclock *wc = calloc(1, sizeof *wc);
    if (!wc)
        return NULL;
    wc->loop = ev_default_loop(EVFLAG_AUTO);
    if (!wc->loop) {
        free(wc);
        return NULL;
    }
    wc->net = net;
    wc->show_progress = progress;
    ev_now_update(wc->loop);
    wc->started = wc->last_time = ev_now(wc->loop);
    for (int i = 0; i < STOP_WATCHED; i++) {
        ev_signal_init(&wc->stop[i], on_signal, stop_watched[i]);
        wc->stop[i].data = wc;
        ev_signal_start(wc->loop, &wc->stop[i]);
    }
    if (progress) {
        ev_timer_init(&wc->progress, on_progress, 0.5, 1.0);
        wc->progress.data = wc;
        ev_timer_start(wc->loop, &wc->progress);
    }
    if (max_wall_seconds > 0) {
        ev_timer_init(&wc->limit, on_limit, max_wall_seconds, 0);
        wc->limit.data = wc;
        ev_timer_start(wc->loop, &wc->limit);
    }
    kernel_set_chore(&net->kernel, poll_libev, wc);
    return wc;
}

double wallclock_elapsed(struct wallclock *wc)
{
    ev_now_update(wc->loop);
    return ev_now(wc->loop) - wc->started;
}

void wallclock_detach(struct wallclock *wc)
{
    if (!wc)
        return;
    for (int i = 0; i < STOP_WATCHED; i++)
        ev_signal_stop(wc->loop, &wc->stop[i]);
    if (wc->show_progress) {
        ev_timer_stop(wc->loop, &wc->progress);
        fputs("\n", stderr);
    }
    if (ev_is_active(&wc->limit))
        ev_timer_stop(wc->loop, &wc->limit);
    kernel_set_chore(&wc->net->kernel, NULL, NULL);
    free(wc);
}
