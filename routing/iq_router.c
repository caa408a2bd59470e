/* The input-queued router's cycle (contract in iq.h; set-up, routing and checks in
 * iq_setup.c; deadlock detection in iq_deadlock.c; figures in iq_figures.c).  One
 * kernel event per cycle while anything is in the network, none while it is empty.
 * Per cycle the work is proportional to the input VCs holding flits and the sources
 * with a backlog, not to the network's size. */
#include "iq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

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

static void fail(struct iq_engine *e) { kernel_request_stop(e->env.kernel, KERNEL_FAILED); }

static inline void push_u32(struct iq_engine *e, struct iq_vec *a, uint32_t x)
{
    if (__builtin_expect(a->n < a->cap, 1))
        ((uint32_t *)a->v)[a->n++] = x;
    else if (!iq_vec_push(a, &x, sizeof x))
        fail(e);
}

static inline void flit_due(struct iq_engine *e, int64_t cycle, uint32_t packet, uint32_t seq, uint32_t target)
{
    struct iq_vec *a = &e->flits_due[cycle & e->slot_mask];
    struct iq_flight f = { packet, seq, target };
    if (__builtin_expect(a->n < a->cap, 1))
        ((struct iq_flight *)a->v)[a->n++] = f;
    else if (!iq_vec_push(a, &f, sizeof f))
        fail(e);
    e->in_flight_flits++;
}

static inline void credit_due(struct iq_engine *e, int64_t cycle, uint32_t ovc)
{
    push_u32(e, &e->credits_due[cycle & e->slot_mask], ovc);
    e->in_flight_credits++;
}

