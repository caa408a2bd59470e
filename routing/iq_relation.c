/* The input-queued router's routing relation for the static deadlock check
 * (deadlock_check.h): the route tables the engine builds (iq_route_tables), its route
 * step (iq_route_packet) called on packets of the check's own, with each way of an
 * antipodal tie in turn, and the adaptive hops its VC allocation may choose
 * (iq_adaptive_hops).  Walk keys: the destination terminal, and for Valiant and UGAL
 * the intermediate choice too (iq_set_mid: the draw's every outcome).  A state's aux
 * keeps what the route step reads of the packet beyond its channel and VC: the dateline
 * class, the phase, the dragonfly's class and, where it depends on the source (the
 * dragonfly), the intermediate router. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deadlock_check.h"
#include "flit_params.h"
#include "iq.h"
#include "routing.h"
#include "vc_classes.h"

#define NONE UINT32_MAX

struct iq_rel {
    struct iq_engine *e;
    struct path_selection paths;
    uint32_t picks;       /* intermediate choices per destination (1: one-phase routing) */
    bool mid_in_aux;      /* the intermediate router depends on the source: kept in aux */
    uint32_t phases, classes; /* the values aux keeps of the phase (1 or 3) and of the class (dragonfly, hop-indexed) */
    /* Adaptive selections: per node, the adaptive hops toward the walk's destination
     * (slots of them), for the walk key + 1 in hops_key (the walk asks once per state). */
    struct hop *hops;
    uint8_t *n_hops;
    uint32_t *hops_key, slots;
    uint32_t first_router;
    char fix[200];
};

static uint32_t aux_of(const struct iq_rel *r, const struct iq_packet *p)
{
    uint32_t mid = r->mid_in_aux ? p->mid - r->first_router : 0;
    uint32_t phase = r->phases > 1 ? p->phase : 0, globals = r->classes > 1 ? p->globals : 0;
    return p->cls + 2u * (phase + r->phases * (globals + r->classes * mid));
}

static void packet_of(const struct iq_rel *r, uint32_t key, const struct dl_step *at, struct iq_packet *p)
{
    uint32_t a = at->aux;
    bool one_pick = r->picks == 1; /* most routings: no division (the walk asks here per state) */
    *p = (struct iq_packet){ .dst = one_pick ? key : key / r->picks, .src = NONE, .mid = one_pick ? 0 : key % r->picks,
                             .dim = NONE };
    p->cls = (uint8_t)(a % 2);
    a /= 2;
    if (r->phases > 1) {
        p->phase = (uint8_t)(a % r->phases);
        a /= r->phases;
    }
    if (r->classes > 1)
        p->globals = (uint8_t)(a % r->classes);
    if (r->mid_in_aux)
        p->mid = a / r->classes + r->first_router;
    else if (!r->e->router_net || one_pick)
        p->mid = one_pick ? 0 : key % r->picks;
    else
        p->mid = key % r->picks + r->first_router;
    if (at->channel != DL_NONE && !(r->e->terminal_link && r->e->terminal_link[at->channel] == IQ_LINK_INJECT))
        p->dim = r->e->chan_dim[at->channel];
}

static unsigned seeds(void *self, uint32_t key, uint32_t source, struct dl_step *out, unsigned max)
{
    struct iq_rel *r = self;
    struct iq_engine *e = r->e;
    uint32_t dst = r->picks == 1 ? key : key / r->picks;
    if (source == dst)
        return 0;
    struct iq_packet p = { .src = source, .dst = dst, .dim = NONE };
    if (e->selection == IQ_VALIANT)
        iq_set_mid(e, &p, key % r->picks);
    uint32_t channel = DL_NONE, node = source, vcs = 1;
    if (e->src_link) { /* a terminal's source writes into its router's injection VCs over its link */
        channel = e->src_link[source];
        node = e->chan_to[channel];
        vcs = e->Vc;
    }
    unsigned n = 0;
    for (unsigned phase = 0; phase < 2; phase++) {
        if (p.phase != 2 && phase != p.phase) /* UGAL: either choice at the source's router */
            continue;
        struct iq_packet q = p;
        q.phase = (uint8_t)phase;
        for (uint32_t v = 0; v < vcs && n < max; v++)
            out[n++] = (struct dl_step){ channel, node, (uint16_t)v, (uint16_t)(v + 1), aux_of(r, &q) };
    }
    return n;
}

static bool ejects(const struct iq_engine *e, uint32_t unit)
{
    return unit >= e->C || (e->terminal_link && e->terminal_link[unit] == IQ_LINK_EJECT);
}

/* The steps of a packet in state `at`: the route step, and unless escape_only the
 * adaptive hops. */
