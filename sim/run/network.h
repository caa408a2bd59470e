/* The network run: one simulation of a configured network, as a value.
 *
 * Promise: net_create() builds everything a run needs from a validated config
 * (topology, routing, switching, access protocol, workload, random streams, message
 * pool, measurement probe) or returns a cfg_error; net_run() simulates until the
 * measured messages are all delivered or the kernel is stopped; report_collect()
 * (sim/run/collect.h) summarises.  A run has no global state: two can exist in one
 * process.  It is pinned, though: the kernel's handlers, the probe, the protocol and
 * the engines keep pointers into it, so a struct network is never copied or moved
 * between net_create() and net_free().
 *
 * Message lifecycle (what is measured is the probe's, sim/core/probe.h): a source
 * creates a message (number = creation order).  In message mode, messages numbered below run.warmup_messages warm the network up, the
 * next run.messages are measured, and sources keep generating until every measured
 * message is delivered so the load stays stationary to the end.  In time mode
 * (run.duration > 0, the seeds' way) every message delivered in [run.warmup_time,
 * run.warmup_time + run.duration] is measured and the run stops at the window's end.
 * A delay is split into its node part (queueing and service at nodes) and its link
 * part (waiting for and crossing channels).  Switching modules move messages and use
 * the helpers below; access protocols decide who gets a channel and see only what
 * net_create() hands them (protocols/protocol.h).
 * Needs: kernel, rng, probe, message pool, config and the module registries.
 */
#ifndef SIM_NETWORK_H
#define SIM_NETWORK_H

#include <stdbool.h>
#include <stdint.h>

#include "../../topo/topo.h"
#include "../../workloads/trace.h"
#include "../../workloads/workload.h"
#include "../config/config.h"
#include "../core/kernel.h"
#include "../core/msgq.h"
#include "../core/probe.h"
#include "../core/rng.h"
#include "../core/stats.h"

#define NET_NONE MSG_NONE /* no message: the pool's own "none" */

/* What the run keeps per channel; its waiting lines are the access protocol's. */
struct channel_state {
    uint32_t serving;    /* message holding the channel, NET_NONE when idle */
    double busy_since;   /* valid while serving != NET_NONE */
    double busy_time;    /* accumulated within the measurement window */
};

/* The node model: one queue and one deterministic server per node. */
struct node_state {
    struct msgq queue;
    uint32_t serving;
    double busy_since, busy_time;
};

struct route_ops;
struct switch_ops;
struct proto_ops;

struct network {
    const struct config *cfg;
    struct kernel kernel;
    struct topo topo;
    const struct route_ops *route;
    const struct switch_ops *sw;
    const struct proto_ops *proto;
    const struct arrival_ops *arrival;
    struct destinations dest;
    const struct length_ops *length;
    const void *length_params; /* its block of key values (cfg_params), NULL without keys */
    void *sw_state;
    void *proto_state;  /* the access protocol's instance (proto->create); NULL when the engine takes no grants */
    void *route_state; /* the routing algorithm's own state (least-count, backtracking) */

    struct msg_pool pool;     /* every message, by 32-bit index; protocol.priority orders its queues */
    uint32_t in_flight;
    struct channel_state *chan;
    struct node_state *node;  /* NULL without the node model */
    double node_service;      /* 1/μ_N; 0 without the node model */
    uint32_t ev_node_done;

    /* Per-node streams; see rng.h for the purposes. */
    struct rng *rng_arrival, *rng_dest, *rng_length, *rng_redraw, *rng_route;

    uint32_t ev_arrival;
    struct trace trace;         /* trace arrivals: the records replayed */
    FILE *trace_out;            /* not NULL: every created message is written here as a trace line */
    uint64_t created;           /* messages created so far */
    /* What is measured, and when (warm-up, window, delays): the probe decides, for
     * every engine. */
    struct probe probe;
    /* A switching module's fatal finding (deadlock): the run stops and sim exits
     * with status 3 printing this line. */
    char fatal[512];
};

bool net_create(struct network *net, const struct config *cfg, struct cfg_error *err);
void net_free(struct network *net);
enum kernel_stop net_run(struct network *net);

/* --- helpers for switching and protocol modules --- */

/* A message has reached node msg->at (its source, a relay or its destination): it
 * queues for the node's server when the node model is on, then the switching
 * module's visited() takes it on; without the node model visited() is called at once. */
void net_node_visit(struct network *net, uint32_t msg);
bool net_nodes_init(struct network *net);

/* The hop a message takes from `at` toward its destination (routing + its stream). */
struct hop net_route(struct network *net, uint32_t msg);
/* Message has arrived at its destination: record it and recycle it. */
void net_deliver(struct network *net, uint32_t msg);
/* Message refused at its source (finite source buffer): recycled unmeasured; in
 * message mode it still counts toward run.messages so the run ends. */
void net_drop(struct network *net, uint32_t msg);
/* Channel accounting: call when a channel starts and stops carrying a message. */
void net_channel_busy(struct network *net, uint32_t ch, uint32_t msg);
void net_channel_idle(struct network *net, uint32_t ch);
/* Transmission time of a message on a channel. */
double net_transmission_time(struct network *net, uint32_t msg, uint32_t ch);
/* Before a message asks for its next channel: re-draws its length when
 * run.redraw_length_per_hop (so length priorities see the length it will use). */
void net_redraw_length(struct network *net, uint32_t msg);

#endif
