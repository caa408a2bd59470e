/* The simple router's routing beyond paths drawn from the path selection
 * (routing/flit_route.c): Valiant's two phases and per-hop routing with escape VCs.
 *
 * Promise: decisions only; it queues and grants nothing.  flit_valiant_path() draws both
 * phases of x's path (from the source's routing stream) and flit_per_hop_path() sets up
 * a path whose hops are chosen as its header is granted (hops: the distance); both false
 * when the path has no room (the run then stops).  flit_per_hop_choice() is the choice
 * of x's waiting header now (flit.h, per hop: a minimal hop's adaptive VC, else an
 * escape VC; ties drawn from the routing stream of its node): true with the hop and its
 * lowest free VC, false when it must wait.  flit_vc_options() lists every VC the waiting
 * header of x may take (channels and VC ranges [lo, hi), at most max; a drawn hop: its
 * own class on its own channel) and returns their number.
 * Called by: flit_source.c (paths), flit_cycle.c (choices), flit_deadlock.c (options).
 * Calls no other flit file.
 * Needs: the topology's minimal hops and channel dimensions, vc_classes.h, the state of
 * flit.h.
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

struct vc_option {
    uint32_t channel, lo, hi;
};
unsigned flit_vc_options(const struct flit_engine *e, const struct worm *x, struct vc_option *out, unsigned max);

#endif