/* Round-robin distance of `x` after `last` among n: the arbiter grants the smallest. */
static inline uint32_t rr_distance(uint32_t x, uint32_t last, uint32_t n)
{
    return x > last ? x - last - 1 : x + n - last - 1;
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

/* --- busy input VCs: those holding flits --- */

static inline void busy_add(struct iq_engine *e, uint32_t iv)
{
    e->in[iv].busy_pos = e->n_busy;
    e->busy[e->n_busy++] = iv;
}

static inline void busy_remove(struct iq_engine *e, uint32_t iv)
{
    uint32_t pos = e->in[iv].busy_pos, last = e->busy[--e->n_busy];
    e->busy[pos] = last;
    e->in[last].busy_pos = pos;
    e->in[iv].busy_pos = NONE;
}

/* The head at the front of iv reached it at cycle f: route, then VC allocation. */
static void begin_head(struct iq_engine *e, uint32_t iv, int64_t f)
{
    struct iq_input_vc *x = &e->in[iv];
    x->state = IQ_VC_ALLOC;
    x->front_seq = 0;
    x->ready = f + e->rd;
    iq_route(e, iv, iq_unit_node(e, e->in[iv].unit));
}

static void release_output_vc(struct iq_engine *e, uint32_t ov)
{
    if (e->tail_credit)
        e->ovc[ov].tail_sent = 1; /* freed when its credits are all back */
    else
        e->ovc[ov].owner = NONE;
}

/* --- creation and delivery --- */

void iq_inject(struct iq_engine *e, uint32_t m)
{
    const struct engine_env *env = &e->env;
    if (e->packet_free == NONE) {
        uint32_t old = e->packet_cap, cap = old ? 2 * old : 256;
        struct iq_packet *g = realloc(e->packets, (size_t)cap * sizeof *g);
        if (!g) {
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
    };
    if (e->selection == IQ_VALIANT) { /* the intermediate node, from the source's routing stream */
        x->mid = (uint32_t)rng_below(&env->rng_route[x->src], e->N);
        x->phase = x->mid == x->src;
    }
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
    for (uint32_t k = 0; k < b->n; k++) {
        uint32_t o = ov[k];
        if (++e->ovc[o].credits == (int32_t)e->B && e->ovc[o].tail_sent) {
            e->ovc[o].tail_sent = 0;
            e->ovc[o].owner = NONE;
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
    for (uint32_t k = 0; k < b->n; k++) {
        uint32_t t = f[k].target;
        if (t & IQ_SINK) { /* at the ejection channel's far end: its credit goes back */
            uint32_t ov = t & ~IQ_SINK;
            credit_due(e, c + 2 + e->cd, ov); /* returned now, over a latency-1 channel */
            if (e->obs.ejected)
                e->obs.ejected(e->obs.ctx, f[k].packet, f[k].seq, c);
            if (measuring) {
                e->node_flits[ov / e->V - e->C]++;
                e->ejected_flits++;
            }
            if (f[k].seq + 1 == e->packets[f[k].packet].flits)
                deliver(e, f[k].packet, c);
            continue;
        }
        struct iq_input_vc *x = &e->in[t];
        uint32_t slot = x->first + x->count;
        e->ring[(size_t)t * e->B + (slot >= e->B ? slot - e->B : slot)] = f[k].packet;
        if (x->count++ == 0) {
            if (x->state == IQ_IDLE)
                begin_head(e, t, c);
            else if (x->ready < c)
                x->ready = c;
            busy_add(e, t);
        }
    }
    e->in_flight_flits -= b->n;
    b->n = 0;
}

/* --- step 2: sources --- */

static void add_source(struct iq_engine *e, uint32_t node)
{
    e->source_pos[node] = e->n_sources;
    e->sources[e->n_sources++] = node;
}

static void remove_source(struct iq_engine *e, uint32_t node)
{
    uint32_t pos = e->source_pos[node], last = e->sources[--e->n_sources];
    e->sources[pos] = last;
    e->source_pos[last] = pos;
    e->source_pos[node] = NONE;
}

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
        uint32_t node = x->src;
        if (e->src_head[node] == NONE) {
            e->src_head[node] = p;
            add_source(e, node);
        } else {
            e->packets[e->src_tail[node]].next = p;
        }
        e->src_tail[node] = p;
    }
}

/* Each source with a backlog sends one flit of its front packet, if a VC and a credit allow. */
static void inject_flits(struct iq_engine *e, int64_t c)
{
    uint32_t V = e->V, base = (e->C + e->N) * V;
    for (uint32_t k = 0; k < e->n_sources;) {
        uint32_t node = e->sources[k], p = e->src_head[node];
        struct iq_packet *x = &e->packets[p];
        uint32_t ov = e->src_vc[node];
        if (ov == NONE) { /* a head: the next free injection VC with a credit */
            uint32_t first = base + node * V;
            for (uint32_t j = 1; j <= V; j++) {
                uint32_t v = (e->src_rr[node] + j) % V;
                if (e->ovc[first + v].owner == NONE && e->ovc[first + v].credits > 0) {
                    ov = first + v;
                    break;
                }
            }
            if (ov == NONE) {
                k++;
                continue;
            }
            e->ovc[ov].owner = IQ_SINK | node;
            e->src_vc[node] = ov;
            e->src_rr[node] = ov - first;
            x->injected = c;
        }
        if (e->ovc[ov].credits == 0) {
            k++;
            continue;
        }
        e->ovc[ov].credits--;
        if (e->obs.injected)
            e->obs.injected(e->obs.ctx, node, p, x->sent, c);
        flit_due(e, c + 2, p, x->sent++, ov - e->N * V); /* a latency-1 channel */
        if (x->sent < x->flits) {
            k++;
            continue;
        }
        release_output_vc(e, ov);
        e->src_vc[node] = NONE;
        e->backlog--;
        e->src_head[node] = x->next;
        if (x->next == NONE) {
            e->src_tail[node] = NONE;
            remove_source(e, node); /* the last source moved to k: look at it next */
        } else {
            k++;
        }
    }
}

/* --- steps 3 and 4: allocation requests (one pass), VC grants, switch grants --- */

/* The lowest free VC of [lo, hi) at output unit u, NONE if all are held. */
static inline uint32_t lowest_free(const struct iq_engine *e, uint32_t u, uint32_t lo, uint32_t hi)
{
    uint32_t first = u * e->V;
    for (uint32_t v = lo; v < hi; v++)
        if (e->ovc[first + v].owner == NONE)
            return first + v;
    return NONE;
}

/* Adaptive and random-minimal selections: among the minimal hops with a free adaptive
 * VC, the one whose free adaptive VCs have the most credits (or any: random-minimal),
 * ties at random; else the escape VCs of the dimension-order hop. */
static uint32_t adaptive_choice(struct iq_engine *e, uint32_t iv, const struct iq_input_vc *x)
{
    uint32_t V = e->V, node = iq_unit_node(e, iv / V);
    const struct topo *t = e->env.topo;
    struct hop hops[IQ_MINIMAL_HOPS_MAX];
    unsigned n = t->ops->minimal_hops(t, node, e->packets[e->ring[(size_t)iv * e->B + x->first]].dst, hops,
                                      IQ_MINIMAL_HOPS_MAX);
    struct rng *r = &e->env.rng_route[node];
    uint32_t best = NONE, ties = 0;
    int64_t best_score = -1;
    for (unsigned i = 0; i < n; i++) {
        uint32_t first = hops[i].channel * V, lowest = NONE;
        int64_t score = 0;
        for (uint32_t v = e->E; v < V; v++)
            if (e->ovc[first + v].owner == NONE) {
                if (lowest == NONE)
                    lowest = first + v;
                score += e->ovc[first + v].credits;
            }
        if (lowest == NONE)
            continue;
        if (e->selection == IQ_RANDOM_MINIMAL)
            score = 0;
        if (score > best_score) {
            best = lowest;
            best_score = score;
            ties = 1;
        } else if (score == best_score && rng_below(r, ++ties) == 0) {
            best = lowest;
        }
    }
    return best != NONE ? best : lowest_free(e, x->out_unit, x->vc_lo, x->vc_hi);
}

/* Output VC ov records iv's request: it keeps the request nearest after the input VC it
 * last granted (lowest-free) or last saw accept (islip): round robin. */
static inline void offer_request(struct iq_engine *e, uint32_t iv, uint32_t ov, uint32_t inputs)
{
    uint32_t cur = e->ovc[ov].pick;
    if (cur == NONE)
        push_u32(e, &e->touched_ovc, ov);
    if (cur == NONE || rr_distance(iv, e->ovc[ov].vc_rr, inputs) < rr_distance(cur, e->ovc[ov].vc_rr, inputs))
        e->ovc[ov].pick = iv;
}

/* A head waiting at iv asks for output VCs.  lowest-free: one, the lowest free VC of its
 * class at its output port (or the adaptive choice).  islip: every free VC of that range
 * (adaptive: of the range its choice lies in, on its choice's port). */
static inline void request_vc(struct iq_engine *e, uint32_t iv, const struct iq_input_vc *x, uint32_t inputs)
{
    uint32_t ov = e->selection == IQ_DIMENSION_ORDER || e->selection == IQ_VALIANT || x->out_unit >= e->C
                      ? lowest_free(e, x->out_unit, x->vc_lo, x->vc_hi)
                      : adaptive_choice(e, iv, x);
    if (ov == NONE)
        return;
    offer_request(e, iv, ov, inputs);
    if (!e->vc_islip)
        return;
    uint32_t V = e->V, u = ov / V, v = ov - u * V, hi = x->vc_hi;
    if (u != x->out_unit || v >= hi) /* an adaptive VC: the adaptive range [E, V) of that port */
        hi = V;
    for (uint32_t j = v + 1; j < hi; j++)
        if (e->ovc[u * V + j].owner == NONE)
            offer_request(e, iv, u * V + j, inputs);
}

/* A flit with a credit asks for the switch: each input port keeps the VC nearest after
 * its last grant. */
static inline void request_switch(struct iq_engine *e, uint32_t iv)
{
    const struct iq_input_vc *x = &e->in[iv];
    uint32_t V = e->V, u = x->unit, cur = e->in_arb[u].pick;
    if (cur == NONE)
        push_u32(e, &e->touched_in, u);
    if (cur == NONE || rr_distance(x->vc, e->in_arb[u].rr, V) < rr_distance(e->in[cur].vc, e->in_arb[u].rr, V))
        e->in_arb[u].pick = iv;
}

/* sw_allocator = islip, request and grant at once: output port o keeps, among the VCs
 * that can send to it, the one of the input port nearest after the input port it last
 * saw accept and, within that port, the VC nearest after the port's last one sent (the
 * VC that port's request to o names). */
static inline void request_switch_islip(struct iq_engine *e, uint32_t iv, uint32_t units)
{
    const struct iq_input_vc *x = &e->in[iv];
    uint32_t o = x->out_unit, cur = e->out_arb[o].pick;
    if (cur == NONE) {
        push_u32(e, &e->touched_out, o);
        e->out_arb[o].pick = iv;
        return;
    }
    uint32_t u = x->unit, cu = e->in[cur].unit, rr = e->out_arb[o].rr;
    uint32_t d = rr_distance(u, rr, units), cd = rr_distance(cu, rr, units);
    if (d < cd || (d == cd && rr_distance(x->vc, e->in_arb[u].rr, e->V) < rr_distance(e->in[cur].vc, e->in_arb[u].rr, e->V)))
        e->out_arb[o].pick = iv;
}

static void request(struct iq_engine *e, int64_t c)
{
    uint32_t inputs = (e->C + e->N) * e->V;
    for (uint32_t k = 0; k < e->n_busy; k++) {
        uint32_t iv = e->busy[k];
        const struct iq_input_vc *x = &e->in[iv];
        if (x->ready > c)
            continue;
        if (x->state == IQ_ACTIVE) {
            if (e->ovc[x->out_vc].credits > 0) {
                if (e->sw_islip)
                    request_switch_islip(e, iv, e->C + e->N);
                else
                    request_switch(e, iv);
            }
        } else if (x->state == IQ_VC_ALLOC) {
            request_vc(e, iv, x, inputs);
        }
    }
}

/* Input VC iv takes output VC ov: from c + va its flits ask for the switch. */
static inline void take_vc(struct iq_engine *e, uint32_t iv, uint32_t ov, int64_t c)
{
    e->ovc[ov].owner = iv;
    e->ovc[ov].vc_rr = iv;
    struct iq_input_vc *x = &e->in[iv];
    x->state = IQ_ACTIVE;
    x->out_vc = ov;
    x->out_unit = ov / e->V; /* an adaptive head's choice */
    x->ready = c + e->va;
    if (x->out_unit < e->C)
        e->packets[e->ring[(size_t)iv * e->B + x->first]].hops++;
}

/* Grants decided on the requests.  lowest-free: each head asked for one VC, so every
 * grant is taken.  islip: each input VC accepts, among the output VCs that granted it,
 * the one nearest after the output VC it last accepted; only accepted grants move the
 * pointers (the output VC's to the input VC, the input VC's to the output VC). */
static void grant_vcs(struct iq_engine *e, int64_t c)
{
    const uint32_t *touched = e->touched_ovc.v;
    if (!e->vc_islip) {
        for (uint32_t k = 0; k < e->touched_ovc.n; k++) {
            uint32_t ov = touched[k], iv = e->ovc[ov].pick;
            e->ovc[ov].pick = NONE;
            take_vc(e, iv, ov, c);
        }
        e->touched_ovc.n = 0;
        return;
    }
    uint32_t outputs = (e->C + 2 * e->N) * e->V;
    for (uint32_t k = 0; k < e->touched_ovc.n; k++) {
        uint32_t ov = touched[k], iv = e->ovc[ov].pick;
        e->ovc[ov].pick = NONE;
        uint32_t cur = e->vc_acc_pick[iv], last = e->vc_acc_rr[iv];
        if (cur == NONE)
            push_u32(e, &e->touched_ivc, iv);
        if (cur == NONE || rr_distance(ov, last, outputs) < rr_distance(cur, last, outputs))
            e->vc_acc_pick[iv] = ov;
    }
    e->touched_ovc.n = 0;
    const uint32_t *ivs = e->touched_ivc.v;
    for (uint32_t k = 0; k < e->touched_ivc.n; k++) {
        uint32_t iv = ivs[k], ov = e->vc_acc_pick[iv];
        e->vc_acc_pick[iv] = NONE;
        e->vc_acc_rr[iv] = ov;
        take_vc(e, iv, ov, c);
    }
    e->touched_ivc.n = 0;
}

/* --- step 4: switch allocation and traversal --- */

/* Inlined at both switch allocators: it is most of a busy cycle. */
static inline __attribute__((always_inline)) void traverse(struct iq_engine *e, uint32_t iv, int64_t s)
{
    struct iq_input_vc *x = &e->in[iv];
    uint32_t V = e->V, ov = x->out_vc, o = x->out_unit;
    e->ovc[ov].credits--;
    if (e->obs.switched)
        e->obs.switched(e->obs.ctx, iv, ov, s);
    uint32_t p = e->ring[(size_t)iv * e->B + x->first];
    if (++x->first == e->B)
        x->first = 0;
    x->count--;
    uint32_t seq = x->front_seq;
    /* Written at cycle w onto a channel of latency d, a flit or credit is read at the far
     * end at w + d + 1; injection and ejection channels have d = 1. */
    int64_t leave = s + e->sa - 1, depart = s + e->sa + e->st - 1;
    if (o < e->C) {
        flit_due(e, depart + e->L + 1, p, seq, ov);
        if (e->env.probe->window_open)
            e->out_arb[o].busy++;
    } else {
        flit_due(e, depart + 2, p, seq, IQ_SINK | ov);
    }
    /* The freed slot's credit goes upstream: to a channel's near end or to the source. */
    bool from_channel = iv < e->C * V;
    credit_due(e, leave + (from_channel ? e->L : 1) + 1 + e->cd, from_channel ? iv : iv + e->N * V);
    if (seq + 1 == e->packets[p].flits) {
        release_output_vc(e, ov);
        if (x->count > 0) {
            begin_head(e, iv, s + 1);
        } else {
            x->state = IQ_IDLE;
            x->ready = s + 1;
        }
    } else {
        x->front_seq = seq + 1;
        x->ready = s + 1;
    }
    if (x->count == 0)
        busy_remove(e, iv);
    e->moves++;
}

/* sw_allocator = islip, accept: each input port takes, among the output ports that
 * granted it, the one nearest after the one it last accepted; only accepted grants move
 * the pointers. */
static void grant_switch_islip(struct iq_engine *e, int64_t c)
{
    uint32_t outputs = e->C + 2 * e->N;
    const uint32_t *outs = e->touched_out.v;
    for (uint32_t k = 0; k < e->touched_out.n; k++) {
        uint32_t o = outs[k], iv = e->out_arb[o].pick;
        e->out_arb[o].pick = NONE;
        struct iq_arbiter *a = &e->in_arb[e->in[iv].unit];
        if (a->pick == NONE) {
            push_u32(e, &e->touched_in, e->in[iv].unit);
            a->pick = iv;
        } else if (rr_distance(o, e->sw_acc_rr[e->in[iv].unit], outputs) <
                   rr_distance(e->in[a->pick].out_unit, e->sw_acc_rr[e->in[iv].unit], outputs)) {
            a->pick = iv;
        }
    }
    e->touched_out.n = 0;
    const uint32_t *ins = e->touched_in.v;
    for (uint32_t k = 0; k < e->touched_in.n; k++) {
        uint32_t u = ins[k], iv = e->in_arb[u].pick, o = e->in[iv].out_unit;
        e->in_arb[u].pick = NONE;
        e->in_arb[u].rr = e->in[iv].vc;
        e->sw_acc_rr[u] = o;
        e->out_arb[o].rr = u;
        traverse(e, iv, c);
    }
    e->touched_in.n = 0;
}

static void grant_switch(struct iq_engine *e, int64_t c)
{
    if (e->sw_islip) {
        grant_switch_islip(e, c);
        return;
    }
    uint32_t units = e->C + e->N;
    const uint32_t *ins = e->touched_in.v;
    for (uint32_t k = 0; k < e->touched_in.n; k++) {
        uint32_t u = ins[k], iv = e->in_arb[u].pick;
        e->in_arb[u].pick = NONE;
        uint32_t o = e->in[iv].out_unit, cur = e->out_arb[o].pick;
        if (cur == NONE)
            push_u32(e, &e->touched_out, o);
        if (cur == NONE || rr_distance(u, e->out_arb[o].rr, units) < rr_distance(e->in[cur].unit, e->out_arb[o].rr, units))
            e->out_arb[o].pick = iv;
    }
    e->touched_in.n = 0;
    const uint32_t *outs = e->touched_out.v;
    for (uint32_t k = 0; k < e->touched_out.n; k++) {
        uint32_t o = outs[k], iv = e->out_arb[o].pick;
        e->out_arb[o].pick = NONE;
        e->in_arb[e->in[iv].unit].rr = e->in[iv].vc;
        e->out_arb[o].rr = e->in[iv].unit;
        traverse(e, iv, c);
    }
    e->touched_out.n = 0;
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
    inject_flits(e, c);
    request(e, c);
    grant_vcs(e, c);
    grant_switch(e, c);
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
