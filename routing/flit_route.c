/* The simple router's routing beyond oblivious paths (contract in flit.h and
 * flit_route.h): Valiant's two phases, drawn when the message is created, and per-hop
 * routing with escape VCs (adaptive-minimal; random-minimal with routing.escape_vcs >=
 * 1), where a waiting header chooses its channel each cycle until it is granted.  It
 * decides only: the cycle (flit_cycle.c) queues and grants, so this file calls no other
 * flit file. */
#include "flit_route.h"

#include "flit.h"
#include "vc_classes.h"

enum { MINIMAL_HOPS_MAX = 64 };

static void fail(struct flit_engine *e) { kernel_request_stop(e->env.kernel, KERNEL_FAILED); }

/* Digit `dim` of node on a k-ary n-cube of radix k. */
static uint32_t digit(uint32_t k, uint32_t node, unsigned dim)
{
    for (unsigned i = 0; i < dim; i++)
        node /= k;
    return node % k;
}

/* Whether hop h from `at` toward target still has the wrap-around link of its
 * dimension ahead (dateline: a torus), and that dimension. */
static bool ahead_of_dateline(const struct topo *t, uint32_t k, bool dateline, uint32_t at, uint32_t target,
                              struct hop h, unsigned *dim)
{
    *dim = t->ops->channel_dimension(t, h.channel);
    return dateline && dateline_ahead(k, digit(k, at, *dim), digit(k, target, *dim), digit(k, h.next, *dim));
}

struct hop flit_valiant_hop(const struct topo *t, uint32_t k, bool dateline, bool both_ways, uint32_t at,
                            uint32_t target, unsigned *in_dim, bool *ahead)
{
    struct hop h;
    t->ops->minimal_hops(t, at, target, &h, 1);
    unsigned dim;
    bool now = ahead_of_dateline(t, k, dateline, at, target, h, &dim);
    if (dim != *in_dim || !both_ways)
        *ahead = now;
    *in_dim = dim;
    return h;
}

struct hop flit_escape_hop(const struct topo *t, uint32_t k, bool dateline, uint32_t E, uint32_t node, uint32_t dst,
                           uint32_t *lo, uint32_t *hi)
{
    struct hop h;
    t->ops->minimal_hops(t, node, dst, &h, 1);
    unsigned dim;
    bool ahead = dateline && ahead_of_dateline(t, k, dateline, node, dst, h, &dim);
    escape_vc_range(E, dateline, ahead, lo, hi);
    return h;
}

/* --- Valiant --- */

/* On a network of routers (flit_classes.h): to a router (the dragonfly: a group) drawn
 * uniformly from the source's routing stream, by the canonical minimal hop, then to the
 * destination; the classes of the network's rule. */
static bool net_valiant_path(struct flit_engine *e, struct worm *x, struct message *msg)
{
    const struct flit_classes *c = &e->classes;
    uint32_t pick = (uint32_t)rng_below(&e->env.rng_route[msg->src], c->picks);
    uint32_t at = msg->src, h = 0, state = 0;
    unsigned phase = 0;
    for (;;) {
        if (phase == 0 && flit_net_valiant_turns(c, pick, at)) {
            phase = 1;
            state = c->rule == FLIT_CLASSES_GLOBAL ? state : 0;
        }
        if (phase == 1 && at == msg->dst)
            break;
        if (h == e->max_hops) { /* two minimal phases never get here */
            fail(e);
            return false;
        }
        struct hop hop = flit_net_valiant_hop(c, pick, phase, at, msg->dst);
        x->hop[h].channel = hop.channel;
        x->to[h] = hop.next;
        x->hop[h].cls = (uint8_t)flit_class_step(c, phase, &state, at, hop);
        x->hop[h].sent = 0;
        at = hop.next;
        h++;
    }
    x->hops = h;
    msg->hops = h;
    return true;
}

/* Dimension order to an intermediate node drawn uniformly from the source's routing
 * stream, then to the destination.  Class: phase * 2 + dateline class; on a torus the
 * dateline class is fixed on entering a dimension (recomputed every hop on one-way
 * rings), and the second phase starts afresh at the intermediate node, as on the iq
 * router.  Networks of routers with classes of their own: net_valiant_path(). */
bool flit_valiant_path(struct flit_engine *e, struct worm *x, struct message *msg)
{
    if (e->classes.rule != FLIT_CLASSES_NONE)
        return net_valiant_path(e, x, msg);
    uint32_t mid = (uint32_t)rng_below(&e->env.rng_route[msg->src], e->env.topo->nodes);
    uint32_t at = msg->src, h = 0;
    for (unsigned phase = 0; phase < 2; phase++) {
        uint32_t target = phase ? msg->dst : mid;
        unsigned in_dim = UINT32_MAX;
        bool ahead = false;
        while (at != target) {
            if (h == e->max_hops) { /* two minimal phases never get here */
                fail(e);
                return false;
            }
            struct hop hop = flit_valiant_hop(e->env.topo, e->radix, e->dateline, e->both_ways, at, target, &in_dim,
                                              &ahead);
            x->hop[h].channel = hop.channel;
            x->to[h] = hop.next;
            x->hop[h].cls = (uint8_t)(2 * phase + ahead);
            x->hop[h].sent = 0;
            at = hop.next;
            h++;
        }
    }
    x->hops = h;
    msg->hops = h;
    return true;
}

/* --- per-hop routing --- */

