/* The simple router's VC classes on networks of routers (contract in flit_classes.h). */
#include "flit_classes.h"

#include <string.h>

#include "vc_classes.h"

/* The rule and its class counts, whatever the VCs. */
static void rule_of(const struct topo *t, const struct route_ops *route, struct flit_classes *c)
{
    memset(c, 0, sizeof *c);
    c->t = t;
    c->valiant = route->traits & ROUTE_VALIANT;
    if (!(t->ops->traits & TOPO_NO_DIMENSIONS)) /* lattices, HyperX, the seeds' other networks */
        return;
    if (!c->valiant && route->max_route_hops) /* up-down: its own routes have no cycle */
        return;
    uint32_t first = 0;
    const struct topo *lattice = topo_router_lattice(t, &first);
    bool rings = lattice && lattice->lattice.wrap && lattice->lattice.radix > 2;
    if (c->valiant && t->ops->channel_dimension && !rings)
        return; /* HyperX, concentrated meshes: dimension-order phases (vc_classes.h) */
    c->first_router = t->terminals == t->nodes ? 0 : t->terminals;
    c->picks = t->routers;
    if (rings) {
        c->rule = FLIT_CLASSES_DATELINE;
        c->lattice = lattice;
        c->radix = lattice->lattice.radix;
        c->per_phase = 2;
        c->states = lattice->dimension < 31 ? 1u << lattice->dimension : 0;
    } else if (t->ops->raises_vc_class && t->group_terminals) {
        c->rule = FLIT_CLASSES_GLOBAL;
        c->per_phase = c->states = c->valiant ? 3 : 2;
        c->picks = t->terminals / t->group_terminals; /* groups */
    } else if (t->ops->traits & TOPO_MINIMAL_ACYCLIC) {
        if (!c->valiant)
            return;
        c->rule = FLIT_CLASSES_PHASE;
        c->per_phase = c->states = 1;
    } else {
        c->rule = FLIT_CLASSES_HOPS;
        c->per_phase = t->router_diameter ? t->router_diameter : 1;
        c->states = c->per_phase + 1;
    }
    c->classes = c->rule == FLIT_CLASSES_GLOBAL ? c->per_phase : c->per_phase * (c->valiant ? 2 : 1);
}

void flit_classes_select(const struct topo *t, const struct route_ops *route, uint32_t V, struct flit_classes *c)
{
    rule_of(t, route, c);
    if (c->rule != FLIT_CLASSES_NONE && !c->valiant && V < c->classes)
        c->rule = FLIT_CLASSES_NONE;
}

uint32_t flit_classes_needed(const struct topo *t, const struct route_ops *route, const char **why)
{
    struct flit_classes c;
    rule_of(t, route, &c);
    static const char *const reasons[][2] = {
        [FLIT_CLASSES_NONE] = { "", "" },
        [FLIT_CLASSES_GLOBAL] = { "a class raised at each global link: Kim et al. 2008",
                                  "a class raised at each of Valiant's two global links: Kim et al. 2008" },
        [FLIT_CLASSES_HOPS] = { "a class per router hop of the diameter: Besta & Hoefler 2014",
                                "a class per router hop of the diameter in each of Valiant's two phases" },
        [FLIT_CLASSES_DATELINE] = { "two dateline classes on the lattice of routers",
                                    "two dateline classes in each of Valiant's two phases" },
        [FLIT_CLASSES_PHASE] = { "a class per phase", "a class for each of Valiant's two phases" },
    };
    *why = reasons[c.rule][c.valiant];
    return c.classes;
}

void flit_classes_range(const struct flit_classes *c, uint32_t V, uint32_t cls, uint32_t *lo, uint32_t *hi)
{
    if (cls >= c->classes) {
        *lo = 0;
        *hi = V;
        return;
    }
    uint32_t width = V / c->classes;
    *lo = cls * width;
    *hi = cls + 1 == c->classes ? V : (cls + 1) * width;
}

uint32_t flit_class_step(const struct flit_classes *c, unsigned phase, uint32_t *state, uint32_t at, struct hop h)
{
    const struct topo *t = c->t;
    if (t->terminals < t->nodes && (at < t->terminals || h.next < t->terminals))
        return c->classes; /* a terminal link */
    switch (c->rule) {
    case FLIT_CLASSES_GLOBAL:
        if (t->ops->raises_vc_class(t, h.channel) && *state + 1 < c->per_phase)
            ++*state;
        return *state;
    case FLIT_CLASSES_HOPS: {
        uint32_t cls = *state < c->per_phase ? *state : c->per_phase - 1;
        if (*state + 1 < c->states)
            ++*state;
        return phase * c->per_phase + cls;
    }
    case FLIT_CLASSES_DATELINE: {
        unsigned dim = 0;
        if (lattice_wraps(c->radix, at - c->first_router, h.next - c->first_router, &dim))
            *state |= 1u << dim;
        return phase * 2 + (*state >> dim & 1);
    }
    case FLIT_CLASSES_PHASE:
        return phase;
    default:
        return 0;
    }
}

/* Routers per group (the dragonfly's groups: picks of them). */
static uint32_t group_routers(const struct flit_classes *c) { return c->t->routers / c->picks; }

bool flit_net_valiant_turns(const struct flit_classes *c, uint32_t pick, uint32_t at)
{
    if (at < c->first_router)
        return false; /* a terminal */
    if (c->rule == FLIT_CLASSES_GLOBAL)
        return (at - c->first_router) / group_routers(c) == pick;
    return at == c->first_router + pick;
}

struct hop flit_net_valiant_hop(const struct flit_classes *c, uint32_t pick, unsigned phase, uint32_t at,
                                uint32_t dst)
{
    uint32_t target = phase                              ? dst
                      : c->rule == FLIT_CLASSES_GLOBAL ? c->first_router + pick * group_routers(c)
                                                         : c->first_router + pick;
    struct hop h;
    c->t->ops->minimal_hops(c->t, at, target, &h, 1);
    return h;
}

void flit_escape_classes(const struct topo *t, struct flit_classes *c)
{
    static const struct route_ops canonical_minimal = { .name = "minimal" }; /* one phase, any minimal route */
    rule_of(t, &canonical_minimal, c);
}

struct hop flit_net_escape_hop(const struct flit_classes *c, uint32_t E, uint32_t state, uint32_t at, uint32_t dst,
                               uint32_t *lo, uint32_t *hi)
{
    struct hop h;
    c->t->ops->minimal_hops(c->t, at, dst, &h, 1);
    *lo = 0;
    *hi = E;
    if (c->rule != FLIT_CLASSES_NONE && E >= c->classes)
        flit_classes_range(c, E, flit_class_step(c, 0, &state, at, h), lo, hi);
    return h;
}
