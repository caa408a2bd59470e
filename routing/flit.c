/* The flit cycle engine behind wormhole and cut-through switching (contract in
 * flit.h; set-up, checks and the engine_ops in flit_setup.c; figures in
 * flit_figures.c).  One kernel event per cycle while anything is in the network, none
 * while it is empty; per cycle the work is proportional to the worms in flight, not to
 * the network's size.  A worm keeps, per hop, only how many flits have been sent over
 * it (and, with link_latency > 1, when the last L were sent): a buffer's contents
 * follow from the counts of two neighbouring hops. */
#include "flit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


static bool vec_grow(struct u32vec *a)
{
    {
        uint32_t cap = a->cap ? 2 * a->cap : 64;
        uint32_t *g = realloc(a->v, (size_t)cap * sizeof *g);
        if (!g)
            return false;
        a->v = g;
        a->cap = cap;
    }
    return true;
}

static void fail(struct flit_engine *e) { kernel_request_stop(e->env.kernel, KERNEL_FAILED); }

static inline void push(struct flit_engine *e, struct u32vec *a, uint32_t x)
{
    if (__builtin_expect(a->n == a->cap, 0) && !vec_grow(a)) {
        fail(e);
        return;
    }
    a->v[a->n++] = x;
}

void flit_push(struct flit_engine *e, struct u32vec *a, uint32_t x) { push(e, a, x); }

/* --- classes: the dateline of a torus --- */

/* Whether the hop cur -> next crosses the wrap-around link, and its dimension. */
static bool wraps(const struct flit_engine *e, uint32_t cur, uint32_t next, unsigned *dim)
{
    uint32_t k = e->radix, p = 1;
    for (unsigned i = 0;; i++, p *= k) {
        uint32_t a = cur / p % k, b = next / p % k;
        if (a != b) {
            *dim = i;
            return b == (a + 1) % k ? a == k - 1 : a == 0;
        }
    }
}

static void vc_range(const struct flit_engine *e, uint32_t cls, uint32_t *lo, uint32_t *hi)
{
    *lo = e->class_lo[cls];
    *hi = e->class_hi[cls];
}

/* --- calendars --- */

static void at_ready(struct flit_engine *e, uint32_t w, int64_t cycle)
{
    e->worms[w].ready = cycle;
    e->ready_count++;
    push(e, &e->ready_cal[cycle % e->ready_slots], w);
}

static void make_active(struct flit_engine *e, uint32_t w)
{
    e->worms[w].active_pos = e->n_active;
    e->active[e->n_active++] = w;
}

static void make_inactive(struct flit_engine *e, uint32_t w)
{
    uint32_t pos = e->worms[w].active_pos, last = e->active[--e->n_active];
    e->active[pos] = last;
    e->worms[last].active_pos = pos;
    e->worms[w].active_pos = MSG_NONE;
}

static void mark_dirty(struct flit_engine *e, uint32_t ch)
{
    if (!e->dirty[ch]) {
        e->dirty[ch] = 1;
        push(e, &e->dirty_list, ch);
    }
}

static void release(struct flit_engine *e, uint32_t w, uint32_t hop)
{
    struct worm *x = &e->worms[w];
    uint32_t ch = x->channel[hop];
    e->owner[(size_t)ch * e->V + x->vc[hop]] = MSG_NONE;
    if (e->wait_head[ch] != MSG_NONE)
        mark_dirty(e, ch);
}

/* --- creation: the path, its classes, the offer --- */

/* Draws x's path from its source (msg->at) to msg->dst, hop by hop, with its classes. */
static bool draw_path(struct flit_engine *e, struct worm *x, struct message *msg)
{
    uint64_t crossed = 0; /* dimensions whose wrap-around link the path has crossed */
    uint32_t h = 0;
    while (msg->at != msg->dst) {
        if (h == e->max_hops) { /* minimal routing never gets here */
            fail(e);
            return false;
        }
        struct hop hop = path_next(e->env.paths, msg->at, msg->dst);
        unsigned dim = 0;
        if (e->dateline && wraps(e, msg->at, hop.next, &dim))
            crossed |= 1ull << dim;
        x->channel[h] = hop.channel;
        x->to[h] = hop.next;
        x->cls[h] = e->dateline && (crossed >> dim & 1);
        x->sent[h] = 0;
        msg->at = hop.next;
        h++;
    }
    msg->at = msg->src;
    x->hops = h;
    msg->hops = h;
    return true;
}

