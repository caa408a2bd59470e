/* Store-and-forward switching: a message is received whole at each node before it
 * asks for its next channel; a channel is held for length / bandwidth.  Every node
 * on the path (source, relays, destination) is visited once (the node model).
 * One event kind: a channel finishes transmitting its message (the event names the
 * message, and the message its channel).
 *
 * Three ways to pick the next channel, fixed at creation, each with its own copy of the
 * per-hop code (one event handler each) so that the oblivious path pays nothing for the
 * other two:
 *   oblivious: the path selection's next hop (path_next);
 *   shortest queue (ROUTE_ADAPTIVE): among the minimal next hops, the channel with the
 *     fewest messages waiting for it plus the one holding it (the access protocol's
 *     queued()), ties at random from the routing stream of the node choosing;
 *   Valiant (ROUTE_VALIANT): dimension order (the topology's canonical first minimal
 *     hop) to an intermediate node drawn uniformly from the source's routing stream at
 *     injection, then on to the destination.  The intermediate node is kept here, per
 *     message slot, not in struct message.  A message is delivered only at its
 *     destination after the intermediate node; when the intermediate node is the
 *     destination, the second phase is empty and it is delivered on arrival there. */
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "vc_classes.h"

enum saf_mode { SAF_OBLIVIOUS, SAF_SHORTEST_QUEUE, SAF_VALIANT };
enum { MINIMAL_HOPS_MAX = 64, NO_MID = UINT32_MAX };

struct saf_state {
    struct engine_env env;
    void *access;      /* the access protocol's instance */
    uint32_t ev_done;
    bool pure_next;    /* the path selection's next hop is a pure function: prefetch may ask it */
    enum saf_mode mode;
    uint32_t *mid;     /* Valiant: per message slot, the intermediate node still ahead, or NO_MID */
    uint32_t mid_size; /* slots in mid (follows the pool's capacity) */
};

/* Shortest queue among the minimal next hops, ties uniformly from the node's stream. */
static struct hop shortest_queue(struct saf_state *s, uint32_t at, uint32_t dst)
{
    const struct topo *t = s->env.topo;
    struct hop hops[MINIMAL_HOPS_MAX];
    unsigned count = t->ops->minimal_hops(t, at, dst, hops, MINIMAL_HOPS_MAX);
    unsigned ties[MINIMAL_HOPS_MAX], n = 0;
    uint32_t best = UINT32_MAX;
    for (unsigned i = 0; i < count; i++) {
        uint32_t q = s->env.access->queued(s->access, hops[i].channel);
        if (q < best) {
            best = q;
            n = 0;
        }
        if (q == best)
            ties[n++] = i;
    }
    return hops[ties[n > 1 ? rng_below(&s->env.paths->streams[at], n) : 0]];
}

/* Valiant: the node msg heads for now (its intermediate node, until reached). */
static uint32_t valiant_target(struct saf_state *s, uint32_t m, const struct message *msg)
{
    uint32_t mid = s->mid[m];
    if (mid == NO_MID)
        return msg->dst;
    if (mid != msg->at)
        return mid;
    s->mid[m] = NO_MID;
    return msg->dst;
}

/* Done at node msg->at: delivered there, or on to the next channel. */
static inline __attribute__((always_inline)) void visited_as(struct saf_state *s, uint32_t m, enum saf_mode mode)
{
    struct message *msg = &s->env.pool->msgs[m];
    uint32_t target = mode == SAF_VALIANT ? valiant_target(s, m, msg) : msg->dst;
    if (msg->at == target) {
        engine_deliver(&s->env, m);
        return;
    }
    struct hop h;
    if (mode == SAF_SHORTEST_QUEUE)
        h = shortest_queue(s, msg->at, target);
    else if (mode == SAF_VALIANT)
        s->env.topo->ops->minimal_hops(s->env.topo, msg->at, target, &h, 1);
    else
        h = path_next(s->env.paths, msg->at, target);
    msg->next_node = h.next;
    if (s->env.redraw_length && msg->hops > 0) /* so length priorities see the length it will use */
        msg->length = s->env.redraw_length(s->env.length_state, &s->env.rng_redraw[msg->at]);
    uint32_t sender = msg->at;
    msg->channel = h.channel;
    s->env.access->request(s->access, h.channel, m, sender);
}

static void visited(void *self, uint32_t m)
{
    struct saf_state *s = self;
    switch (s->mode) {
    case SAF_SHORTEST_QUEUE:
        visited_as(s, m, SAF_SHORTEST_QUEUE);
        break;
    case SAF_VALIANT:
        visited_as(s, m, SAF_VALIANT);
        break;
    default:
        visited_as(s, m, SAF_OBLIVIOUS);
    }
}

