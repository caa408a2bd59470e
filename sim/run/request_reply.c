/* Request-reply traffic: replies from the deliveries of requests, sources held at their
 * cap (see request_reply.h). */
#include "request_reply.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "network.h"

enum { REQUEST = MSG_CLASS_REQUEST, REPLY = MSG_CLASS_REPLY };

#define NONE UINT32_MAX

static void batches_add(struct doubling_batches *b, double x)
{
    moments_add(&b->all, x);
    if (!b->size)
        b->size = 1;
    b->open_sum += x;
    if (++b->open_count < b->size)
        return;
    b->sum[b->full++] = b->open_sum;
    b->open_sum = 0;
    b->open_count = 0;
    if (b->full == REPLY_BATCHES_MAX) { /* neighbours merge: half as many batches, twice as long */
        for (unsigned i = 0; i < REPLY_BATCHES_MAX / 2; i++)
            b->sum[i] = b->sum[2 * i] + b->sum[2 * i + 1];
        b->full = REPLY_BATCHES_MAX / 2;
        b->size *= 2;
    }
}

/* The 95% interval of the mean over the complete batches (NaN below two). */
static void batches_interval(const struct doubling_batches *b, double ci[2])
{
    ci[0] = ci[1] = NAN;
    if (b->full < 2)
        return;
    struct moments m = { 0 };
    for (unsigned i = 0; i < b->full; i++)
        moments_add(&m, b->sum[i] / (double)b->size);
    double half = gsl_cdf_tdist_Pinv(0.975, (double)(b->full - 1)) * sqrt(moments_variance(&m) / b->full);
    ci[0] = m.mean - half;
    ci[1] = m.mean + half;
}

/* A request of `node` has its reply delivered, or was refused: one less outstanding,
 * and a held arrival goes ahead (by an event of the run's own). */
static void release(struct net_reply *r, uint32_t node)
{
    r->outstanding[node]--;
    if (r->held[node]) {
        r->held[node] = 0;
        kernel_schedule(&r->net->kernel, 0, r->ev_resume, node);
    }
}

static void finished(struct net_reply *r, const struct message *msg, double now, bool refused)
{
    struct network *net = r->net;
    uint32_t m = (uint32_t)(msg - net->pool.msgs);
    bool window = net->probe.window_open;
    if (r->cls[m] == REPLY) {
        if (window && !refused) {
            moments_add(&r->reply_delay, now - msg->created);
            batches_add(&r->round_trip, now - r->origin[m]);
        }
        release(r, msg->dst);
        return;
    }
    if (refused) {
        release(r, msg->src);
        return;
    }
    if (window) {
        moments_add(&r->request_delay, now - msg->created);
        r->requests_in_window++;
    }
    uint32_t i = r->pend_free;
    if (i == NONE) { /* grow the pending replies */
        uint32_t cap = r->pend_cap ? 2 * r->pend_cap : 64;
        struct pending_reply *g = realloc(r->pend, (size_t)cap * sizeof *g);
        if (!g) {
            snprintf(net->fatal, sizeof net->fatal, "request-reply: out of memory for pending replies");
            kernel_request_stop(&net->kernel, KERNEL_FAILED);
            return;
        }
        for (uint32_t k = r->pend_cap; k < cap; k++)
            g[k].next = k + 1 < cap ? k + 1 : NONE;
        r->pend = g;
        i = r->pend_cap;
        r->pend_cap = cap;
    }
    r->pend_free = r->pend[i].next;
    r->pend[i] = (struct pending_reply){ msg->dst, msg->src, msg->created, NONE };
    /* reply_delay from the delivery as the engine stamps it (a flit router stamps its
     * cycle while the kernel runs that cycle's event at its half), never in the past */
    double after = now + r->p->reply_delay - net->kernel.now;
    kernel_schedule(&net->kernel, after > 0 ? after : 0, r->ev_reply, i);
}

static void delivered(void *ctx, const struct message *msg, uint64_t id, double now)
{
    (void)id;
    finished(ctx, msg, now, false);
}

static void refused(void *ctx, const struct message *msg, uint64_t id, double now)
{
    (void)id;
    finished(ctx, msg, now, true);
}

