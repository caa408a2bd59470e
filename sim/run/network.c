#include "network.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../protocols/protocol.h"
#include "../../routing/routing.h"
#include "../../workloads/trace.h"
#include "../../workloads/workload.h"

/* --- message pool: indices, a free list, growth by doubling (no malloc per message) --- */

static bool pool_grow(struct network *net)
{
    uint32_t old = net->msg_capacity;
    uint32_t cap = old ? old * 2 : 1024;
    if (cap <= old)
        return false;
    struct message *grown = realloc(net->msgs, (size_t)cap * sizeof *grown);
    if (!grown)
        return false;
    net->msgs = grown;
    for (uint32_t i = old; i < cap; i++)
        grown[i].link = i + 1 < cap ? i + 1 : net->msg_free;
    net->msg_free = old;
    net->msg_capacity = cap;
    return true;
}

static uint32_t pool_take(struct network *net)
{
    if (net->msg_free == NET_NONE && !pool_grow(net))
        return NET_NONE;
    uint32_t m = net->msg_free;
    net->msg_free = net->msgs[m].link;
    net->in_flight++;
    return m;
}

static void pool_give(struct network *net, uint32_t m)
{
    net->msgs[m].link = net->msg_free;
    net->msg_free = m;
    net->in_flight--;
}

/* --- channel queues and accounting --- */

void net_queue_push(struct network *net, uint32_t ch, uint32_t m) { msgq_push(net, &net->chan[ch].queue, m); }

uint32_t net_queue_pop(struct network *net, uint32_t ch) { return msgq_pop(net, &net->chan[ch].queue); }

void net_channel_busy(struct network *net, uint32_t ch, uint32_t m)
{
    assert(net->chan[ch].serving == NET_NONE);
    net->chan[ch].serving = m;
    net->chan[ch].busy_since = net->kernel.now;
}

void net_channel_idle(struct network *net, uint32_t ch)
{
    struct channel_state *c = &net->chan[ch];
    if (net->window_open)
        c->busy_time += net->kernel.now - c->busy_since;
    c->serving = NET_NONE;
}

double net_transmission_time(struct network *net, uint32_t m, uint32_t ch)
{
    return net->msgs[m].length / topo_channel_bandwidth(&net->topo, ch);
}

void net_redraw_length(struct network *net, uint32_t m)
{
    struct message *msg = &net->msgs[m];
    if (net->cfg->run.redraw_length_per_hop && msg->hops > 0)
        msg->length = net->length->draw(net->cfg, &net->rng_redraw[msg->at]);
}

struct hop net_route(struct network *net, uint32_t m)
{
    if (net->route->choose)
        return net->route->choose(net, m);
    const struct message *msg = &net->msgs[m];
    return net->route->next(&net->topo, msg->at, msg->dst, &net->rng_route[msg->at]);
}

/* --- measurement window --- */

static void open_window(struct network *net)
{
    net->window_open = true;
    net->window_start = net->kernel.now;
    net->in_flight_at_open = net->in_flight;
    /* Busy time before the window does not count: restart every busy server's clock. */
    for (uint32_t ch = 0; ch < net->topo.channels; ch++)
        net->chan[ch].busy_since = net->kernel.now;
    if (net->node)
        for (uint32_t v = 0; v < net->topo.nodes; v++)
            net->node[v].busy_since = net->kernel.now;
}

/* Time mode: obj 0 opens the measurement window, obj 1 closes it and ends the run. */
static void on_window(struct kernel *k, void *ctx, uint32_t close)
{
    struct network *net = ctx;
    if (!close) {
        open_window(net);
        return;
    }
    net->window_end = k->now;
    kernel_request_stop(k, KERNEL_DONE);
}

static void measure(struct network *net, const struct message *msg, uint64_t batch_index)
{
    stats_add(&net->delay, batch_index, net->kernel.now - msg->created);
    moments_add(&net->delay_node, msg->node_time);
    moments_add(&net->delay_link, msg->link_time);
    net->hops_measured += msg->hops;
}

void net_deliver(struct network *net, uint32_t m)
{
    const struct message *msg = &net->msgs[m];
    if (net->window_open)
        net->delivered_in_window++;
    if (net->time_mode) {
        if (net->window_open) {
            double fraction = (net->kernel.now - net->window_start) / net->cfg->run.duration;
            uint64_t batch = (uint64_t)(fraction * (double)net->cfg->run.batches);
            measure(net, msg, batch);
        }
    } else {
        uint64_t index = msg->id - net->measure_first;
        if (msg->id >= net->measure_first && index < net->measure_count) {
            measure(net, msg, index);
            if (++net->measured_done == net->measure_count) {
                net->window_end = net->kernel.now;
                kernel_request_stop(&net->kernel, KERNEL_DONE);
            }
        }
    }
    pool_give(net, m);
}

