/* A channel's books as the run keeps them: who holds it and how long it was busy.
 *
 * Promise: channel_busy() and channel_idle() bracket one message's hold of a channel;
 * busy_time accumulates only while the measurement window is open (the run restarts
 * busy_since when it opens), so busy_time / window is the channel's utilisation.
 * Engines that move flits or slotted messages add their own busy cycles to busy_time
 * (the flit engines once, when the run is over: engine_ops.finish).
 * Needs: the message pool's MSG_NONE.
 */
#ifndef SIM_CORE_CHANNEL_H
#define SIM_CORE_CHANNEL_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "message.h"

struct channel_state {
    uint32_t serving;    /* message holding the channel, MSG_NONE when idle */
    double busy_since;   /* valid while serving != MSG_NONE */
    double busy_time;    /* accumulated within the measurement window */
};

static inline void channel_busy(struct channel_state *c, uint32_t m, double now)
{
    assert(c->serving == MSG_NONE);
    c->serving = m;
    c->busy_since = now;
}

/* window_open: whether the hold counts toward busy_time. */
static inline void channel_idle(struct channel_state *c, double now, bool window_open)
{
    if (window_open)
        c->busy_time += now - c->busy_since;
    c->serving = MSG_NONE;
}

#endif
