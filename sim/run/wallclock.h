/* Wall-clock side of a run, driven by libev: progress on stderr, SIGINT/SIGTERM,
 * and the run.max_wall_seconds limit.
 *
 * Promise: wallclock_attach() makes the kernel give libev a non-blocking turn every
 * KERNEL_CHORE_INTERVAL events; libev never holds simulated time.  A signal or the
 * time limit asks the kernel to stop at the next event boundary.
 * Signals: once wallclock_hold_signals() has run (sim does it first thing), SIGINT
 * and SIGTERM are blocked for the whole process, so they can kill it at no moment;
 * one that arrives stays pending, wallclock_signalled() sees it, and an attached
 * run stops at its next turn.  Without the hold (in-process callers: tests, MPI
 * sweeps), libev catches them between attach and detach only.
 * Needs: libev (the default loop), POSIX signal masks.
 */
#ifndef SIM_WALLCLOCK_H
#define SIM_WALLCLOCK_H

#include <stdbool.h>

#include "network.h"

struct wallclock;

/* Blocks SIGINT and SIGTERM for the rest of the process (the mask is the process's
 * own state, not a global of ours); false if the mask cannot be set. */
bool wallclock_hold_signals(void);
/* Unblocks them again, for code that catches them itself (the sweep runner): a
 * signal already pending then acts at once. */
void wallclock_release_signals(void);
/* Whether SIGINT or SIGTERM has arrived and is held pending. */
bool wallclock_signalled(void);

/* progress: print a progress line on stderr every second. */
struct wallclock *wallclock_attach(struct network *net, bool progress, double max_wall_seconds);
/* Seconds since attach (libev's clock). */
double wallclock_elapsed(struct wallclock *w);
void wallclock_detach(struct wallclock *w);

#endif
