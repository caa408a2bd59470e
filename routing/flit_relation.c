/* The simple router's routing relation for the static deadlock check
 * (deadlock_check.h; the router's contract in flit.h and flit_route.h).  Its three
 * routing modes, with the VC class arithmetic of vc_classes.h its path drawing uses:
 *  - paths drawn at creation (flit_source.c, flit_dor.c): each hop one of those the path
 *    selection may take (its split() when it draws, next() when deterministic, the
 *    topology's minimal hops when it chooses by history); on a torus with 2 VCs or more
 *    a hop's class is whether its dimension's wrap-around link is behind it (aux: those
 *    dimensions, a bit each);
 *  - Valiant: the engine's own hop (flit_valiant_hop, flit_route.c) to the intermediate
 *    node, then to the destination, class 2 * phase + dateline class (walk key:
 *    destination and intermediate node; aux: phase and dateline class);
 *  - per hop: every minimal hop's adaptive VCs [E, V) (as flit_per_hop_choice) and the
 *    engine's escape hop (flit_escape_hop, flit_route.c; on networks of routers
 *    flit_net_escape_hop, its class from the head's escape state, aux, stepped over
 *    every hop: flit_escape_classes): Duato's condition.
 * On networks of routers the drawn paths' and Valiant's classes are flit_classes.h's,
 * stepped by the function the router's path drawing calls (flit_class_step; aux: the
 * route's state, and Valiant's phase), Valiant by flit_net_valiant_hop (walk key:
 * destination and intermediate pick). */
#include <stdio.h>
#include <stdlib.h>

#include "deadlock_check.h"
#include "flit_classes.h"
#include "flit_params.h"
#include "flit_route.h"
#include "flit_setup.h"
#include "routing.h"
#include "vc_classes.h"

#define NONE UINT32_MAX
enum { HOPS_MAX = 64, MASK_DIMS = 12 };

enum mode { DRAWN, VALIANT, PER_HOP, NET_DRAWN, NET_VALIANT };

struct flit_rel {
    const struct topo *t;
    const struct route_ops *route;
    enum mode mode;
    uint32_t V, E, k, picks;
    bool dateline, both_ways, torus;
    struct flit_classes classes; /* NET_DRAWN, NET_VALIANT */
    struct flit_classes escape;  /* PER_HOP: the escape route's (rule NONE on lattices) */
    char fix[240];
};

static unsigned dimension(const struct flit_rel *r, uint32_t ch)
{
    return r->t->ops->channel_dimension ? r->t->ops->channel_dimension(r->t, ch) : 0;
}

static unsigned seeds(void *self, uint32_t key, uint32_t source, struct dl_step *out, unsigned max)
{
    struct flit_rel *r = self;
    (void)max;
    if (source == key / r->picks)
        return 0;
    uint32_t phase = r->mode == VALIANT && source == key % r->picks; /* the intermediate node is the source */
    out[0] = (struct dl_step){ DL_NONE, source, 0, 1, phase * 2 };
    return 1;
}

/* Drawn paths on a network of routers: any hop the path selection may draw, its class
 * from the route's state (aux). */
static unsigned net_drawn(const struct flit_rel *r, uint32_t dst, const struct dl_step *at, struct dl_step *out,
                          unsigned max)
{
    struct hop hops[HOPS_MAX];
    unsigned n;
    if (r->route->split)
        n = r->route->split(r->t, at->node, dst, hops, HOPS_MAX);
    else if (r->route->next)
        n = (hops[0] = r->route->next(r->t, at->node, dst, NULL), 1);
    else /* a choice by history: any minimal hop */
        n = r->t->ops->minimal_hops(r->t, at->node, dst, hops, HOPS_MAX);
    for (unsigned i = 0; i < n && i < max; i++) {
        uint32_t state = at->aux, lo, hi;
        uint32_t cls = flit_class_step(&r->classes, 0, &state, at->node, hops[i]);
        flit_classes_range(&r->classes, r->V, cls, &lo, &hi);
        out[i] = (struct dl_step){ hops[i].channel, hops[i].next, (uint16_t)lo, (uint16_t)hi, state };
    }
    return n < max ? n : max;
}

