/* The flit engine's cycle (routing/flit_cycle.c): the kernel event that runs one cycle
 * of flit.h's rules.
 *
 * Promise: flit_tick() (ctx: the engine) runs cycle e->tick_at: offers (flit_source.c),
 * step 1 (ready headers join their channel's queue, or the per-hop list), step 2 (VCs
 * granted; per hop, as flit_route.c chooses), step 3 (flits move), deliveries, and at a
 * multiple of routing.deadlock_interval the search (flit_deadlock.c); then it schedules
 * the next cycle while anything is in flight or waits to be offered, and nothing while
 * the network is empty.
 * Called by: the kernel; flit_setup.c registers it (its event type is e->ev_tick, which
 * flit_source.c schedules when a message comes to an empty network).
 * Needs: flit_source.h, flit_route.h, flit_deadlock.h and the state of flit.h.
 */
#ifndef ROUTING_FLIT_CYCLE_H
#define ROUTING_FLIT_CYCLE_H

#include <stdint.h>

#include "../sim/core/kernel.h"

void flit_tick(struct kernel *k, void *ctx, uint32_t unused);

#endif