void net_drop(struct network *net, uint32_t m)
{
    const struct message *msg = &net->msgs[m];
    uint64_t index = msg->id - net->measure_first;
    if (!net->time_mode && msg->id >= net->measure_first && index < net->measure_count) {
        stats_skip(&net->delay, index);
        if (++net->measured_done == net->measure_count) {
            net->window_end = net->kernel.now;
            kernel_request_stop(&net->kernel, KERNEL_DONE);
        }
    }
    pool_give(net, m);
}

/* --- message creation --- */

/* Creates message number net->created at `node`, now, and hands it to the switching
 * module (or delivers it at once when self-addressed). */
static void create_message(struct network *net, uint32_t node, uint32_t dst, double length)
{
    struct kernel *k = &net->kernel;
    if (!net->time_mode && net->created == net->measure_first && !net->window_open)
        open_window(net);
    uint32_t m = pool_take(net);
    if (m == NET_NONE) {
        kernel_request_stop(k, KERNEL_FAILED);
        return;
    }
    if (net->trace_out)
        trace_write_record(net->trace_out, k->now, node, dst, length);
    struct message *msg = &net->msgs[m];
    *msg = (struct message){
        .id = net->created++,
        .created = k->now,
        .length = length,
        .src = node,
        .dst = dst,
        .at = node,
        .next_node = NET_NONE,
        .link = NET_NONE,
        .link2 = NET_NONE,
    };
    if (dst == node)
        net_deliver(net, m); /* self-addressed: delivered at once, delay 0, 0 hops */
    else
        net->sw->inject(net, m);
}

