/* The input-queued router on router networks (topo/routers.h: hyperx, fat-tree,
 * dragonfly): routes by the topology's canonical minimal hop, VC classes raised at the
 * channels the topology names (the dragonfly's global links), Valiant through a random
 * group, and UGAL-L's choice at the source's router.  Contract in iq.h. */
#include "iq.h"

#include <string.h>

#include "../sim/core/params.h"
#include "flit_params.h"
#include "routing.h"

#define NONE UINT32_MAX

/* How a router network's canonical route is made deadlock-free: it has no cyclic
 * dependency (HyperX, the fat tree: no classes), its class rises at the channels the
 * topology names (the dragonfly's global links: Kim et al.), or (every other network:
 * Slim Fly, graphs, a concentrated torus) the class is the number of router-to-router
 * hops taken so far, hop-indexed as Gopal's scheme and Besta & Hoefler's Slim Fly do. */
enum class_scheme { CLASSES_ACYCLIC, CLASSES_RAISED, CLASSES_HOPS };

static enum class_scheme scheme_of(const struct topo *t)
{
    return t->ops->raises_vc_class               ? CLASSES_RAISED
           : t->ops->traits & TOPO_MINIMAL_ACYCLIC ? CLASSES_ACYCLIC
                                                 : CLASSES_HOPS;
}

static bool follows_path(unsigned route)
{
    return (route & ROUTE_DETERMINISTIC) && !(route & ROUTE_DIMENSION_ORDER);
}

/* VC classes a route needs (per-hop routings: their escape route, the canonical one).
 * Raised: one per global link a route can cross, plus one.  Hop-indexed: the router
 * diameter, twice for Valiant's two phases (a class per hop of the whole route).
 * Acyclic: one, and Valiant's two phases one each.  up-down: one. */
static unsigned classes_needed(const struct topo *t, unsigned route)
{
    bool two_phases = route & (ROUTE_VALIANT | ROUTE_SOURCE_ADAPTIVE);
    unsigned hops = t->router_diameter ? t->router_diameter : 1;
    if (follows_path(route))
        return 1;
    switch (scheme_of(t)) {
    case CLASSES_RAISED:
        return two_phases ? 3 : 2;
    case CLASSES_HOPS:
        return two_phases ? 2 * hops : hops;
    case CLASSES_ACYCLIC:
        break;
    }
    return two_phases ? 2 : 1;
}

/* Escape VCs of a per-hop routing on a network whose canonical route needs classes:
 * routing.escape_vcs, or one VC per class of the escape route (-1). */
static int64_t escape_vcs(const struct config *cfg, const struct topo *t)
{
    int64_t set = flit_params_of(cfg)->escape_vcs;
    return set >= 0 ? set : classes_needed(t, 0);
}

/* adaptive-minimal and random-minimal where the escape route (the canonical minimal
 * one) needs classes: as escapes_fit() does on the acyclic ones, with a VC per class. */
static bool class_escapes_fit(const struct config *cfg, const struct topo *t, bool adaptive, struct cfg_error *err)
{
    int64_t escape = escape_vcs(cfg, t), least = classes_needed(t, 0);
    if ((escape > 0 || adaptive) && escape < least) {
        cfg_blame(cfg, "routing.escape_vcs", err, "%s on %s needs at least %lld escape VCs (%s) to be deadlock-free "
                  "(got %lld)", cfg->routing.algorithm, t->ops->name, (long long)least,
                  scheme_of(t) == CLASSES_RAISED ? "the minimal route's class raised at its global link"
                                                 : "a class per router-to-router hop of the diameter",
                  (long long)escape);
        return false;
    }
    return iq_escapes_released(cfg, escape, err) && adaptive_vc_left(cfg, escape, err);
}