/* x's path as the routing goes: drawn now, or set up for choices hop by hop. */
static bool new_path(struct flit_engine *e, struct worm *x, struct message *msg)
{
    switch (e->routing) {
    case FLIT_VALIANT:
        return flit_valiant_path(e, x, msg);
    case FLIT_PER_HOP:
        return flit_per_hop_path(e, x, msg);
    default:
        return e->dor_chan ? flit_dor_path(e, x, msg) : draw_path(e, x, msg);
    }
}

/* The offer cycle of message m: the cycle after its creation. */
static int64_t offer_cycle(const struct flit_engine *e, uint32_t m)
{
    return (int64_t)floor(e->env.pool->msgs[m].created) + 1;
}

/* A worm for message m, its path drawn (or set up hop by hop): MSG_NONE when out of
 * memory (the run then stops).  Its index goes to msg->link2. */
static uint32_t new_worm(struct flit_engine *e, uint32_t m)
{
    if (e->worm_free == MSG_NONE && !flit_pool_grow(e)) {
        fail(e);
        return MSG_NONE;
    }
    uint32_t w = e->worm_free;
    struct worm *x = &e->worms[w];
    e->worm_free = x->next;
    struct message *msg = &e->env.pool->msgs[m];
    double flits = ceil(msg->length / e->env.topo->class_bandwidth[0]);
    x->msg = m;
    x->id = msg->id;
    x->src = msg->src;
    x->flits = flits < 1 ? 1 : flits > 4e9 ? 4000000000u : (uint32_t)flits;
    x->acquired = x->lo = 0;
    x->next = MSG_NONE;
    x->active_pos = MSG_NONE;
    x->eligible = offer_cycle(e, m);
    x->grant0 = -1;
    x->blocked = 0;
    if (!new_path(e, x, msg))
        return MSG_NONE;
    msg->link2 = w;
    return w;
}

/* Message m's worm, made now if its path waited (lazy paths). */
static uint32_t worm_of(struct flit_engine *e, uint32_t m)
{
    uint32_t w = e->env.pool->msgs[m].link2;
    return w != MSG_NONE ? w : new_worm(e, m);
}

void flit_inject(struct flit_engine *e, uint32_t m)
{
    const struct engine_env *env = &e->env;
    struct message *msg = &env->pool->msgs[m];
    msg->link = msg->link2 = MSG_NONE;
    if (!e->lazy_paths && new_worm(e, m) == MSG_NONE)
        return;
    if (e->pending_tail == MSG_NONE)
        e->pending_head = m;
    else
        env->pool->msgs[e->pending_tail].link = m;
    e->pending_tail = m;
    e->pending_count++;
    e->at_source++;
    if (e->tick_at < 0) {
        e->tick_at = offer_cycle(e, m);
        kernel_schedule(env->kernel, (double)e->tick_at - env->kernel->now, e->ev_tick, 0);
    }
}

static void free_worm(struct flit_engine *e, uint32_t w)
{
    e->worms[w].next = e->worm_free;
    e->worm_free = w;
}

/* The source's injection line is free from `cycle` on: its next message's header. */
void flit_source_next(struct flit_engine *e, uint32_t node, int64_t cycle)
{
    uint32_t m = e->src_head[node];
    e->src_busy[node] = MSG_NONE;
    if (m == MSG_NONE)
        return;
    struct message *msg = &e->env.pool->msgs[m];
    e->src_head[node] = msg->link;
    if (e->src_head[node] == MSG_NONE)
        e->src_tail[node] = MSG_NONE;
    msg->link = MSG_NONE;
    uint32_t w = worm_of(e, m);
    if (w == MSG_NONE)
        return;
    e->src_busy[node] = w;
    at_ready(e, w, cycle + e->r);
}

