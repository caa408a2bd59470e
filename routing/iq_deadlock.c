/* Deadlock detection for the input-queued router.  An input VC holding flits waits
 * when it cannot move by itself: its front packet asks for an output VC and every VC
 * of its class there is held (it waits for their holders, or, when a VC's tail has
 * been sent and its credit is awaited, for the buffer downstream), or its output VC
 * has no credit and the buffer downstream is full (it waits for that buffer).  A
 * waiting VC moves eventually if one of the VCs it waits for does; every other VC
 * holding flits moves by itself (its flits keep going: a pipeline stage, a credit on
 * its way, an ejection port that never blocks but for requests: a request waiting for a
 * place in its destination's full reply queue waits for that terminal's replies, so for
 * the input VCs of their class at its injection port, see reply_place_waits).  Propagating "moves" backwards from
 * those leaves the deadlocked VCs, and following "waits for" among them closes a cycle,
 * which the message names. */
#include <stdio.h>
#include <stdlib.h>

#include "iq.h"

#define NONE UINT32_MAX

/* Adds the holders of [lo, hi) at unit u to out (what waits for each of them); false if
 * one of them is free or will be (an ejection VC awaiting its credits). */
static bool held(const struct iq_engine *e, uint32_t u, uint32_t lo, uint32_t hi, uint32_t *out, uint32_t *n)
{
    for (uint32_t v = lo; v < hi; v++) {
        uint32_t ov = u * e->V + v, holder = e->ovc[ov].owner;
        if (holder == NONE)
            return false;
        if (e->ovc[ov].tail_sent) {
            if (ov >= e->C * e->V) /* an ejection VC: its credits always come back */
                return false;
            out[(*n)++] = ov; /* the downstream buffer must drain */
        } else {
            out[(*n)++] = holder;
        }
    }
    return true;
}

/* The request at the front of iv waits for a place in terminal t's full reply queue: it
 * gets one when a reply of t takes its injection VC, surely if one is still to be handed
 * to the engine (a place held, its reply not yet in: 0), else when an input VC of the
 * replies' class at t's injection port moves (their flits leave, credits come back).
 * Optimistic as the simple router's search (the reply's next VC may be taken in turn),
 * so a deadlock missed is found by a later search, and none is named that is not one. */
static uint32_t reply_place_waits(const struct iq_engine *e, uint32_t iv, uint32_t *out)
{
    uint32_t t = e->packets[iq_front_packet(e, iv)].dst;
    if (e->reply_held[t] > e->replies_in[t])
        return 0;
    uint32_t unit = e->src_link && e->src_link[t] != NONE ? e->src_link[t] : e->C + t;
    uint32_t first = unit * e->V + (e->vc_sets > 1 ? e->Vc : 0);
    for (uint32_t v = 0; v < e->Vc; v++)
        out[v] = first + v;
    return e->Vc;
}

/* The VCs iv waits for, into out (room for IQ_MINIMAL_HOPS_MAX + 1 ports of V VCs);
 * 0 when it can move by itself. */
static uint32_t waits_for(const struct iq_engine *e, uint32_t iv, uint32_t *out)
{
    const struct iq_input_vc *x = &e->in[iv];
    uint32_t n = 0;
    if (x->state == IQ_VC_ALLOC) {
        if (e->reply_queue && iq_waits_for_reply_place(e, iv))
            return reply_place_waits(e, iv, out);
        if (!held(e, x->out_unit, x->vc_lo, x->vc_hi, out, &n))
            return 0;
        if (e->selection == IQ_DIMENSION_ORDER || e->selection == IQ_VALIANT || x->out_unit >= e->C)
            return n;
        /* adaptive: every adaptive VC of every minimal hop is held too */
        const struct topo *t = e->env.topo;
        struct hop hops[IQ_MINIMAL_HOPS_MAX];
        uint32_t node = iq_unit_node(e, iv / e->V), set = e->packets[iq_front_packet(e, iv)].vc_base;
        unsigned count = t->ops->minimal_hops(t, node, e->packets[iq_front_packet(e, iv)].dst, hops,
                                              IQ_MINIMAL_HOPS_MAX);
        for (unsigned i = 0; i < count; i++)
            if (!held(e, hops[i].channel, e->E + set, e->Vc + set, out, &n))
                return 0;
        return n;
    }
    if (x->state == IQ_ACTIVE && x->out_unit < e->C && e->ovc[x->out_vc].credits == 0 &&
        e->in[x->out_vc].count == e->B) {
        out[0] = x->out_vc;
        return 1;
    }
    return 0;
}