bool iq_nets_check(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    unsigned route = route_select(cfg)->traits;
    enum class_scheme scheme = scheme_of(t);
    bool two_phases = route & (ROUTE_VALIANT | ROUTE_SOURCE_ADAPTIVE);
    bool per_hop = route & (ROUTE_ADAPTIVE | ROUTE_UNIFORM_SPLIT);
    if (per_hop) /* escape VCs on the canonical route (Duato) */
        return scheme == CLASSES_ACYCLIC ? escapes_fit(cfg, t, true, err)
                                         : class_escapes_fit(cfg, t, route & ROUTE_ADAPTIVE, err);
    if (!(route & ROUTE_DIMENSION_ORDER) && !two_phases && !follows_path(route)) {
        cfg_blame(cfg, "routing.algorithm", err, "on %s the iq router takes the canonical minimal route "
                  "(routing.algorithm = minimal%s), valiant, ugal, up-down, or adaptive-minimal and random-minimal "
                  "with escape VCs", t->ops->name, t->ops->traits & TOPO_NO_DIMENSIONS ? "" : " or ecube");
        return false;
    }
    int64_t vcs = flit_params_of(cfg)->virtual_channels, need = classes_needed(t, route);
    if (vcs < need) {
        const char *why = scheme == CLASSES_RAISED  ? "a class raised at each global link"
                          : scheme == CLASSES_HOPS ? (two_phases ? "a class per router-to-router hop of Valiant's two "
                                                                   "phases, twice the router diameter"
                                                                 : "a class per router-to-router hop of the diameter")
                                                   : "a class for each of Valiant's two phases";
        cfg_blame(cfg, "routing.virtual_channels", err, "%s on %s needs %lld virtual channels (%s) to be "
                  "deadlock-free (got %lld)", cfg->routing.algorithm, t->ops->name, (long long)need, why,
                  (long long)vcs);
        return false;
    }
    return true;
}

bool iq_nets_init(struct iq_engine *e, const struct config *cfg)
{
    const struct topo *t = e->env.topo;
    unsigned route = route_select(cfg)->traits;
    e->ugal = route & ROUTE_SOURCE_ADAPTIVE;
    bool per_hop = e->selection == IQ_MOST_CREDITS || e->selection == IQ_RANDOM_MINIMAL;
    e->vc_classes = classes_needed(t, per_hop ? 0 : route);
    e->raising = scheme_of(t) == CLASSES_RAISED;
    e->hop_indexed = scheme_of(t) == CLASSES_HOPS && !e->by_path;
    if (per_hop && scheme_of(t) != CLASSES_ACYCLIC)
        e->E = (uint32_t)escape_vcs(cfg, t);
    e->raises = calloc(t->channels ? t->channels : 1, 1);
    if (!e->raises)
        return false;
    for (uint32_t ch = 0; t->ops->raises_vc_class && ch < t->channels; ch++)
        e->raises[ch] = t->ops->raises_vc_class(t, ch);
    for (uint32_t ch = 0; e->hop_indexed && ch < t->channels; ch++) { /* router-to-router channels */
        uint32_t sender;
        t->ops->senders(t, ch, &sender, 1);
        e->raises[ch] = t->terminals == t->nodes || (sender >= t->terminals && e->chan_to[ch] >= t->terminals);
    }
    if (topo_sets_latencies(t)) {
        e->latency = malloc((t->channels ? t->channels : 1) * sizeof *e->latency);
        if (!e->latency)
            return false;
        for (uint32_t ch = 0; ch < t->channels; ch++) {
            unsigned d = t->ops->channel_latency(t, ch);
            e->latency[ch] = d ? d : e->L;
        }
    }
    if (t->terminals == t->nodes)
        return true;
    e->terminal_link = calloc(t->channels, 1);
    e->src_link = malloc((size_t)t->nodes * sizeof *e->src_link);
    if (!e->terminal_link || !e->src_link)
        return false;
    for (uint32_t v = 0; v < t->nodes; v++)
        e->src_link[v] = NONE;
    for (uint32_t ch = 0; ch < t->channels; ch++) {
        uint32_t sender;
        t->ops->senders(t, ch, &sender, 1);
        if (sender < t->terminals) { /* a terminal's only channel: its inject link */
            e->terminal_link[ch] = IQ_LINK_INJECT;
            e->src_link[sender] = ch;
        } else if (e->chan_to[ch] < t->terminals) {
            e->terminal_link[ch] = IQ_LINK_EJECT;
        }
    }
    return true;
}

