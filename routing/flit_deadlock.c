/* Deadlock detection for the wormhole engine (cut-through has none), and recovery
 * (contract in flit.h and flit_deadlock.h).  A waiting header will eventually be granted
 * if some VC it may take (its class on its channel; per hop: an adaptive VC of a minimal
 * hop or an escape VC of its class) is free or held by a worm that will itself move on
 * (a worm whose header is not queued always does: its flits keep draining toward a
 * destination that takes them; a request waiting for room in its destination's reply
 * queue counts as a queued header, see ejection_may_proceed).  The worms that can move
 * on are found by propagation (a worklist: each queued worm enters it at most once,
 * and a worm found to move on may free the queues of the channels it holds); the
 * queued headers left over are deadlocked, and following "waits for a VC held by"
 * among them must close a cycle, which is what the message names and where recovery
 * picks its victim. */
#include "flit_deadlock.h"

#include <stdio.h>
#include <stdlib.h>

#include "flit.h"
#include "flit_route.h"
#include "flit_source.h"

enum { OPTIONS_MAX = 65 }; /* the minimal hops (at most 64) and the escape hop */

/* A request whose header waits at terminal t for room in t's reply queue gets it when a
 * reply of t takes its first channel: surely if one is still to be created (counted in
 * the queue, not yet handed to the engine), else when t's injection line moves on (the
 * replies wait behind it).  Optimistic (the line's next worm may block in turn), so a
 * deadlock it misses is found by a later search, and none is named that is not one. */
static bool ejection_may_proceed(const struct flit_engine *e, const struct worm *x, const uint8_t *proceeds)
{
    uint32_t t = x->to[x->hops - 1], line = e->src_busy[flit_line(e, t, MSG_CLASS_REPLY)];
    return e->reply_held[t] < e->reply_queue || e->reply_held[t] > e->replies_in[t] || line == MSG_NONE ||
           proceeds[line];
}

static bool may_proceed(const struct flit_engine *e, const struct worm *x, const uint8_t *proceeds)
{
    if (x->eject & EJECT_WAITING)
        return ejection_may_proceed(e, x, proceeds);
    struct vc_option opt[OPTIONS_MAX];
    unsigned n = flit_vc_options(e, x, opt, OPTIONS_MAX);
    for (unsigned i = 0; i < n; i++)
        for (uint32_t v = opt[i].lo; v < opt[i].hi; v++) {
            uint32_t o = flit_owner(e, opt[i].channel)[v];
            if (o == MSG_NONE || proceeds[o])
                return true;
        }
    return false;
}

/* A deadlocked holder of a VC the queued header x could use, and that VC's channel (one
 * exists when x is deadlocked: every such VC is held by a worm that cannot proceed).  A
 * request waiting for room in a reply queue waits for the worm on that terminal's
 * injection line (*ch: MSG_NONE). */
static uint32_t next_holder(const struct flit_engine *e, const struct worm *x, const uint8_t *proceeds, uint32_t *ch)
{
    if (x->eject & EJECT_WAITING) {
        *ch = MSG_NONE;
        return e->src_busy[flit_line(e, x->to[x->hops - 1], MSG_CLASS_REPLY)];
    }
    struct vc_option opt[OPTIONS_MAX];
    unsigned n = flit_vc_options(e, x, opt, OPTIONS_MAX);
    for (unsigned i = 0; i < n; i++)
        for (uint32_t v = opt[i].lo; v < opt[i].hi; v++) {
            uint32_t o = flit_owner(e, opt[i].channel)[v];
            if (o != MSG_NONE && !proceeds[o]) {
                *ch = opt[i].channel;
                return o;
            }
        }
    return MSG_NONE; /* not reached */
}

/* Queued headers: the worms in every channel queue, and the requests waiting for room in
 * a reply queue. */
static uint32_t queued(const struct flit_engine *e, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < e->eject_wait.n; k++)
        out[n++] = e->eject_wait.v[k];
    for (uint32_t ch = 0; ch < e->env.topo->channels; ch++)
        for (uint32_t w = e->chans[ch].wait_head; w != MSG_NONE; w = e->worms[w].next)
            out[n++] = w;
    for (uint32_t k = 0; k < e->per_hop.n; k++)
        out[n++] = e->per_hop.v[k];
    return n;
}

/* One search's scratch: per worm, whether it will proceed and whether the walk along
 * the waits has seen it; the queued headers. */