static void on_arrival(struct kernel *k, void *ctx, uint32_t node)
{
    struct network *net = ctx;
    const struct config *cfg = net->cfg;
    kernel_schedule(k, net->arrival->interarrival(cfg, &net->rng_arrival[node]), net->ev_arrival, node);
    double length = net->length->draw(cfg, &net->rng_length[node]);
    create_message(net, node, net->dest.ops->pick(&net->dest, node, &net->rng_dest[node]), length);
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
    create_message(net, r->src, r->dst, r->length);
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

bool net_create(struct network *net, const struct config *cfg, struct cfg_error *err)
{
    memset(net, 0, sizeof *net);
    net->cfg = cfg;
    net->msg_free = NET_NONE;
    net->route = route_select(cfg);
    net->sw = switch_find(cfg->routing.switching);
    net->proto = proto_find(cfg->protocol.link);
    net->arrival = arrival_find(cfg->workload.arrival);
    net->length = length_find(cfg->workload.length);
    assert(net->route && net->sw && net->proto && net->arrival && net->length);
    if (!net->route->engine && !net->arrival->interarrival && !(net->arrival->traits & ARRIVAL_REPLAY)) {
        cfg_blame(cfg, KEY_WORKLOAD_ARRIVAL, err, "'%s' arrivals exist only in slotted time; %s switching is event-driven",
                  cfg->workload.arrival, cfg->routing.switching);
        return false;
    }
    if (!kernel_init(&net->kernel))
        goto out_of_memory;
    if (!topo_build(&net->topo, cfg, err) || !route_check(cfg, &net->topo, err) ||
        !dest_init(&net->dest, cfg, &net->topo, err)) {
        net_free(net);
        return false;
    }
    if (net->sw->check && !net->sw->check(cfg, &net->topo, err)) {
        net_free(net);
        return false;
    }
    uint32_t nodes = net->topo.nodes;
    net->chan = malloc((size_t)net->topo.channels * sizeof *net->chan);
    if (!net->chan)
        goto out_of_memory;
    for (uint32_t ch = 0; ch < net->topo.channels; ch++)
        net->chan[ch] = (struct channel_state){ MSGQ_EMPTY, NET_NONE, 0, 0 };
    net->discipline = priority_discipline(cfg->protocol.priority);
    if (!net_nodes_init(net))
        goto out_of_memory;
    uint64_t seed = cfg->run.seed;
    if (!seed_streams(&net->rng_arrival, nodes, seed, RNG_ARRIVAL) ||
        !seed_streams(&net->rng_dest, nodes, seed, RNG_DESTINATION) ||
        !seed_streams(&net->rng_length, nodes, seed, RNG_LENGTH) ||
        !seed_streams(&net->rng_redraw, nodes, seed, RNG_LENGTH_REDRAW) ||
        !seed_streams(&net->rng_route, nodes, seed, RNG_ROUTING))
        goto out_of_memory;
    net->time_mode = cfg->run.duration > 0;
    net->measure_first = (uint64_t)cfg->run.warmup_messages;
    net->measure_count = (uint64_t)cfg->run.messages;
    /* Time mode numbers each delivery by its batch of the window directly. */
    uint64_t numbered = net->time_mode ? (uint64_t)cfg->run.batches : net->measure_count;
    if (!stats_init(&net->delay, numbered, (unsigned)cfg->run.batches))
        goto out_of_memory;
    if (!pool_grow(net))
        goto out_of_memory;
    if (net->route->init && !net->route->init(net))
        goto out_of_memory;
    if (net->route->engine) { /* the algorithm runs the network itself, in cycles */
        if (!net->route->engine->init(net))
            goto out_of_memory;
        return true;
    }
    bool replay = net->arrival->traits & ARRIVAL_REPLAY;
    net->ev_arrival = kernel_register(&net->kernel, replay ? on_trace : on_arrival, net);
    if (!net->sw->init(net) || (net->proto->init && !net->proto->init(net)))
        goto out_of_memory;
    if (net->time_mode) {
        net->ev_window = kernel_register(&net->kernel, on_window, net);
        if (cfg->run.warmup_time > 0)
            kernel_schedule(&net->kernel, cfg->run.warmup_time, net->ev_window, 0);
        else
            open_window(net);
        kernel_schedule(&net->kernel, cfg->run.warmup_time + cfg->run.duration, net->ev_window, 1);
    }
    if (cfg->write_trace && !(net->trace_out = fopen(cfg->write_trace, "w"))) {
        net_free(net);
        snprintf(err->file, sizeof err->file, "%s", cfg->write_trace);
        err->line = 0;
        err->key[0] = '\0';
        snprintf(err->message, sizeof err->message, "cannot write the trace: %s", strerror(errno));
        return false;
    }
    if (net->arrival->traits & ARRIVAL_REPLAY) {
        if (!trace_load(&net->trace, cfg->workload.trace, nodes, err)) {
            net_free(net);
            return false;
        }
        for (uint32_t node = 0; node < nodes; node++) {
            uint32_t first = net->trace.first[node];
            if (first != TRACE_NONE)
                schedule_at(&net->kernel, net->trace.records[first].time, net->ev_arrival, first);
        }
    }
    double (*first)(const struct config *, struct rng *) =
        net->arrival->first ? net->arrival->first : net->arrival->interarrival;
    for (uint32_t node = 0; !(net->arrival->traits & ARRIVAL_REPLAY) && node < nodes; node++) {
        double at = cfg->workload.first_at_zero ? 0 : first(cfg, &net->rng_arrival[node]);
        kernel_schedule(&net->kernel, at, net->ev_arrival, node);
    }
    if (net->kernel.stop == KERNEL_FAILED)
        goto out_of_memory;
    return true;

out_of_memory:
    net_free(net);
    cfg_blame(cfg, KEY_NETWORK_TOPOLOGY, err, "out of memory building this network");
    return false;
}

enum kernel_stop net_run(struct network *net)
{
    enum kernel_stop why = kernel_run(&net->kernel);
    if (net->route->engine) /* it keeps its own books, in whole cycles */
        return why;
    if (why != KERNEL_DONE) {
        net->window_end = net->kernel.now;
        if (!net->window_open)
            net->window_start = net->window_end;
    }
    /* Close the books on servers still busy at the end of the window. */
    if (net->window_open) {
        for (uint32_t ch = 0; ch < net->topo.channels; ch++)
            if (net->chan[ch].serving != NET_NONE)
                net->chan[ch].busy_time += net->window_end - net->chan[ch].busy_since;
        if (net->node)
            for (uint32_t v = 0; v < net->topo.nodes; v++)
                if (net->node[v].serving != NET_NONE)
                    net->node[v].busy_time += net->window_end - net->node[v].busy_since;
    }
    return why;
}

void net_free(struct network *net)
{
    if (net->route && net->route->engine && net->route_state)
        net->route->engine->free(net);
    if (net->route && net->route->free && net->route_state)
        net->route->free(net);
    if (net->sw && net->sw->free && net->sw_state)
        net->sw->free(net);
    if (net->proto && net->proto->free && net->proto_state)
        net->proto->free(net);
    stats_free(&net->delay);
    free(net->rng_arrival);
    free(net->rng_dest);
    free(net->rng_length);
    free(net->rng_redraw);
    free(net->rng_route);
    free(net->chan);
    free(net->node);
    free(net->msgs);
    dest_free(&net->dest);
    trace_free(&net->trace);
    if (net->trace_out)
        fclose(net->trace_out);
    topo_free(&net->topo);
    kernel_free(&net->kernel);
    memset(net, 0, sizeof *net);
}
