/* Switching engines: the one interface of store-and-forward, the flit engines
 * (wormhole, cut-through) and the slotted backtracking engine.
 *
 * Promise of every engine: create() builds an instance from an engine_env (what the
 * run hands it, once: nothing else of the run is visible) or returns NULL when out of
 * memory; inject() takes a new message at its source (already counted as created;
 * src != dst unless the engine has ENGINE_TAKES_SELF_ADDRESSED) and eventually delivers it through engine_deliver() or refuses it through
 * engine_refuse(), so the probe sees every message; destroy() frees the instance and
 * whatever it created (its access protocol).  A slotted engine has no inject(): it
 * admits its own input cycle by cycle, from the arrival and destination draws in its
 * environment, and counts what it admits in env->created and env->in_flight.
 * check() refuses the configurations the engine cannot run.  figures() reports the
 * engine's own figures (blocking, acceptance, backtracking counts) through a sink of
 * named figures (sim/core/figures.h) after the run; called with self NULL (engines
 * with ENGINE_COLUMNS_ALWAYS, when another engine ran) it names them without values,
 * so that they are columns of every report.  channel_figures() (optional) gives one
 * channel's own waiting figures after the run, for sim --channels; the run adds the
 * utilisation, which it keeps itself.  Which engine runs is a
 * question of trait bits (sim/core/traits.h: SWITCH_*, ENGINE_*), never of names.
 * Needs: sim/core (kernel, pool, probe, channel clocks, streams), topo, the path
 * selection (routing.h) and the access protocol's interface (protocols/protocol.h).
 */
#ifndef ROUTING_ENGINE_H
#define ROUTING_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../protocols/protocol.h"
#include "../sim/core/channel.h"
#include "../sim/core/figures.h"
#include "../sim/core/kernel.h"
#include "../sim/core/message.h"
#include "../sim/core/probe.h"
#include "../sim/core/rng.h"
#include "../sim/core/zero_load.h"
#include "../sim/core/traits.h"
#include "../sim/core/valiant_mids.h"
#include "../topo/topo.h"
#include "routing.h"

/* What check() may ask about a configuration: the config, the built topology, and
 * the two facts of the workload an engine depends on (the run reads them from the
 * workload's registry, which routing does not see). */
struct engine_spec {
    const struct config *cfg;
    const struct topo *topo;
    bool arrivals_per_cycle;           /* the arrival process gives a count per cycle */
    bool destinations_may_pick_source; /* self-addressed messages can occur */
    uint32_t reply_queue;              /* request-reply's workload.reply_queue (0: unbounded, or one class) */
};

/* The node model (sim/run), when it is on: visit() queues msg for the server of the
 * node msg->at; when served, the run hands it to engine_ops.visited. */
struct engine_nodes {
    void (*visit)(void *ctx, uint32_t msg); /* NULL: no node model, a visit costs nothing */
    double (*node_time)(const void *ctx, uint32_t msg); /* msg's time at nodes so far */
    void *ctx;
};

struct destinations; /* workloads/workload.h: only passed back to its own pick() */
struct dl_relation;  /* routing/deadlock_check.h */

/* The run's per-message observer (sim --nodes, --series; sim/run/observe.h): NULL
 * unless asked for, so a delivery costs one pointer test.  Called with the message
 * still whole and the in-flight count not yet lowered. */
struct engine_tap {
    void (*delivered)(void *ctx, const struct message *msg, uint64_t id, double now);
    void (*refused)(void *ctx, const struct message *msg, uint64_t id, double now);
    void *ctx;
};

/* One channel's waiting figures inside the measurement window (engine_ops.channel_figures);
 * NaN where the engine has no such figure. */
struct channel_figures {
    double queue_mean; /* time-average number of messages (headers) waiting for the channel */
    double wait_mean;  /* mean wait of a request before the channel was granted */
    double blocking;   /* fraction of requests that had to wait */
    double requests;   /* requests counted */
};

