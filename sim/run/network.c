#include "network.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../protocols/protocol.h"
#include "../../workloads/trace.h"
#include "../../workloads/workload.h"
#include "netrace_run.h"
#include "request_reply.h"
#include "deadlock_run.h"
#include "observe.h"

/* --- messages in flight: the pool's take and give, counted --- */

static uint32_t pool_take(struct network *net)
{
    uint32_t m = msg_pool_take(&net->pool);
    if (m != MSG_NONE)
        net->in_flight++;
    return m;
}

static void pool_give(struct network *net, uint32_t m)
{
    msg_pool_give(&net->pool, m);
    net->in_flight--;
}

/* --- the channels as an access protocol sees them --- */

static uint32_t channel_senders(const void *ctx, uint32_t ch, uint32_t *out, uint32_t max)
{
    const struct network *net = ctx;
    return net->topo.ops->senders(&net->topo, ch, out, max);
}

static double channel_mean_tx(const void *ctx, uint32_t ch)
{
    const struct network *net = ctx;
    return net->cfg->workload.mean_length / topo_channel_bandwidth(&net->topo, ch);
}

/* --- measurement: the probe decides; the run keeps its busy clocks --- */

/* The window opens: busy time before it does not count, so every busy server's clock
 * restarts. */
static void restart_busy_clocks(void *ctx, double now)
{
    struct network *net = ctx;
    if (net->engine->window_edge)
        net->engine->window_edge(net->engine_state, now, true);
    if (net->node)
        for (uint32_t v = 0; v < net->topo.nodes; v++)
            net->node[v].busy_since = now;
}

/* A self-addressed message: delivered at once, delay 0, 0 hops (no engine sees it,
 * unless the engine routes those too: ENGINE_TAKES_SELF_ADDRESSED). */
static void deliver_at_source(struct network *net, uint32_t m)
{
    const struct message *msg = &net->pool.msgs[m];
    const struct delay_parts parts = { 0, 0 };
    double now = net->kernel.now;
    uint64_t id = msg_id(&net->pool, m);
    if (net->observe)
        net->observe->tap.delivered(net->observe, msg, id, now);
    probe_delivered(&net->probe, id, now, now - msg->created, &parts, msg->hops);
    if (net->netrace)
        net->netrace->loop.delivered(net->netrace, msg, id, now);
    if (net->reply)
        net->reply->loop.delivered(net->reply, msg, id, now);
    pool_give(net, m);
}

/* --- message creation --- */

void net_create_message(struct network *net, uint32_t node, uint32_t dst, double length, uint32_t tag)
{
    struct kernel *k = &net->kernel;
    probe_created(&net->probe, net->created, k->now);
    if (net->observe)
        observe_created(net->observe, node, k->now);
    uint32_t m = pool_take(net);
    if (m == NET_NONE) {
        kernel_request_stop(k, KERNEL_FAILED);
        return;
    }
    if (net->trace_out)
        trace_write_record(net->trace_out, k->now, node, dst, length);
    struct message *msg = &net->pool.msgs[m];
    *msg = (struct message){
        .created = k->now,
        .length = length,
        .src = node,
        .dst = dst,
        .at = node,
        .next_node = NET_NONE,
        .link = NET_NONE,
    };
    msg_set_id(&net->pool, m, net->created++);
    if ((net->node && !net_node_clock_start(net, m)) || (net->netrace && !net_netrace_tag(net->netrace, m, tag)) ||
        (net->reply && !net_reply_tag(net->reply, m))) {
        pool_give(net, m);
        kernel_request_stop(k, KERNEL_FAILED);
        return;
    }
    if (dst == node && !(net->engine->traits & ENGINE_TAKES_SELF_ADDRESSED))
        deliver_at_source(net, m);
    else
        net->engine->inject(net->engine_state, m);
}

void net_arrive(struct network *net, uint32_t node)
{
    struct kernel *k = &net->kernel;
    const struct config *cfg = net->cfg;
    kernel_schedule(k, net->arrival->interarrival(cfg, &net->rng_arrival[node]), net->ev_arrival, node);
    double length = net->reply ? net->reply->p->request_length : length_draw(&net->length, &net->rng_length[node]);
    net_create_message(net, node, net->dest.ops->pick(&net->dest, node, &net->rng_dest[node]), length, NET_NONE);
}

static void on_arrival(struct kernel *k, void *ctx, uint32_t node)
{
    (void)k;
    struct network *net = ctx;
    if (net->reply && !net_reply_admits(net->reply, node))
        return; /* held at the cap: the process resumes at a reply's delivery */
    net_arrive(net, node);
}