/* msg has reached node msg->at: through the node model when it is on. */
static inline __attribute__((always_inline)) void arrive(struct saf_state *s, uint32_t m, enum saf_mode mode)
{
    if (s->env.nodes.visit)
        s->env.nodes.visit(s->env.nodes.ctx, m);
    else
        visited_as(s, m, mode);
}

/* Valiant: the slot's intermediate node, drawn uniformly from the source's routing
 * stream (the source itself: the first phase is empty).  The slots follow the pool,
 * which may have grown since the last message. */
static bool draw_intermediate(struct saf_state *s, uint32_t m)
{
    if (m >= s->mid_size) {
        uint32_t size = s->env.pool->capacity;
        uint32_t *grown = realloc(s->mid, (size_t)size * sizeof *grown);
        if (!grown)
            return false;
        s->mid = grown;
        s->mid_size = size;
    }
    uint32_t src = s->env.pool->msgs[m].src;
    uint32_t mid = (uint32_t)rng_below(&s->env.rng_route[src], s->env.topo->nodes);
    s->mid[m] = mid == src ? NO_MID : mid;
    return true;
}

static void inject(void *self, uint32_t m)
{
    struct saf_state *s = self;
    if (s->mode == SAF_VALIANT && !draw_intermediate(s, m)) {
        kernel_request_stop(s->env.kernel, KERNEL_FAILED); /* out of memory, as the run's own pool */
        return;
    }
    arrive(s, m, s->mode);
}

static void granted(void *self, uint32_t ch, uint32_t m)
{
    struct saf_state *s = self;
    struct kernel *k = s->env.kernel;
    double tx = s->env.pool->msgs[m].length / topo_channel_bandwidth(s->env.topo, ch);
    double end = k->now + tx, close = s->env.probe->close_at;
    channel_busy(&s->env.chan[ch], k->now, end < close ? end : close, s->env.probe->window_open);
    kernel_schedule(k, tx, s->ev_done, m);
}

static inline __attribute__((always_inline)) void transmission_done(struct kernel *k, void *ctx, uint32_t m,
                                                                        enum saf_mode mode)
{
    (void)k;
    struct saf_state *s = ctx;
    struct message *msg = &s->env.pool->msgs[m];
    s->env.access->release(s->access, msg->channel);
    msg->at = msg->next_node;
    msg->hops++;
    arrive(s, m, mode);
}

static void on_transmission_done(struct kernel *k, void *ctx, uint32_t m)
{
    transmission_done(k, ctx, m, SAF_OBLIVIOUS);
}

static void on_transmission_done_shortest_queue(struct kernel *k, void *ctx, uint32_t m)
{
    transmission_done(k, ctx, m, SAF_SHORTEST_QUEUE);
}

static void on_transmission_done_valiant(struct kernel *k, void *ctx, uint32_t m)
{
    transmission_done(k, ctx, m, SAF_VALIANT);
}

/* What on_transmission_done(m) will touch, in the kernel's three stages: the message;
 * its channel's records (the protocol's first); the protocol's next ones (the next
 * waiting message) and the records of the channel the message asks for next. */
static void prefetch(void *ctx, uint32_t m, unsigned stage)
{
    const struct saf_state *s = ctx;
    if (m >= s->env.pool->capacity)
        return;
    const struct message *msg = &s->env.pool->msgs[m];
    if (stage == 0) {
        __builtin_prefetch(msg, 1);
        __builtin_prefetch((const char *)(msg + 1) - 1, 1);
        return;
    }
    uint32_t ch = msg->channel;
    if (ch >= s->env.topo->channels)
        return;
    if (stage == 1) {
        __builtin_prefetch(&s->env.chan[ch], 1);
        if (s->env.access->prefetch)
            s->env.access->prefetch(s->access, ch, 0);
        return;
    }
    if (s->env.access->prefetch)
        s->env.access->prefetch(s->access, ch, 1);
    uint32_t at = msg->next_node, dst = msg->dst;
    if (!s->pure_next || at == dst || at >= s->env.topo->nodes || dst >= s->env.topo->nodes)
        return;
    struct rng unused = { { 0 } }; /* a pure next() draws nothing */
    struct hop h = s->env.paths->ops->next(s->env.topo, at, dst, &unused);
    __builtin_prefetch(&s->env.chan[h.channel], 1);
    if (s->env.access->prefetch)
        s->env.access->prefetch(s->access, h.channel, 0);
}

