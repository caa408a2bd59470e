/* The input-queued router's cycle (contract in iq.h): arrivals, sources, the tick.
 * Set-up, routing and checks are in iq_setup.c; allocation and traversal in
 * iq_alloc.c; deadlock detection in iq_deadlock.c; figures in iq_figures.c.  One
 * kernel event per cycle while anything is in the network, none while it is empty.
 * Per cycle the work is proportional to the input VCs holding flits and the sources
 * with a backlog, not to the network's size. */
#include "iq_cycle.h"

#include <math.h>
#include <stdlib.h>

bool iq_vec_push(struct iq_vec *a, const void *x, size_t size)
{
    if (__builtin_expect(a->n == a->cap, 0)) {
        uint32_t cap = a->cap ? 2 * a->cap : 64;
        void *g = realloc(a->v, (size_t)cap * size);
        if (!g)
            return false;
        a->v = g;
        a->cap = cap;
    }
    memcpy((char *)a->v + (size_t)a->n * size, x, size);
    a->n++;
    return true;
}

/* --- the ticks --- */

/* Cycle c runs at time c + 1/2 (any time strictly between c and c + 1 would do):
 * after every message created at time c (offered at c), before any created later
 * (offered at c + 1).  Deliveries are stamped with the cycle itself. */
static void schedule_tick(struct iq_engine *e, int64_t c)
{
    struct kernel *k = e->env.kernel;
    e->tick_at = c;
    kernel_schedule(k, (double)c + 0.5 - k->now, e->ev_tick, 0);
}

/* --- creation and delivery --- */

void iq_inject(struct iq_engine *e, uint32_t m)
{
    const struct engine_env *env = &e->env;
    if (e->packet_free == NONE) {
        uint32_t old = e->packet_cap, cap = old ? 2 * old : 256;
        struct iq_packet *g = old < IQ_TAIL ? realloc(e->packets, (size_t)cap * sizeof *g) : NULL;
        if (!g) { /* out of memory, or of packet indices below IQ_TAIL */
            fail(e);
            return;
        }
        e->packets = g;
        for (uint32_t i = old; i < cap; i++)
            g[i].next = i + 1 < cap ? i + 1 : NONE;
        e->packet_free = old;
        e->packet_cap = cap;
    }
    uint32_t p = e->packet_free;
    struct iq_packet *x = &e->packets[p];
    e->packet_free = x->next;
    const struct message *msg = &env->pool->msgs[m];
    *x = (struct iq_packet){
        .msg = m,
        .src = msg->src,
        .dst = msg->dst,
        .flits = msg_flits(msg->length, env->topo->class_bandwidth[0]),
        .next = NONE,
        .id = msg_id(env->pool, m),
        .offered = (int64_t)ceil(env->kernel->now),
        .injected = -1,
        .dim = NONE,
        .vc_base = env->classes && e->vc_sets > 1 ? (*env->classes->of)[m] * e->Vc : 0,
    };
    if (e->reply_queue) {
        x->reply = (*env->classes->of)[m] == MSG_CLASS_REPLY;
        x->gated = !x->reply;
        e->replies_in[x->src] += x->reply;
    }
    if (e->selection == IQ_VALIANT) /* the intermediate node, from the source's routing stream */
        iq_set_mid(e, x, (uint32_t)rng_below(&env->rng_route[x->src], iq_mid_picks(e)));
    if (e->pending_tail == NONE)
        e->pending_head = p;
    else
        e->packets[e->pending_tail].next = p;
    e->pending_tail = p;
    e->packets_live++;
    e->backlog++;
    if (e->tick_at < 0)
        schedule_tick(e, x->offered);
}

static void deliver(struct iq_engine *e, uint32_t p, int64_t c)
{
    const struct engine_env *env = &e->env;
    struct iq_packet *x = &e->packets[p];
    struct message *msg = &env->pool->msgs[x->msg];
    const struct delay_parts parts = { (double)x->injected - msg->created, (double)(c - x->injected) };
    msg->hops = x->hops;
    msg->at = msg->dst;
    if (e->obs.delivered)
        e->obs.delivered(e->obs.ctx, x, c);
    engine_deliver_at(env, x->msg, (double)c, &parts);
    x->next = e->packet_free;
    e->packet_free = p;
    e->packets_live--;
}

/* --- step 1: credits and flits due --- */

static void credits_arrive(struct iq_engine *e, int64_t c)
{
    struct iq_vec *b = &e->credits_due[c & e->slot_mask];
    const uint32_t *ov = b->v;
    struct iq_output_vc *ovc = e->ovc;
    int32_t full = (int32_t)e->B;
    for (uint32_t k = 0, n = b->n; k < n; k++) {
        struct iq_output_vc *o = &ovc[ov[k]];
        if (++o->credits == full && o->tail_sent) {
            o->tail_sent = 0;
            o->owner = NONE;
        }
    }
    e->in_flight_credits -= b->n;
    b->n = 0;
}