/* The router a terminal hangs off (itself when routers are their own terminals). */
static uint32_t router_of(const struct topo *t, uint32_t terminal)
{
    if (t->terminals == t->nodes)
        return terminal;
    struct hop h;
    t->ops->neighbors(t, terminal, &h, 1);
    return h.next;
}

/* The group of router node r (groups of group_terminals terminals, router-major). */
static uint32_t group_of(const struct topo *t, uint32_t r)
{
    uint32_t per_router = t->terminals == t->nodes ? 1 : t->terminals / t->routers;
    uint32_t index = t->terminals == t->nodes ? r : r - t->terminals;
    return t->group_terminals ? index * per_router / t->group_terminals : index;
}

uint32_t iq_mid_picks(const struct iq_engine *e)
{
    const struct topo *t = e->env.topo;
    if (!e->router_net)
        return e->N;
    if (!t->ops->raises_vc_class || !t->group_terminals)
        return t->routers;
    return t->terminals / t->group_terminals;
}

/* Lattices: any node; the second phase at once when it is the source.  Router networks:
 * a random router, its own phase class after it; on the dragonfly Valiant's
 * intermediate group (Kim et al.): `mid` is the router where the canonical route from
 * the source's router enters it, so the route is local, global, [mid] local, global,
 * local: each class's local hops lead to a global link of the next class, which keeps 3
 * classes deadlock-free.  Drawing the source's own group keeps the minimal route. */
void iq_set_mid(const struct iq_engine *e, struct iq_packet *x, uint32_t pick)
{
    const struct topo *t = e->env.topo;
    if (!e->router_net) {
        x->mid = pick;
        x->phase = x->mid == x->src;
        return;
    }
    uint32_t source = router_of(t, x->src);
    if (!t->ops->raises_vc_class || !t->group_terminals) { /* a random router; its own phase class after it */
        x->mid = (t->terminals == t->nodes ? 0 : t->terminals) + pick;
        x->phase = x->mid == source ? 1 : e->ugal ? 2 : 0;
        return;
    }
    uint32_t per_router = t->terminals == t->nodes ? 1 : t->terminals / t->routers;
    uint32_t first_router = t->terminals == t->nodes ? 0 : t->terminals;
    uint32_t y = pick;
    x->mid = source;
    x->phase = 1;
    if (y == group_of(t, source))
        return;
    uint32_t target = first_router + y * (t->group_terminals / per_router);
    while (group_of(t, x->mid) != y) {
        struct hop h;
        t->ops->minimal_hops(t, x->mid, target, &h, 1);
        x->mid = h.next;
    }
    x->phase = e->ugal ? 2 : 0;
}

bool iq_router_net(const struct topo *t)
{
    return !(t->ops->traits & (TOPO_BINARY_HYPERCUBE | TOPO_KARY_NCUBE));
}

/* The draw on an engine holding only what iq_mid_picks and iq_set_mid read. */
static uint32_t valiant_mid(const struct topo *t, uint32_t src, uint32_t pick)
{
    struct iq_engine e = { .env.topo = t, .N = t->nodes, .router_net = iq_router_net(t) };
    struct iq_packet p = { .src = src };
    iq_set_mid(&e, &p, pick);
    return p.mid;
}

void iq_valiant_mids(const struct topo *t, struct valiant_mids *out)
{
    struct iq_engine e = { .env.topo = t, .N = t->nodes, .router_net = iq_router_net(t) };
    *out = (struct valiant_mids){ .picks = iq_mid_picks(&e),
                                  .by_source = e.router_net && t->ops->raises_vc_class && t->group_terminals,
                                  .mid = valiant_mid };
}

/* Flits held in the VCs of output channel ch's far end: the source router's queue
 * estimate for UGAL-L. */
