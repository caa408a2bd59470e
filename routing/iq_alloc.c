/* The input-queued router's allocators and switch traversal: steps 3 and 4 of its
 * cycle (routing/iq_cycle.h; the semantics are iq.h's).  Work per cycle is
 * proportional to the input VCs holding flits. */
#include "iq_cycle.h"

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
    uint32_t V = e->V, node = iq_unit_node(e, iv / V), set = e->packets[iq_front_packet(e, iv)].vc_base;
    struct hop hops[IQ_MINIMAL_HOPS_MAX];
    unsigned n = iq_adaptive_hops(e, node, e->packets[iq_front_packet(e, iv)].dst, hops);
    struct rng *r = &e->env.rng_route[node];
    uint32_t best = NONE, ties = 0;
    int64_t best_score = -1;
    for (unsigned i = 0; i < n; i++) {
        uint32_t first = hops[i].channel * V + set, lowest = NONE;
        int64_t score = 0;
        for (uint32_t v = e->E; v < e->Vc; v++)
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
static inline void request_vc(struct iq_engine *e, uint32_t iv, struct iq_input_vc *x, uint32_t inputs)
{
    uint32_t ov = e->selection == IQ_DIMENSION_ORDER || e->selection == IQ_VALIANT || x->out_unit >= e->C
                      ? lowest_free(e, x->out_unit, x->vc_lo, x->vc_hi)
                      : adaptive_choice(e, iv, x);
    if (ov == NONE)
        return;
    offer_request(e, iv, ov, inputs);
    if (!e->vc_islip)
        return;
    x->vc_requests = 1;
    uint32_t V = e->V, first = x->out_unit * V, hi = x->vc_hi;
    if (ov - first >= hi) { /* an adaptive VC: the adaptive range [E, Vc) of its port, in its class's set */
        first = ov / V * V;
        hi = e->packets[iq_front_packet(e, iv)].vc_base + e->Vc;
    }
    for (uint32_t g = ov + 1; g < first + hi; g++)
        if (e->ovc[g].owner == NONE) {
            offer_request(e, iv, g, inputs);
            x->vc_requests = 2;
        }
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

void iq_request(struct iq_engine *e, int64_t c)
{
    /* Loaded once: the requests' stores into the lists may alias the engine's fields. */
    uint32_t inputs = (e->C + e->N) * e->V, units = e->C + e->N, n = e->n_busy;
    const uint32_t *busy = e->busy;
    struct iq_input_vc *in = e->in;
    const struct iq_output_vc *ovc = e->ovc;
    bool sw_islip = e->sw_islip, gated = e->reply_queue != 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t iv = busy[k];
        struct iq_input_vc *x = &in[iv];
        if (x->ready > c)
            continue;
        if (x->state == IQ_ACTIVE) {
            if (ovc[x->out_vc].credits > 0) {
                if (sw_islip)
                    request_switch_islip(e, iv, units);
                else
                    request_switch(e, iv);
            }
        } else if (x->state == IQ_VC_ALLOC) {
            /* A request waiting for a place in its terminal's reply queue asks for nothing:
             * its flits stay in this buffer. */
            if (__builtin_expect(!gated, 1) || !iq_waits_for_reply_place(e, iv))
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
    if (ov - x->out_unit * e->V >= e->V) /* an adaptive head's choice: another port */
        x->out_unit = ov / e->V;
    x->ready = c + e->va;
    if (x->out_unit < e->C && !(e->terminal_link && e->terminal_link[x->out_unit] == IQ_LINK_EJECT))
        e->packets[iq_front_packet(e, iv)].hops++;
}

/* Grants decided on the requests.  lowest-free: each head asked for one VC, so every
 * grant is taken.  islip: each input VC accepts, among the output VCs that granted it,
 * the one nearest after the output VC it last accepted; only accepted grants move the
 * pointers (the output VC's to the input VC, the input VC's to the output VC).  A head
 * that asked for one VC has at most one grant and accepts it at once. */
void iq_grant_vcs(struct iq_engine *e, int64_t c)
{
    const uint32_t *touched = e->touched_ovc.v;
    uint32_t outputs = (e->C + 2 * e->N) * e->V;
    bool gated = e->reply_queue != 0;
    for (uint32_t k = 0; k < e->touched_ovc.n; k++) {
        uint32_t ov = touched[k], iv = e->ovc[ov].pick;
        e->ovc[ov].pick = NONE;
        struct iq_input_vc *x = &e->in[iv];
        if (!e->vc_islip || x->vc_requests == 1) {
            /* A request taking its ejection VC takes a place in the reply queue; two at
             * once for the last place: the second waits. */
            if (__builtin_expect(gated, 0) && !iq_take_reply_place(e, iv, ov))
                continue;
            x->vc_accepted = ov;
            take_vc(e, iv, ov, c);
            continue;
        }
        uint32_t cur = e->vc_acc_pick[iv], last = x->vc_accepted;
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
        if (__builtin_expect(gated, 0) && !iq_take_reply_place(e, iv, ov))
            continue;
        e->in[iv].vc_accepted = ov;
        take_vc(e, iv, ov, c);
    }
    e->touched_ivc.n = 0;
}

/* --- step 4: switch allocation and traversal --- */

/* What the switch reads for every flit, loaded once per allocation: the stores into the
 * rings and calendars may alias the engine's fields, so the compiler would reload them at
 * every use. */
struct switch_view {
    struct iq_input_vc *in;
    struct iq_output_vc *ovc;
    const uint32_t *ring;
    struct iq_arbiter *out_arb;
    const uint8_t *links;    /* e->terminal_link */
    const uint32_t *latency; /* e->latency */
    uint32_t B, C, L, CV, NV; /* CV: C * V, the input VCs of channels; NV: N * V */
    int64_t leave, depart, cd; /* s + sa - 1, s + sa + st - 1, credit delay */
};

static inline struct switch_view switch_view(const struct iq_engine *e, int64_t s)
{
    return (struct switch_view){
        .in = e->in, .ovc = e->ovc, .ring = e->ring, .out_arb = e->out_arb, .links = e->terminal_link,
        .latency = e->latency, .B = e->B, .C = e->C, .L = e->L, .CV = e->C * e->V, .NV = e->N * e->V,
        .leave = s + e->sa - 1, .depart = s + e->sa + e->st - 1, .cd = e->cd,
    };
}

/* Inlined at both switch allocators: it is most of a busy cycle. */
static inline __attribute__((always_inline)) void traverse(struct iq_engine *e, const struct switch_view *view,
                                                           uint32_t iv, int64_t s)
{
    struct iq_input_vc *x = &view->in[iv];
    uint32_t ov = x->out_vc, o = x->out_unit, unit = x->unit, first = x->first, B = view->B;
    view->ovc[ov].credits--;
    if (e->obs.switched)
        e->obs.switched(e->obs.ctx, iv, ov, s);
    uint32_t p = view->ring[(size_t)iv * B + first]; /* | IQ_TAIL on the tail */
    x->first = first + 1 == B ? 0 : first + 1;
    uint32_t count = --x->count;
    uint32_t seq = x->front_seq;
    /* Written at cycle w onto a channel of latency d, a flit or credit is read at the far
     * end at w + d + 1; injection and ejection channels have d = 1. */
    const uint8_t *links = view->links;
    if (o < view->C && !(links && links[o] == IQ_LINK_EJECT)) {
        flit_due(e, view->depart + (view->latency ? view->latency[o] : view->L) + 1, p, seq, ov);
        if (e->env.probe->window_open)
            view->out_arb[o].busy++;
    } else { /* the ejection channel, or an eject link, which ends as one (latency 1) */
        if (o < view->C && e->env.probe->window_open)
            view->out_arb[o].busy++;
        flit_due(e, view->depart + 2, p, seq, IQ_SINK | ov);
    }
    /* The freed slot's credit goes upstream: to a channel's near end or to the source
     * (over the injection channel or an inject link: latency 1). */
    bool from_channel = iv < view->CV, latency_one = !from_channel || (links && links[unit] == IQ_LINK_INJECT);
    uint32_t back = latency_one ? 1 : view->latency ? view->latency[unit] : view->L;
    credit_due(e, view->leave + back + 1 + view->cd, from_channel ? iv : iv + view->NV);
    if (p & IQ_TAIL) {
        release_output_vc(e, ov);
        if (count > 0) {
            begin_head(e, iv, s + 1);
        } else {
            x->state = IQ_IDLE;
            x->ready = s + 1;
        }
    } else {
        x->front_seq = seq + 1;
        x->ready = s + 1;
    }
    if (count == 0)
        busy_remove(e, iv);
    e->moves++;
}

/* sw_allocator = islip, accept: each input port takes, among the output ports that
 * granted it, the one nearest after the one it last accepted; only accepted grants move
 * the pointers. */
static void grant_switch_islip(struct iq_engine *e, int64_t c)
{
    const struct switch_view view = switch_view(e, c);
    struct iq_arbiter *in_arb = e->in_arb, *out_arb = e->out_arb;
    uint32_t outputs = e->C + 2 * e->N;
    const uint32_t *outs = e->touched_out.v;
    for (uint32_t k = 0, n = e->touched_out.n; k < n; k++) {
        uint32_t o = outs[k], iv = out_arb[o].pick, u = view.in[iv].unit;
        out_arb[o].pick = NONE;
        struct iq_arbiter *a = &in_arb[u];
        if (a->pick == NONE) {
            push_u32(e, &e->touched_in, u);
            a->pick = iv;
        } else if (rr_distance(o, a->accepted, outputs) < rr_distance(view.in[a->pick].out_unit, a->accepted, outputs)) {
            a->pick = iv;
        }
    }
    e->touched_out.n = 0;
    const uint32_t *ins = e->touched_in.v;
    for (uint32_t k = 0, n = e->touched_in.n; k < n; k++) {
        uint32_t u = ins[k], iv = in_arb[u].pick, o = view.in[iv].out_unit;
        in_arb[u].pick = NONE;
        in_arb[u].rr = view.in[iv].vc;
        in_arb[u].accepted = o;
        out_arb[o].rr = u;
        traverse(e, &view, iv, c);
    }
    e->touched_in.n = 0;
}

void iq_grant_switch(struct iq_engine *e, int64_t c)
{
    if (e->sw_islip) {
        grant_switch_islip(e, c);
        return;
    }
    const struct switch_view view = switch_view(e, c);
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
        traverse(e, &view, iv, c);
    }
    e->touched_out.n = 0;
}