static void flits_arrive(struct iq_engine *e, int64_t c)
{
    struct iq_vec *b = &e->flits_due[c & e->slot_mask];
    const struct iq_flight *f = b->v;
    bool measuring = e->env.probe->window_open;
    /* Loaded once: the stores into the rings and lists may alias the engine's fields.  The
     * calendar slot b is not written here (credits go to another slot, c + 2 + cd > c). */
    struct iq_input_vc *in = e->in;
    uint32_t *ring = e->ring;
    uint32_t B = e->B, n = b->n;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t t = f[k].target;
        if (t & IQ_SINK) { /* at the ejection channel's far end: its credit goes back */
            uint32_t ov = t & ~IQ_SINK;
            credit_due(e, c + 2 + e->cd, ov); /* returned now, over a latency-1 channel */
            if (e->obs.ejected)
                e->obs.ejected(e->obs.ctx, f[k].packet & ~IQ_TAIL, f[k].seq, c);
            if (measuring) {
                uint32_t u = ov / e->V; /* an ejection port, or a router's eject link */
                e->node_flits[u >= e->C ? u - e->C : e->chan_to[u]]++;
                e->ejected_flits++;
            }
            if (f[k].packet & IQ_TAIL)
                deliver(e, f[k].packet & ~IQ_TAIL, c);
            continue;
        }
        struct iq_input_vc *x = &in[t];
        uint32_t slot = x->first + x->count;
        ring[(size_t)t * B + (slot >= B ? slot - B : slot)] = f[k].packet;
        if (x->count++ == 0) {
            if (x->state == IQ_IDLE)
                begin_head(e, t, c);
            else if (x->ready < c)
                x->ready = c;
            busy_add(e, t);
        }
    }
    e->in_flight_flits -= n;
    b->n = 0;
}

/* --- step 2: sources --- */

static void offer(struct iq_engine *e, int64_t c)
{
    bool measuring = e->env.probe->window_open;
    while (e->pending_head != NONE && e->packets[e->pending_head].offered <= c) {
        uint32_t p = e->pending_head;
        struct iq_packet *x = &e->packets[p];
        e->pending_head = x->next;
        if (e->pending_head == NONE)
            e->pending_tail = NONE;
        x->next = NONE;
        if (measuring) {
            e->offered_flits += x->flits;
            e->offered_packets++;
        }
        uint32_t node = x->src, line = e->class_lines ? 2 * node + x->reply : node;
        if (e->src_head[line] == NONE) {
            e->src_head[line] = p;
            if (e->source_pos[node] == NONE)
                add_source(e, node);
        } else {
            e->packets[e->src_tail[line]].next = p;
        }
        e->src_tail[line] = p;
    }
}

/* Each source with a backlog sends one flit of its front packet, if a VC and a credit allow. */
static void inject_flits(struct iq_engine *e, int64_t c)
{
    for (uint32_t k = 0; k < e->n_sources;) {
        uint32_t node = e->sources[k];
        if (send_flit(e, node, node, c) == SENT_LINE_EMPTY)
            remove_source(e, node); /* the last source moved to k: look at it next */
        else
            k++;
    }
}

void iq_tick(struct kernel *k, void *ctx, uint32_t unused)
{
    (void)unused;
    struct iq_engine *e = ctx;
    int64_t c = e->tick_at;
    e->cycle = c;
    e->tick_at = -1;
    if (e->env.probe->window_open && !e->open_seen) {
        e->open_seen = true;
        e->backlog_open = e->backlog;
    }
    credits_arrive(e, c);
    flits_arrive(e, c);
    offer(e, c);
    if (e->class_lines)
        iq_inject_by_class(e, c);
    else
        inject_flits(e, c);
    iq_request(e, c);
    iq_grant_vcs(e, c);
    iq_grant_switch(e, c);
    if (e->obs.cycle_end)
        e->obs.cycle_end(e->obs.ctx, c);
    if (e->n_busy && c % e->deadlock_interval == 0 && iq_find_deadlock(e, e->env.fatal, e->env.fatal_size)) {
        kernel_request_stop(k, KERNEL_FAILED);
        return;
    }
    if (e->n_busy || e->n_sources || e->in_flight_flits || e->in_flight_credits)
        schedule_tick(e, c + 1);
    else if (e->pending_head != NONE)
        schedule_tick(e, e->packets[e->pending_head].offered);
}
