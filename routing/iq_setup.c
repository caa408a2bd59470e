/* The input-queued router: its memory, its route computation on lattices (dimension
 * order, torus ties and dateline classes) and its engine_ops (the cycle is in
 * iq_router.c and iq_alloc.c, its checks in iq_checks.c, routes on router networks in
 * iq_nets.c, the contract in iq.h). */
#include <stdlib.h>
#include <string.h>

#include "../sim/core/params.h"
#include "flit_params.h"
#include "iq.h"

/* The router's own keys: its pipeline's stages and flow control (struct iq_params,
 * flit_params.h).  Listed after routing.router, where --list has always shown them. */
static const struct cfg_key iq_keys[] = {
    { "routing", "routing_delay", CFG_INT, offsetof(struct iq_params, routing_delay), "1", 0, 1000, false, NULL,
      "iq router: cycles of route computation, from a head reaching the front of its input VC" },
    { "routing", "vc_alloc_delay", CFG_INT, offsetof(struct iq_params, vc_alloc_delay), "1", 1, 1000, false, NULL,
      "iq router: cycles of VC allocation" },
    { "routing", "sw_alloc_delay", CFG_INT, offsetof(struct iq_params, sw_alloc_delay), "1", 1, 1000, false, NULL,
      "iq router: cycles of switch allocation" },
    { "routing", "st_delay", CFG_INT, offsetof(struct iq_params, st_delay), "1", 1, 1000, false, NULL,
      "iq router: cycles of switch traversal" },
    { "routing", "credit_delay", CFG_INT, offsetof(struct iq_params, credit_delay), "0", 0, 1000, false, NULL,
      "iq router: cycles a returned credit takes to be processed, beyond the channel's latency" },
    { "routing", "vc_release", CFG_CHOICE, offsetof(struct iq_params, vc_release), "tail", 0, 0, false,
      &vc_release_choices, "iq router: when an output VC can take a new packet" },
    { "routing", "tie", CFG_CHOICE, offsetof(struct iq_params, tie), "random", 0, 0, false, &tie_choices,
      "iq router, torus: the direction of a dimension whose two ways are equally short" },
    { "routing", "vc_allocator", CFG_CHOICE, offsetof(struct iq_params, vc_allocator), "islip", 0, 0, false,
      &vc_allocator_choices, "iq router: how waiting heads are matched to free output VCs" },
    { "routing", "sw_allocator", CFG_CHOICE, offsetof(struct iq_params, sw_allocator), "islip", 0, 0, false,
      &sw_allocator_choices, "iq router: how flits with a credit are matched to the switch's output ports" },
};
/* Its dimension-order routes (e-cube, escape VCs, Valiant's phases) follow ecube's order
 * whatever the path selection; the simple router reads it only under ecube, ecube's own key. */
static const char *const iq_reads[] = { "routing.dimension_order", NULL };
CFG_PARAM_TABLE_AFTER_READS(iq_param_table, struct iq_params, iq_keys, "routing.router", iq_reads);

#define NONE UINT32_MAX

enum { MINIMAL_HOPS_MAX = 64 };

/* --- route computation --- */

static uint32_t digit(const struct iq_engine *e, uint32_t node, uint32_t dim)
{
    if (e->digits)
        return e->digits[(size_t)node * e->dims + dim];
    return node / e->digit_stride[dim] % e->radix;
}

/* Dimension order from the digits, as the topology's canonical rule goes (a tie the
 * negative way) unless tie = random: the lowest (descending: highest) differing
 * dimension, the shorter way round.  follows() tells the models the same rule
 * (routing/ecube.c's random-ties path draws a tie as this does). */