struct window_edge {
    struct saf_state *s;
    double now;
    bool opening;
};

static void bring_to_edge(void *ctx, const struct event *ev)
{
    const struct window_edge *edge = ctx;
    const struct saf_state *s = edge->s;
    if (ev->type != s->ev_done)
        return;
    double close = s->env.probe->close_at, end = ev->time < close ? ev->time : close;
    double *busy = &s->env.chan[s->env.pool->msgs[ev->obj].channel].busy_time;
    if (edge->opening)
        *busy += end - edge->now;
    else if (end > edge->now)
        *busy -= end - edge->now;
}

/* A hold running when the window opens counts from then on, up to its end or the
 * window's known close; one running when the window closes earlier than its grant
 * counted on (message mode, or an interrupted run) gives back what lies past the
 * close.  Each running hold has its end pending in the kernel's queue. */
static void window_edge(void *self, double now, bool opening)
{
    struct saf_state *s = self;
    struct window_edge edge = { s, now, opening };
    kernel_visit_pending(s->env.kernel, bring_to_edge, &edge);
}

static void destroy(void *self)
{
    struct saf_state *s = self;
    if (s && s->access)
        s->env.access->destroy(s->access);
    if (s)
        free(s->mid);
    free(s);
}

static void *create(const struct engine_env *env)
{
    struct saf_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->env = *env;
    const struct route_ops *route = env->paths->ops;
    s->mode = route->traits & ROUTE_ADAPTIVE ? SAF_SHORTEST_QUEUE : route->traits & ROUTE_VALIANT ? SAF_VALIANT
                                                                                                   : SAF_OBLIVIOUS;
    s->ev_done = kernel_register(env->kernel, s->mode == SAF_SHORTEST_QUEUE ? on_transmission_done_shortest_queue
                                              : s->mode == SAF_VALIANT      ? on_transmission_done_valiant
                                                                            : on_transmission_done, s);
    s->pure_next = route->next && !route->choose && (route->traits & ROUTE_DETERMINISTIC);
    kernel_set_prefetch(env->kernel, s->ev_done, prefetch);
    struct access_env access = env->access_env;
    access.grant = granted;
    access.engine = s;
    s->access = env->access->create(&access);
    if (!s->access) {
        destroy(s);
        return NULL;
    }
    return s;
}

/* What the two hop-by-hop algorithms need beyond the oblivious ones: a queue length
 * from the access protocol, and a dimension order for Valiant's two phases. */
static bool check(const struct engine_spec *spec, struct cfg_error *err)
{
    const struct config *cfg = spec->cfg;
    if (topo_sets_latencies(spec->topo)) {
        cfg_blame(cfg, "routing.switching", err, "%s sets channel latencies of its own, which only the iq router "
                  "models (routing.switching = wormhole, routing.router = iq)", cfg->network.topology);
        return false;
    }
    unsigned route = route_select(cfg)->traits;
    const struct proto_ops *access = proto_find(cfg->protocol.link);
    if ((route & ROUTE_ADAPTIVE) && access && !access->queued) {
        cfg_blame(cfg, "protocol.link", err, "store-and-forward adaptive-minimal compares the channels' queues, "
                  "which the %s protocol does not count", cfg->protocol.link);
        return false;
    }
    if ((route & ROUTE_VALIANT) && !valiant_has_dimension_order(cfg, spec->topo, err))
        return false;
    return true;
}

/* A message alone: its transmission time on each channel of its route, nothing else
 * (channels have no latency of their own here).  The node model would add a service
 * time per visit, which the form leaves out. */
static bool zero_load(const struct config *cfg, const struct topo *t, struct zero_load_terms *out, char *why,
                      size_t why_size)
{
    (void)t;
    if (cfg->node.service_rate > 0) {
        snprintf(why, why_size, "the node model (node.service_rate) adds a service time per visit");
        return false;
    }
    *out = (struct zero_load_terms){ .per_transmission = 1, .terminal_links_are_hops = true,
                                     .streaming_flits_max = UINT32_MAX };
    return true;
}

const struct engine_ops switch_store_and_forward = {
    .name = "store-and-forward",
    .help = "each node receives the whole message before forwarding it",
    .traits = SWITCH_WHOLE_MESSAGE | ENGINE_ROUTES_ADAPTIVELY,
    .check = check,
    .create = create,
    .inject = inject,
    .visited = visited,
    .zero_load = zero_load,
    .valiant_mids = valiant_mids_any_node,
    .window_edge = window_edge,
    .destroy = destroy,
};
