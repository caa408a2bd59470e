/* Wall-clock side of a run, driven by libev: progress on stderr, SIGINT/SIGTERM,
 * and the run.max_wall_seconds limit.
 *
 * Promise: wallclock_attach() makes the kernel give libev a non-blocking turn every
 * KERNEL_CHORE_INTERVAL events; libev never holds simulated time.  A signal or the
 * time limit asks the kernel to stop at the next event boundary.  Signals are
 * caught only between attach and detach.  Needs: libev (the default loop).
 */
#ifndef SIM_WALLCLOCK_H
#define SIM_WALLCLOCK_H

#include <stdbool.h>

#include "network.h"

struct wallclock;

/* progress: print a progress line on stderr every second. */
struct wallclock *wallclock_attach(struct network *net, bool progress, double max_wall_seconds);
/* Seconds since attach (libev's clock). */
double wallclock_elapsed(struct wallclock *w);
void wallclock_detach(struct wallclock *w);

#endif
