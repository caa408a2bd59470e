/* The flit engine's cycle (contract in flit.h, entry in flit_cycle.h): one kernel event
 * per cycle while anything is in the network, none while it is empty; per cycle the work
 * is proportional to the worms in flight, not to the network's size.  Steps 1 and 2
 * (headers join; VCs granted, per-hop choices asked of flit_route.c), step 3 (flits
 * move), deliveries, and every deadlock_interval cycles the search (flit_deadlock.c).
 * Sources and offers are flit_source.c's.  A worm keeps, per hop, only how many flits
 * have been sent over it and the cycle of its latest send (with link_latency > 2, a ring
 * of the older sends still on the wire): a buffer's contents follow from the counts of
 * two neighbouring hops. */
#include "flit_cycle.h"

#include <stdlib.h>

#include "flit.h"
#include "flit_deadlock.h"
#include "flit_eject.h"
#include "flit_route.h"
#include "flit_source.h"

static void fail(struct flit_engine *e) { kernel_request_stop(e->env.kernel, KERNEL_FAILED); }

/* A VC given up, kept out of line in the cycle: inlined into send(), its stores through
 * flit_owner() made move() reload the worm pool at every send (1.5% more instructions
 * on the 10-cube of configs/003, whose worms are long). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void release(struct flit_engine *e, uint32_t w, uint32_t hop)
{
    flit_release(e, w, hop);
}

/* --- calendars and the active list --- */

/* Worm w is to be looked at in step 3 of cycle `at` (at most L cycles ahead). */
static inline void wake(struct flit_engine *e, uint32_t w, int64_t at)
{
    flit_push(e, &e->wake_cal[at & e->wake_mask], w);
}

static void make_active(struct flit_engine *e, uint32_t w)
{
    e->worms[w].active_pos = e->n_active;
    e->active[e->n_active++] = w;
}

/* --- step 1 and 2: headers join channel queues; channels grant VCs --- */

/* Orders the headers ready in one cycle by creation number: insertion sort while
 * few (the usual case on small networks), else a radix sort of (number, worm) pairs
 * on the numbers' offsets from the smallest, one byte a pass (two passes while the
 * worms in flight span fewer than 65,536 numbers): a large network readies
 * thousands of headers a cycle, where insertion sort is quadratic. */
static void creation_order(struct flit_engine *e, struct u32vec *b)
{
    uint32_t n = b->n;
    if (n <= 32) {
        for (uint32_t i = 1; i < n; i++) {
            uint32_t w = b->v[i];
            uint32_t j = i;
            for (; j > 0 && e->worms[b->v[j - 1]].id > e->worms[w].id; j--)
                b->v[j] = b->v[j - 1];
            b->v[j] = w;
        }
        return;
    }
    if (n > e->order_cap) {
        struct ready_header *g = realloc(e->order, 2 * (size_t)b->cap * sizeof *g);
        if (!g) {
            fail(e);
            return;
        }
        e->order = g;
        e->order_cap = b->cap;
    }
    struct ready_header *from = e->order, *to = e->order + e->order_cap;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t id = e->worms[b->v[i]].id;
        from[i] = (struct ready_header){ id, b->v[i] };
        lo = id < lo ? id : lo;
        hi = id > hi ? id : hi;
    }
    for (unsigned shift = 0; shift < 64 && (hi - lo) >> shift; shift += 8) {
        uint32_t count[257] = { 0 };
        for (uint32_t i = 0; i < n; i++)
            count[((from[i].id - lo) >> shift & 0xff) + 1]++;
        for (unsigned d = 1; d <= 256; d++)
            count[d] += count[d - 1];
        for (uint32_t i = 0; i < n; i++) /* stable: earlier passes' order kept within a digit */
            to[count[(from[i].id - lo) >> shift & 0xff]++] = from[i];
        struct ready_header *t = from;
        from = to;
        to = t;
    }
    for (uint32_t i = 0; i < n; i++)
        b->v[i] = from[i].worm;
}

/* Header w, ready at c, joins its channel's queue behind the headers that were there
 * before c and in creation order among those that joined at c (their `ready` is c).
 * Those are at the queue's end; each knows the header before them, so an out-of-order
 * arrival walks only the cycle's joiners (at most one per channel into the node and
 * one from its source), however long the queue. */
