/* The flit engine's sources (routing/flit_source.c): the worm pool, new messages and
 * their paths, offers, each source's queue and injection line.
 *
 * Promise: flit_pool_grow() doubles the worm pool (false when out of memory; worms may
 * move); flit_free_worm() gives a worm back.  flit_inject() takes a new message
 * (engine_ops.inject): its worm and path now, or when its header reaches the injection
 * line (lazy_paths), and the first tick of an empty network.  flit_offer_cycle() is the
 * offer cycle of message m (the cycle after its creation); at the start of cycle c,
 * flit_offer_retries() offers again the aborted worms whose time has come (new path,
 * ahead of their source's queue) and flit_offer() the messages whose offer cycle has
 * come (their source's injection line, its queue, or refused with a finite buffer).
 * flit_source_next(): the source's injection line is free from `cycle` on, and its next
 * message's header is ready router_delay later.  Out of memory stops the run.
 * Called by: flit_setup.c (inject, the first worms), flit_cycle.c (offers, a tail leaving
 * its source, a delivered worm back), flit_deadlock.c (an aborted worm's source).
 * Needs: flit_route.h (Valiant and per-hop paths), flit_dor.h (dimension-order paths),
 * the path selection (env.paths) and the state of flit.h.
 */
#ifndef ROUTING_FLIT_SOURCE_H
#define ROUTING_FLIT_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

struct flit_engine;

bool flit_pool_grow(struct flit_engine *e);
void flit_free_worm(struct flit_engine *e, uint32_t w);
void flit_inject(struct flit_engine *e, uint32_t msg);
int64_t flit_offer_cycle(const struct flit_engine *e, uint32_t m);
void flit_offer_retries(struct flit_engine *e, int64_t c);
void flit_offer(struct flit_engine *e, int64_t c);
void flit_source_next(struct flit_engine *e, uint32_t node, int64_t cycle);

#endif