static uint32_t queued(const struct iq_engine *e, uint32_t ch)
{
    uint32_t q = 0;
    for (uint32_t v = 0; v < e->V; v++)
        q += e->B - (uint32_t)e->ovc[ch * e->V + v].credits;
    return q;
}

void iq_nets_route(struct iq_engine *e, struct iq_input_vc *x, struct iq_packet *p, uint32_t node)
{
    const struct topo *t = e->env.topo;
    if (node == p->dst) {
        x->out_unit = e->C + node;
        x->vc_lo = 0;
        x->vc_hi = (uint16_t)e->Vc;
        return;
    }
    struct hop h;
    if (p->phase == 2 && node == router_of(t, p->src)) { /* UGAL-L: queue times hops, minimal on a tie */
        struct hop hm, hn;
        t->ops->minimal_hops(t, node, p->dst, &hm, 1);
        t->ops->minimal_hops(t, node, p->mid, &hn, 1);
        uint64_t minimal = (uint64_t)queued(e, hm.channel) * t->ops->distance(t, node, p->dst);
        uint64_t valiant = (uint64_t)queued(e, hn.channel) *
                           (t->ops->distance(t, node, p->mid) + t->ops->distance(t, p->mid, p->dst));
        p->phase = minimal <= valiant ? 1 : 0;
    }
    if (e->selection == IQ_MOST_CREDITS || e->selection == IQ_RANDOM_MINIMAL) {
        /* The canonical hop on the escape VCs [0, E); the request picks among the minimal
         * hops' adaptive VCs (iq_alloc.c: adaptive_choice). */
        t->ops->minimal_hops(t, node, p->dst, &h, 1);
        x->out_unit = h.channel;
        x->vc_lo = 0;
        x->vc_hi = (uint16_t)e->E;
        if (e->vc_classes > 1) { /* escape classes: the packet's class, counted on arrival (either kind of VC) */
            if (x->unit < e->C && e->raises[x->unit] && p->globals + 1u < e->vc_classes)
                p->globals++;
            uint32_t cls = p->globals + (e->raising && e->raises[h.channel]), width = e->E / e->vc_classes;
            cls = cls < e->vc_classes ? cls : e->vc_classes - 1;
            x->vc_lo = (uint16_t)(cls * width);
            x->vc_hi = (uint16_t)(cls + 1 == e->vc_classes ? e->E : (cls + 1) * width);
        }
        return;
    }
    bool to_mid = e->selection == IQ_VALIANT && p->phase == 0;
    if (to_mid && node == p->mid) {
        p->phase = 1;
        to_mid = false;
    }
    t->ops->minimal_hops(t, node, to_mid ? p->mid : p->dst, &h, 1);
    uint32_t cls;
    if (e->hop_indexed) { /* the router-to-router hops taken before this one, whichever phase */
        cls = p->globals < e->vc_classes ? p->globals : e->vc_classes - 1;
        if (e->raises[h.channel] && p->globals < e->vc_classes)
            p->globals++;
    } else {
        if (e->raises[h.channel] && p->globals + 1u < e->vc_classes)
            p->globals++;
        /* The class: global links crossed, or (no such links) Valiant's phase. */
        cls = e->raising ? p->globals : e->vc_classes > 1 && p->phase == 1;
    }
    uint32_t width = e->Vc / e->vc_classes;
    x->out_unit = h.channel;
    x->vc_lo = (uint16_t)(cls * width);
    x->vc_hi = (uint16_t)(cls + 1 == e->vc_classes ? e->Vc : (cls + 1) * width);
}

void iq_path_route(struct iq_engine *e, struct iq_input_vc *x, struct iq_packet *p, uint32_t node)
{
    x->vc_lo = 0;
    x->vc_hi = (uint16_t)e->Vc;
    if (node == p->dst) {
        x->out_unit = e->C + node;
        return;
    }
    x->out_unit = path_next(e->env.paths, node, p->dst).channel;
}
