/* A channel's books as the run keeps them: who holds it and how long it was busy.
 *
 * Promise: channel_busy() and channel_idle() bracket one message's hold of a channel;
 * busy_time accumulates only what lies inside the measurement window, so busy_time /
 * window is the channel's utilisation.  A hold is counted whole when it is granted
 * inside the window (its end is known then: the transmission time is); the engine
 * that grants holds adds the part after the window opens of those running when it
 * opens, and takes back the part after it closes of those still running when it
 * closes (engine_ops.window_edge).  Engines that move flits or slotted messages add
 * their own busy cycles to busy_time (the flit engines once, when the run is over:
 * engine_ops.finish).
 * Packed to 12 bytes: a million-node hypercube has 20 million channels, and a hold
 * touches the record once at its grant and once at its end.
 * Needs: the message pool's MSG_NONE.
 */
#ifndef SIM_CORE_CHANNEL_H
#define SIM_CORE_CHANNEL_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "message.h"

struct __attribute__((packed, aligned(4))) channel_state {
    uint32_t serving;    /* message holding the channel, MSG_NONE when idle */
    double busy_time;    /* accumulated within the measurement window */
};

/* Message m holds the channel from now until end; window_open: whether the hold
 * counts toward busy_time (end - now, exactly as the clock will read it). */
static inline void channel_busy(struct channel_state *c, uint32_t m, double now, double end, bool window_open)
{
    assert(c->serving == MSG_NONE);
    c->serving = m;
    if (window_open)
        c->busy_time += end - now;
}

static inline void channel_idle(struct channel_state *c) { c->serving = MSG_NONE; }

#endif