static void join_queue(struct flit_engine *e, uint32_t w, int64_t c)
{
    struct worm *worms = e->worms, *x = &worms[w];
    uint32_t ch = x->hop[x->acquired].channel;
    struct flit_channel *q = &e->chans[ch];
    if (e->env.probe->window_open)
        e->counts[ch].requests++;
    e->ready_count--;
    e->waiting++;
    uint32_t tail = q->wait_tail;
    if (tail == MSG_NONE || worms[tail].ready != c) { /* the first to join at c */
        x->before_joined = tail;
        x->next = MSG_NONE;
        if (tail == MSG_NONE)
            q->wait_head = w;
        else
            worms[tail].next = w;
        q->wait_tail = w;
    } else if (worms[tail].id < x->id) { /* the youngest so far */
        x->before_joined = worms[tail].before_joined;
        x->next = MSG_NONE;
        worms[tail].next = w;
        q->wait_tail = w;
    } else { /* before the first younger one that joined at c */
        uint32_t prev = worms[tail].before_joined;
        uint32_t y = prev == MSG_NONE ? q->wait_head : worms[prev].next;
        while (worms[y].id < x->id) {
            prev = y;
            y = worms[y].next;
        }
        x->before_joined = worms[tail].before_joined;
        x->next = y;
        if (prev == MSG_NONE)
            q->wait_head = w;
        else
            worms[prev].next = w;
    }
    flit_mark_dirty(e, ch);
}

/* Per-hop routing: headers ready at c (b, in creation order) join the one list of
 * headers waiting for a VC, which stays in creation order (no channel is chosen yet). */
static void join_per_hop(struct flit_engine *e, struct u32vec *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        uint32_t w = b->v[i];
        e->worms[w].next = MSG_NONE;
        uint32_t j = e->per_hop.n;
        flit_push(e, &e->per_hop, w);
        if (e->per_hop.n == j) /* out of memory: the run stops */
            return;
        for (; j > 0 && e->worms[e->per_hop.v[j - 1]].id > e->worms[w].id; j--)
            e->per_hop.v[j] = e->per_hop.v[j - 1];
        e->per_hop.v[j] = w;
        e->waiting++;
    }
}

static void join_queues(struct flit_engine *e, int64_t c)
{
    struct u32vec *b = &e->ready_cal[c & e->ready_mask];
    if (e->routing == FLIT_PER_HOP) { /* no channel yet: one list of its own, by creation number */
        creation_order(e, b);
        join_per_hop(e, b);
        e->ready_count -= b->n;
        b->n = 0;
        return;
    }
    /* Ties among headers ready in the same cycle: creation order, kept per channel
     * (join_queue) rather than by sorting every header of the cycle. */
    for (uint32_t i = 0; i < b->n; i++)
        join_queue(e, b->v[i], c);
    b->n = 0;
}

/* Worm w's header is granted VC v of channel x->hop[x->acquired].channel at cycle c. */
static void grant(struct flit_engine *e, uint32_t w, uint32_t v, int64_t c)
{
    struct worm *x = &e->worms[w];
    uint32_t a = x->acquired, ch = x->hop[a].channel;
    flit_owner(e, ch)[v] = w;
    x->hop[a].vc = (uint8_t)v;
    x->acquired++;
    int64_t waited = c - x->ready;
    x->blocked += waited;
    if (waited > 0 && e->env.probe->window_open) {
        e->counts[ch].blocked_requests++;
        e->counts[ch].blocked_cycles += (uint64_t)waited;
    }
    if (a == 0) {
        if (x->grant0 < 0) /* a retry's source wait ended at its first attempt's grant */
            x->grant0 = c;
        if (e->reply_queue && x->msg_class == MSG_CLASS_REPLY) { /* it leaves its terminal's reply queue */
            e->reply_held[x->src]--;
            e->replies_in[x->src]--;
        }
        e->at_source--;
        make_active(e, w);
    }
    /* Not looked at yet in this cycle, whatever its 32-bit stamp says: a worm blocked for
     * a multiple of 2^32 cycles must not be skipped. */
    x->scanned = (uint32_t)(c - 1);
    wake(e, w, c); /* the new hop may send in this cycle's step 3 */
}

