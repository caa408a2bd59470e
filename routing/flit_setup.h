/* Wormhole and cut-through: their engine_ops (routing/flit_setup.c), with the flit
 * engines' key table (flit_params.h).
 *
 * Promise: switch_wormhole and switch_cut_through check a configuration, create the
 * engine (its memory, routing mode, VC classes and calendars; its tick registered with
 * the kernel) and free it.  flit_engine_of() gives tests the engine's state (flit.h) of
 * a wormhole or cut-through instance (SWITCH_PIPELINED), else NULL.
 * Called by: the routing registry (engine_ops), tests.
 * Needs: flit_cycle.h (the tick), flit_source.h (inject, the worm pool), flit_dor.h
 * (the dimension-order table), flit_figures.h, vc_classes.h, the path selection's traits.
 */
#ifndef ROUTING_FLIT_SETUP_H
#define ROUTING_FLIT_SETUP_H

#include "engine.h"

struct flit_engine;

extern const struct engine_ops switch_wormhole, switch_cut_through;

struct flit_engine *flit_engine_of(const struct engine_ops *ops, void *self);
/* Whether the simple router routes hop by hop: adaptive-minimal, and random-minimal
 * given escape VCs (without them it keeps its paths drawn at creation). */
bool flit_routes_per_hop(const struct config *cfg);
/* The escape VCs of per-hop routing: routing.escape_vcs, or (-1) the least it needs: on
 * lattices iq_escape_vcs()'s (vc_classes.h), on networks of routers one per class of
 * the escape route (flit_escape_classes: the dragonfly 2, Slim Fly and graphs the
 * router diameter, HyperX and the fat tree 1). */
int64_t flit_escape_vcs(const struct config *cfg, const struct topo *t);
/* routing/flit_relation.c: the simple router's routing relation for the static deadlock
 * check (engine_ops.relation): false when out of memory. */
struct dl_relation;
bool flit_relation(const struct config *cfg, const struct topo *t, struct dl_relation *out);

#endif
