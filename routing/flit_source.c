/* The simple router's sources (contract in flit.h and flit_source.h): the worm pool, a
 * new message, its path (drawn at creation, or when its header reaches the injection
 * line with lazy paths), its offer the cycle after its creation, each source's queue and
 * injection line, and the offer again of a worm aborted by deadlock recovery.  The cycle
 * itself is in flit_cycle.c, which calls here. */
#include "flit_source.h"

#include <math.h>
#include <stdlib.h>

#include "flit.h"
#include "flit_dor.h"
#include "flit_route.h"
#include "vc_classes.h"

/* --- worm pool: one slab of per-hop arrays, growth by doubling --- */

static void bind_hops(struct flit_engine *e, uint32_t w)
{
    struct worm *x = &e->worms[w];
    uint32_t *base = e->slab + (size_t)w * e->stride, d = e->max_hops;
    x->hop = (struct flit_hop *)base;
    x->to = base + FLIT_HOP_WORDS * d;
    x->sent_at = x->to + d;
}

bool flit_pool_grow(struct flit_engine *e)
{
    uint32_t old = e->worm_cap, cap = old ? 2 * old : 256;
    struct worm *w = realloc(e->worms, (size_t)cap * sizeof *w);
    if (!w)
        return false;
    e->worms = w;
    uint32_t *s = realloc(e->slab, (size_t)cap * e->stride * sizeof *s);
    if (!s)
        return false;
    e->slab = s;
    for (uint32_t i = 0; i < old; i++)
        bind_hops(e, i); /* the slab may have moved */
    for (uint32_t i = old; i < cap; i++) {
        bind_hops(e, i);
        e->worms[i].next = i + 1 < cap ? i + 1 : e->worm_free;
    }
    e->worm_free = old;
    e->worm_cap = cap;
    uint32_t *a = realloc(e->active, (size_t)cap * sizeof *a); /* the active list holds at most every worm */
    if (!a)
        return false;
    e->active = a;
    return true;
}

void flit_free_worm(struct flit_engine *e, uint32_t w)
{
    e->worms[w].next = e->worm_free;
    e->worm_free = w;
}

/* --- creation: the path, its classes, the offer --- */

/* Draws x's path from its source (msg->at) to msg->dst, hop by hop, with its classes:
 * a torus's dateline, or a network of routers' (flit_classes.h). */
static bool draw_path(struct flit_engine *e, struct worm *x, struct message *msg)
{
    uint64_t crossed = 0; /* dimensions whose wrap-around link the path has crossed */
    uint32_t h = 0, state = 0;
    while (msg->at != msg->dst) {
        if (h == e->max_hops) { /* minimal routing never gets here */
            kernel_request_stop(e->env.kernel, KERNEL_FAILED);
            return false;
        }
        struct hop hop = path_next(e->env.paths, msg->at, msg->dst);
        unsigned dim = 0;
        if (e->dateline && lattice_wraps(e->radix, msg->at, hop.next, &dim))
            crossed |= 1ull << dim;
        x->hop[h].channel = hop.channel;
        x->to[h] = hop.next;
        x->hop[h].cls = (uint8_t)(e->classes.rule != FLIT_CLASSES_NONE
                                      ? flit_class_step(&e->classes, 0, &state, msg->at, hop)
                                      : e->dateline && (crossed >> dim & 1));
        x->hop[h].sent = 0;
        msg->at = hop.next;
        h++;
    }
    msg->at = msg->src;
    x->hops = h;
    msg->hops = h;
    return true;
}

/* x's path as the routing goes: drawn now, or set up for choices hop by hop. */
static bool new_path(struct flit_engine *e, struct worm *x, struct message *msg)
{
    switch (e->routing) {
    case FLIT_VALIANT:
        return flit_valiant_path(e, x, msg);
    case FLIT_PER_HOP:
        return flit_per_hop_path(e, x, msg);
    default:
        return e->dor_chan ? flit_dor_path(e, x, msg) : draw_path(e, x, msg);
    }
}

/* The offer cycle of message m: the cycle after its creation. */
int64_t flit_offer_cycle(const struct flit_engine *e, uint32_t m)
{
    return (int64_t)floor(e->env.pool->msgs[m].created) + 1;
}

/* A worm for message m, its path drawn (or set up hop by hop): MSG_NONE when out of
 * memory (the run then stops).  Its index goes to msg->worm. */
static uint32_t new_worm(struct flit_engine *e, uint32_t m)
{
    if (e->worm_free == MSG_NONE && !flit_pool_grow(e)) {
        kernel_request_stop(e->env.kernel, KERNEL_FAILED);
        return MSG_NONE;
    }
    uint32_t w = e->worm_free;
    struct worm *x = &e->worms[w];
    e->worm_free = x->next;
    struct message *msg = &e->env.pool->msgs[m];
    x->msg = m;
    x->id = msg_id(e->env.pool, m);
    x->src = msg->src;
    x->flits = msg_flits(msg->length, e->env.topo->class_bandwidth[0]);
    x->acquired = x->lo = 0;
    x->next = MSG_NONE;
    x->active_pos = MSG_NONE;
    x->eligible = flit_offer_cycle(e, m);
    x->grant0 = -1;
    x->blocked = 0;
    x->msg_class = e->env.classes ? (*e->env.classes->of)[m] : MSG_CLASS_REQUEST;
    x->vc_base = x->msg_class * (e->vc_sets > 1 ? e->V : 0);
    x->eject = e->reply_queue && x->msg_class == MSG_CLASS_REQUEST ? EJECT_GATED : EJECT_FREE;
    if (!new_path(e, x, msg))
        return MSG_NONE;
    msg->worm = w;
    return w;
}