static unsigned steps(struct iq_rel *r, uint32_t key, const struct dl_step *at, struct dl_step *out, unsigned max,
                      bool escape_only)
{
    struct iq_engine *e = r->e;
    struct iq_packet p;
    packet_of(r, key, at, &p);
    unsigned n = 0;
    for (int tie = e->tie_random ? 0 : -1; tie <= 1 && n < max; tie++) {
        e->forced_tie = (int8_t)tie;
        e->tie_seen = false;
        struct iq_packet q = p;
        struct iq_input_vc x = { .unit = at->channel != DL_NONE ? at->channel : e->C + at->node }; /* arrived by */
        iq_route_packet(e, &x, &q, at->node);
        if (ejects(e, x.out_unit)) {
            out[n++] = (struct dl_step){ DL_NONE, NONE, 0, 0, 0 };
            break;
        }
        bool per_hop = e->selection == IQ_MOST_CREDITS || e->selection == IQ_RANDOM_MINIMAL;
        if (!per_hop || e->E) /* no escape VCs: the head waits for an adaptive VC only */
            out[n++] = (struct dl_step){ x.out_unit, e->chan_to[x.out_unit], x.vc_lo, x.vc_hi, aux_of(r, &q) };
        if ((e->selection == IQ_MOST_CREDITS || e->selection == IQ_RANDOM_MINIMAL) && !escape_only) {
            struct hop *hops = r->hops + (size_t)at->node * r->slots;
            if (r->hops_key[at->node] != key + 1) {
                struct hop all[IQ_MINIMAL_HOPS_MAX];
                unsigned k = iq_adaptive_hops(e, at->node, q.dst, all);
                r->n_hops[at->node] = (uint8_t)(k < r->slots ? k : r->slots);
                for (unsigned i = 0; i < r->n_hops[at->node]; i++)
                    hops[i] = all[i];
                r->hops_key[at->node] = key + 1;
            }
            unsigned k = r->n_hops[at->node];
            for (unsigned i = 0; i < k && n < max; i++)
                out[n++] = ejects(e, hops[i].channel)
                               ? (struct dl_step){ DL_NONE, NONE, 0, 0, 0 }
                               : (struct dl_step){ hops[i].channel, hops[i].next, (uint16_t)e->E, (uint16_t)e->Vc,
                                                   aux_of(r, &q) };
        }
        if (!e->tie_seen)
            break;
    }
    e->forced_tie = -1;
    return n;
}

static unsigned next(void *self, uint32_t key, const struct dl_step *at, struct dl_step *out, unsigned max)
{
    return steps(self, key, at, out, max, false);
}

static unsigned escape_next(void *self, uint32_t key, const struct dl_step *at, struct dl_step *out, unsigned max)
{
    return steps(self, key, at, out, max, true);
}

static void destroy(void *self)
{
    struct iq_rel *r = self;
    iq_engine_free(r->e);
    free(r->hops);
    free(r->n_hops);
    free(r->hops_key);
    free(r);
}

bool iq_relation(const struct config *cfg, const struct topo *t, struct dl_relation *out)
{
    struct iq_rel *r = calloc(1, sizeof *r);
    struct iq_engine *e = calloc(1, sizeof *e);
    if (!r || !e) {
        free(r);
        free(e);
        return false;
    }
    r->e = e;
    r->paths = (struct path_selection){ route_select(cfg), NULL, t, NULL };
    e->env.cfg = cfg;
    e->env.topo = t;
    e->env.paths = &r->paths;
    if (!iq_route_tables(e, cfg)) {
        destroy(r);
        return false;
    }
    r->picks = e->selection == IQ_VALIANT ? iq_mid_picks(e) : 1;
    r->first_router = t->terminals == t->nodes ? 0 : t->terminals;
    if (e->selection == IQ_MOST_CREDITS || e->selection == IQ_RANDOM_MINIMAL) {
        r->slots = t->max_hops && t->max_hops < IQ_MINIMAL_HOPS_MAX ? t->max_hops : IQ_MINIMAL_HOPS_MAX;
        r->hops = malloc((size_t)t->nodes * r->slots * sizeof *r->hops);
        r->n_hops = malloc(t->nodes ? t->nodes : 1);
        r->hops_key = calloc(t->nodes ? t->nodes : 1, sizeof *r->hops_key);
        if (!r->hops || !r->n_hops || !r->hops_key) {
            destroy(r);
            return false;
        }
    }
    r->mid_in_aux = e->selection == IQ_VALIANT && e->router_net && t->ops->raises_vc_class && t->group_terminals;
    r->phases = e->selection == IQ_VALIANT ? 3 : 1;
    /* the dragonfly's class; the hops a hop-indexed route has taken (its classes, and one past the last) */
    r->classes = !e->router_net ? 1 : e->raising ? 3 : e->hop_indexed ? e->vc_classes + 1 : 1;
    bool per_hop = e->selection == IQ_MOST_CREDITS || e->selection == IQ_RANDOM_MINIMAL;
    const char *key = per_hop ? "routing.escape_vcs" : "routing.virtual_channels";
    if (e->selection == IQ_DIMENSION_ORDER && e->dateline_topology && e->Vc < 2)
        snprintf(r->fix, sizeof r->fix, "the fix: routing.virtual_channels = 2 (dateline classes break each ring's "
                 "cycle)");
    else if (e->selection == IQ_VALIANT)
        valiant_fix(cfg, t, r->fix, sizeof r->fix);
    else if (per_hop)
        escape_fix(cfg, t, r->fix, sizeof r->fix);
    else
        snprintf(r->fix, sizeof r->fix, "the fix: more virtual channels (routing.virtual_channels) or another "
                 "routing.algorithm");
    *out = (struct dl_relation){
        .vcs = e->Vc,
        .escape = e->E,
        .keys = t->terminals * r->picks,
        .sources = t->terminals,
        .aux_count = 2 * r->phases * r->classes * (r->mid_in_aux ? t->routers : 1),
        .by_node = per_hop && !e->router_net, /* iq_route_packet's escape hop on a lattice reads the node only */
        .fix = r->fix,
        .key = key,
        .self = r,
        .seeds = seeds,
        .next = next,
        .escape_next = per_hop && e->E ? escape_next : NULL,
        .destroy = destroy,
    };
    return true;
}