static void allocate(struct flit_engine *e, int64_t c)
{
    for (uint32_t k = 0; k < e->dirty_list.n; k++) {
        uint32_t ch = e->dirty_list.v[k];
        e->chans[ch].dirty = 0;
        uint32_t prev = MSG_NONE;
        for (uint32_t w = e->chans[ch].wait_head; w != MSG_NONE;) {
            struct worm *x = &e->worms[w];
            uint32_t next = x->next, lo, hi, v;
            flit_vc_range(e, x, x->hop[x->acquired].cls, &lo, &hi);
            for (v = lo; v < hi && flit_owner(e, ch)[v] != MSG_NONE; v++)
                ;
            if (v < hi) {
                if (prev == MSG_NONE)
                    e->chans[ch].wait_head = next;
                else
                    e->worms[prev].next = next;
                if (e->chans[ch].wait_tail == w)
                    e->chans[ch].wait_tail = prev;
                x->next = MSG_NONE;
                e->waiting--;
                grant(e, w, v, c);
            } else {
                prev = w;
            }
            w = next;
        }
    }
    e->dirty_list.n = 0;
}

/* Step 2 with per-hop routing: every waiting header asks, oldest first; flit_route.c
 * chooses its hop and VC, and the hop is filled in as it is granted. */
static void allocate_per_hop(struct flit_engine *e, int64_t c)
{
    uint32_t keep = 0;
    for (uint32_t k = 0; k < e->per_hop.n; k++) {
        uint32_t w = e->per_hop.v[k];
        struct worm *x = &e->worms[w];
        struct hop h;
        uint32_t vc;
        if (!flit_per_hop_choice(e, x, &h, &vc)) {
            e->per_hop.v[keep++] = w;
            continue;
        }
        uint32_t a = x->acquired;
        x->hop[a].channel = h.channel;
        x->to[a] = h.next;
        x->hop[a].cls = 0;
        if (e->env.probe->window_open)
            e->counts[h.channel].requests++;
        grant(e, w, vc, c);
        e->waiting--;
    }
    e->per_hop.n = keep;
}

/* --- step 3: flits move --- */

/* Room for `more` entries past a->n (stops the run when out of memory). */
static bool reserve(struct flit_engine *e, struct u32vec *a, uint32_t more)
{
    while (a->cap - a->n < more)
        if (!flit_vec_grow(a)) {
            fail(e);
            return false;
        }
    return true;
}

/* Whether hop i of worm x may send its next flit at cycle c (start-of-cycle state). */
static inline bool can_send(const struct flit_engine *e, const struct worm *x, uint32_t i, int64_t c, uint32_t *arrives)
{
    const struct flit_hop *hop = x->hop;
    uint32_t s = hop[i].sent, L = e->L;
    if (i > 0) {
        uint32_t up = hop[i - 1].sent;
        if (s >= up)
            return false;
        /* With L > 1 the flit may still be on the wire.  It is hop i - 1's (up - s)-th
         * latest send, made at c - (up - s) or before, so only while up - s < L: the
         * latest is last_sent, earlier ones (L > 2) are in the ring.  Then *arrives
         * becomes the cycles until it arrives, if fewer. */
        if (L > 1 && up - s < L) {
            uint32_t at = up - s == 1 ? hop[i - 1].last_sent
                                      : x->sent_at[(size_t)(i - 1) * (e->at_mask + 1) + (s & e->at_mask)];
            uint32_t flown = (uint32_t)c - at;
            if (flown < L) {
                *arrives = L - flown < *arrives ? L - flown : *arrives;
                return false;
            }
        }
    }
    if (i + 1 >= x->hops) /* the destination takes every flit, but a gated request's (flit.h) */
        return !x->eject || s < e->B;
    return s - hop[i + 1].sent < e->B;
}

/* Inlined into move(), its one caller: the compiler would not on its own, and the call
 * cost 4% of an 8x8 torus run (paired CPU 0.96 with it inlined). */