/* Valiant on a network of routers: aux = phase * states + the route's state. */
static unsigned net_valiant(const struct flit_rel *r, uint32_t key, const struct dl_step *at, struct dl_step *out)
{
    const struct flit_classes *c = &r->classes;
    uint32_t dst = key / r->picks, pick = key % r->picks, state = at->aux % c->states;
    unsigned phase = at->aux / c->states;
    if (phase == 0 && flit_net_valiant_turns(c, pick, at->node)) {
        phase = 1;
        state = c->rule == FLIT_CLASSES_GLOBAL ? state : 0;
    }
    if (phase == 1 && at->node == dst) {
        out[0] = (struct dl_step){ DL_NONE, NONE, 0, 0, 0 };
        return 1;
    }
    struct hop h = flit_net_valiant_hop(c, pick, phase, at->node, dst);
    uint32_t lo, hi, cls = flit_class_step(c, phase, &state, at->node, h);
    flit_classes_range(c, r->V, cls, &lo, &hi);
    out[0] = (struct dl_step){ h.channel, h.next, (uint16_t)lo, (uint16_t)hi, phase * c->states + state };
    return 1;
}

static unsigned drawn(const struct flit_rel *r, uint32_t dst, const struct dl_step *at, struct dl_step *out,
                      unsigned max)
{
    struct hop hops[HOPS_MAX];
    unsigned n;
    if (r->route->split)
        n = r->route->split(r->t, at->node, dst, hops, HOPS_MAX);
    else if (r->route->next)
        n = (hops[0] = r->route->next(r->t, at->node, dst, NULL), 1);
    else /* a choice by history: any minimal hop */
        n = r->t->ops->minimal_hops(r->t, at->node, dst, hops, HOPS_MAX);
    for (unsigned i = 0; i < n && i < max; i++) {
        uint32_t crossed = at->aux, lo = 0, hi = r->V;
        unsigned dim = 0;
        if (r->dateline && lattice_wraps(r->k, at->node, hops[i].next, &dim))
            crossed |= 1u << dim;
        if (r->dateline) {
            bool cls = crossed >> dim & 1;
            lo = cls ? r->V / 2 : 0;
            hi = cls ? r->V : r->V / 2;
        }
        out[i] = (struct dl_step){ hops[i].channel, hops[i].next, (uint16_t)lo, (uint16_t)hi, crossed };
    }
    return n < max ? n : max;
}

static unsigned valiant(const struct flit_rel *r, uint32_t key, const struct dl_step *at, struct dl_step *out)
{
    uint32_t dst = key / r->picks, mid = key % r->picks, phase = at->aux / 2;
    bool ahead = at->aux & 1;
    unsigned in_dim = at->channel == DL_NONE ? NONE : dimension(r, at->channel);
    if (phase == 0 && at->node == mid) { /* the second phase starts afresh */
        phase = 1;
        in_dim = NONE;
    }
    uint32_t target = phase ? dst : mid;
    if (at->node == target) {
        out[0] = (struct dl_step){ DL_NONE, NONE, 0, 0, 0 };
        return 1;
    }
    struct hop h = flit_valiant_hop(r->t, r->k, r->dateline, r->both_ways, at->node, target, &in_dim, &ahead);
    uint32_t lo, hi;
    valiant_vc_range(r->V, phase, r->dateline, ahead, &lo, &hi);
    out[0] = (struct dl_step){ h.channel, h.next, (uint16_t)lo, (uint16_t)hi, phase * 2 + ahead };
    return 1;
}

/* Per hop: on a network of routers with escape classes, aux is the head's escape state,
 * stepped over every hop, adaptive or escape (flit_route.c's escape_state). */
