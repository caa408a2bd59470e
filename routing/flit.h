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
 *    the message is delivered when its tail arrives.
 *  - Wormhole: a VC is released when the tail leaves its far-end buffer (sent on, or
 *    consumed at the destination); cut-through: buffers are unbounded and a VC is
 *    released when the tail has been sent over it (the message is stored whole at the
 *    node holding the header).  A released VC can be granted from the next cycle.
 *  - Classes (dateline): on a torus with virtual_channels >= 2, a hop uses the upper
 *    half of the VCs once the message has crossed the wrap-around link of that
 *    dimension (the crossing hop included), else the lower half; otherwise any VC.
 *    Dimension order on a torus is then deadlock-free.
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
 * Paths are drawn hop by hop when the message is created (routing stream of each node
 * on the path; a retry's when it is offered again), so routing must be oblivious
 * (ecube, random-minimal).
 */
#ifndef ROUTING_FLIT_H
#define ROUTING_FLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "../sim/core/stats.h"
#include "engine.h"

struct worm {
    uint32_t msg;         /* in env.pool->msgs */
    uint32_t src, flits, hops;
    uint32_t acquired;    /* hops granted so far (the header asks for hop `acquired`) */
    uint32_t lo;          /* first hop the tail has not yet been sent over */
    uint32_t next;        /* intrusive link: pending, source queue, channel queue, free list */
    uint32_t active_pos;  /* index in the active list, MSG_NONE when not active */
    uint64_t id;          /* creation number: ties among headers ready in the same cycle */
    int64_t eligible, ready, grant0, blocked;
    uint32_t *channel, *to, *vc, *cls, *sent, *sent_at; /* per hop; sent_at: last L send cycles */
};

struct flit_observer {
    void *ctx;
    void (*offered)(void *ctx, const struct worm *w);            /* at its offer cycle */
    void (*delivered)(void *ctx, const struct worm *w, int64_t cycle);
};

struct u32vec {
    uint32_t *v;
    uint32_t n, cap;
};

struct ready_header { /* sorting the headers ready in one cycle */
    uint64_t id;
    uint32_t worm;
};

struct flit_engine {
    struct engine_env env;
    bool wormhole, finite;
    uint32_t V, B, r, L; /* VCs, flit buffers (UINT32_MAX: unbounded), router delay, link latency */
    bool dateline;
    bool recover;        /* routing.deadlock = recover */
    uint32_t deadlock_interval, recovery_delay;
    uint32_t radix;      /* torus: k, for the dateline */
    uint32_t max_hops, stride;
    uint32_t ev_tick;
    int64_t tick_at;     /* cycle of the scheduled tick, -1 when none */
    int64_t cycle;

    struct worm *worms;
    uint32_t *slab;
    uint32_t worm_cap, worm_free;
    uint32_t pending_head, pending_tail;
    uint32_t *src_busy, *src_head, *src_tail; /* per node */
    uint32_t *active, n_active;
    uint32_t *owner;     /* channels * V: worm holding the VC, MSG_NONE when free */
    uint32_t *wait_head, *wait_tail;
    uint8_t *dirty;      /* channel has queued headers and something changed */
    struct u32vec dirty_list, cand_w, cand_i, touched;
    uint32_t *rr_last, *pick;
    struct u32vec *ready_cal, *deliver_cal;
    uint32_t ready_slots, deliver_slots;
    uint32_t waiting;    /* headers in channel queues */
    uint32_t ready_count, pending_count; /* entries in the ready calendar; created, not yet offered */
    struct u32vec retries; /* aborted worms waiting for their new offer (worm.eligible) */
    struct ready_header *order; /* scratch of join_queues */
    uint32_t order_cap;

    /* Measurement (inside the window). */
    uint64_t *requests, *blocked_requests, *blocked_cycles; /* per channel */
    uint64_t offered, refused, flits_delivered, recoveries;
    int64_t at_source, at_source_open; /* offered or pending, not yet granted hop 0 */
    bool open_seen;
    struct moments blocked_per_msg;
    struct flit_observer obs;
};

/* Internal to routing/flit*.c: a new message (engine_ops.inject), one cycle (the
 * tick event), growing the worm pool. */
void flit_inject(struct flit_engine *e, uint32_t msg);
void flit_tick(struct kernel *k, void *ctx, uint32_t unused);
bool flit_pool_grow(struct flit_engine *e);

/* engine_ops.figures of both (routing/flit_figures.c). */
void flit_figures(const void *self, const struct figure_sink *sink);
/* engine_ops.channel_figures of both (routing/flit_figures.c). */
void flit_channel_figures(const void *self, uint32_t ch, struct channel_figures *out);
/* For tests, which check the engine's state against a reference model: the instance
 * of a wormhole or cut-through engine (SWITCH_PIPELINED), else NULL. */
struct flit_engine *flit_engine_of(const struct engine_ops *ops, void *self);
/* Finds headers that can never be granted; if there are any, writes a message naming
 * a cycle of channels into buf, the youngest worm of that cycle into *victim, and
 * returns true.  (routing/flit_deadlock.c) */
bool flit_find_deadlock(struct flit_engine *e, char *buf, size_t size, uint32_t *victim);

#endif