static void describe_unit(const struct iq_engine *e, uint32_t iv, char *buf, size_t size)
{
    uint32_t u = iv / e->V;
    int n = u < e->C ? snprintf(buf, size, "channel %u (->%u) vc %u", u, e->chan_to[u], iv % e->V)
                     : snprintf(buf, size, "injection port of %u vc %u", u - e->C, iv % e->V);
    if (e->reply_queue && e->in[iv].state == IQ_VC_ALLOC && iq_waits_for_reply_place(e, iv) && n >= 0 &&
        (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ", ejection of requests at terminal %u (reply queue full)",
                 e->packets[iq_front_packet(e, iv)].dst);
}

bool iq_find_deadlock(struct iq_engine *e, char *buf, size_t size)
{
    uint32_t n = e->n_busy, V = e->V;
    uint32_t inputs = (e->C + e->N) * V;
    uint8_t *stuck = calloc(inputs, 1);          /* 1: waits (not yet known to move) */
    size_t room = (size_t)(IQ_MINIMAL_HOPS_MAX + 1) * V; /* waits of one VC at most */
    size_t cap = (size_t)n * V + room; /* grows when adaptive heads wait on many VCs */
    uint32_t *edges = malloc(cap * sizeof *edges);
    uint32_t *edge_from = malloc(cap * sizeof *edge_from);
    uint32_t *tmp = malloc(room * sizeof *tmp);
    if (!stuck || !edges || !edge_from || !tmp) {
        free(stuck);
        free(edges);
        free(edge_from);
        free(tmp);
        return false;
    }
    size_t m = 0;
    uint32_t top = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t iv = e->busy[k], w = waits_for(e, iv, tmp);
        if (w == 0)
            continue;
        stuck[iv] = 1;
        if (m + w > cap) {
            cap = 2 * (m + w);
            uint32_t *a = realloc(edges, cap * sizeof *a);
            if (a)
                edges = a;
            uint32_t *b = a ? realloc(edge_from, cap * sizeof *b) : NULL;
            if (b)
                edge_from = b;
            if (!a || !b) { /* no verdict without memory: look again at the next check */
                free(stuck);
                free(edges);
                free(edge_from);
                free(tmp);
                return false;
            }
        }
        for (uint32_t j = 0; j < w; j++) {
            edge_from[m] = iv;
            edges[m++] = tmp[j];
        }
    }
    /* A waiting VC moves if any VC it waits for moves; repeat until nothing changes.
     * Each pass frees at least one VC or ends: at most n passes, each O(edges). */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t j = 0; j < m; j++)
            if (stuck[edge_from[j]] && !stuck[edges[j]]) {
                stuck[edge_from[j]] = 0;
                changed = true;
            }
    }
    uint32_t count = 0, start = NONE;
    for (uint32_t k = 0; k < n; k++)
        if (stuck[e->busy[k]]) {
            count++;
            if (start == NONE)
                start = e->busy[k];
        }
    if (count == 0) {
        free(stuck);
        free(edges);
        free(edge_from);
        free(tmp);
        return false;
    }
    /* Follow "waits for" among the stuck until a VC repeats: that part is the cycle. */
    uint8_t *seen = stuck; /* reuse: 2 marks a visited VC */
    uint32_t iv = start;
    while (seen[iv] != 2) {
        seen[iv] = 2;
        uint32_t w = waits_for(e, iv, tmp), next = NONE;
        for (uint32_t j = 0; j < w && next == NONE; j++)
            if (stuck[tmp[j]])
                next = tmp[j];
        iv = next;
    }
    int used = snprintf(buf, size, "deadlock at cycle %lld: %u virtual channels can never move; cycle:",
                        (long long)e->cycle, count);
    uint32_t first = iv;
    do {
        char unit[160];
        describe_unit(e, iv, unit, sizeof unit);
        if (used >= 0 && (size_t)used < size)
            used += snprintf(buf + used, size - (size_t)used, "%s %s", iv == first ? "" : ",", unit);
        uint32_t w = waits_for(e, iv, tmp), next = NONE;
        for (uint32_t j = 0; j < w && next == NONE; j++)
            if (stuck[tmp[j]])
                next = tmp[j];
        iv = next;
    } while (iv != first && top++ < count);
    free(stuck);
    free(edges);
    free(edge_from);
    free(tmp);
    return true;
}