static bool first_channel_free(const struct flit_engine *e, const struct worm *x)
{
    uint32_t ch = x->channel[0], lo, hi;
    if (e->wait_head[ch] != MSG_NONE)
        return false;
    vc_range(e, x->cls[0], &lo, &hi);
    for (uint32_t v = lo; v < hi; v++)
        if (e->owner[(size_t)ch * e->V + v] == MSG_NONE)
            return true;
    return false;
}

/* Messages whose offer cycle has come join their source's queue (or are refused).
 * The source queues and the list of messages not yet offered hold messages (linked
 * through msg->link), so that with lazy paths a message waiting at its source has no
 * worm: it gets one, and its path, when its header reaches the injection line. */
static void offer(struct flit_engine *e, int64_t c)
{
    const struct engine_env *env = &e->env;
    while (e->pending_head != MSG_NONE && offer_cycle(e, e->pending_head) <= c) {
        uint32_t m = e->pending_head;
        struct message *msg = &env->pool->msgs[m];
        e->pending_head = msg->link;
        if (e->pending_head == MSG_NONE)
            e->pending_tail = MSG_NONE;
        e->pending_count--;
        msg->link = MSG_NONE;
        uint32_t node = msg->src;
        bool now = e->src_busy[node] == MSG_NONE;
        /* an observer sees the path at the offer; a finite buffer asks its first channel */
        uint32_t w = msg->link2;
        if (w == MSG_NONE && (now || e->obs.offered || e->finite) && (w = new_worm(e, m)) == MSG_NONE)
            return;
        if (e->obs.offered)
            e->obs.offered(e->obs.ctx, &e->worms[w]);
        if (env->probe->window_open)
            e->offered++;
        if (e->finite && (!now || !first_channel_free(e, &e->worms[w]))) {
            uint32_t first = e->worms[w].channel[0];
            if (env->probe->window_open) {
                e->refused++;
                e->requests[first]++;
                e->blocked_requests[first]++;
            }
            e->at_source--;
            free_worm(e, w);
            engine_refuse(env, m);
            continue;
        }
        if (now) {
            e->src_busy[node] = w;
            at_ready(e, w, c + e->r);
        } else {
            if (e->src_tail[node] == MSG_NONE)
                e->src_head[node] = m;
            else
                env->pool->msgs[e->src_tail[node]].link = m;
            e->src_tail[node] = m;
        }
    }
}

/* Aborted worms whose new offer cycle has come: a new path, and the front of their
 * source's queue (they are older than anything queued there). */
