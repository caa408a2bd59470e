/* The steps of the input-queued router's cycle that both of its files take (private
 * to routing/iq_router.c, which runs the cycle, and routing/iq_alloc.c, which
 * allocates and traverses).  Inline: they are most of a busy cycle. */
#ifndef ROUTING_IQ_CYCLE_H
#define ROUTING_IQ_CYCLE_H

#include <string.h>

#include "iq.h"

#define NONE UINT32_MAX

static inline void fail(struct iq_engine *e) { kernel_request_stop(e->env.kernel, KERNEL_FAILED); }

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
static inline void begin_head(struct iq_engine *e, uint32_t iv, int64_t f)
{
    struct iq_input_vc *x = &e->in[iv];
    x->state = IQ_VC_ALLOC;
    x->front_seq = 0;
    x->ready = f + e->rd;
    iq_route(e, iv, iq_unit_node(e, e->in[iv].unit));
}

static inline void release_output_vc(struct iq_engine *e, uint32_t ov)
{
    if (e->tail_credit)
        e->ovc[ov].tail_sent = 1; /* freed when its credits are all back */
    else
        e->ovc[ov].owner = NONE;
}

/* --- sources with a backlog --- */

static inline void add_source(struct iq_engine *e, uint32_t node)
{
    e->source_pos[node] = e->n_sources;
    e->sources[e->n_sources++] = node;
}

static inline void remove_source(struct iq_engine *e, uint32_t node)
{
    uint32_t pos = e->source_pos[node], last = e->sources[--e->n_sources];
    e->sources[pos] = last;
    e->source_pos[last] = pos;
    e->source_pos[node] = NONE;
}

/* What send_flit did: nothing (no VC or no credit), sent a flit, or sent the last flit
 * of the line's last packet (the line is empty). */
enum { SENT_NONE, SENT_FLIT, SENT_LINE_EMPTY };

/* Source line `line` of `node` sends one flit of its front packet if a VC and a credit
 * allow (step 2).  After a tail the line's next packet is at its front.  A reply's head
 * taking its injection VC frees a place in its terminal's reply queue. */
static inline __attribute__((always_inline)) int send_flit(struct iq_engine *e, uint32_t node, uint32_t line,
                                                           int64_t c)
{
    uint32_t V = e->V, base = (e->C + e->N) * V, p = e->src_head[line];
    struct iq_packet *x = &e->packets[p];
    uint32_t ov = e->src_vc[line];
    if (ov == NONE) { /* a head: the next free injection VC with a credit */
        uint32_t first = e->src_link && e->src_link[node] != NONE ? e->src_link[node] * V : base + node * V;
        uint32_t set = x->vc_base, Vc = e->Vc, rr = e->src_rr[line] + Vc - set; /* its class's injection VCs */
        for (uint32_t j = 1; j <= Vc; j++) {
            uint32_t v = set + (rr + j) % Vc;
            if (e->ovc[first + v].owner == NONE && e->ovc[first + v].credits > 0) {
                ov = first + v;
                break;
            }
        }
        if (ov == NONE)
            return SENT_NONE;
        e->ovc[ov].owner = IQ_SINK | node;
        e->src_vc[line] = ov;
        e->src_rr[line] = ov - first;
        x->injected = c;
        if (x->reply) { /* (set only with a reply queue) its first channel: it leaves its terminal's queue */
            e->reply_held[node]--;
            e->replies_in[node]--;
        }
    }
    if (e->ovc[ov].credits == 0)
        return SENT_NONE;
    e->ovc[ov].credits--;
    if (e->obs.injected)
        e->obs.injected(e->obs.ctx, node, p, x->sent, c);
    x->sent++;
    /* A latency-1 channel: the injection channel, or the terminal's link to its router. */
    uint32_t target = ov >= base ? ov - e->N * V : ov;
    if (target == ov && e->env.probe->window_open) /* an inject link: a channel, its load counted */
        e->out_arb[ov / V].busy++;
    flit_due(e, c + 2, x->sent == x->flits ? p | IQ_TAIL : p, x->sent - 1, target);
    if (x->sent < x->flits)
        return SENT_FLIT;
    release_output_vc(e, ov);
    e->src_vc[line] = NONE;
    e->backlog--;
    e->src_head[line] = x->next;
    if (x->next != NONE)
        return SENT_FLIT;
    e->src_tail[line] = NONE;
    return SENT_LINE_EMPTY;
}

/* routing/iq_alloc.c, steps 3 and 4 of cycle c: the heads and flits that may ask, ask
 * (one pass); VC grants; switch grants and traversal. */
void iq_request(struct iq_engine *e, int64_t c);
void iq_grant_vcs(struct iq_engine *e, int64_t c);
void iq_grant_switch(struct iq_engine *e, int64_t c);

#endif
