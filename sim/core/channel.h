/* A channel's books as the run keeps them: how long it was busy.
 *
 * Promise: busy_time accumulates only what lies inside the measurement window, so
 * busy_time / window is the channel's utilisation.  A hold granted inside the window
 * is counted at its grant (channel_busy: its end is known then, the transmission time
 * is), up to the window's close when that is known (time mode); the engine that
 * grants holds adds the part inside the window of those running when it opens, and
 * takes back the part after the close of those still running when it closes earlier
 * than counted on (message mode; an interrupted run) (engine_ops.window_edge).  Each
 * hold so adds what the clock reads between its edges, as a busy-since clock did.  Engines that move
 * flits or slotted messages add their own busy cycles (the flit engines once, when the
 * run is over: engine_ops.finish).  Who holds a channel is the engine's to know (a
 * store-and-forward message names its channel).  8 bytes: a million-node hypercube
 * has 20 million channels.
 * Needs: nothing.
 */
#ifndef SIM_CORE_CHANNEL_H
#define SIM_CORE_CHANNEL_H

#include <stdbool.h>

struct channel_state {
    double busy_time; /* accumulated within the measurement window */
};

/* A hold from now until end (or the window's known close, if sooner); window_open:
 * whether it counts toward busy_time (end - now, exactly as the clock will read it). */
static inline void channel_busy(struct channel_state *c, double now, double end, bool window_open)
{
    if (window_open)
        c->busy_time += end - now;
}

#endif
