/* Flit-level switching: wormhole and virtual cut-through on one cycle engine.
 *
 * Promise (the exact semantics; tests/common/flit_reference.c restates them flit by flit and
 * tests/unit/test_flit.c checks that both give identical per-message cycles):
 *  - Time is in cycles.  A channel moves at most one flit per cycle; a message of
 *    `flits` flits (max(1, ceil(length / bandwidth))) created at time t is offered at
 *    its source at cycle e = floor(t) + 1.  Each source injects one message at a time,
 *    in creation order (one injection line): the next one's header is offered the
 *    cycle after the previous tail left.
 *  - Within cycle c everything is decided on the state at the start of c, in three
 *    steps: (1) headers that became ready at c join the queue of the channel they want
 *    (ties by creation number), (2) every channel grants its free virtual channels to
 *    its queue in order (lowest free VC of the header's class), (3) every channel sends
 *    one flit from one of its VCs (round robin after the VC that sent last) whose next
 *    flit has arrived upstream and, for wormhole, whose buffer at the far end holds
 *    fewer than flit_buffers flits (flits on the wire count: credits).
 *  - A header is ready to ask for hop i at (its arrival at the node) + router_delay;
 *    at the source at (offer cycle) + router_delay.  A flit sent at c arrives at
 *    c + link_latency; a destination consumes flits as they arrive (never blocks) and
 *    the message is delivered when its tail arrives (tails arriving in the same cycle
 *    in creation order).
 *  - Wormhole: a VC is released when the tail leaves its far-end buffer (sent on, or
 *    consumed at the destination); cut-through: buffers are unbounded and a VC is
 *    released when the tail has been sent over it (the message is stored whole at the
 *    node holding the header).  A released VC can be granted from the next cycle.
 *  - Classes (dateline): on a torus with virtual_channels >= 2, a hop uses the upper
 *    half of the VCs once the message has crossed the wrap-around link of that
 *    dimension (the crossing hop included), else the lower half.  Networks of routers
 *    (the dragonfly, Slim Fly, graphs, a concentrated torus) split their VCs into the
 *    classes of flit_classes.h when there are enough of them (a class raised at each
 *    global link, a class per router hop, dateline classes between routers; terminal
 *    links take any VC); otherwise any VC.  Dimension order on a torus, and the
 *    minimal routes of those networks, are then deadlock-free.
 *  - Message classes (request-reply, env.classes): with routing.class_vcs = separate each
 *    class has its own V VCs per channel (replies [V, 2V)) and its own injection line
 *    per source; the routing chooses within the class's set exactly as above.  With
 *    workload.reply_queue = q > 0 a request's header, arrived at its destination t,
 *    waits until t holds fewer than q replies (requests ejected whose reply has not been
 *    granted its first channel), oldest first; until then t takes none of its flits
 *    (at most flit_buffers of them wait in the last VC's buffer) and it is delivered
 *    at that grant if its tail is in, else when its tail arrives.
 *  - routing.finite_buffer (seed 003's finite-buffer mode): a message offered while
 *    its source is injecting another, or while its first channel has no free VC of
 *    its class (or has headers queued), is refused and lost.
 *  - Deadlock: every routing.deadlock_interval cycles (at the end of a cycle c that
 *    is a multiple of it) the headers that can never be granted are found.  With
 *    routing.deadlock = stop the run then stops (exit status 3) naming a cycle of
 *    channels (env.fatal).  With recover, the youngest worm (highest creation number)
 *    of a cycle of waits is aborted, and the search repeats until nothing is left
 *    deadlocked: the aborted worm releases its VCs at once (they can be granted
 *    from c + 1), its flits vanish, its source's injection line is free from c + 1 if
 *    its tail had not left, and at c + 1 + recovery_delay it is offered again at its
 *    source ahead of the messages queued there, on a path drawn anew.  Its delay
 *    counts from its creation; its source wait ends at its first grant.
 *  - Routing (enum flit_routing).  Drawn: an oblivious algorithm's path (ecube,
 *    random-minimal) is drawn hop by hop when the message is created (routing stream
 *    of each node on the path; a retry's when it is offered again).  Valiant: drawn
 *    then too, by dimension order to an intermediate node drawn uniformly from the
 *    source's routing stream and on to the destination; phase 0 on the lower half of
 *    the VCs, phase 1 on the upper, each split into dateline classes on a torus as on
 *    the iq router (vc_classes.h).  On networks of routers without a dimension order
 *    (and a concentrated torus) the intermediate is a router (the dragonfly's: a
 *    group's), reached by the canonical minimal hop, with the classes of
 *    flit_classes.h.  Per hop (adaptive-minimal; random-minimal with
 *    routing.escape_vcs >= 1): VCs [0, E) are escape VCs, [E, V) adaptive; in step (1)
 *    a ready header joins one list instead of a channel queue, and in step (2) every
 *    header of that list asks, in creation order: among the minimal hops from its node
 *    with a free adaptive VC, the one with the most free adaptive VCs (random-minimal:
 *    any), ties uniformly from the routing stream of its node, and its lowest free
 *    adaptive VC; when none has one, the lowest free escape VC of the dimension-order
 *    hop (on a torus, of its dateline class; on a network of routers, the canonical
 *    minimal hop in the class flit_escape_classes() gives the hops taken so far,
 *    adaptive or not), else it waits.  Its hops (channel, to,
 *    vc) are filled as it is granted; hops is the distance.  Escape routes make the
 *    per-hop configurations deadlock-free (Duato); the search treats a per-hop header
 *    as waiting for every VC it could take.
 *
 * This header is the files' contract: the state (struct flit_engine and what it holds)
 * and the few operations on it that more than one file makes, static inline below.  Each
 * file does one job, has its own header and calls only the files after it here, so the
 * calls between them go one way (setup -> cycle -> eject, deadlock -> source -> route, dor):
 *    flit_setup     creation, checks, the two engine_ops
 *    flit_cycle     the cycle: steps 1-3 and deliveries (the kernel's tick)
 *    flit_eject     a bounded reply queue: requests waiting at their destination (called by the cycle)
 *    flit_deadlock  the periodic search and recovery (called by the cycle)
 *    flit_source    the worm pool, new messages and their paths, offers, source queues
 *    flit_route     Valiant paths, per-hop choices with escape VCs (decides, never grants)
 *    flit_dor       dimension-order paths walked on the digits
 *    flit_classes   VC classes on networks of routers (pure arithmetic, shared with the
 *                   static deadlock check's relation)
 *    flit_figures   the figures, read after the run (called through the engine_ops)
 * Needs: engine.h (the engine_env), sim/core/stats.h.
 */
