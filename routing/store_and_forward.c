/* Store-and-forward switching: a message is received whole at each node before it
 * asks for its next channel; a channel is held for length / bandwidth.  Every node
 * on the path (source, relays, destination) is visited once (the node model).
 * One event kind: a channel finishes transmitting its message. */
#include <stdlib.h>

#include "engine.h"

struct saf_state {
    struct engine_env env;
    void *access;      /* the access protocol's instance */
    uint32_t ev_done;
    bool pure_next;    /* the path selection's next hop is a pure function: prefetch may ask it */
};

/* Done at node msg->at: delivered there, or on to the next channel. */
static void visited(void *self, uint32_t m)
{
    struct saf_state *s = self;
    struct message *msg = &s->env.pool->msgs[m];
    if (msg->at == msg->dst) {
        engine_deliver(&s->env, m);
        return;
    }
    struct hop h = path_next(s->env.paths, msg->at, msg->dst);
    msg->next_node = h.next;
    if (s->env.redraw_length && msg->hops > 0) /* so length priorities see the length it will use */
        msg->length = s->env.redraw_length(s->env.cfg, s->env.length_params, &s->env.rng_redraw[msg->at]);
    msg->stage_start = s->env.kernel->now;
    s->env.access->request(s->access, h.channel, m, msg->at);
}

/* msg has reached node msg->at: through the node model when it is on. */
static inline void arrive(struct saf_state *s, uint32_t m)
{
    if (s->env.nodes.visit)
        s->env.nodes.visit(s->env.nodes.ctx, m);
    else
        visited(s, m);
}

static void inject(void *self, uint32_t m) { arrive(self, m); }

static void granted(void *self, uint32_t ch, uint32_t m)
{
    struct saf_state *s = self;
    struct kernel *k = s->env.kernel;
    channel_busy(&s->env.chan[ch], m, k->now);
    double tx = s->env.pool->msgs[m].length / topo_channel_bandwidth(s->env.topo, ch);
    kernel_schedule(k, tx, s->ev_done, ch);
}

static void on_transmission_done(struct kernel *k, void *ctx, uint32_t ch)
{
    struct saf_state *s = ctx;
    uint32_t m = s->env.chan[ch].serving;
    channel_idle(&s->env.chan[ch], k->now, s->env.probe->window_open);
    s->env.access->release(s->access, ch);
    struct message *msg = &s->env.pool->msgs[m];
    msg->link_time += k->now - msg->stage_start;
    msg->at = msg->next_node;
    msg->hops++;
    arrive(s, m);
}

/* What on_transmission_done(ch) will touch, in the kernel's three stages: the
 * channel's records; the message it carries (and the protocol's next waiting one);
 * the records of the channel that message asks for next. */
static void prefetch(void *ctx, uint32_t ch, unsigned stage)
{
    const struct saf_state *s = ctx;
    const struct channel_state *c = &s->env.chan[ch];
    if (s->env.access->prefetch)
        s->env.access->prefetch(s->access, ch, stage);
    if (stage == 0) {
        __builtin_prefetch(c, 1);
        return;
    }
    uint32_t m = c->serving;
    if (m >= s->env.pool->capacity)
        return;
    const struct message *msg = &s->env.pool->msgs[m];
    if (stage == 1) {
        __builtin_prefetch(msg, 1);
        __builtin_prefetch((const char *)(msg + 1) - 1, 1);
        return;
    }
    uint32_t at = msg->next_node, dst = msg->dst;
    if (!s->pure_next || at == dst || at >= s->env.topo->nodes || dst >= s->env.topo->nodes)
        return;
    struct rng unused = { { 0 } }; /* a pure next() draws nothing */
    struct hop h = s->env.paths->ops->next(s->env.topo, at, dst, &unused);
    __builtin_prefetch(&s->env.chan[h.channel], 1);
    if (s->env.access->prefetch)
        s->env.access->prefetch(s->access, h.channel, 0);
}

static void destroy(void *self)
{
    struct saf_state *s = self;
    if (s && s->access)
        s->env.access->destroy(s->access);
    free(s);
}

static void *create(const struct engine_env *env)
{
    struct saf_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->env = *env;
    s->ev_done = kernel_register(env->kernel, on_transmission_done, s);
    const struct route_ops *route = env->paths->ops;
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

const struct engine_ops switch_store_and_forward = {
    .name = "store-and-forward",
    .help = "each node receives the whole message before forwarding it",
    .traits = SWITCH_WHOLE_MESSAGE,
    .create = create,
    .inject = inject,
    .visited = visited,
    .destroy = destroy,
};
