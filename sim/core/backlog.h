/* The backlog's course over the measurement window: a saturation verdict from the run
 * itself, for networks whose stability no analysis predicts.
 *
 * Promise.  backlog_add() is told, at each message created while the window is open,
 * how many have been created in the window so far (1, 2, ...) and how many messages
 * are in the network.  It keeps at most BACKLOG_SAMPLES of these, every stride-th
 * creation (stride 1 at first; when the samples are full every other one is dropped
 * and the stride doubles), so its memory is fixed and the samples stay equally spaced
 * in creations over the whole window.
 *
 * backlog_judge() fits a least-squares line to the samples of the window's second
 * half (by creations) and calls the run saturated when that line's rise over the half
 * exceeds all of: `sources` messages (one per source: a stable network's backlog
 * drifts by about that much); BACKLOG_GROWTH of the messages created in the half (the
 * flit engines' rule for their source queues); BACKLOG_SPREAD times the samples'
 * standard deviation about the line (a backlog wandering about its level); and
 * BACKLOG_PACE of the rise over the first half (from the backlog when the window
 * opened to the line's middle), which must in turn exceed BACKLOG_PACE of it: past
 * saturation the backlog keeps rising at about one pace, where a network still
 * filling up after too short a warm-up rises steeply and then slows down, and a
 * stable one that happens to rise late was flat before.  Fewer than
 * BACKLOG_MIN_SAMPLES samples in the half: no verdict (too short a window to tell).
 * Needs: nothing.
 */
#ifndef SIM_CORE_BACKLOG_H
#define SIM_CORE_BACKLOG_H

#include <stdbool.h>
#include <stdint.h>

enum { BACKLOG_SAMPLES = 64, BACKLOG_MIN_SAMPLES = 8 };
#define BACKLOG_GROWTH 0.02
#define BACKLOG_PACE 0.5
#define BACKLOG_SPREAD 10

struct backlog_trace {
    uint32_t at_open;      /* the backlog when the window opened */
    uint64_t stride, next; /* the next sample is taken at creation number `next` */
    uint32_t n;
    uint64_t created[BACKLOG_SAMPLES];
    uint32_t level[BACKLOG_SAMPLES];
};

struct backlog_verdict {
    bool known;            /* enough samples in the second half */
    bool saturated;
    double start, middle, end; /* the backlog when the window opened, the fitted line at its middle, the last sample */
    double growth;         /* the fitted line's rise over the second half, in messages */
    double created_half;   /* messages created in the second half */
    double spread;         /* standard deviation of the second half's samples about the line */
};

void backlog_init(struct backlog_trace *t, uint32_t at_open);

static inline void backlog_add(struct backlog_trace *t, uint64_t created, uint32_t in_network)
{
    void backlog_sample(struct backlog_trace *t, uint64_t created, uint32_t in_network);
    if (created == t->next)
        backlog_sample(t, created, in_network);
}

void backlog_judge(const struct backlog_trace *t, uint32_t sources, struct backlog_verdict *out);

#endif