#ifndef ROUTING_FLIT_H
#define ROUTING_FLIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "../sim/core/stats.h"
#include "engine.h"
#include "flit_classes.h"

/* One hop of a worm's path: the channel, the VC held on it and its class, how many
 * flits have been sent over it and the cycle (mod 2^32) of the last send.  A hop's
 * fields share a cache line with its neighbours', which step 3 reads together; with
 * link_latency L = 2 the last send is all there is to know of the flits on its wire
 * (an earlier one has arrived), so a send writes one cache line. */
struct flit_hop {
    uint32_t channel, sent, last_sent;
    uint8_t vc, cls; /* VCs number at most 128 (64 per message class); classes 65 (flit_classes.h) */
};

/* The worm pool's slab holds, per worm, max_hops hops, then the node each leads to,
 * then (L > 2) their send rings. */
enum { FLIT_HOP_WORDS = sizeof(struct flit_hop) / sizeof(uint32_t) };
_Static_assert(sizeof(struct flit_hop) % sizeof(uint32_t) == 0, "a hop is whole words in the slab");

/* The fields step 3 reads come first, in the record's first cache line. */
struct worm {
    uint32_t msg;         /* in env.pool->msgs */
    uint32_t src, flits, hops;
    uint32_t acquired;    /* hops granted so far (the header asks for hop `acquired`) */
    uint32_t lo;          /* first hop the tail has not yet been sent over */
    uint32_t next;        /* intrusive link: pending, source queue, channel queue, free list */
    uint32_t active_pos;  /* index in the active list, MSG_NONE when not active */
    uint32_t scanned;     /* the cycle (mod 2^32) step 3 last looked at its hops */
    struct flit_hop *hop; /* per hop, max_hops of them */
    uint32_t *sent_at;    /* L > 2: per hop, its last send cycles (a ring of at_mask + 1) */
    uint64_t id;          /* creation number: ties among headers ready in the same cycle */
    uint32_t before_joined; /* in a channel queue: the header before those that joined in
                             * its cycle, MSG_NONE when they are at the front */
    int64_t eligible, ready, grant0, blocked;
    uint32_t *to;         /* per hop, the node it leads to (read off the cycle's path) */
    uint32_t vc_base;     /* its class's VC set: VCs [vc_base, vc_base + V) (routing.class_vcs) */
    uint8_t msg_class;    /* MSG_CLASS_REQUEST (also with one class) or MSG_CLASS_REPLY */
    uint8_t eject;        /* a request under a bounded reply queue: enum flit_eject */
};

