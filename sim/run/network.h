/* The network run: one simulation of a configured network, as a value.
 *
 * Promise: net_create() builds everything a run needs from a validated config
 * (topology, path selection, engine, workload, random streams, message pool,
 * measurement probe) or returns a cfg_error; net_run() simulates until the
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
 * part (waiting for and crossing channels).  The engine (routing/engine.h), picked
 * by traits, moves messages and sees only the engine_env net_create() hands it (the
 * access protocol, which the engine creates, sees only its access_env).
 * Needs: kernel, rng, probe, message pool, config and the module registries.
 */
#ifndef SIM_NETWORK_H
#define SIM_NETWORK_H

#include <stdbool.h>
#include <stdint.h>

#include "../../routing/deadlock_check.h"
#include "../../routing/engine.h"
#include "../../routing/routing.h"
#include "../../topo/topo.h"
#include "../../workloads/trace.h"
#include "../../workloads/workload.h"
#include "../config/config.h"
#include "../core/channel.h"
#include "../core/kernel.h"
#include "../core/msgq.h"
#include "../core/probe.h"
#include "../core/rng.h"
#include "../core/stats.h"

struct observe;
struct net_netrace;
struct net_reply;

#define NET_NONE MSG_NONE /* no message: the pool's own "none" */

/* The node model: one queue and one deterministic server per node. */
struct node_state {
    struct msgq queue;
    uint32_t serving;
    double busy_since, busy_time;
};

/* A message's clocks under the node model, beside its pool record (index for index). */
struct node_clock {
    double visit_start; /* when its current node visit began */
    double node_time;   /* its time at nodes so far, queueing and service */
};

struct network {
    const struct config *cfg;
    struct kernel kernel;
    struct topo topo;
    const struct route_ops *route;
    struct path_selection paths; /* the algorithm, its state (least-count) and the routing streams */
    const struct engine_ops *engine; /* engine_select(): by the path selection's and engines' traits */
    void *engine_state;
    const struct proto_ops *proto; /* handed to the engine, which creates its instance */
    const struct arrival_ops *arrival;
    struct destinations dest;
    struct lengths length; /* the length distribution and the state its draws read */

    struct msg_pool pool;     /* every message, by 32-bit index; protocol.priority orders its queues */
    uint32_t in_flight;
    struct channel_state *chan;
    struct node_state *node;  /* NULL without the node model */
    double node_service;      /* 1/μ_N; 0 without the node model */
    struct node_clock *clock; /* per pool slot, with the node model: NULL without it */
    uint32_t clock_size;      /* slots in clock (follows the pool's capacity) */
    uint32_t ev_node_done;

    /* Per-node streams; see rng.h for the purposes.  rng_redraw only with
     * run.redraw_length_per_hop, rng_route only when something draws from it (NULL
     * otherwise: 32 bytes a node nobody reads). */
    struct rng *rng_arrival, *rng_dest, *rng_length, *rng_redraw, *rng_route;
    /* Per channel, the access protocol's own streams: NULL unless it asks for them
     * (ACCESS_DRAWS_RANDOM). */
    struct rng *rng_protocol;

    uint32_t ev_arrival;
    struct trace trace;         /* trace arrivals: the records replayed */
    struct net_netrace *netrace; /* netrace arrivals: the loop (netrace_run.h); NULL otherwise */
    struct net_reply *reply;     /* workload.classes = request-reply (request_reply.h); NULL otherwise */
    FILE *trace_out;            /* not NULL: every created message is written here as a trace line */
    uint64_t created;           /* messages created so far */
    /* What is measured, and when (warm-up, window, delays): the probe decides, for
     * every engine. */
    struct probe probe;
    /* sim --channels, --nodes, --histogram, --series (observe.h); NULL when none is asked for. */
    struct observe *observe;
    /* The engine's fatal finding (deadlock): the run stops and sim exits with status
     * 3 printing this line. */
    char fatal[512];
    /* The static deadlock check's verdict (routing/deadlock_check.h), made before the
     * run for pipelined switching (wormhole, cut-through): reports print it. */
    struct dl_result deadlock;
};

bool net_create(struct network *net, const struct config *cfg, struct cfg_error *err);
/* Whether the static deadlock check refused the routing (net->deadlock): true with *err
 * (the cycle, the fix) for the run to stop before it starts; a sweep marks the point. */
bool net_deadlock_refused(const struct network *net, const struct config *cfg, struct cfg_error *err);
void net_free(struct network *net);
/* Closes the --write-trace stream (if any); false, errno set, when any write to it or
 * the close failed (a full disk): the trace is then not whole. */
bool net_close_trace(struct network *net);
enum kernel_stop net_run(struct network *net);
/* Creates message number net->created at `node`, now, and hands it to the engine (or
 * delivers it at once when self-addressed); tag: the netrace record it carries (netrace
 * arrivals), else ignored. */
void net_create_message(struct network *net, uint32_t node, uint32_t dst, double length, uint32_t tag);
/* An arrival at node: schedules the node's next one and creates its message now (a
 * request under request-reply). */
void net_arrive(struct network *net, uint32_t node);

/* --- the checks before a run is built (network_checks.c): false with *err --- */

/* The network of t fits in this machine's memory (and the address-space limit). */
bool net_fits_in_memory(const struct config *cfg, const struct topo *t, const struct engine_ops *engine,
                        const struct proto_ops *proto, struct cfg_error *err);
/* The configured input (arrivals, traces, per-message files) fits the engine. */
bool net_input_fits_engine(const struct network *net, const struct config *cfg, struct cfg_error *err);
/* The engine's own check, on the built topology and workload. */
bool net_engine_accepts(const struct network *net, const struct config *cfg, struct cfg_error *err);

/* --- the node model (nodes.c) --- */

/* The engine_nodes visit of the run whose network is ctx: msg queues for the server of
 * node msg->at; when served, the engine's visited() takes it on. */
void net_node_visit(void *ctx, uint32_t msg);
/* The engine_nodes node_time of the run whose network is ctx: msg's time at nodes. */
double net_node_time(const void *ctx, uint32_t msg);
/* A new message m: its clocks start at 0 (false when out of memory). */
bool net_node_clock_start(struct network *net, uint32_t m);
/* Sets up the node servers when node.service_rate > 0 (net->node stays NULL otherwise). */
bool net_nodes_init(struct network *net);

#endif