static void route_by_digits(struct iq_engine *e, uint32_t node, uint32_t dst, struct hop *h, uint32_t *dim_out)
{
    uint32_t k = e->radix, dim = 0, a = 0, b = 0;
    for (uint32_t i = 0; i < e->dims; i++) {
        uint32_t d = e->descending ? e->dims - 1 - i : i;
        a = digit(e, node, d);
        b = digit(e, dst, d);
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

/* The path the router follows, for the models: route_by_digits draws ecube's torus
 * ties under tie = random. */
static const struct route_ops *follows(const struct config *cfg, const struct topo *t,
                                       const struct route_ops *selected)
{
    return strcmp(iq_params_of(cfg)->tie, "random") == 0 ? ecube_random_ties(selected, t) : selected;
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
            p->cls = dateline_ahead(e->radix, digit(e, node, dim), digit(e, target, dim), digit(e, h.next, dim));
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
                     dateline_ahead(e->radix, digit(e, node, dim), digit(e, p->dst, dim), digit(e, h.next, dim));
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
        uint32_t a = digit(e, node, dim), b = digit(e, p->dst, dim);
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
        p->cls = digit(e, p->dst, dim) < digit(e, node, dim);
    } else if (dim != p->dim) { /* entering a dimension: its dateline class for the whole dimension */
        p->dim = dim;
        p->cls = 0;
        if (e->dateline) {
            uint32_t a = digit(e, node, dim), b = digit(e, p->dst, dim), next = digit(e, h.next, dim);
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

/* --- life cycle --- */

static void *filled(size_t n, size_t size, int byte)
{
    void *a = malloc(n ? n * size : 1);
    if (a)
        memset(a, byte, n * size);
    return a;
}

/* The flits counted per output unit go to the run's books as their channel's busy cycles. */
static void finish(void *self)
{
    struct iq_engine *e = self;
    for (uint32_t ch = 0; ch < e->C; ch++)
        e->env.chan[ch].busy_time += (double)e->out_arb[ch].busy;
}

static void engine_free(void *self)
{
    struct iq_engine *e = self;
    if (!e)
        return;
    free(e->chan_to);
    free(e->chan_dim);
    free(e->digit_stride);
    free(e->out_chan);
    free(e->digits);
    free(e->packets);
    free(e->src_head);
    free(e->src_tail);
    free(e->src_vc);
    free(e->src_rr);
    free(e->sources);
    free(e->source_pos);
    free(e->line_last);
    free(e->reply_held);
    free(e->replies_in);
    free(e->in);
    free(e->ring);
    free(e->busy);
    free(e->ovc);
    free(e->in_arb);
    free(e->out_arb);
    free(e->touched_in.v);
    free(e->touched_out.v);
    free(e->touched_ovc.v);
    free(e->touched_ivc.v);
    free(e->vc_acc_pick);
    free(e->raises);
    free(e->terminal_link);
    free(e->src_link);
    free(e->latency);
    for (uint32_t s = 0; e->flits_due && s < e->slots; s++)
        free(e->flits_due[s].v);
    for (uint32_t s = 0; e->credits_due && s < e->slots; s++)
        free(e->credits_due[s].v);
    free(e->flits_due);
    free(e->credits_due);
    free(e->node_flits);
    free(e);
}

/* Which node each channel leads to, its dimension, and (dimension order by digits)
 * the channel each node has per dimension and way. */
static bool map_channels(struct iq_engine *e)
{
    const struct topo *t = e->env.topo;
    uint32_t stride = 1;
    for (unsigned d = 0; d < t->dimension; d++, stride *= e->radix)
        e->digit_stride[d] = stride;
    if ((t->ops->traits & TOPO_KARY_NCUBE) && e->radix <= UINT16_MAX) { /* a table instead of divisions */
        e->digits = malloc(((size_t)t->nodes * e->dims + 1) * sizeof *e->digits);
        if (!e->digits)
            return false;
        for (uint32_t v = 0; v < t->nodes; v++)
            for (uint32_t d = 0, x = v; d < e->dims; d++, x /= e->radix)
                e->digits[(size_t)v * e->dims + d] = (uint16_t)(x % e->radix);
    }
    struct hop *hops = malloc((t->max_hops ? t->max_hops : 1) * sizeof *hops);
    if (!hops)
        return false;
    for (uint32_t v = 0; v < t->nodes; v++) {
        unsigned n = t->ops->neighbors(t, v, hops, t->max_hops);
        for (unsigned i = 0; i < n; i++) {
            uint32_t ch = hops[i].channel, d = t->ops->channel_dimension ? t->ops->channel_dimension(t, ch) : 0;
            e->chan_to[ch] = hops[i].next;
            e->chan_dim[ch] = d;
            if (e->by_digits) {
                bool up = digit(e, hops[i].next, d) == (digit(e, v, d) + 1) % e->radix;
                e->out_chan[((size_t)v * e->dims + d) * 2 + up] = ch;
            }
        }
    }
    free(hops);
    return true;
}

bool iq_route_tables(struct iq_engine *e, const struct config *cfg)
{
    const struct flit_params *fp = flit_params_of(cfg);
    const struct topo *t = e->env.topo;
    const struct iq_params *ip = iq_params_of(cfg);
    e->Vc = (uint32_t)fp->virtual_channels;
    e->vc_sets = flit_vc_sets(cfg, e->env.classes != NULL);
    e->V = e->Vc * e->vc_sets;
    e->L = (uint32_t)fp->link_latency;
    unsigned route_traits = route_select(cfg)->traits;
    e->selection = route_traits & ROUTE_ADAPTIVE         ? IQ_MOST_CREDITS
                   : route_traits & (ROUTE_VALIANT | ROUTE_SOURCE_ADAPTIVE) ? IQ_VALIANT
                   : route_traits & (ROUTE_DIMENSION_ORDER | ROUTE_DETERMINISTIC) ? IQ_DIMENSION_ORDER
                                                                                : IQ_RANDOM_MINIMAL;
    /* up-down: the path selection's own route, on every VC (its dependencies are acyclic) */
    e->by_path = (route_traits & ROUTE_DETERMINISTIC) && !(route_traits & ROUTE_DIMENSION_ORDER);
    e->tie_random = strcmp(ip->tie, "random") == 0;
    e->forced_tie = -1;
    bool kary = t->ops->traits & TOPO_KARY_NCUBE;
    e->radix = kary ? t->lattice.radix : 2;
    e->dateline_topology = kary && t->lattice.wrap;
    e->dateline = e->dateline_topology && e->Vc >= 2;
    e->E = e->selection == IQ_DIMENSION_ORDER || e->selection == IQ_VALIANT ? 0 : (uint32_t)iq_escape_vcs(cfg, t);
    e->C = t->channels;
    e->N = t->nodes;
    e->dims = t->dimension;
    e->both_ways = kary && t->lattice.both_ways;
    e->wrap = e->dateline_topology;
    e->descending = strcmp(cfg_text(cfg, "routing.dimension_order"), "descending") == 0;
    /* a 2-ary torus has two channels between the same neighbours: the general way there */
    e->by_digits = (t->ops->traits & (TOPO_BINARY_HYPERCUBE | TOPO_KARY_NCUBE)) && (!kary || e->radix > 2);
    e->router_net = iq_router_net(t);
    size_t C = e->C, N = e->N;
    e->chan_to = filled(C, sizeof *e->chan_to, 0xff);
    e->chan_dim = filled(C, sizeof *e->chan_dim, 0);
    e->digit_stride = filled(t->dimension ? t->dimension : 1, sizeof *e->digit_stride, 0);
    e->out_chan = filled(N * e->dims * 2 + 1, sizeof *e->out_chan, 0xff);
    return e->chan_to && e->chan_dim && e->digit_stride && e->out_chan && map_channels(e) &&
           (!e->router_net || iq_nets_init(e, cfg));
}

void iq_engine_free(struct iq_engine *e) { engine_free(e); }

static void *create(const struct engine_env *env)
{
    const struct config *cfg = env->cfg;
    const struct flit_params *fp = flit_params_of(cfg);
    const struct topo *t = env->topo;
    struct iq_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->env = *env;
    e->B = (uint32_t)fp->flit_buffers;
    const struct iq_params *ip = iq_params_of(cfg);
    e->rd = (uint32_t)ip->routing_delay;
    e->va = (uint32_t)ip->vc_alloc_delay;
    e->sa = (uint32_t)ip->sw_alloc_delay;
    e->st = (uint32_t)ip->st_delay;
    e->cd = (uint32_t)ip->credit_delay;
    e->deadlock_interval = (uint32_t)fp->deadlock_interval;
    e->tail_credit = strcmp(ip->vc_release, "tail-credit") == 0;
    e->vc_islip = strcmp(ip->vc_allocator, "islip") == 0;
    e->sw_islip = strcmp(ip->sw_allocator, "islip") == 0;
    if (!iq_route_tables(e, cfg)) {
        engine_free(e);
        return NULL;
    }
    /* Escape routes hold only with atomic VC allocation (a VC taken only when empty):
     * a head queued behind another packet's tail cannot ask for an escape VC, and
     * adaptive VCs can wait on each other in a cycle. */
    if (e->E > 0)
        e->tail_credit = true;
    e->tick_at = -1;
    e->packet_free = e->pending_head = e->pending_tail = NONE;
    uint32_t longest = e->L; /* the calendar spans the longest channel */
    for (uint32_t ch = 0; t->ops->channel_latency && ch < t->channels; ch++)
        longest = t->ops->channel_latency(t, ch) > longest ? t->ops->channel_latency(t, ch) : longest;
    for (e->slots = 8; e->slots < e->sa + e->st + longest + e->cd + 4; e->slots *= 2)
        ;
    e->slot_mask = e->slots - 1;
    size_t C = e->C, N = e->N, V = e->V, in_vcs = (C + N) * V, out_vcs = (C + 2 * N) * V;
    e->reply_queue = env->classes ? env->classes->reply_queue : 0;
    e->class_lines = e->reply_queue && e->vc_sets > 1; /* else one line, as without a bound */
    size_t lines = e->class_lines ? 2 * N : N;
    e->src_head = filled(lines, sizeof *e->src_head, 0xff);
    e->src_tail = filled(lines, sizeof *e->src_tail, 0xff);
    e->src_vc = filled(lines, sizeof *e->src_vc, 0xff);
    e->src_rr = filled(lines, sizeof *e->src_rr, 0);
    e->line_last = e->class_lines ? filled(N, sizeof *e->line_last, 0) : NULL;
    e->sources = filled(N, sizeof *e->sources, 0);
    e->source_pos = filled(N, sizeof *e->source_pos, 0xff);
    e->in = filled(in_vcs, sizeof *e->in, 0);
    e->ring = filled(in_vcs * e->B, sizeof *e->ring, 0);
    e->busy = filled(in_vcs, sizeof *e->busy, 0);
    e->ovc = filled(out_vcs, sizeof *e->ovc, 0);
    e->in_arb = filled(C + N, sizeof *e->in_arb, 0);
    e->vc_acc_pick = filled(in_vcs, sizeof *e->vc_acc_pick, 0xff);
    e->out_arb = filled(C + 2 * N, sizeof *e->out_arb, 0);
    e->flits_due = calloc(e->slots, sizeof *e->flits_due);
    e->credits_due = calloc(e->slots, sizeof *e->credits_due);
    e->node_flits = calloc(N, sizeof *e->node_flits);
    if (!e->src_head || !e->src_tail || !e->src_vc || !e->src_rr || !e->sources || !e->source_pos || !e->in ||
        !e->ring || !e->busy || !e->ovc || !e->in_arb || !e->out_arb || !e->vc_acc_pick || !e->flits_due ||
        !e->credits_due || !e->node_flits || (e->class_lines && !e->line_last) ||
        (e->reply_queue && !iq_reply_init(e))) {
        engine_free(e);
        return NULL;
    }
    for (size_t i = 0; i < out_vcs; i++)
        e->ovc[i] = (struct iq_output_vc){ .owner = NONE, .credits = (int16_t)e->B, .vc_rr = NONE, .pick = NONE };
    for (size_t i = 0; i < in_vcs; i++) {
        e->in[i].busy_pos = NONE;
        e->in[i].vc_accepted = NONE;
        e->in[i].state = IQ_IDLE;
        e->in[i].unit = (uint32_t)(i / V);
        e->in[i].vc = (uint8_t)(i % V);
    }
    for (size_t u = 0; u < C + N; u++)
        e->in_arb[u] = (struct iq_arbiter){ .rr = e->V - 1, .pick = NONE, .accepted = NONE };
    for (size_t o = 0; o < C + 2 * N; o++)
        e->out_arb[o] = (struct iq_arbiter){ .rr = (uint32_t)(C + N - 1), .pick = NONE };
    for (size_t v = 0; v < lines; v++)
        e->src_rr[v] = e->V - 1;
    e->ev_tick = kernel_register(env->kernel, iq_tick, e);
    return e;
}

static void inject(void *self, uint32_t m) { iq_inject(self, m); }

/* What create() allocates, per input and output VC, unit and node. */
static double memory(const struct config *cfg, const struct topo *t)
{
    const struct flit_params *fp = flit_params_of(cfg);
    double V = (double)fp->virtual_channels, B = (double)fp->flit_buffers;
    double C = (double)t->channels, N = (double)t->nodes;
    double input_vcs = (C + N) * V, output_vcs = (C + 2 * N) * V;
    return input_vcs * ((double)sizeof(struct iq_input_vc) + 4 * B + 4) +
           output_vcs * (double)sizeof(struct iq_output_vc) + (2 * C + 3 * N) * (double)sizeof(struct iq_arbiter) +
           C * 8 + N * (28 + 8.0 * t->dimension + 2.0 * t->dimension);
}

/* A packet alone (iq.h): the injection channel (2 cycles), h + 1 routers of P - 1
 * cycles (P the stage delays), h channels of d + 1 cycles, the ejection channel (2
 * cycles) and one cycle per flit behind the head; joined to its source queue at the
 * first whole cycle from its creation.  Its flits stream one per cycle when the buffers
 * cover a credit's round trip (the flit's switch allocation and traversal, the channel
 * both ways, the credit's own delay) plus a head's routing and VC allocation; else only
 * packets that fit the buffers do. */
static bool zero_load(const struct config *cfg, const struct topo *t, struct zero_load_terms *out, char *why,
                      size_t why_size)
{
    (void)why, (void)why_size;
    const struct flit_params *fp = flit_params_of(cfg);
    const struct iq_params *ip = iq_params_of(cfg);
    double P = (double)(ip->routing_delay + ip->vc_alloc_delay + ip->sw_alloc_delay + ip->st_delay);
    int64_t d_max = fp->link_latency;
    for (uint32_t c = 0; t->ops->channel_latency && c < t->channels; c++)
        if ((int64_t)t->ops->channel_latency(t, c) > d_max)
            d_max = t->ops->channel_latency(t, c);
    int64_t round_trip = 2 * ip->sw_alloc_delay + ip->st_delay + 2 * d_max + ip->credit_delay + ip->routing_delay +
                         ip->vc_alloc_delay;
    *out = (struct zero_load_terms){
        .per_message = P + 3,
        .per_hop = P,
        .per_flit = 1,
        .link_latency = (double)fp->link_latency,
        .wait_integer = 0,
        .wait_continuous = 0.5,
        .terminal_links_are_hops = false,
        .streaming_flits_max = fp->flit_buffers >= round_trip ? UINT32_MAX : (uint32_t)fp->flit_buffers,
    };
    return true;
}

struct iq_engine *iq_engine_of(const struct engine_ops *ops, void *self)
{
    return ops == &engine_iq ? self : NULL;
}

const struct engine_ops engine_iq = {
    .name = "iq",
    .help = "wormhole on the input-queued virtual-channel router with credits (routing.router = iq)",
    .traits = SWITCH_PIPELINED | SWITCH_HOLDS_CHANNELS | SWITCH_INPUT_QUEUED | ENGINE_TAKES_SELF_ADDRESSED | ENGINE_READS_IDS | ENGINE_DRAWS_ROUTING |
              ENGINE_ROUTES_ADAPTIVELY | ENGINE_BOUNDS_REPLY_QUEUE,
    .check = iq_check,
    .create = create,
    .inject = inject,
    .memory = memory,
    .figures = iq_figures,
    .follows = follows,
    .zero_load = zero_load,
    .valiant_mids = iq_valiant_mids,
    .finish = finish,
    .relation = iq_relation,
    .destroy = engine_free,
};