/* A request's ejection under a bounded reply queue (workload.reply_queue): gated until
 * its header, at its destination, finds room in that terminal's reply queue; meanwhile
 * the destination takes none of its flits (they fill the last hop's buffer).  WAITING:
 * its header has been sent over its last hop (it is in eject_wait); TAIL_IN: its tail
 * has arrived too, so it is delivered at the grant. */
enum flit_eject { EJECT_FREE = 0, EJECT_GATED = 1, EJECT_WAITING = 2, EJECT_TAIL_IN = 4 };

struct flit_observer {
    void *ctx;
    void (*offered)(void *ctx, const struct worm *w);            /* at its offer cycle */
    void (*delivered)(void *ctx, const struct worm *w, int64_t cycle);
};

struct u32vec {
    uint32_t *v;
    uint32_t n, cap;
};

struct flit_candidate { /* step 3: hop i of worm w may send over channel ch on VC vc */
    uint32_t w, i, ch, vc;
};

struct ready_header { /* sorting the headers ready in one cycle */
    uint64_t id;
    uint32_t worm;
};

enum { FLIT_DOR_MAX_DIMS = 32 };

/* What the engine keeps per channel that every flit may touch, in 32 bytes (two to a
 * cache line): the headers waiting for it, step 3's pick and round robin, its busy
 * cycles, and with at most FLIT_INLINE_VCS VCs, who holds them (flit_owner). */
enum { FLIT_INLINE_VCS = 2 };
struct flit_channel {
    uint32_t wait_head, wait_tail; /* headers waiting for a VC, through worm.next */
    uint32_t pick;                 /* step 3: the candidate picked so far, MSG_NONE */
    uint32_t rr_last;              /* the VC that sent last */
    uint32_t owner[FLIT_INLINE_VCS]; /* V <= FLIT_INLINE_VCS: worm holding the VC, MSG_NONE */
    uint32_t busy;                 /* cycles it sent a flit in the window, mod 2^32 */
    uint8_t dirty;                 /* has waiting headers and something changed */
};

_Static_assert(sizeof(struct flit_channel) == 32, "two channel records to a cache line");

/* And what is counted once a request (per channel, inside the window). */
struct flit_channel_counts {
    uint64_t requests, blocked_requests, blocked_cycles;
    uint64_t busy_wraps;           /* times flit_channel.busy wrapped past 2^32 */
};

/* How the simple router routes: paths drawn at creation (oblivious algorithms, and
 * Valiant's two phases), or each hop when the header asks (escape VCs). */
enum flit_routing { FLIT_DRAWN, FLIT_VALIANT, FLIT_PER_HOP };

