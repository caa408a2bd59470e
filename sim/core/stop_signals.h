/* The signals that stop sim, held so that none can kill it halfway.
 *
 * Promise: the stop signals are SIGINT (Ctrl-C), SIGTERM (kill's default), SIGHUP (the
 * terminal closed) and SIGQUIT (Ctrl-\); SIGPIPE (a write to a pipe whose reader has
 * gone) is held with them.  Once stop_signals_hold() has run (sim's main does it first
 * thing) they are blocked for the whole process: one that arrives stays pending, where
 * stop_signal_held() sees it, and every step that may take long (reading a file, a
 * run's turns, a sweep's plan) asks and stops, cleaning up as for SIGINT.  The mask
 * and the pending set are the process's own state: nothing here is a global of ours.
 * Needs: POSIX signal masks only.
 */
#ifndef SIM_CORE_STOP_SIGNALS_H
#define SIM_CORE_STOP_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/* The stop signals, and SIGPIPE with them when with_pipe. */
void stop_signals_set(sigset_t *set, bool with_pipe);
/* Blocks the stop signals and SIGPIPE; false if the mask cannot be set. */
bool stop_signals_hold(void);
/* Unblocks them again, for code that catches them itself (the sweep runner, with
 * libev) or may die of them as any tool would: a signal already pending acts at once. */
void stop_signals_release(void);
/* Whether a stop signal or SIGPIPE is held pending. */
bool stop_signal_held(void);
/* Whether SIGPIPE is held pending: some output was a pipe whose reader had gone. */
bool stop_signals_pipe_closed(void);
/* Ends the process by the held SIGPIPE, quietly, as a tool writing to a closed pipe
 * does (exit status 141 in a shell); the caller has removed its temporary files. */
_Noreturn void stop_signals_die_of_pipe(void);

#endif
