/* The loop of a dependency-driven trace: reads at the packets' cycles, creations when
 * they are free, deliveries back to the trace (see netrace_run.h). */
#include "netrace_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../workloads/trace.h"
#include "network.h"

/* A read or replay error past the scan: the run stops, the line says why. */
static void fail(struct net_netrace *n, const struct cfg_error *err)
{
    struct network *net = n->net;
    int n_file = (int)strnlen(err->file, 200); /* the line fits the fatal buffer, the message cut last */
    snprintf(net->fatal, sizeof net->fatal, "%.*s: %.20s: %.280s", n_file, err->file, err->key, err->message);
    kernel_request_stop(&net->kernel, KERNEL_FAILED);
}

static void create(struct net_netrace *n, uint32_t rec)
{
    struct network *net = n->net;
    const struct netrace_record *r = netrace_replay_record(n->replay, rec);
    if (n->watch)
        n->watch->created(n->watch->ctx, r->id, r->cycle, net->kernel.now);
    net_create_message(net, r->src, r->dst, r->length, rec);
}

/* Free at its cycle: created now (the read event's own time). */
static void ready_now(void *ctx, uint32_t rec) { create(ctx, rec); }

/* Freed by a delivery, inside the engine: created by an event of the run's own, now. */
static void ready_later(void *ctx, uint32_t rec)
{
    struct net_netrace *n = ctx;
    kernel_schedule(&n->net->kernel, 0, n->ev_release, rec);
}

static void on_release(struct kernel *k, void *ctx, uint32_t rec)
{
    (void)k;
    create(ctx, rec);
}

static void on_read(struct kernel *k, void *ctx, uint32_t unused)
{
    (void)unused;
    struct net_netrace *n = ctx;
    struct cfg_error err;
    if (!netrace_replay_read(n->replay, k->now, ready_now, n, &err)) {
        fail(n, &err);
        return;
    }
    double next = netrace_replay_next_cycle(n->replay);
    if (isfinite(next))
        kernel_schedule(k, next - k->now, n->ev_read, 0);
}

static void finished(struct net_netrace *n, const struct message *msg, double now, bool refused)
{
    struct network *net = n->net;
    uint32_t m = (uint32_t)(msg - net->pool.msgs), rec = n->tag[m];
    if (n->watch)
        n->watch->delivered(n->watch->ctx, netrace_replay_record(n->replay, rec)->id, now);
    n->refused += refused;
    n->delivered += !refused;
    n->last_delivery = now;
    netrace_replay_done(n->replay, rec, ready_later, n);
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

bool net_netrace_scan(struct network *net, struct cfg_error *err)
{
    const struct config *cfg = net->cfg;
    if (!(net->arrival->traits & ARRIVAL_DEPENDENCIES))
        return true;
    char path[2 * CFG_TEXT_MAX];
    trace_path(cfg, path, sizeof path);
    FILE *fp = fopen(path, "rb"); /* a file that cannot be opened blames the config's line */
    if (!fp) {
        trace_blame_unreadable(cfg, path, strerror(errno), err);
        return false;
    }
    fclose(fp);
    struct net_netrace *n = calloc(1, sizeof *n);
    if (!n) {
        cfg_blame(cfg, "workload.trace", err, "out of memory");
        return false;
    }
    n->net = net;
    if (!netrace_scan(path, net->topo.terminals, &n->scan, err)) {
        free(n);
        return false;
    }
    n->loop = (struct engine_tap){ delivered, refused, n };
    net->netrace = n;
    return true;
}

bool net_netrace_start(struct network *net, struct cfg_error *err)
{
    struct net_netrace *n = net->netrace;
    char path[2 * CFG_TEXT_MAX];
    trace_path(net->cfg, path, sizeof path);
    if (!(n->replay = netrace_replay_open(path, net->topo.terminals, err)))
        return false;
    n->ev_read = kernel_register(&net->kernel, on_read, n);
    n->ev_release = kernel_register(&net->kernel, on_release, n);
    kernel_schedule(&net->kernel, netrace_replay_next_cycle(n->replay), n->ev_read, 0);
    return true;
}

bool net_netrace_tag(struct net_netrace *n, uint32_t m, uint32_t rec)
{
    if (m >= n->tag_size) {
        uint32_t size = n->net->pool.capacity > m ? n->net->pool.capacity : m + 1;
        uint32_t *g = realloc(n->tag, (size_t)size * sizeof *g);
        if (!g)
            return false;
        n->tag = g;
        n->tag_size = size;
    }
    n->tag[m] = rec;
    return true;
}

void net_netrace_figures(const struct net_netrace *n, const struct figure_sink *sink)
{
    static const char group[] = "trace";
    bool all = n->delivered + n->refused == n->scan.packets;
    sink->number(sink->ctx, group, "completion", all ? n->last_delivery : NAN, FIGURE_EARLY);
    sink->number(sink->ctx, group, "packets", (double)n->scan.packets, FIGURE_EARLY);
    sink->number(sink->ctx, group, "trace_cycles", (double)n->scan.header.cycles, FIGURE_EARLY);
    sink->number(sink->ctx, group, "refused", (double)n->refused, FIGURE_EARLY);
    sink->number(sink->ctx, group, "most_held", n->replay ? (double)netrace_replay_most_held(n->replay) : NAN,
                 FIGURE_EARLY);
    sink->line(sink->ctx, group, FIGURE_PLACE_RATES,
               "trace        completion {completion} cycles for {packets} packets (the trace's own span: "
               "{trace_cycles} cycles; at most {most_held} ids held)");
}

void net_netrace_free(struct net_netrace *n)
{
    if (!n)
        return;
    netrace_replay_free(n->replay);
    free(n->tag);
    free(n);
}