struct flit_engine {
    struct engine_env env;
    bool wormhole, finite;
    uint32_t V, B, r, L; /* VCs per set, flit buffers (UINT32_MAX: unbounded), router delay, link latency */
    /* VCs per channel: V per set times the sets (2 with request-reply and routing.class_vcs
     * = separate: replies use [V, 2V); else 1).  The routing reasons in one set's VCs
     * [0, V); a worm's vc_base places them, at the grant and in the deadlock search. */
    uint32_t Vt, vc_sets;
    /* Request-reply (env.classes): the bound of the reply queue (0: unbounded), per node
     * the replies it holds (requests ejected whose reply has not been granted its first
     * channel) and those of them the engine has been handed, and the requests whose
     * header waits at its destination for room (EJECT_WAITING, by creation number). */
    uint32_t reply_queue;
    uint32_t *reply_held, *replies_in;
    struct u32vec eject_wait;
    bool dateline;
    enum flit_routing routing;
    /* Classes on networks of routers (rule NONE elsewhere: the lattices' dateline and
     * Valiant classes 0..3 of vc_classes.h). */
    struct flit_classes classes;
    uint32_t class_lo[FLIT_MAX_CLASSES + 1], class_hi[FLIT_MAX_CLASSES + 1]; /* a drawn hop's class: its VCs [lo, hi) */
    /* Per-hop routing: escape VCs [0, E), adaptive [E, V); most free adaptive VCs
     * (adaptive-minimal) or any (random-minimal). */
    uint32_t E;
    /* ... and on a network of routers, the escape route's classes (flit_escape_classes:
     * rule NONE on lattices and where the canonical route is acyclic). */
    struct flit_classes escape;
    bool most_free, both_ways;
    struct u32vec per_hop; /* per-hop headers waiting for a VC, by creation number */
    bool recover;        /* routing.deadlock = recover */
    uint32_t deadlock_interval, recovery_delay;
    uint32_t radix;      /* torus: k, for the dateline */
    uint32_t max_hops, stride;
    /* Dimension order on a k-ary n-cube of radix > 2 (flit_dor.c): every node's
     * outgoing channel by dimension and direction (NULL when not used). */
    uint32_t *dor_chan;
    uint32_t dims, pow[FLIT_DOR_MAX_DIMS];
    bool wrap, descending;
    uint32_t ev_tick;
    int64_t tick_at;     /* cycle of the scheduled tick, -1 when none */
    int64_t cycle;

    struct worm *worms;
    uint32_t *slab;
    uint32_t worm_cap, worm_free;
    /* Messages created and not yet offered, and each source's queue: message indices
     * linked through msg->link; msg->worm is the message's worm, MSG_NONE while its
     * path waits (lazy_paths).  src_busy: the worm on the source's injection line. */
    uint32_t pending_head, pending_tail;
    uint32_t *src_busy, *src_head, *src_tail; /* per injection line (flit_line) */
    /* The path draws nothing at random (dimension order, per-hop set-up) and no finite
     * buffer asks for it: a message gets its worm and path when its header reaches
     * the injection line, so a long source queue costs a message record each. */
    bool lazy_paths;
    uint32_t *active, n_active;
    uint32_t *owner;     /* V > FLIT_INLINE_VCS: channels * V, worm holding the VC (flit_owner) */
    struct flit_channel *chans;
    struct flit_channel_counts *counts;
    struct u32vec dirty_list;
    struct flit_candidate *cand; /* step 3's candidates this cycle */
    uint32_t cand_cap;
    /* Calendars of worms by cycle, each a ring of a power of two slots (slot c & mask):
     * headers ready to ask, tails arriving at their destination, and the worms step 3
     * looks at (it looks only at those whose state changed; repeats allowed, each is
     * looked at once a cycle). */
    struct u32vec *ready_cal, *deliver_cal, *wake_cal;
    uint32_t ready_mask, deliver_mask, wake_mask;
    uint32_t at_mask;    /* L > 2: a hop's last send cycles, a ring of at_mask + 1 >= L */
    uint32_t waiting;    /* headers waiting for a VC: in channel queues and the per-hop list */
    uint32_t ready_count, pending_count; /* entries in the ready calendar; created, not yet offered */
    struct u32vec retries; /* aborted worms waiting for their new offer (worm.eligible) */
    struct ready_header *order; /* scratch of creation_order (per-hop joins, deliveries) */
    uint32_t order_cap;

