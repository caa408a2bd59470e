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

/* routing/iq_alloc.c, steps 3 and 4 of cycle c: the heads and flits that may ask, ask
 * (one pass); VC grants; switch grants and traversal. */
void iq_request(struct iq_engine *e, int64_t c);
void iq_grant_vcs(struct iq_engine *e, int64_t c);
void iq_grant_switch(struct iq_engine *e, int64_t c);

#endif