bool flit_per_hop_path(struct flit_engine *e, struct worm *x, struct message *msg)
{
    uint32_t hops = e->env.topo->ops->distance(e->env.topo, msg->src, msg->dst);
    if (hops > e->max_hops) {
        fail(e);
        return false;
    }
    for (uint32_t h = 0; h < hops; h++)
        x->hop[h].sent = 0;
    x->hops = hops;
    msg->hops = hops;
    return true;
}

static uint32_t header_node(const struct worm *x) { return x->acquired ? x->to[x->acquired - 1] : x->src; }

/* On a network of routers with escape classes: the escape state of x's header, every
 * hop it has been granted stepped as the escape route's classes count them (Duato: a
 * head that took adaptive hops asks for the escape class those hops lead to). */
static uint32_t escape_state(const struct flit_engine *e, const struct worm *x)
{
    uint32_t state = 0, at = x->src;
    for (uint32_t i = 0; i < x->acquired; i++) {
        struct hop h = { x->hop[i].channel, x->to[i] };
        flit_class_step(&e->escape, 0, &state, at, h);
        at = h.next;
    }
    return state;
}

/* The escape hop of x's header at `node` toward dst: dimension order and its dateline
 * class on a lattice, the canonical minimal hop and its class on a network of routers. */
static struct vc_option escape_option(const struct flit_engine *e, const struct worm *x, uint32_t node, uint32_t dst,
                                      struct hop *h)
{
    struct vc_option o;
    if (e->escape.rule != FLIT_CLASSES_NONE)
        *h = flit_net_escape_hop(&e->escape, e->E, escape_state(e, x), node, dst, &o.lo, &o.hi);
    else
        *h = flit_escape_hop(e->env.topo, e->radix, e->dateline, e->E, node, dst, &o.lo, &o.hi);
    o.channel = h->channel;
    return o;
}

/* The holders of channel ch's VCs in x's VC set, indexed as the routing counts them
 * ([0, V): the class offset of routing.class_vcs is applied here and nowhere else). */
static const uint32_t *set_owner(const struct flit_engine *e, const struct worm *x, uint32_t ch)
{
    return flit_owner(e, ch) + x->vc_base;
}

static uint32_t lowest_free(const struct flit_engine *e, const struct worm *x, uint32_t ch, uint32_t lo, uint32_t hi)
{
    for (uint32_t v = lo; v < hi; v++)
        if (set_owner(e, x, ch)[v] == MSG_NONE)
            return v;
    return MSG_NONE;
}

/* The header of x asks: the minimal hop with the most free adaptive VCs (or any with
 * one, random-minimal), ties from the routing stream of its node; else the escape VCs
 * of the escape hop (escape_option).  Its choice: the lowest free VC of that hop, if any. */
bool flit_per_hop_choice(struct flit_engine *e, const struct worm *x, struct hop *chosen, uint32_t *vc)
{
    const struct topo *t = e->env.topo;
    uint32_t node = header_node(x), dst = e->env.pool->msgs[x->msg].dst;
    struct hop hops[MINIMAL_HOPS_MAX];
    unsigned n = t->ops->minimal_hops(t, node, dst, hops, MINIMAL_HOPS_MAX);
    struct rng *r = &e->env.rng_route[node];
    uint32_t best = MSG_NONE, best_vc = MSG_NONE, ties = 0, best_free = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t free = 0, lowest = MSG_NONE;
        for (uint32_t v = e->E; v < e->V; v++)
            if (set_owner(e, x, hops[i].channel)[v] == MSG_NONE) {
                lowest = lowest == MSG_NONE ? v : lowest;
                free++;
            }
        if (!free)
            continue;
        if (!e->most_free)
            free = 1;
        if (best == MSG_NONE || free > best_free) {
            best = i;
            best_vc = lowest;
            best_free = free;
            ties = 1;
        } else if (free == best_free && rng_below(r, ++ties) == 0) {
            best = i;
            best_vc = lowest;
        }
    }
    struct hop h;
    if (best != MSG_NONE) {
        h = hops[best];
    } else {
        struct vc_option o = escape_option(e, x, node, dst, &h);
        best_vc = lowest_free(e, x, o.channel, o.lo, o.hi);
        if (best_vc == MSG_NONE)
            return false;
    }
    *chosen = h;
    *vc = best_vc + x->vc_base;
    return true;
}

unsigned flit_vc_options(const struct flit_engine *e, const struct worm *x, struct vc_option *out, unsigned max)
{
    if (e->routing != FLIT_PER_HOP) {
        uint32_t cls = x->hop[x->acquired].cls;
        out[0] = (struct vc_option){ x->hop[x->acquired].channel, e->class_lo[cls] + x->vc_base,
                                     e->class_hi[cls] + x->vc_base };
        return 1;
    }
    const struct topo *t = e->env.topo;
    uint32_t node = header_node(x), dst = e->env.pool->msgs[x->msg].dst;
    struct hop hops[MINIMAL_HOPS_MAX], h;
    unsigned n = t->ops->minimal_hops(t, node, dst, hops, MINIMAL_HOPS_MAX), k = 0;
    for (unsigned i = 0; i < n && k + 1 < max; i++)
        out[k++] = (struct vc_option){ hops[i].channel, e->E + x->vc_base, e->V + x->vc_base };
    out[k] = escape_option(e, x, node, dst, &h);
    out[k].lo += x->vc_base;
    out[k].hi += x->vc_base;
    return k + 1;
}
