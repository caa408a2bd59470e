/* The signals that stop sim (contract in stop_signals.h). */
#include "stop_signals.h"

#include <stdlib.h>

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE }; /* SIGPIPE last */
enum { STOP_SIGNALS = sizeof stop_signals / sizeof stop_signals[0] };

void stop_signals_set(sigset_t *set, bool with_pipe)
{
    sigemptyset(set);
    for (int i = 0; i < STOP_SIGNALS - !with_pipe; i++)
        sigaddset(set, stop_signals[i]);
}

bool stop_signals_hold(void)
{
    sigset_t set;
    stop_signals_set(&set, true);
    return sigprocmask(SIG_BLOCK, &set, NULL) == 0;
}

void stop_signals_release(void)
{
    sigset_t set;
    stop_signals_set(&set, true);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

bool stop_signal_held(void)
{
    sigset_t pending;
    if (sigpending(&pending) != 0)
        return false;
    for (int i = 0; i < STOP_SIGNALS; i++)
        if (sigismember(&pending, stop_signals[i]) == 1)
            return true;
    return false;
}

bool stop_signals_pipe_closed(void)
{
    sigset_t pending;
    return sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
}

_Noreturn void stop_signals_die_of_pipe(void)
{
    signal(SIGPIPE, SIG_DFL);
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigprocmask(SIG_UNBLOCK, &pipe_only, NULL); /* the pending SIGPIPE ends the process here */
    raise(SIGPIPE);                             /* in case it was taken meanwhile */
    abort();
}