/* Message classes (workload.classes = request-reply, sim/run/request_reply.h): what an
 * engine that keeps a VC set per class (routing.class_vcs) or bounds the reply queue
 * needs.  *of is the run's array, per pool slot, of the message's class (0 request, 1
 * reply), set before the message is injected; the run may grow it, so it is read
 * through the pointer at each use. */
enum { MSG_CLASS_REQUEST = 0, MSG_CLASS_REPLY = 1 };
struct engine_classes {
    const uint8_t *const *of;
    uint32_t reply_queue; /* workload.reply_queue: 0 unbounded */
};

/* Everything an engine is given, once, at creation; every pointer stays valid for
 * the engine's whole life. */
struct engine_env {
    const struct config *cfg;   /* the run's config: the engine's own block through cfg_params(),
                                 * other modules' keys by name */
    struct kernel *kernel;
    struct msg_pool *pool;
    struct probe *probe;
    uint32_t *in_flight;        /* messages in the network: the probe's backlog */
    uint64_t *created;          /* messages numbered so far (a slotted engine numbers its own) */
    const struct topo *topo;
    struct path_selection *paths;
    struct channel_state *chan; /* per channel: its busy time (sim/core/channel.h) */
    /* The access protocol: the engine creates it (filling access_env.grant and
     * .engine) when it takes grants, and destroys it. */
    const struct proto_ops *access;
    struct access_env access_env;
    struct engine_nodes nodes;
    /* Workload draws.  redraw_length: NULL unless run.redraw_length_per_hop; a slotted
     * engine's batch sizes (per_cycle) and destinations (pick on dest). */
    double (*redraw_length)(const void *state, struct rng *r);
    const void *length_state; /* the run's length distribution's state, for redraw_length */
    uint32_t (*per_cycle)(const struct config *cfg, struct rng *r);
    uint32_t (*pick)(const struct destinations *d, uint32_t src, struct rng *r);
    const struct destinations *dest;
    /* Per-node streams (sim/core/rng.h purposes): routing (NULL when the path
     * selection is deterministic and the engine lacks ENGINE_DRAWS_ROUTING), length
     * re-draws (NULL unless redraw_length), arrivals, destinations. */
    struct rng *rng_route, *rng_redraw, *rng_arrival, *rng_dest;
    /* A fatal finding (deadlock) is written here; the run then exits with status 3. */
    char *fatal;
    size_t fatal_size;
    const struct engine_tap *tap; /* NULL: nobody watches deliveries (engine_deliver) */
    /* The workload's, when it closes the loop (a dependency-driven trace waits for
     * deliveries): told of every delivery and refusal after the probe, the message still
     * whole; it must not take from the pool or call into the engine (it schedules
     * events).  NULL otherwise. */
    const struct engine_tap *loop;
    /* Request-reply's classes; NULL with one class of message. */
    const struct engine_classes *classes;
};