    /* Measurement (inside the window; per channel in chans). */
    uint64_t offered, refused, flits_delivered, recoveries;
    int64_t at_source, at_source_open; /* offered or pending, not yet granted hop 0 */
    bool open_seen;
    struct moments blocked_per_msg;
    struct flit_observer obs;
};

/* --- The state's own operations, made by more than one file.  Static inline: the cycle
 * makes them per flit or per message (as when they were its own statics), and a call
 * across files would cost it. --- */

/* The holders of channel ch's VCs (V of them; MSG_NONE: free). */
static inline uint32_t *flit_owner(const struct flit_engine *e, uint32_t ch)
{
    return e->Vt <= FLIT_INLINE_VCS ? e->chans[ch].owner : e->owner + (size_t)ch * e->Vt;
}

/* The VCs [lo, hi) a drawn hop of class cls of worm x may take (in x's VC set). */
static inline void flit_vc_range(const struct flit_engine *e, const struct worm *x, uint32_t cls, uint32_t *lo,
                                 uint32_t *hi)
{
    *lo = e->class_lo[cls] + x->vc_base;
    *hi = e->class_hi[cls] + x->vc_base;
}

/* The injection line of class cls's messages at node: one per node, but with
 * routing.class_vcs = separate, where each class has its own line as it has its own VCs
 * (a reply never waits behind a request at its source either). */
static inline uint32_t flit_line(const struct flit_engine *e, uint32_t node, uint32_t cls)
{
    return e->vc_sets > 1 ? 2 * node + cls : node;
}

/* Doubles a's room (64 at first): false when out of memory. */
static inline bool flit_vec_grow(struct u32vec *a)
{
    uint32_t cap = a->cap ? 2 * a->cap : 64;
    uint32_t *g = realloc(a->v, (size_t)cap * sizeof *g);
    if (!g)
        return false;
    a->v = g;
    a->cap = cap;
    return true;
}

/* Appends x to a; out of memory stops the run (KERNEL_FAILED) and x is dropped. */
static inline void flit_push(struct flit_engine *e, struct u32vec *a, uint32_t x)
{
    if (__builtin_expect(a->n == a->cap, 0) && !flit_vec_grow(a)) {
        kernel_request_stop(e->env.kernel, KERNEL_FAILED);
        return;
    }
    a->v[a->n++] = x;
}

/* Worm w's header is ready to ask at `cycle` (within the ready calendar's span). */
static inline void flit_at_ready(struct flit_engine *e, uint32_t w, int64_t cycle)
{
    e->worms[w].ready = cycle;
    e->ready_count++;
    flit_push(e, &e->ready_cal[cycle & e->ready_mask], w);
}

/* Something changed on channel ch: step 2 looks at its queue again. */
static inline void flit_mark_dirty(struct flit_engine *e, uint32_t ch)
{
    if (!e->chans[ch].dirty) {
        e->chans[ch].dirty = 1;
        flit_push(e, &e->dirty_list, ch);
    }
}

/* Worm w gives up the VC of its hop `hop` (a tail left it, or recovery aborts w). */
static inline void flit_release(struct flit_engine *e, uint32_t w, uint32_t hop)
{
    struct worm *x = &e->worms[w];
    uint32_t ch = x->hop[hop].channel;
    flit_owner(e, ch)[x->hop[hop].vc] = MSG_NONE;
    if (e->chans[ch].wait_head != MSG_NONE)
        flit_mark_dirty(e, ch);
}

/* Worm w leaves the active list (delivered, or aborted by recovery). */
static inline void flit_make_inactive(struct flit_engine *e, uint32_t w)
{
    uint32_t pos = e->worms[w].active_pos, last = e->active[--e->n_active];
    e->active[pos] = last;
    e->worms[last].active_pos = pos;
    e->worms[w].active_pos = MSG_NONE;
}

#endif