struct search {
    uint8_t *proceeds, *seen;
    uint32_t *wait, n;
};

static void search_free(struct search *s)
{
    free(s->proceeds);
    free(s->seen);
    free(s->wait);
}

/* Every worm proceeds but the queued headers, until found otherwise: false when out of
 * memory. */
static bool search_start(const struct flit_engine *e, struct search *s)
{
    s->proceeds = malloc(e->worm_cap);
    s->seen = calloc(e->worm_cap, 1);
    s->wait = malloc(((size_t)e->waiting + e->eject_wait.n) * sizeof *s->wait + 1);
    if (!s->proceeds || !s->seen || !s->wait)
        return false;
    for (uint32_t w = 0; w < e->worm_cap; w++)
        s->proceeds[w] = 1;
    s->n = queued(e, s->wait);
    for (uint32_t k = 0; k < s->n; k++)
        s->proceeds[s->wait[k]] = 0;
    return true;
}

/* Marks the queued headers that will eventually be granted: false when out of memory. */
static bool mark_proceeding(const struct flit_engine *e, struct search *s)
{
    uint8_t *proceeds = s->proceeds;
    const uint32_t *wait = s->wait, n = s->n;
    /* Worklist: a worm found to proceed may unblock the queues of the channels it holds. */
    uint32_t *work = malloc((size_t)n * sizeof *work + 1), top = 0;
    if (!work)
        return false;
    for (uint32_t k = 0; k < n; k++)
        if (may_proceed(e, &e->worms[wait[k]], proceeds)) {
            proceeds[wait[k]] = 1;
            work[top++] = wait[k];
        }
    while (top) {
        const struct worm *y = &e->worms[work[--top]];
        for (uint32_t j = 0; j < y->acquired; j++) {
            uint32_t ch = y->hop[j].channel;
            for (uint32_t w = e->chans[ch].wait_head; w != MSG_NONE; w = e->worms[w].next)
                if (!proceeds[w] && may_proceed(e, &e->worms[w], proceeds)) {
                    proceeds[w] = 1;
                    work[top++] = w;
                }
        }
    }
    free(work);
    /* Per-hop headers wait in no channel's queue, nor do requests waiting for room in a
     * reply queue: repeat until nothing more proceeds. */
    for (bool changed = e->routing == FLIT_PER_HOP || e->eject_wait.n; changed;) {
        changed = false;
        for (uint32_t k = 0; k < n; k++)
            if (!proceeds[wait[k]] && may_proceed(e, &e->worms[wait[k]], proceeds)) {
                proceeds[wait[k]] = 1;
                changed = true;
            }
    }
    return true;
}

/* The headers that can never be granted: their number, and in *stuck the first of them
 * that holds a channel (MSG_NONE if none does). */
static uint32_t count_stuck(const struct flit_engine *e, const struct search *s, uint32_t *stuck)
{
    uint32_t count = 0;
    *stuck = MSG_NONE;
    for (uint32_t k = 0; k < s->n; k++)
        if (!s->proceeds[s->wait[k]]) {
            count++;
            if (*stuck == MSG_NONE && e->worms[s->wait[k]].acquired > 0)
                *stuck = s->wait[k];
        }
    return count;
}

/* From stuck, walks "waits for the holder of" until a worm repeats: that part is the
 * cycle.  Writes the message naming it into buf and returns its youngest worm. */
static uint32_t describe_cycle(const struct flit_engine *e, struct search *s, uint32_t stuck, uint32_t count,
                               char *buf, size_t size)
{
    uint32_t w = stuck;
    uint32_t ch;
    while (!s->seen[w]) {
        s->seen[w] = 1;
        w = next_holder(e, &e->worms[w], s->proceeds, &ch);
    }
    /* The channel cycle: what each worm waits for, then the channels its holder
     * holds from there up to its own header, and so on round. */
    int used = snprintf(buf, size, "deadlock at cycle %lld: %u headers can never advance; cycle of channels:",
                        (long long)e->cycle, count);
    uint32_t start = w, victim = w;
    bool first = true;
    do {
        const struct worm *x = &e->worms[w];
        if (x->id > e->worms[victim].id)
            victim = w;
        uint32_t holder = next_holder(e, x, s->proceeds, &ch);
        const struct worm *y = &e->worms[holder];
        uint32_t j = 0;
        if (ch == MSG_NONE) { /* x waits for its destination's reply queue: then the line's worm from its source */
            if (used >= 0 && (size_t)used < size)
                used += snprintf(buf + used, size - (size_t)used, "%s ejection of requests at terminal %u (reply "
                                 "queue full)", first ? "" : ",", x->to[x->hops - 1]);
            first = false;
        }
        while (ch != MSG_NONE && j < y->acquired && y->hop[j].channel != ch)
            j++;
        for (; j < y->acquired; j++) {
            uint32_t from = j ? y->to[j - 1] : y->src;
            if (used >= 0 && (size_t)used < size)
                used += snprintf(buf + used, size - (size_t)used, "%s %u (%u->%u)", first ? "" : ",", y->hop[j].channel,
                                 from, y->to[j]);
            first = false;
        }
        w = holder;
    } while (w != start);
    return victim;
}