struct engine_ops {
    const char *name, *help;
    unsigned traits; /* enum switch_traits | enum engine_traits */
    const struct cfg_param_table *params; /* its keys (sim/core/params.h); NULL: none */
    /* Optional: refuses (with *err) configurations the engine cannot run. */
    bool (*check)(const struct engine_spec *spec, struct cfg_error *err);
    void *(*create)(const struct engine_env *env);
    /* A new message at its source; NULL for a slotted engine (ENGINE_SLOTTED). */
    void (*inject)(void *self, uint32_t msg);
    /* Optional: the node model is done with msg at msg->at (NULL: the engine refuses
     * the node model). */
    void (*visited)(void *self, uint32_t msg);
    /* Optional: the bytes an instance needs beyond the run's own per node and channel
     * (sim/run's memory check adds them before anything is allocated). */
    double (*memory)(const struct config *cfg, const struct topo *t);
    /* Optional: the engine's figures, once the run is over (self NULL: names only). */
    void (*figures)(const void *self, const struct figure_sink *sink);
    /* Optional: the kernel has stopped; the engine writes what it counted in its own
     * records into the run's (a flit engine's busy cycles into env.chan).  Called once
     * per run, before anything reads env.chan. */
    void (*finish)(void *self);
    /* Optional: the measurement window opens (opening) or closes at `now`; the engine
     * brings the busy time of the holds it has running to that edge (sim/core/channel.h). */
    void (*window_edge)(void *self, double now, bool opening);
    /* Optional: the path selection the engine follows on the built topology t when its
     * own keys make it differ from `selected` (route_select()'s): the iq router draws a
     * torus's antipodal ties under tie = random.  What the models walk (model_in.next,
     * .split); NULL: the engine follows `selected`. */
    const struct route_ops *(*follows)(const struct config *cfg, const struct topo *t,
                                       const struct route_ops *selected);
    /* Optional: the engine's zero-load delay on the built topology (above); false with
     * why when it has none for cfg (NULL: none at all). */
    bool (*zero_load)(const struct config *cfg, const struct topo *t, struct zero_load_terms *out, char *why,
                      size_t why_size);
    /* Optional, engines that run Valiant (ROUTE_VALIANT): how they draw its intermediate
     * node on the built topology t (sim/core/valiant_mids.h), for the channel loads. */
    void (*valiant_mids)(const struct topo *t, struct valiant_mids *out);
    /* Optional, engines that hold channels: the routing relation they route by on the
     * built topology, for the static deadlock check (routing/deadlock_check.h): false
     * when out of memory. */
    bool (*relation)(const struct config *cfg, const struct topo *t, struct dl_relation *out);
    /* Optional: channel ch's waiting figures, once the run is over (NaN: not kept). */
    void (*channel_figures)(const void *self, uint32_t ch, struct channel_figures *out);
    void (*destroy)(void *self);
};

/* The configured switching (routing.switching) and the engine a configuration runs:
 * the switching, unless the path selection runs the network itself (ROUTE_BACKTRACKS),
 * which picks the engine whose traits say it does (ENGINE_BACKTRACKS). */
const struct engine_ops *switch_find(const char *name);
const struct engine_ops *engine_select(const struct config *cfg);
/* Every engine, switching choices first: the i-th, NULL past the end. */
const struct engine_ops *engine_registered(size_t i);
/* Valiant's draw of store-and-forward and the simple router (routing/valiant.c): any
 * node, uniformly, whatever the source. */
void valiant_mids_any_node(const struct topo *t, struct valiant_mids *out);

/* A message has arrived at its destination at time now, its delay split into parts:
 * the tap sees it, the probe records it, the pool takes it back. */
static inline void engine_deliver_at(const struct engine_env *env, uint32_t m, double now,
                                     const struct delay_parts *parts)
{
    const struct message *msg = &env->pool->msgs[m];
    uint64_t id = msg_id(env->pool, m);
    if (env->tap)
        env->tap->delivered(env->tap->ctx, msg, id, now);
    probe_delivered(env->probe, id, now, now - msg->created, parts, msg->hops);
    if (env->loop)
        env->loop->delivered(env->loop->ctx, msg, id, now);
    msg_pool_give(env->pool, m);
    --*env->in_flight;
}

/* The same, now, for an engine whose delay is node time (the node model's, 0 without
 * it) and channel time: the rest. */
static inline void engine_deliver(const struct engine_env *env, uint32_t m)
{
    double now = env->kernel->now, delay = now - env->pool->msgs[m].created;
    double node = env->nodes.node_time ? env->nodes.node_time(env->nodes.ctx, m) : 0;
    const struct delay_parts parts = { node, delay - node };
    engine_deliver_at(env, m, now, &parts);
}

/* A message refused at its source (finite source buffer): unmeasured, recycled. */
static inline void engine_refuse(const struct engine_env *env, uint32_t m)
{
    uint64_t id = msg_id(env->pool, m);
    if (env->tap)
        env->tap->refused(env->tap->ctx, &env->pool->msgs[m], id, env->kernel->now);
    probe_refused(env->probe, id, env->kernel->now);
    if (env->loop)
        env->loop->refused(env->loop->ctx, &env->pool->msgs[m], id, env->kernel->now);
    msg_pool_give(env->pool, m);
    --*env->in_flight;
}

#endif