static unsigned per_hop(const struct flit_rel *r, uint32_t dst, const struct dl_step *at, struct dl_step *out,
                        unsigned max)
{
    const struct flit_classes *c = &r->escape;
    bool classes = c->rule != FLIT_CLASSES_NONE;
    struct hop hops[HOPS_MAX];
    unsigned n = r->t->ops->minimal_hops(r->t, at->node, dst, hops, HOPS_MAX), k = 0;
    for (unsigned i = 0; i < n && k + 1 < max; i++) {
        uint32_t state = at->aux;
        if (classes)
            flit_class_step(c, 0, &state, at->node, hops[i]);
        out[k++] = (struct dl_step){ hops[i].channel, hops[i].next, (uint16_t)r->E, (uint16_t)r->V, state };
    }
    uint32_t lo, hi, state = at->aux;
    struct hop h = classes ? flit_net_escape_hop(c, r->E, state, at->node, dst, &lo, &hi)
                           : flit_escape_hop(r->t, r->k, r->torus, r->E, at->node, dst, &lo, &hi);
    if (classes)
        flit_class_step(c, 0, &state, at->node, h);
    out[k++] = (struct dl_step){ h.channel, h.next, (uint16_t)lo, (uint16_t)hi, state };
    return k;
}

/* Per hop on a network of routers whose escape route needs classes: the fix when its
 * escape VCs are too few to hold them. */
static void net_escape_fix(const struct flit_rel *r, const char *why, char *buf, size_t size)
{
    uint32_t need = r->escape.classes;
    if (r->V > need)
        snprintf(buf, size, "the fix: routing.escape_vcs = %u (%s, on the canonical minimal route: Duato's "
                 "condition) or another routing.algorithm", need, why);
    else
        snprintf(buf, size, "the fix: routing.escape_vcs = %u with routing.virtual_channels = %u (%s on the "
                 "canonical minimal route, and an adaptive VC: Duato's condition) or another routing.algorithm",
                 need, need + 1, why);
}

static unsigned next(void *self, uint32_t key, const struct dl_step *at, struct dl_step *out, unsigned max)
{
    struct flit_rel *r = self;
    if (r->mode == VALIANT)
        return valiant(r, key, at, out);
    if (r->mode == NET_VALIANT)
        return net_valiant(r, key, at, out);
    uint32_t dst = key;
    if (at->node == dst) {
        out[0] = (struct dl_step){ DL_NONE, NONE, 0, 0, 0 };
        return 1;
    }
    return r->mode == PER_HOP    ? per_hop(r, dst, at, out, max)
           : r->mode == NET_DRAWN ? net_drawn(r, dst, at, out, max)
                                  : drawn(r, dst, at, out, max);
}

static void destroy(void *self) { free(self); }

