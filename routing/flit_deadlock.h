/* The wormhole engine's deadlock search and recovery (routing/flit_deadlock.c).
 *
 * Promise: flit_resolve_deadlocks() runs the search at the end of cycle c (flit.h:
 * headers that can never be granted, and a cycle of channels among them).  With
 * routing.deadlock = stop it returns false when it finds one, env.fatal naming the cycle
 * (the run must stop); with recover it aborts the youngest worm of a cycle until none is
 * left (its VCs free, its source's line free, offered again recovery_delay cycles later)
 * and returns true.  Cut-through finds none.
 * Called by: flit_cycle.c, at the end of a cycle.
 * Needs: flit_route.h (the VCs a header may take), flit_source.h (an aborted worm's
 * source line), the state of flit.h.
 */
#ifndef ROUTING_FLIT_DEADLOCK_H
#define ROUTING_FLIT_DEADLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct flit_engine;

bool flit_resolve_deadlocks(struct flit_engine *e, int64_t c);

#endif