static void offer_retries(struct flit_engine *e, int64_t c)
{
    uint32_t keep = 0;
    for (uint32_t k = 0; k < e->retries.n; k++) {
        uint32_t w = e->retries.v[k];
        struct worm *x = &e->worms[w];
        if (x->eligible > c) {
            e->retries.v[keep++] = w;
            continue;
        }
        struct message *msg = &e->env.pool->msgs[x->msg];
        if (!new_path(e, x, msg))
            return;
        uint32_t node = x->src;
        if (e->src_busy[node] == MSG_NONE) {
            e->src_busy[node] = w;
            at_ready(e, w, c + e->r);
        } else {
            msg->link = e->src_head[node];
            e->src_head[node] = x->msg;
            if (e->src_tail[node] == MSG_NONE)
                e->src_tail[node] = x->msg;
        }
    }
    e->retries.n = keep;
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

static void join_queues(struct flit_engine *e, int64_t c)
{
    struct u32vec *b = &e->ready_cal[c % e->ready_slots];
    /* Ties among headers ready in the same cycle: creation order. */
    creation_order(e, b);
    if (e->routing == FLIT_PER_HOP) { /* no channel yet: one list of its own */
        flit_join_per_hop(e, b);
        e->ready_count -= b->n;
        b->n = 0;
        return;
    }
    for (uint32_t i = 0; i < b->n; i++) {
        uint32_t w = b->v[i];
        struct worm *x = &e->worms[w];
        uint32_t ch = x->channel[x->acquired];
        if (e->env.probe->window_open)
            e->requests[ch]++;
        x->next = MSG_NONE;
        e->ready_count--;
        if (e->wait_tail[ch] == MSG_NONE)
            e->wait_head[ch] = w;
        else
            e->worms[e->wait_tail[ch]].next = w;
        e->wait_tail[ch] = w;
        e->waiting++;
        mark_dirty(e, ch);
    }
    b->n = 0;
}

void flit_grant(struct flit_engine *e, uint32_t w, uint32_t v, int64_t c)
{
    struct worm *x = &e->worms[w];
    uint32_t a = x->acquired, ch = x->channel[a];
    e->owner[(size_t)ch * e->V + v] = w;
    x->vc[a] = v;
    x->acquired++;
    int64_t waited = c - x->ready;
    x->blocked += waited;
    if (waited > 0 && e->env.probe->window_open) {
        e->blocked_requests[ch]++;
        e->blocked_cycles[ch] += (uint64_t)waited;
    }
    if (a == 0) {
        if (x->grant0 < 0) /* a retry's source wait ended at its first attempt's grant */
            x->grant0 = c;
        e->at_source--;
        make_active(e, w);
    }
}

static void allocate(struct flit_engine *e, int64_t c)
{
    for (uint32_t k = 0; k < e->dirty_list.n; k++) {
        uint32_t ch = e->dirty_list.v[k];
        e->dirty[ch] = 0;
        uint32_t prev = MSG_NONE;
        for (uint32_t w = e->wait_head[ch]; w != MSG_NONE;) {
            struct worm *x = &e->worms[w];
            uint32_t next = x->next, lo, hi, v;
            vc_range(e, x->cls[x->acquired], &lo, &hi);
            for (v = lo; v < hi && e->owner[(size_t)ch * e->V + v] != MSG_NONE; v++)
                ;
            if (v < hi) {
                if (prev == MSG_NONE)
                    e->wait_head[ch] = next;
                else
                    e->worms[prev].next = next;
                if (e->wait_tail[ch] == w)
                    e->wait_tail[ch] = prev;
                x->next = MSG_NONE;
                e->waiting--;
                flit_grant(e, w, v, c);
            } else {
                prev = w;
            }
            w = next;
        }
    }
    e->dirty_list.n = 0;
}

/* --- step 3: flits move --- */

/* Whether hop i of worm x may send its next flit at cycle c (start-of-cycle state). */
static bool can_send(const struct flit_engine *e, const struct worm *x, uint32_t i, int64_t c)
{
    uint32_t s = x->sent[i];
    if (i > 0) {
        uint32_t up = x->sent[i - 1];
        if (s >= up)
            return false;
        /* With L > 1 the flit may still be on the wire: the last L sends are kept. */
        if (e->L > 1 && up - s <= e->L && (uint32_t)c - x->sent_at[(size_t)(i - 1) * e->L + s % e->L] < e->L)
            return false;
    }
    if (i + 1 < x->hops && s - x->sent[i + 1] >= e->B)
        return false;
    return true;
}

static void send(struct flit_engine *e, uint32_t w, uint32_t i, int64_t c)
{
    struct worm *x = &e->worms[w];
    uint32_t j = x->sent[i]++;
    if (e->L > 1)
        x->sent_at[(size_t)i * e->L + j % e->L] = (uint32_t)c;
    if (e->env.probe->window_open)
        e->env.chan[x->channel[i]].busy_time += 1;
    if (j == 0 && i + 1 < x->hops)
        at_ready(e, w, c + e->L + e->r);
    if (j + 1 < x->flits)
        return;
    x->lo = i + 1; /* the tail has been sent over hop i */
    if (!e->wormhole)
        release(e, w, i);
    else if (i > 0)
        release(e, w, i - 1);
    if (i + 1 == x->hops)
        push(e, &e->deliver_cal[(c + e->L) % e->deliver_slots], w);
    if (i == 0) /* last: the next message's worm may grow the pool and move x */
        flit_source_next(e, x->src, c + 1);
}

static void move(struct flit_engine *e, int64_t c)
{
    e->cand_w.n = e->cand_i.n = 0;
    for (uint32_t k = 0; k < e->n_active; k++) {
        uint32_t w = e->active[k];
        const struct worm *x = &e->worms[w];
        for (uint32_t i = x->lo; i < x->acquired; i++) {
            if (!can_send(e, x, i, c))
                continue;
            push(e, &e->cand_w, w);
            push(e, &e->cand_i, i);
        }
    }
    if (e->V == 1) { /* one owner per channel: no two candidates share one */
        for (uint32_t k = 0; k < e->cand_w.n; k++)
            send(e, e->cand_w.v[k], e->cand_i.v[k], c);
        return;
    }
    /* Round robin among the VCs of each channel, after the one that sent last. */
    for (uint32_t k = 0; k < e->cand_w.n; k++) {
        const struct worm *x = &e->worms[e->cand_w.v[k]];
        uint32_t i = e->cand_i.v[k], ch = x->channel[i];
        uint32_t p = e->pick[ch];
        if (p == MSG_NONE) {
            push(e, &e->touched, ch);
            e->pick[ch] = k;
            continue;
        }
        uint32_t last = e->rr_last[ch], V = e->V;
        const struct worm *y = &e->worms[e->cand_w.v[p]];
        uint32_t dk = (x->vc[i] + V - last - 1) % V, dp = (y->vc[e->cand_i.v[p]] + V - last - 1) % V;
        if (dk < dp)
            e->pick[ch] = k;
    }
    for (uint32_t t = 0; t < e->touched.n; t++) {
        uint32_t ch = e->touched.v[t], k = e->pick[ch];
        e->pick[ch] = MSG_NONE;
        uint32_t w = e->cand_w.v[k], i = e->cand_i.v[k];
        e->rr_last[ch] = e->worms[w].vc[i];
        send(e, w, i, c);
    }
    e->touched.n = 0;
}

static void deliver(struct flit_engine *e, int64_t c)
{
    const struct engine_env *env = &e->env;
    struct u32vec *b = &e->deliver_cal[c % e->deliver_slots];
    for (uint32_t k = 0; k < b->n; k++) {
        uint32_t w = b->v[k];
        struct worm *x = &e->worms[w];
        if (e->wormhole)
            release(e, w, x->hops - 1);
        make_inactive(e, w);
        if (e->obs.delivered)
            e->obs.delivered(e->obs.ctx, x, c);
        struct message *msg = &env->pool->msgs[x->msg];
        msg->node_time = (double)x->grant0 - msg->created;
        msg->link_time = (double)(c - x->grant0);
        if (env->probe->window_open) {
            e->flits_delivered += x->flits;
            moments_add(&e->blocked_per_msg, (double)x->blocked);
        }
        msg->at = msg->dst;
        free_worm(e, w);
        engine_deliver(env, x->msg);
    }
    b->n = 0;
}

/* What recovery (flit_deadlock.c) does to a worm, through the cycle's own steps. */
void flit_release(struct flit_engine *e, uint32_t w, uint32_t hop) { release(e, w, hop); }
void flit_make_inactive(struct flit_engine *e, uint32_t w) { make_inactive(e, w); }

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
        offer_retries(e, c);
    offer(e, c);
    join_queues(e, c);
    if (e->routing == FLIT_PER_HOP)
        flit_allocate_per_hop(e, c);
    else
        allocate(e, c);
    move(e, c);
    deliver(e, c);
    if (e->waiting && c % e->deadlock_interval == 0 && !flit_resolve_deadlocks(e, c)) {
        kernel_request_stop(k, KERNEL_FAILED);
        return;
    }
    int64_t next = -1;
    if (e->n_active || e->waiting || e->ready_count)
        next = c + 1;
    else if (e->pending_head != MSG_NONE)
        next = offer_cycle(e, e->pending_head);
    for (uint32_t i = 0; i < e->retries.n; i++)
        if (next < 0 || e->worms[e->retries.v[i]].eligible < next)
            next = e->worms[e->retries.v[i]].eligible;
    if (next >= 0) {
        e->tick_at = next;
        kernel_schedule(k, (double)next - k->now, e->ev_tick, 0);
    }
}
