/* The simple router's routing beyond paths drawn from the path selection
 * (routing/flit_route.c): Valiant's two phases and per-hop routing with escape VCs.
 *
 * Promise: decisions only; it queues and grants nothing.  flit_valiant_path() draws both
 * phases of x's path (from the source's routing stream) and flit_per_hop_path() sets up
 * a path whose hops are chosen as its header is granted (hops: the distance); both false
 * when the path has no room (the run then stops).  flit_per_hop_choice() is the choice
 * of x's waiting header now (flit.h, per hop: a minimal hop's adaptive VC, else an
 * escape VC: dimension order on lattices, flit_net_escape_hop's canonical hop and class
 * on router networks; ties drawn from the routing stream of its node): true with the hop and its
 * lowest free VC, false when it must wait.  flit_vc_options() lists every VC the waiting
 * header of x may take (channels and VC ranges [lo, hi), at most max; a drawn hop: its
 * own class on its own channel) and returns their number.  Both reason in x's VC set
 * (routing.class_vcs) and give the channel's VCs: the set's offset, x->vc_base, added.
 * Called by: flit_source.c (paths), flit_cycle.c (choices), flit_deadlock.c (options),
 * flit_relation.c (the hops' classes).
 * Calls no other flit file.
 * Needs: the topology's minimal hops and channel dimensions, vc_classes.h and
 * flit_classes.h (Valiant on networks of routers), the state of flit.h.
 */
#ifndef ROUTING_FLIT_ROUTE_H
#define ROUTING_FLIT_ROUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "../sim/core/message.h"
#include "../topo/topo.h"

struct flit_engine;
struct worm;

bool flit_valiant_path(struct flit_engine *e, struct worm *x, struct message *msg);
bool flit_per_hop_path(struct flit_engine *e, struct worm *x, struct message *msg);
bool flit_per_hop_choice(struct flit_engine *e, const struct worm *x, struct hop *chosen, uint32_t *vc);

/* The class arithmetic of Valiant's and of the escape hops, shared with the static
 * deadlock check's relation (flit_relation.c), on a k-ary n-cube of radix k (dateline:
 * a torus whose classes split at the wrap-around link).  flit_valiant_hop(): the
 * dimension-order hop from `at` toward target, and the dateline class it keeps in
 * *ahead (set on entering a dimension, *in_dim updated, every hop on one-way rings).
 * flit_escape_hop(): the dimension-order hop toward dst and its escape VCs [lo, hi) of
 * E. */
struct hop flit_valiant_hop(const struct topo *t, uint32_t k, bool dateline, bool both_ways, uint32_t at,
                            uint32_t target, unsigned *in_dim, bool *ahead);
struct hop flit_escape_hop(const struct topo *t, uint32_t k, bool dateline, uint32_t E, uint32_t node, uint32_t dst,
                           uint32_t *lo, uint32_t *hi);

struct vc_option {
    uint32_t channel, lo, hi;
};
unsigned flit_vc_options(const struct flit_engine *e, const struct worm *x, struct vc_option *out, unsigned max);

#endif