#if defined(__GNUC__)
#define FLIT_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define FLIT_ALWAYS_INLINE inline
#endif
static FLIT_ALWAYS_INLINE void send(struct flit_engine *e, const struct flit_candidate *k, int64_t c)
{
    uint32_t w = k->w, i = k->i;
    struct worm *x = &e->worms[w];
    struct flit_hop *hop = &x->hop[i];
    uint32_t j = hop->sent++;
    hop->last_sent = (uint32_t)c;
    if (e->env.probe->window_open)
        if (__builtin_expect(++e->chans[k->ch].busy == 0, 0))
            e->counts[k->ch].busy_wraps++;
    if (e->L > 2)
        x->sent_at[(size_t)i * (e->at_mask + 1) + (j & e->at_mask)] = (uint32_t)c;
    if (j == 0 && i + 1 < x->hops)
        flit_at_ready(e, w, c + e->L + e->r);
    else if (j == 0 && x->eject) /* a gated request's header: it will wait for room at its destination */
        flit_eject_wait(e, w, c + e->L);
    if (j + 1 < x->flits)
        return;
    x->lo = i + 1; /* the tail has been sent over hop i */
    if (!e->wormhole)
        release(e, w, i);
    else if (i > 0)
        release(e, w, i - 1);
    if (i + 1 == x->hops)
        flit_push(e, &e->deliver_cal[(c + e->L) & e->deliver_mask], w);
    if (i == 0) /* last: the next message's worm may grow the pool and move x */
        flit_source_next(e, flit_line(e, x->src, x->msg_class), c + 1);
}

/* Step 3 on the start-of-cycle state: every hop that may send is a candidate; each
 * channel sends for the candidate whose VC comes first in round robin after the VC
 * that sent on it last (with one VC, every candidate).  The pick is made as the
 * candidates are found: at most one candidate per VC, so the first in round robin
 * does not depend on the order they are found in.
 *
 * Only the worms woken for cycle c are looked at.  Whether a hop may send depends on
 * its own worm alone (flits upstream, credits downstream: the VC's buffer holds only
 * that worm's flits) and on time, so it can change only when the worm is granted a
 * hop (woken at once), the cycle after one of its hops sent or was a candidate not
 * picked (woken at c + 1), and when one of its flits arrives.  A worm that sends keeps
 * being looked at every cycle; the first time it has nothing to send, it is woken for
 * the earliest arrival of a flit then on the wire.  Every worm with a candidate is
 * therefore looked at, and a spurious wake finds nothing: the candidates are exactly
 * those of a scan of every worm in flight. */
static void move(struct flit_engine *e, int64_t c)
{
    const uint32_t V = e->Vt;
    struct u32vec *woken = &e->wake_cal[c & e->wake_mask], *next = &e->wake_cal[(c + 1) & e->wake_mask];
    if (!reserve(e, next, woken->n))
        return;
    uint32_t *next_v = next->v, next_n = next->n, n = 0;
    struct flit_candidate *cand = e->cand;
    struct flit_channel *chans = e->chans;
    for (uint32_t k = 0; k < woken->n; k++) {
        uint32_t w = woken->v[k];
        struct worm *x = &e->worms[w];
        if (x->active_pos == MSG_NONE || x->scanned == (uint32_t)c)
            continue; /* delivered, aborted or waiting at its source; or looked at already */
        x->scanned = (uint32_t)c;
        uint32_t lo = x->lo, acquired = x->acquired, found = n, arrives = UINT32_MAX;
        if (e->cand_cap - n < acquired - lo) { /* room for every hop of this worm */
            uint32_t cap = e->cand_cap ? e->cand_cap : 64;
            while (cap - n < acquired - lo)
                cap *= 2;
            struct flit_candidate *g = realloc(e->cand, (size_t)cap * sizeof *g);
            if (!g) {
                fail(e);
                return;
            }
            e->cand = cand = g;
            e->cand_cap = cap;
        }
        for (uint32_t i = lo; i < acquired; i++) {
            if (!can_send(e, x, i, c, &arrives))
                continue;
            uint32_t ch = x->hop[i].channel, vc = x->hop[i].vc, idx = n++;
            cand[idx] = (struct flit_candidate){ w, i, ch, vc };
            if (V == 1)
                continue;
            uint32_t p = chans[ch].pick;
            if (p == MSG_NONE) {
                chans[ch].pick = idx;
                continue;
            }
            uint32_t last = chans[ch].rr_last;
            uint32_t dk = vc + V - last - 1, dp = cand[p].vc + V - last - 1;
            dk -= dk >= V ? V : 0;
            dp -= dp >= V ? V : 0;
            if (dk < dp)
                chans[ch].pick = idx;
        }
        if (n != found || arrives == 1) /* it sends, was not picked, or a flit arrives: next cycle */
            next_v[next_n++] = w;         /* (room reserved: one entry per worm woken now) */
        else if (arrives != UINT32_MAX) /* nothing to send: look again when a flit arrives */
            wake(e, w, c + arrives);
    }
    next->n = next_n;
    woken->n = 0;
    /* The sends, latest found first: their worms are the likeliest still in cache.
     * Their order changes no result: each send changes its own worm and channel, what
     * it queues for later cycles is ordered there (headers and tails by creation
     * number), and the VCs it frees are granted channel by channel. */
    for (uint32_t k = n; k-- > 0;) {
        const struct flit_candidate *x = &cand[k];
        if (V > 1) { /* one owner per channel with one VC: every candidate sends */
            struct flit_channel *ch = &chans[x->ch];
            if (ch->pick != k)
                continue;
            ch->pick = MSG_NONE;
            ch->rr_last = x->vc;
        }
        send(e, x, c);
    }
}

