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

/* VC classes a selection needs.  Where channels raise a packet's class (the
 * dragonfly): one per global link a route can cross, plus one.  Elsewhere the canonical
 * route needs one, and Valiant's two phases one each. */
static unsigned classes_needed(bool raises, bool two_phases)
{
    return raises ? (two_phases ? 3 : 2) : two_phases ? 2 : 1;
}

bool iq_nets_check(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    unsigned route = route_select(cfg)->traits;
    bool raises = t->ops->raises_vc_class != NULL;
    bool two_phases = route & (ROUTE_VALIANT | ROUTE_SOURCE_ADAPTIVE);
    bool per_hop = route & (ROUTE_ADAPTIVE | ROUTE_UNIFORM_SPLIT);
    if (per_hop && !raises) /* escape VCs on the canonical route, which is acyclic here (Duato) */
        return escapes_fit(cfg, t, true, err);
    if (!(route & ROUTE_DIMENSION_ORDER) && !two_phases) {
        cfg_blame(cfg, "routing.algorithm", err, "on %s the iq router takes the canonical minimal route "
                  "(routing.algorithm = minimal%s), valiant or ugal%s", t->ops->name,
                  t->ops->traits & TOPO_NO_DIMENSIONS ? "" : " or ecube",
                  raises ? "" : ", or adaptive-minimal and random-minimal with escape VCs");
        return false;
    }
    int64_t vcs = flit_params_of(cfg)->virtual_channels, need = classes_needed(raises, two_phases);
    if (vcs < need) {
        cfg_blame(cfg, "routing.virtual_channels", err, "%s on %s needs %lld virtual channels (%s) to be "
                  "deadlock-free (got %lld)", cfg->routing.algorithm, t->ops->name, (long long)need,
                  raises ? "a class raised at each global link" : "a class for each of Valiant's two phases",
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
    e->vc_classes = classes_needed(t->ops->raises_vc_class != NULL, route & (ROUTE_VALIANT | ROUTE_SOURCE_ADAPTIVE));
    e->raising = t->ops->raises_vc_class != NULL;
    e->raises = calloc(t->channels ? t->channels : 1, 1);
    if (!e->raises)
        return false;
    for (uint32_t ch = 0; t->ops->raises_vc_class && ch < t->channels; ch++)
        e->raises[ch] = t->ops->raises_vc_class(t, ch);
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
        x->vc_hi = (uint16_t)e->V;
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
        return;
    }
    bool to_mid = e->selection == IQ_VALIANT && p->phase == 0;
    if (to_mid && node == p->mid) {
        p->phase = 1;
        to_mid = false;
    }
    t->ops->minimal_hops(t, node, to_mid ? p->mid : p->dst, &h, 1);
    if (e->raises[h.channel] && p->globals + 1u < e->vc_classes)
        p->globals++;
    /* The class: global links crossed, or (no such links) Valiant's phase. */
    uint32_t cls = e->raising ? p->globals : e->vc_classes > 1 && p->phase == 1, width = e->V / e->vc_classes;
    x->out_unit = h.channel;
    x->vc_lo = (uint16_t)(cls * width);
    x->vc_hi = (uint16_t)(cls + 1 == e->vc_classes ? e->V : (cls + 1) * width);
}
