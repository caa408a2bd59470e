/* The input-queued router's route computation on lattices: dimension order by digits,
 * a torus's ties and dateline classes, Valiant's phases, and the dispatch to the routes
 * on router networks (iq_nets.c) and the drawn paths; the one place a route's VC range is
 * placed in the packet's class set (the contract is in iq.h). */
#include <stdlib.h>
#include <string.h>

#include "flit_params.h"
#include "iq.h"

#define NONE UINT32_MAX

enum { MINIMAL_HOPS_MAX = 64 };

/* Dimension order from the digits, as the topology's canonical rule goes (a tie the
 * negative way) unless tie = random: the lowest (descending: highest) differing
 * dimension, the shorter way round.  follows() tells the models the same rule
 * (routing/ecube.c's random-ties path draws a tie as this does). */
static void route_by_digits(struct iq_engine *e, uint32_t node, uint32_t dst, struct hop *h, uint32_t *dim_out)
{
    uint32_t k = e->radix, dim = 0, a = 0, b = 0;
    for (uint32_t i = 0; i < e->dims; i++) {
        uint32_t d = e->descending ? e->dims - 1 - i : i;
        a = iq_digit(e, node, d);
        b = iq_digit(e, dst, d);
        if (a != b) {
            dim = d;
            break;
        }
    }
    bool up = true;
    if (e->both_ways && e->wrap) {
        uint32_t negative = a >= b ? a - b : a + k - b; /* hops the negative way (no division) */
        if (2 * negative == k && e->forced_tie >= 0) { /* the static check: each way in turn */
            up = e->forced_tie;
            e->tie_seen = true;
        } else if (2 * negative == k) {
            up = e->tie_random && rng_uniform(&e->env.rng_route[node]) < 0.5; /* as the fallback draws */
        } else {
            up = 2 * negative > k;
        }
    } else if (e->both_ways) {
        up = b > a;
    }
    h->channel = e->out_chan[((size_t)node * e->dims + dim) * 2 + up];
    h->next = e->chan_to[h->channel];
    *dim_out = dim;
}

/* Valiant: dimension order to the phase's target, on the phase's half of the VCs (each
 * half split into dateline classes on a torus, per dimension as in dimension order). */
static void route_valiant(struct iq_engine *e, struct iq_input_vc *x, struct iq_packet *p, uint32_t node)
{
    if (p->phase == 0 && node == p->mid) { /* the intermediate node: the second phase starts afresh */
        p->phase = 1;
        p->dim = NONE;
    }
    uint32_t target = p->phase ? p->dst : p->mid;
    if (p->phase && node == p->dst) {
        x->out_unit = e->C + node;
        x->vc_lo = 0;
        x->vc_hi = (uint16_t)e->Vc;
        return;
    }
    struct hop h;
    uint32_t dim;
    route_by_digits(e, node, target, &h, &dim);
    if (dim != p->dim || (e->dateline_topology && !e->both_ways)) {
        p->dim = dim;
        p->cls = 0;
        if (e->dateline_topology)
            p->cls = dateline_ahead(e->radix, iq_digit(e, node, dim), iq_digit(e, target, dim), iq_digit(e, h.next, dim));
    }
    uint32_t lo, hi;
    valiant_vc_range(e->Vc, p->phase, e->dateline_topology, p->cls, &lo, &hi);
    x->out_unit = h.channel;
    x->vc_lo = (uint16_t)lo;
    x->vc_hi = (uint16_t)hi;
}

/* The routing's VC range, [0, Vc), placed in the packet's class's set: the one place
 * routing.class_vcs acts on a route (the relation of the static check keeps one set). */
void iq_route(struct iq_engine *e, uint32_t iv, uint32_t node)
{
    struct iq_input_vc *x = &e->in[iv];
    struct iq_packet *p = &e->packets[iq_front_packet(e, iv)];
    iq_route_packet(e, x, p, node);
    if (e->vc_sets > 1) {
        x->vc_lo = (uint16_t)(x->vc_lo + p->vc_base);
        x->vc_hi = (uint16_t)(x->vc_hi + p->vc_base);
    }
}

void iq_route_packet(struct iq_engine *e, struct iq_input_vc *x, struct iq_packet *p, uint32_t node)
{
    if (e->by_path) {
        iq_path_route(e, x, p, node);
        return;
    }
    if (e->router_net) {
        iq_nets_route(e, x, p, node);
        return;
    }
    if (e->selection == IQ_VALIANT) {
        route_valiant(e, x, p, node);
        return;
    }
    if (node == p->dst) {
        x->out_unit = e->C + node;
        x->vc_lo = 0;
        x->vc_hi = (uint16_t)e->Vc;
        return;
    }
    const struct topo *t = e->env.topo;
    struct hop h;
    uint32_t dim;
    if (e->selection != IQ_DIMENSION_ORDER) { /* the escape hop; the adaptive hops are chosen at each request */
        route_by_digits(e, node, p->dst, &h, &dim);
        /* escape classes switch at the dateline */
        bool ahead = e->dateline_topology &&
                     dateline_ahead(e->radix, iq_digit(e, node, dim), iq_digit(e, p->dst, dim), iq_digit(e, h.next, dim));
        uint32_t lo, hi;
        escape_vc_range(e->E, e->dateline_topology, ahead, &lo, &hi);
        x->out_unit = h.channel;
        x->vc_lo = (uint16_t)lo;
        x->vc_hi = (uint16_t)hi;
        return;
    }
    if (e->by_digits) {
        route_by_digits(e, node, p->dst, &h, &dim);
        goto routed;
    }
    h = path_next(e->env.paths, node, p->dst);
    dim = e->chan_dim[h.channel];
    if (e->radix > 2 && e->radix % 2 == 0 && e->dateline_topology) {
        uint32_t a = iq_digit(e, node, dim), b = iq_digit(e, p->dst, dim);
        if ((a + e->radix - b) % e->radix == e->radix / 2 && e->tie_random &&
            rng_uniform(&e->env.rng_route[node]) < 0.5) {
            /* An antipodal tie: the other direction of the same dimension. */
            struct hop hops[MINIMAL_HOPS_MAX];
            unsigned n = t->ops->minimal_hops(t, node, p->dst, hops, MINIMAL_HOPS_MAX);
            for (unsigned i = 0; i < n; i++)
                if (hops[i].channel != h.channel && e->chan_dim[hops[i].channel] == dim) {
                    h = hops[i];
                    break;
                }
        }
    }
routed:
    if (e->dateline && !e->both_ways) {
        /* One-way rings: a path may cover all but one link of a ring, so the class must
         * switch at the wrap-around link (upper half until it, lower after). */
        p->dim = dim;
        p->cls = iq_digit(e, p->dst, dim) < iq_digit(e, node, dim);
    } else if (dim != p->dim) { /* entering a dimension: its dateline class for the whole dimension */
        p->dim = dim;
        p->cls = 0;
        if (e->dateline) {
            uint32_t a = iq_digit(e, node, dim), b = iq_digit(e, p->dst, dim), next = iq_digit(e, h.next, dim);
            bool up = next == (a + 1) % e->radix;
            p->cls = up ? b < a : b > a;
        }
    }
    x->out_unit = h.channel;
    if (!e->dateline) {
        x->vc_lo = 0;
        x->vc_hi = (uint16_t)e->Vc;
    } else {
        x->vc_lo = (uint16_t)(p->cls ? e->Vc / 2 : 0);
        x->vc_hi = (uint16_t)(p->cls ? e->Vc : e->Vc / 2);
    }
}