bool flit_relation(const struct config *cfg, const struct topo *t, struct dl_relation *out)
{
    struct flit_rel *r = calloc(1, sizeof *r);
    if (!r)
        return false;
    const struct flit_params *fp = flit_params_of(cfg);
    r->t = t;
    r->route = route_select(cfg);
    r->mode = r->route->traits & ROUTE_VALIANT ? VALIANT : flit_routes_per_hop(cfg) ? PER_HOP : DRAWN;
    r->V = (uint32_t)fp->virtual_channels;
    bool kary = t->ops->traits & TOPO_KARY_NCUBE;
    r->k = kary ? t->lattice.radix : 2;
    r->torus = kary && t->lattice.wrap;
    r->dateline = r->torus && r->V >= 2;
    r->both_ways = !kary || t->lattice.both_ways;
    r->picks = r->mode == VALIANT ? t->nodes : 1;
    const char *why = "";
    uint32_t need = r->mode == PER_HOP ? 0 : flit_classes_needed(t, r->route, &why);
    if (need) { /* a network of routers whose routes take classes of flit_classes.h */
        flit_classes_select(t, r->route, r->V, &r->classes);
        if (r->classes.rule != FLIT_CLASSES_NONE)
            r->mode = r->mode == VALIANT ? NET_VALIANT : NET_DRAWN;
    }
    uint32_t aux = 1;
    if (r->mode == DRAWN && r->dateline)
        aux = t->dimension <= MASK_DIMS ? 1u << t->dimension : 0;
    else if (r->mode == VALIANT)
        aux = 4;
    else if (r->mode == PER_HOP) {
        flit_escape_classes(t, &r->escape);
        aux = r->escape.rule == FLIT_CLASSES_NONE ? 1 : r->escape.states > 1u << MASK_DIMS ? 0 : r->escape.states;
    } else if (r->mode == NET_DRAWN || r->mode == NET_VALIANT)
        aux = r->classes.states > 1u << MASK_DIMS ? 0 : r->classes.states * (r->mode == NET_VALIANT ? 2 : 1);
    if (r->mode == NET_VALIANT)
        r->picks = r->classes.picks;
    const char *key = "routing.virtual_channels";
    if (need && r->V < need) {
        struct flit_classes want;
        flit_classes_select(t, r->route, UINT32_MAX, &want);
        if (need > FLIT_MAX_CLASSES) { /* more than routing.virtual_channels can be */
            snprintf(r->fix, sizeof r->fix, "the fix: routing.algorithm = up-down (its routes need no classes, "
                     "where these would need %u virtual channels: %s)", need, why);
            key = "routing.algorithm";
        } else
            snprintf(r->fix, sizeof r->fix, "the fix: routing.virtual_channels = %u (%s)%s", need, why,
                     want.rule == FLIT_CLASSES_HOPS && !want.valiant
                         ? ", or routing.algorithm = up-down (its routes need no classes)"
                         : "");
    } else if (need) { /* the classes order minimal routes by dimension, not any minimal route */
        snprintf(r->fix, sizeof r->fix, "the fix: routing.algorithm = minimal (%s order its dimension-order "
                 "routes), or routing.deadlock = recover", why);
        key = "routing.algorithm";
    } else if (r->mode == PER_HOP) {
        r->E = (uint32_t)flit_escape_vcs(cfg, t);
        key = "routing.escape_vcs";
        if (r->escape.rule != FLIT_CLASSES_NONE) {
            const char *canonical_why;
            flit_classes_needed(t, &(struct route_ops){ .name = "minimal" }, &canonical_why);
            net_escape_fix(r, canonical_why, r->fix, sizeof r->fix);
        } else
            escape_fix(cfg, t, r->fix, sizeof r->fix);
    } else if (r->mode == VALIANT) {
        valiant_fix(cfg, t, r->fix, sizeof r->fix);
    } else if ((r->route->traits & ROUTE_DIMENSION_ORDER) && t->kind == CHANNEL_HALF_DUPLEX) {
        snprintf(r->fix, sizeof r->fix, "the fix: full-duplex links (network.links = full-duplex: a half-duplex "
                 "link serves both directions)");
        key = "network.links";
    } else if (r->torus && r->V < 2 && (r->route->traits & ROUTE_DIMENSION_ORDER)) {
        snprintf(r->fix, sizeof r->fix, "the fix: routing.virtual_channels = 2 (dateline classes break each ring's "
                 "cycle)");
    } else if (r->route->traits & ROUTE_DIMENSION_ORDER) {
        snprintf(r->fix, sizeof r->fix, "the fix: another routing.algorithm or network (the simple router splits "
                 "its VCs into classes only at a torus's dateline), or routing.deadlock = recover");
        key = "routing.algorithm";
    } else {
        snprintf(r->fix, sizeof r->fix, "the fix: escape VCs (routing.escape_vcs >= 1: Duato's condition), "
                 "routing.algorithm = ecube, or routing.deadlock = recover");
        key = "routing.algorithm";
    }
    if (!aux) { /* more torus dimensions than the walk keeps classes for: no relation to walk */
        free(r);
        return false;
    }
    *out = (struct dl_relation){
        .vcs = r->V,
        .escape = r->E,
        .keys = t->terminals * r->picks,
        .sources = t->terminals,
        .aux_count = aux,
        .by_node = r->mode != VALIANT, /* drawn() and per_hop() read the node and aux only */
        .fix = r->fix,
        .key = key,
        .self = r,
        .seeds = seeds,
        .next = next,
        .destroy = destroy,
    };
    return true;
}