/* Finds headers that can never be granted; if there are any, writes a message naming a
 * cycle of channels into buf, the youngest worm of that cycle into *victim, and returns
 * true.  Out of memory, it finds nothing. */
static bool flit_find_deadlock(struct flit_engine *e, char *buf, size_t size, uint32_t *victim)
{
    /* Cut-through cannot deadlock: buffers are unbounded, so every holder's flits keep
     * crossing the channels it holds and its tail releases them whether or not its
     * header is queued. */
    if (!e->wormhole)
        return false;
    struct search s = { 0 };
    bool found = false;
    if (search_start(e, &s) && mark_proceeding(e, &s)) {
        uint32_t stuck, count = count_stuck(e, &s, &stuck);
        if (count > 0 && stuck != MSG_NONE) {
            *victim = describe_cycle(e, &s, stuck, count, buf, size);
            found = true;
        }
    }
    search_free(&s);
    return found;
}

/* The header of w leaves the queue it waits in: its channel's, or the per-hop list. */
static void unqueue(struct flit_engine *e, uint32_t w)
{
    struct worm *x = &e->worms[w];
    if (e->routing == FLIT_PER_HOP) {
        uint32_t keep = 0;
        for (uint32_t k = 0; k < e->per_hop.n; k++)
            if (e->per_hop.v[k] != w)
                e->per_hop.v[keep++] = e->per_hop.v[k];
        e->per_hop.n = keep;
        return;
    }
    uint32_t ch = x->hop[x->acquired].channel, prev = MSG_NONE;
    for (uint32_t y = e->chans[ch].wait_head; y != w; y = e->worms[y].next)
        prev = y;
    if (prev == MSG_NONE)
        e->chans[ch].wait_head = x->next;
    else
        e->worms[prev].next = x->next;
    if (e->chans[ch].wait_tail == w)
        e->chans[ch].wait_tail = prev;
}

/* Deadlock recovery: worm w, whose header waits in a channel queue at the end of
 * cycle c, gives up every VC it holds and waits recovery_delay cycles for its new offer. */
static void abort_worm(struct flit_engine *e, uint32_t w, int64_t c)
{
    struct worm *x = &e->worms[w];
    unqueue(e, w);
    e->waiting--;
    for (uint32_t j = 0; j < x->acquired; j++)
        if (flit_owner(e, x->hop[j].channel)[x->hop[j].vc] == w)
            flit_release(e, w, j);
    if (x->acquired > 0)
        flit_make_inactive(e, w);
    if (x->lo == 0) { /* its tail had not left: the injection line is still its */
        flit_source_next(e, flit_line(e, x->src, x->msg_class), c + 1);
        x = &e->worms[w]; /* the next message's worm may have grown the pool */
    }
    x->acquired = x->lo = 0;
    x->next = MSG_NONE;
    x->eligible = c + 1 + e->recovery_delay;
    e->at_source++;
    if (e->env.probe->window_open)
        e->recoveries++;
    flit_push(e, &e->retries, w);
}

/* The periodic deadlock search: false when the run must stop. */
bool flit_resolve_deadlocks(struct flit_engine *e, int64_t c)
{
    uint32_t victim;
    if (!e->recover)
        return !flit_find_deadlock(e, e->env.fatal, e->env.fatal_size, &victim);
    char found[256]; /* what a stop would say: not needed when recovering */
    while (e->waiting && flit_find_deadlock(e, found, sizeof found, &victim))
        abort_worm(e, victim, c);
    return true;
}