/* A node's arrival comes soon: its three streams (stage 0). */
static void prefetch_arrival(void *ctx, uint32_t node, unsigned stage)
{
    const struct network *net = ctx;
    if (stage == 0) {
        __builtin_prefetch(&net->rng_arrival[node], 1);
        __builtin_prefetch(&net->rng_dest[node], 1);
        __builtin_prefetch(&net->rng_length[node], 1);
    }
}

/* Schedules an event at absolute time t >= now: now + (t - now) can miss t by an
 * ulp, which would move a replayed message off its recorded time. */
static void schedule_at(struct kernel *k, double t, uint32_t type, uint32_t obj)
{
    double delay = t - k->now;
    while (delay > 0 && k->now + delay > t)
        delay = nextafter(delay, 0);
    while (k->now + delay < t)
        delay = nextafter(delay, INFINITY);
    kernel_schedule(k, delay, type, obj);
}

/* Trace replay: obj is the record to create; its source's next record is scheduled
 * first, as on_arrival() schedules a node's next message (see trace.h). */
static void on_trace(struct kernel *k, void *ctx, uint32_t index)
{
    struct network *net = ctx;
    const struct trace_record *r = &net->trace.records[index];
    if (r->next != TRACE_NONE)
        schedule_at(k, net->trace.records[r->next].time, net->ev_arrival, r->next);
    net_create_message(net, r->src, r->dst, r->length, NET_NONE);
}

/* --- life cycle --- */

static bool seed_streams(struct rng **streams, uint32_t n, uint64_t seed, uint32_t purpose)
{
    *streams = malloc((size_t)n * sizeof **streams);
    if (!*streams)
        return false;
    for (uint32_t i = 0; i < n; i++)
        rng_seed_stream(&(*streams)[i], seed, purpose, i);
    return true;
}

/* What the engine is handed: the parts of the run it uses, nothing else. */
static struct engine_env engine_env_of(struct network *net)
{
    const struct config *cfg = net->cfg;
    struct observe *o = net->observe;
    bool wrap = o && o->chan; /* --channels: the access protocol's requests and grants are timed */
    return (struct engine_env){
        .cfg = cfg,
        .kernel = &net->kernel,
        .pool = &net->pool,
        .probe = &net->probe,
        .in_flight = &net->in_flight,
        .created = &net->created,
        .topo = &net->topo,
        .paths = &net->paths,
        .chan = net->chan,
        .access = wrap ? observe_access_ops() : net->proto,
        .access_env = {
            .kernel = &net->kernel,
            .pool = &net->pool,
            .channels = { net->topo.channels, net->topo.nodes, net, channel_senders, channel_mean_tx },
            .params = wrap ? (const void *)o : cfg_params(cfg, net->proto->params),
            .rng = net->rng_protocol,
        },
        .nodes = { net->node ? net_node_visit : NULL, net->node ? net_node_time : NULL, net },
        .redraw_length = cfg->run.redraw_length_per_hop ? net->length.ops->draw : NULL,
        .length_state = net->length.state,
        .per_cycle = net->arrival->per_cycle,
        .pick = net->dest.ops->pick,
        .dest = &net->dest,
        .rng_route = net->rng_route,
        .rng_redraw = net->rng_redraw,
        .rng_arrival = net->rng_arrival,
        .rng_dest = net->rng_dest,
        .fatal = net->fatal,
        .fatal_size = sizeof net->fatal,
        .tap = o && (o->node || o->series) ? &o->tap : NULL,
        .loop = net->netrace ? &net->netrace->loop : net->reply ? &net->reply->loop : NULL,
        .classes = net->reply ? &net->reply->classes : NULL,
    };
}

static bool engine_create(struct network *net)
{
    const struct engine_env env = engine_env_of(net);
    net->engine_state = net->engine->create(&env);
    return net->engine_state != NULL;
}

/* The channels' books, the message pool, the node model, the lengths' state and the
 * random streams: false when out of memory. */
