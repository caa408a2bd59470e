/* The simple router's bounded reply queue (routing/flit_eject.c).
 *
 * Promise (semantics in flit.h): flit_eject_wait() records that gated request w's
 * header arrives at its destination at cycle `arrives` (it waits there, by creation
 * number, with the other requests waiting for a place in a reply queue);
 * flit_grant_ejections(), in step 2 of cycle c, grants oldest first each waiting
 * request whose header has arrived a place in its destination's reply queue if one is
 * free: from then on the destination takes its flits (those in the buffer at once, so
 * step 3 looks at it this cycle), and one whose tail is in is delivered in cycle c.
 * Called by: flit_cycle.c (a gated header sent over its last hop; step 2).
 * Calls no other flit file.
 * Needs: the state of flit.h.
 */
#ifndef ROUTING_FLIT_EJECT_H
#define ROUTING_FLIT_EJECT_H

#include <stdint.h>

struct flit_engine;

void flit_eject_wait(struct flit_engine *e, uint32_t w, int64_t arrives);
void flit_grant_ejections(struct flit_engine *e, int64_t c);

#endif