static void on_reply(struct kernel *k, void *ctx, uint32_t i)
{
    (void)k;
    struct net_reply *r = ctx;
    struct pending_reply p = r->pend[i];
    r->pend[i].next = r->pend_free;
    r->pend_free = i;
    r->next_cls = REPLY;
    r->next_origin = p.origin;
    net_create_message(r->net, p.src, p.dst, r->p->reply_length, NONE);
    r->next_cls = REQUEST;
}

/* A held arrival goes ahead, and the source's arrival process resumes from now. */
static void on_resume(struct kernel *k, void *ctx, uint32_t node)
{
    (void)k;
    struct net_reply *r = ctx;
    net_arrive(r->net, node);
}

bool net_reply_create(struct network *net, struct cfg_error *err)
{
    const struct reply_params *p = reply_params_of(net->cfg);
    if (!p)
        return true;
    struct net_reply *r = calloc(1, sizeof *r);
    uint32_t T = net->topo.terminals;
    if (r) {
        r->outstanding = calloc(T, sizeof *r->outstanding);
        r->held = calloc(T, 1);
    }
    if (!r || !r->outstanding || !r->held) {
        net_reply_free(r);
        cfg_blame(net->cfg, "workload.classes", err, "out of memory");
        return false;
    }
    r->net = net;
    r->p = p;
    r->pend_free = NONE;
    r->ev_reply = kernel_register(&net->kernel, on_reply, r);
    r->ev_resume = kernel_register(&net->kernel, on_resume, r);
    r->loop = (struct engine_tap){ delivered, refused, r };
    r->classes = (struct engine_classes){ (const uint8_t *const *)&r->cls, (uint32_t)p->reply_queue };
    net->reply = r;
    return true;
}

bool net_reply_tag(struct net_reply *r, uint32_t m)
{
    if (m >= r->slots) {
        uint32_t size = r->net->pool.capacity > m ? r->net->pool.capacity : m + 1;
        uint8_t *c = realloc(r->cls, size);
        if (c)
            r->cls = c;
        double *o = c ? realloc(r->origin, (size_t)size * sizeof *o) : NULL;
        if (!o)
            return false;
        r->origin = o;
        r->slots = size;
    }
    r->cls[m] = r->next_cls;
    r->origin[m] = r->next_origin;
    if (r->next_cls == REQUEST)
        r->outstanding[r->net->pool.msgs[m].src]++;
    return true;
}

bool net_reply_admits(struct net_reply *r, uint32_t node)
{
    if (r->p->max_outstanding == 0 || r->outstanding[node] < (uint64_t)r->p->max_outstanding)
        return true;
    r->held[node] = 1;
    r->held_count++;
    return false;
}

void net_reply_figures(const struct net_reply *r, const struct figure_sink *sink)
{
    static const char group[] = "classes";
    const struct probe *probe = &r->net->probe;
    double end = probe->window_open ? r->net->kernel.now : probe->window_end;
    double span = end - probe->window_start, ci[2];
    batches_interval(&r->round_trip, ci);
    sink->number(sink->ctx, group, "request_delay", r->request_delay.count ? r->request_delay.mean : NAN, 0);
    sink->number(sink->ctx, group, "reply_delay", r->reply_delay.count ? r->reply_delay.mean : NAN, 0);
    sink->number(sink->ctx, group, "round_trip", r->round_trip.all.count ? r->round_trip.all.mean : NAN, 0);
    sink->number(sink->ctx, group, "round_trip_ci_low", ci[0], 0);
    sink->number(sink->ctx, group, "round_trip_ci_high", ci[1], 0);
    sink->number(sink->ctx, group, "requests_per_terminal",
                 span > 0 ? (double)r->requests_in_window / ((double)r->net->topo.terminals * span) : NAN, 0);
    sink->number(sink->ctx, group, "held", (double)r->held_count, 0);
    sink->line(sink->ctx, group, FIGURE_PLACE_RATES,
               "classes      requests {request_delay}, replies {reply_delay}; round trip {round_trip} "
               "[{round_trip_ci_low}, {round_trip_ci_high}]; {requests_per_terminal} requests per terminal per "
               "time unit ({held} arrivals held at the cap)");
}

void net_reply_free(struct net_reply *r)
{
    if (!r)
        return;
    free(r->cls);
    free(r->origin);
    free(r->outstanding);
    free(r->held);
    free(r->pend);
    free(r);
}