static bool run_state_init(struct network *net, const struct config *cfg)
{
    uint32_t nodes = net->topo.nodes;
    net->chan = malloc((size_t)net->topo.channels * sizeof *net->chan);
    if (!net->chan)
        return false;
    for (uint32_t ch = 0; ch < net->topo.channels; ch++)
        net->chan[ch] = (struct channel_state){ 0 };
    net->pool = priority_pool(cfg, false);
    if (!net_nodes_init(net) || !length_init(&net->length, cfg))
        return false;
    uint64_t seed = cfg->run.seed;
    /* A deterministic path selection on an engine that draws nothing itself never reads
     * the routing streams: 32 bytes a node unseeded. */
    bool draws_routing = !(net->route->traits & ROUTE_DETERMINISTIC) || (net->engine->traits & ENGINE_DRAWS_ROUTING);
    if (!seed_streams(&net->rng_arrival, nodes, seed, RNG_ARRIVAL) ||
        !seed_streams(&net->rng_dest, nodes, seed, RNG_DESTINATION) ||
        !seed_streams(&net->rng_length, nodes, seed, RNG_LENGTH) ||
        (cfg->run.redraw_length_per_hop && !seed_streams(&net->rng_redraw, nodes, seed, RNG_LENGTH_REDRAW)) ||
        (draws_routing && !seed_streams(&net->rng_route, nodes, seed, RNG_ROUTING)) ||
        !access_streams(net->proto, net->topo.channels, seed, &net->rng_protocol))
        return false;
    return true;
}

/* The probe and, when a file looks inside the run, the observer; then the pool's first
 * records, which need to know whether creation numbers are kept: false when out of
 * memory. */
static bool measurement_init(struct network *net, const struct config *cfg)
{
    const struct probe_spec measured = { /* netrace arrivals: every packet of the trace */
        .warmup_messages = cfg->run.warmup[0] == 'a' || net->netrace ? 0 : (uint64_t)cfg->run.warmup_messages,
        .messages = net->netrace ? net->netrace->scan.packets : (uint64_t)cfg->run.messages,
        .warmup_time = cfg->run.warmup_time,
        .duration = cfg->run.duration,
        .batches = (unsigned)cfg->run.batches,
        .warmup_auto = cfg->run.warmup[0] == 'a',
        .sources = net->topo.terminals,
        .precision = cfg->run.precision,
    };
    if (!probe_init(&net->probe, &net->kernel, &measured, &net->in_flight))
        return false;
    probe_set_open_hook(&net->probe, restart_busy_clocks, net);
    const struct run_files *files = &cfg->files;
    if (files->channels || files->nodes || files->histogram || files->series) {
        net->observe = observe_create(cfg, &net->topo, &net->probe, &net->kernel, &net->in_flight);
        if (!net->observe)
            return false;
        net->observe->inner = net->proto;
        net->observe->inner_params = cfg_params(cfg, net->proto->params);
    }
    /* Creation numbers name the measured messages in message mode; in time mode only
     * an observer or an engine that orders by them reads them. */
    net->pool.keep_ids = !net->probe.time_mode || net->observe || (net->engine->traits & ENGINE_READS_IDS);
    return msg_pool_grow(&net->pool);
}

/* The arrivals' event type, the engine and, in time mode, the window's edges, in that
 * order: false when out of memory. */
static bool arrivals_and_engine_init(struct network *net)
{
    bool replay = net->arrival->traits & ARRIVAL_REPLAY;
    net->ev_arrival = kernel_register(&net->kernel, replay ? on_trace : on_arrival, net);
    if (!replay)
        kernel_set_prefetch(&net->kernel, net->ev_arrival, prefetch_arrival);
    if (!engine_create(net))
        return false;
    if (net->probe.time_mode)
        probe_schedule_window(&net->probe);
    return true;
}

/* Every source's first arrival: its first record when a trace is replayed (trace.h
 * chains the rest), else drawn. */
static void schedule_first_arrivals(struct network *net, const struct config *cfg, uint32_t terminals)
{
    if (net->arrival->traits & ARRIVAL_REPLAY) {
        for (uint32_t node = 0; node < terminals; node++) {
            uint32_t first = net->trace.first[node];
            if (first != TRACE_NONE)
                schedule_at(&net->kernel, net->trace.records[first].time, net->ev_arrival, first);
        }
        return;
    }
    double (*first)(const struct config *, struct rng *) =
        net->arrival->first ? net->arrival->first : net->arrival->interarrival;
    for (uint32_t node = 0; node < terminals; node++) {
        double at = cfg->workload.first_at_zero ? 0 : first(cfg, &net->rng_arrival[node]);
        kernel_schedule(&net->kernel, at, net->ev_arrival, node);
    }
}

