/* Wall-clock side of a run, driven by libev: progress on stderr, the stop signals,
 * and the run.max_wall_seconds limit.
 *
 * Promise: wallclock_attach() makes the kernel give libev a non-blocking turn every
 * KERNEL_CHORE_INTERVAL events; libev never holds simulated time.  A signal or the
 * time limit asks the kernel to stop at the next event boundary.
 * Signals: once stop_signals_hold() has run (sim does it first thing), SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT and SIGPIPE are blocked for the whole process (sim/core/stop_signals.h),
 * so they can kill it at no moment; one that arrives stays pending, stop_signal_held()
 * sees it, and an attached run stops at its next turn.  Without the hold (in-process
 * callers: tests), libev catches the four stop signals between attach and detach only.
 * Needs: libev (the default loop), POSIX signal masks.
 */
#ifndef SIM_WALLCLOCK_H
#define SIM_WALLCLOCK_H

#include <stdbool.h>

#include "network.h"

#include "../core/stop_signals.h"

struct wallclock;

/* progress: print a progress line on stderr every second. */
struct wallclock *wallclock_attach(struct network *net, bool progress, double max_wall_seconds);
/* Seconds since attach (libev's clock). */
double wallclock_elapsed(struct wallclock *w);
void wallclock_detach(struct wallclock *w);

#endif
