/* The simple router's VC classes on networks of routers (routing.router = simple,
 * wormhole and cut-through): the dragonfly, Slim Fly, graphs, the fat tree's Valiant
 * and the concentrated torus.  The lattices' own dateline classes are vc_classes.h's.
 *
 * Promise: one arithmetic for the router's path drawing (flit_source.c, flit_route.c)
 * and for the static deadlock check's relation (flit_relation.c), so that the check
 * proves the classes the router gives.  A route's hops take classes 0..classes-1, each
 * the VCs [lo, hi) of flit_classes_range() (virtual_channels split evenly, the last
 * class taking the remainder); a terminal link (injection, ejection) takes class
 * `classes`, every VC: nothing waits on an injection channel and an ejection channel
 * waits on nothing, so they close no cycle.  The rules, each with the reason its
 * classes are acyclic:
 *  - GLOBAL (the dragonfly: Kim, Dally, Scott & Abts, ISCA 2008): the class is the
 *    number of global links crossed, the crossing hop included; minimal routes (local,
 *    global, local) take 2 classes, Valiant's (local, global, local, global, local) 3.
 *    Each class's local hops lead to a global link of the next class or out.
 *  - HOPS (Slim Fly, graphs: Besta & Hoefler, SC 2014, one VC per hop): the class is
 *    the router hops taken before this one in the route's phase, so classes rise along
 *    every route; minimal routes need the router diameter, Valiant twice that.
 *  - DATELINE (a concentrated torus): per phase, whether the path has crossed the
 *    wrap-around link of the hop's dimension of the lattice of routers (the crossing
 *    hop included): the lattice's dateline classes, seen through the concentration.
 *  - PHASE (Valiant where the minimal route is acyclic: the fat tree): one class per
 *    phase.
 * A route's state (a uint32_t, < states) starts at 0 at its source and, except for
 * GLOBAL, again at Valiant's intermediate router; flit_class_step() gives a hop's
 * class and the state after it.  Valiant here goes to a random router (the dragonfly:
 * to a random group, entered where the canonical route from the source's router
 * toward the group's first router enters it, as on the iq router), by the canonical
 * minimal hop, then on to the destination: flit_net_valiant_hop(), memoryless given
 * the pick, the phase and the node.
 * Needs: topo (and topo_router_lattice), routing.h.
 */
#ifndef ROUTING_FLIT_CLASSES_H
#define ROUTING_FLIT_CLASSES_H

#include <stdbool.h>
#include <stdint.h>

#include "../topo/topo.h"
#include "routing.h"

enum flit_class_rule { FLIT_CLASSES_NONE, FLIT_CLASSES_GLOBAL, FLIT_CLASSES_HOPS, FLIT_CLASSES_DATELINE,
                       FLIT_CLASSES_PHASE };

/* At most this many classes are given (virtual_channels is at most 64); one more is the
 * terminal links' class. */
enum { FLIT_MAX_CLASSES = 64 };

struct flit_classes {
    enum flit_class_rule rule;
    bool valiant;
    uint32_t per_phase;    /* classes of a phase (GLOBAL: of the whole route) */
    uint32_t classes;      /* the route's classes: the VCs it needs */
    uint32_t states;       /* values of a route's state within a phase */
    const struct topo *t;
    const struct topo *lattice; /* DATELINE: the lattice of routers, router r at node first_router + r */
    uint32_t first_router, radix;
    uint32_t picks;        /* Valiant: intermediate choices (routers, or the dragonfly's groups) */
};

/* The classes the simple router gives `route` on t: rule NONE on every family with
 * dimensions of its own (the lattices, whose dateline classes are vc_classes.h's,
 * HyperX, the seeds' hierarchical networks), on routes that need none (a fat tree's or
 * a concentrated mesh's minimal route, up-down, a concentrated mesh's Valiant, which
 * keeps its dimension-order phases) and, for a path drawn at creation, when the
 * virtual_channels V are fewer than its classes (one class: the static check then
 * refuses a cycle, naming flit_classes_needed()).  Valiant keeps its rule with too few
 * VCs: the engine's check refuses it first. */
void flit_classes_select(const struct topo *t, const struct route_ops *route, uint32_t V, struct flit_classes *c);
/* The classes `route` would need on t, and why, whatever V (0 when none): for messages. */
uint32_t flit_classes_needed(const struct topo *t, const struct route_ops *route, const char **why);

/* The VCs [lo, hi) of class cls (cls == c->classes: every VC). */
void flit_classes_range(const struct flit_classes *c, uint32_t V, uint32_t cls, uint32_t *lo, uint32_t *hi);
/* The class of hop h from node `at` in Valiant's phase `phase` (0 for a minimal route)
 * and *state after it. */
uint32_t flit_class_step(const struct flit_classes *c, unsigned phase, uint32_t *state, uint32_t at, struct hop h);
/* Valiant: whether `at` is pick's intermediate router, where phase 1 begins (and a
 * route's state starts again, but for GLOBAL). */
bool flit_net_valiant_turns(const struct flit_classes *c, uint32_t pick, uint32_t at);
/* Valiant's hop from `at` (phase 0: toward pick's intermediate router, not yet at it;
 * phase 1: toward dst != at): the topology's canonical minimal hop. */
struct hop flit_net_valiant_hop(const struct flit_classes *c, uint32_t pick, unsigned phase, uint32_t at,
                                uint32_t dst);

/* Per-hop routing (adaptive-minimal, random-minimal with escape VCs) on a network of
 * routers: the classes of its escape route, the canonical minimal one, by the rules
 * above (GLOBAL on the dragonfly, HOPS on Slim Fly and graphs, DATELINE on a
 * concentrated torus; NONE where that route has no cyclic dependency: HyperX's
 * dimension order, the fat tree, a concentrated mesh, and on every lattice, whose
 * escapes are vc_classes.h's).  A head's state counts every hop it has taken, adaptive
 * or escape (flit_class_step on each), so its escape class is always one the escape
 * route could have reached (Duato). */
void flit_escape_classes(const struct topo *t, struct flit_classes *c);
/* The escape hop from `at` toward dst (the canonical minimal hop) of a head in escape
 * state `state`, and its VCs [lo, hi) of the E escape VCs: its class's share when E
 * holds every class, else all E (one class: the static check then refuses a cycle). */
struct hop flit_net_escape_hop(const struct flit_classes *c, uint32_t E, uint32_t state, uint32_t at, uint32_t dst,
                               uint32_t *lo, uint32_t *hi);

#endif