bool net_create(struct network *net, const struct config *cfg, struct cfg_error *err)
{
    memset(net, 0, sizeof *net);
    net->cfg = cfg;
    net->route = route_select(cfg);
    net->engine = engine_select(cfg);
    net->proto = proto_find(cfg->protocol.link);
    net->arrival = arrival_find(cfg->workload.arrival);
    assert(net->route && net->engine && net->proto && net->arrival);
    bool slotted = net->engine->traits & ENGINE_SLOTTED;
    if (!net_input_fits_engine(net, cfg, err))
        return false;
    if (!kernel_init(&net->kernel))
        goto out_of_memory;
    if (!topo_build(&net->topo, cfg, err) || !net_fits_in_memory(cfg, &net->topo, net->engine, net->proto, err) ||
        !route_check(cfg, &net->topo, err) ||
        !dest_init(&net->dest, cfg, &net->topo, err)) {
        net_free(net);
        return false;
    }
    if (!net_engine_accepts(net, cfg, err) || !net_deadlock_verdict(net, cfg, err)) {
        net_free(net);
        return false;
    }
    uint32_t terminals = net->topo.terminals;
    if (!net_netrace_scan(net, err)) {
        net_free(net);
        return false;
    }
    if (!run_state_init(net, cfg) || !measurement_init(net, cfg))
        goto out_of_memory;
    if (!net_reply_create(net, err)) {
        net_free(net);
        return false;
    }
    net->paths = (struct path_selection){ net->route, NULL, &net->topo, net->rng_route };
    if (net->route->create && !(net->paths.state = net->route->create(&net->topo)))
        goto out_of_memory;
    if (slotted) { /* the engine runs the network itself, in cycles, from its own input */
        if (!engine_create(net))
            goto out_of_memory;
        return true;
    }
    if (!arrivals_and_engine_init(net))
        goto out_of_memory;
    if (cfg->write_trace && !(net->trace_out = fopen(cfg->write_trace, "w"))) {
        net_free(net);
        snprintf(err->file, sizeof err->file, "%s", cfg->write_trace);
        err->line = 0;
        err->key[0] = '\0';
        snprintf(err->message, sizeof err->message, "cannot write the trace: %s", strerror(errno));
        return false;
    }
    bool replay = net->arrival->traits & ARRIVAL_REPLAY;
    if ((net->netrace && !net_netrace_start(net, err)) ||
        (replay && !net->netrace && !trace_load(&net->trace, cfg, terminals, err))) {
        net_free(net);
        return false;
    }
    if (!net->netrace)
        schedule_first_arrivals(net, cfg, terminals);
    if (net->kernel.stop == KERNEL_FAILED)
        goto out_of_memory;
    return true;

out_of_memory:
    net_free(net);
    cfg_blame(cfg, "network.topology", err, "out of memory building this network");
    return false;
}

enum kernel_stop net_run(struct network *net)
{
    enum kernel_stop why = kernel_run(&net->kernel);
    if (net->engine->finish)
        net->engine->finish(net->engine_state);
    if (!probe_settle(&net->probe)) /* recording: the statistics of the retained messages */
        why = KERNEL_FAILED;
    if (net->engine->traits & ENGINE_SLOTTED) /* the probe's window is in whole cycles, closed by the engine */
        return why;
    probe_finish(&net->probe, why);
    /* Close the books on servers still busy at the end of the window. */
    const struct probe *p = &net->probe;
    if (p->window_open) {
        if (net->engine->window_edge)
            net->engine->window_edge(net->engine_state, p->window_end, false);
        if (net->node)
            for (uint32_t v = 0; v < net->topo.nodes; v++)
                if (net->node[v].serving != NET_NONE)
                    net->node[v].busy_time += p->window_end - net->node[v].busy_since;
    }
    return why;
}

bool net_close_trace(struct network *net)
{
    if (!net->trace_out)
        return true;
    bool ok = !ferror(net->trace_out);
    int saved = errno;
    ok = fclose(net->trace_out) == 0 && ok;
    if (ok)
        errno = saved;
    net->trace_out = NULL;
    return ok;
}

void net_free(struct network *net)
{
    if (net->engine && net->engine_state)
        net->engine->destroy(net->engine_state);
    if (net->route && net->route->destroy && net->paths.state)
        net->route->destroy(net->paths.state);
    probe_free(&net->probe);
    observe_free(net->observe);
    free(net->rng_arrival);
    free(net->rng_dest);
    free(net->rng_length);
    free(net->rng_redraw);
    free(net->rng_route);
    free(net->rng_protocol);
    free(net->chan);
    free(net->node);
    free(net->clock);
    msg_pool_free(&net->pool);
    dest_free(&net->dest);
    length_free(&net->length);
    trace_free(&net->trace);
    net_netrace_free(net->netrace);
    net_reply_free(net->reply);
    if (net->trace_out)
        fclose(net->trace_out);
    topo_free(&net->topo);
    kernel_free(&net->kernel);
    memset(net, 0, sizeof *net);
}