/* Message m's worm, made now if its path waited (lazy paths). */
static uint32_t worm_of(struct flit_engine *e, uint32_t m)
{
    uint32_t w = e->env.pool->msgs[m].worm;
    return w != MSG_NONE ? w : new_worm(e, m);
}

void flit_inject(struct flit_engine *e, uint32_t m)
{
    const struct engine_env *env = &e->env;
    struct message *msg = &env->pool->msgs[m];
    msg->link = msg->worm = MSG_NONE;
    if (e->reply_queue && (*env->classes->of)[m] == MSG_CLASS_REPLY)
        e->replies_in[msg->src]++;
    if (!e->lazy_paths && new_worm(e, m) == MSG_NONE)
        return;
    if (e->pending_tail == MSG_NONE)
        e->pending_head = m;
    else
        env->pool->msgs[e->pending_tail].link = m;
    e->pending_tail = m;
    e->pending_count++;
    e->at_source++;
    if (e->tick_at < 0) {
        e->tick_at = flit_offer_cycle(e, m);
        kernel_schedule(env->kernel, (double)e->tick_at - env->kernel->now, e->ev_tick, 0);
    }
}

/* The injection line `node` (flit_line) is free from `cycle` on: its next message's header. */
void flit_source_next(struct flit_engine *e, uint32_t node, int64_t cycle)
{
    uint32_t m = e->src_head[node];
    e->src_busy[node] = MSG_NONE;
    if (m == MSG_NONE)
        return;
    struct message *msg = &e->env.pool->msgs[m];
    e->src_head[node] = msg->link;
    if (e->src_head[node] == MSG_NONE)
        e->src_tail[node] = MSG_NONE;
    msg->link = MSG_NONE;
    uint32_t w = worm_of(e, m);
    if (w == MSG_NONE)
        return;
    e->src_busy[node] = w;
    flit_at_ready(e, w, cycle + e->r);
}

static bool first_channel_free(const struct flit_engine *e, const struct worm *x)
{
    uint32_t ch = x->hop[0].channel, lo, hi;
    if (e->chans[ch].wait_head != MSG_NONE)
        return false;
    flit_vc_range(e, x, x->hop[0].cls, &lo, &hi);
    for (uint32_t v = lo; v < hi; v++)
        if (flit_owner(e, ch)[v] == MSG_NONE)
            return true;
    return false;
}

/* Messages whose offer cycle has come join their source's queue (or are refused).
 * The source queues and the list of messages not yet offered hold messages (linked
 * through msg->link), so that with lazy paths a message waiting at its source has no
 * worm: it gets one, and its path, when its header reaches the injection line. */
void flit_offer(struct flit_engine *e, int64_t c)
{
    const struct engine_env *env = &e->env;
    while (e->pending_head != MSG_NONE && flit_offer_cycle(e, e->pending_head) <= c) {
        uint32_t m = e->pending_head;
        struct message *msg = &env->pool->msgs[m];
        e->pending_head = msg->link;
        if (e->pending_head == MSG_NONE)
            e->pending_tail = MSG_NONE;
        e->pending_count--;
        msg->link = MSG_NONE;
        uint32_t node = flit_line(e, msg->src, e->env.classes ? (*e->env.classes->of)[m] : MSG_CLASS_REQUEST);
        bool now = e->src_busy[node] == MSG_NONE;
        /* an observer sees the path at the offer; a finite buffer asks its first channel */
        uint32_t w = msg->worm;
        if (w == MSG_NONE && (now || e->obs.offered || e->finite) && (w = new_worm(e, m)) == MSG_NONE)
            return;
        if (e->obs.offered)
            e->obs.offered(e->obs.ctx, &e->worms[w]);
        if (env->probe->window_open)
            e->offered++;
        if (e->finite && (!now || !first_channel_free(e, &e->worms[w]))) {
            uint32_t first = e->worms[w].hop[0].channel;
            if (env->probe->window_open) {
                e->refused++;
                e->counts[first].requests++;
                e->counts[first].blocked_requests++;
            }
            e->at_source--;
            flit_free_worm(e, w);
            engine_refuse(env, m);
            continue;
        }
        if (now) {
            e->src_busy[node] = w;
            flit_at_ready(e, w, c + e->r);
        } else {
            if (e->src_tail[node] == MSG_NONE)
                e->src_head[node] = m;
            else
                env->pool->msgs[e->src_tail[node]].link = m;
            e->src_tail[node] = m;
        }
    }
}

/* Aborted worms whose new offer cycle has come: a new path, and the front of their
 * source's queue (they are older than anything queued there). */
void flit_offer_retries(struct flit_engine *e, int64_t c)
{
    uint32_t keep = 0;
    for (uint32_t k = 0; k < e->retries.n; k++) {
        uint32_t w = e->retries.v[k];
        struct worm *x = &e->worms[w];
        if (x->eligible > c) {
            e->retries.v[keep++] = w;
            continue;
        }
        struct message *msg = &e->env.pool->msgs[x->msg];
        if (!new_path(e, x, msg))
            return;
        uint32_t node = flit_line(e, x->src, x->msg_class);
        if (e->src_busy[node] == MSG_NONE) {
            e->src_busy[node] = w;
            flit_at_ready(e, w, c + e->r);
        } else {
            msg->link = e->src_head[node];
            e->src_head[node] = x->msg;
            if (e->src_tail[node] == MSG_NONE)
                e->src_tail[node] = x->msg;
        }
    }
    e->retries.n = keep;
}