static void deliver(struct flit_engine *e, int64_t c)
{
    const struct engine_env *env = &e->env;
    struct u32vec *b = &e->deliver_cal[c & e->deliver_mask];
    /* Tails arriving in the same cycle are delivered in creation order, whatever order
     * their last flits were sent in: the statistics' sums do not depend on how the
     * cycle found its moves. */
    if (b->n > 1)
        creation_order(e, b);
    for (uint32_t k = 0; k < b->n; k++) {
        uint32_t w = b->v[k];
        struct worm *x = &e->worms[w];
        if (x->eject) { /* gated: delivered when its destination takes it (grant_ejections) */
            x->eject |= EJECT_TAIL_IN;
            continue;
        }
        if (e->wormhole)
            release(e, w, x->hops - 1);
        flit_make_inactive(e, w);
        if (e->obs.delivered)
            e->obs.delivered(e->obs.ctx, x, c);
        struct message *msg = &env->pool->msgs[x->msg];
        const struct delay_parts parts = { (double)x->grant0 - msg->created, (double)(c - x->grant0) };
        if (env->probe->window_open) {
            e->flits_delivered += x->flits;
            moments_add(&e->blocked_per_msg, (double)x->blocked);
        }
        msg->at = msg->dst;
        uint32_t m = x->msg;
        flit_free_worm(e, w);
        engine_deliver_at(env, m, env->kernel->now, &parts);
    }
    b->n = 0;
}

void flit_tick(struct kernel *k, void *ctx, uint32_t unused)
{
    (void)unused;
    struct flit_engine *e = ctx;
    int64_t c = e->tick_at;
    e->cycle = c;
    e->tick_at = -1;
    if (e->env.probe->window_open && !e->open_seen) {
        e->open_seen = true;
        e->at_source_open = e->at_source;
    }
    if (e->retries.n)
        flit_offer_retries(e, c);
    flit_offer(e, c);
    join_queues(e, c);
    if (e->routing == FLIT_PER_HOP)
        allocate_per_hop(e, c);
    else
        allocate(e, c);
    if (e->eject_wait.n)
        flit_grant_ejections(e, c);
    move(e, c);
    deliver(e, c);
    if ((e->waiting || e->eject_wait.n) && c % e->deadlock_interval == 0 && !flit_resolve_deadlocks(e, c)) {
        kernel_request_stop(k, KERNEL_FAILED);
        return;
    }
    int64_t next = -1;
    if (e->n_active || e->waiting || e->ready_count)
        next = c + 1;
    else if (e->pending_head != MSG_NONE)
        next = flit_offer_cycle(e, e->pending_head);
    for (uint32_t i = 0; i < e->retries.n; i++)
        if (next < 0 || e->worms[e->retries.v[i]].eligible < next)
            next = e->worms[e->retries.v[i]].eligible;
    if (next >= 0) {
        e->tick_at = next;
        kernel_schedule(k, (double)next - k->now, e->ev_tick, 0);
    }
}
