/* Netrace replay: the dependency window, the whole-file scan and the arrival process
 * that names them (see netrace.h). */
#include "netrace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/core/params.h"
#include "workload.h"

extern const struct cfg_param_table trace_param_table; /* workload.trace: workloads/trace.c */

/* --- ids held: open addressing, linear probing, deletion by backward shift --- */

enum { EMPTY, NAMED, HELD, INJECTED, READ };
#define NONE UINT32_MAX

struct entry {
    uint64_t namer;  /* NAMED in a scan: the packet number that named it */
    uint32_t id, waiting, rec, namer_id;
    uint8_t state;
};

struct table {
    struct entry *e;
    size_t cap, n, most; /* cap a power of two, n <= cap / 2 */
};

static size_t slot_of(const struct table *t, uint32_t id) { return (size_t)((id * 2654435761u) & (t->cap - 1)); }

static struct entry *find(struct table *t, uint32_t id)
{
    for (size_t i = slot_of(t, id);; i = (i + 1) & (t->cap - 1)) {
        if (t->e[i].state == EMPTY)
            return NULL;
        if (t->e[i].id == id)
            return &t->e[i];
    }
}

static bool grow(struct table *t);

/* A new entry for id (not present); NULL when out of memory. */
static struct entry *insert(struct table *t, uint32_t id, uint8_t state)
{
    if (2 * (t->n + 1) > t->cap && !grow(t))
        return NULL;
    size_t i = slot_of(t, id);
    while (t->e[i].state != EMPTY)
        i = (i + 1) & (t->cap - 1);
    t->e[i] = (struct entry){ .id = id, .state = state, .rec = NONE };
    if (++t->n > t->most)
        t->most = t->n;
    return &t->e[i];
}

static bool grow(struct table *t)
{
    struct table old = *t;
    size_t cap = old.cap ? 2 * old.cap : 256;
    struct entry *e = calloc(cap, sizeof *e);
    if (!e)
        return false;
    *t = (struct table){ e, cap, 0, old.most };
    for (size_t i = 0; i < old.cap; i++)
        if (old.e[i].state != EMPTY) {
            size_t j = slot_of(t, old.e[i].id);
            while (t->e[j].state != EMPTY)
                j = (j + 1) & (cap - 1);
            t->e[j] = old.e[i];
            t->n++;
        }
    free(old.e);
    return true;
}

static void erase(struct table *t, struct entry *x)
{
    size_t i = (size_t)(x - t->e), mask = t->cap - 1;
    t->e[i].state = EMPTY;
    t->n--;
    for (size_t j = (i + 1) & mask; t->e[j].state != EMPTY; j = (j + 1) & mask) {
        size_t home = slot_of(t, t->e[j].id);
        /* entry j may move to the hole i when its home is not in (i, j] cyclically */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            t->e[i] = t->e[j];
            t->e[j].state = EMPTY;
            i = j;
        }
    }
}

/* --- the scan --- */

/* The packets of the cycle being read and the edges they name: a dependency cycle can
 * only lie within one cycle (a dependent never comes at an earlier cycle). */
struct edge {
    uint32_t from, to;
};

struct this_cycle {
    uint32_t *ids, *queue;
    uint64_t *numbers;
    struct edge *edges;
    size_t n, cap, n_edges, cap_edges;
};

static int by_from(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    return (x->from > y->from) - (x->from < y->from);
}

/* Room for one more packet (and its queue slot) or edge; false when out of memory. */
static bool room(struct this_cycle *c, bool edge)
{
    if (edge ? c->n_edges < c->cap_edges : c->n < c->cap)
        return true;
    size_t grown = (edge ? c->cap_edges : c->cap) ? 2 * (edge ? c->cap_edges : c->cap) : 256;
    if (edge) {
        struct edge *e = realloc(c->edges, grown * sizeof *e);
        if (!e)
            return false;
        c->edges = e;
        c->cap_edges = grown;
        return true;
    }
    uint32_t *ids = realloc(c->ids, grown * sizeof *ids);
    if (ids)
        c->ids = ids;
    uint32_t *queue = ids ? realloc(c->queue, grown * sizeof *queue) : NULL;
    if (queue)
        c->queue = queue;
    uint64_t *numbers = queue ? realloc(c->numbers, grown * sizeof *numbers) : NULL;
    if (!numbers)
        return false;
    c->numbers = numbers;
    c->cap = grown;
    return true;
}

/* The cycle is over: refuses a dependency cycle among its packets (naming the first
 * in the file that is on one or waits for one; Kahn's order over the cycle's edges),
 * then forgets its ids. */
static bool close_cycle(struct table *t, struct this_cycle *c, const char *path, struct cfg_error *err)
{
    for (size_t i = 0; i < c->n; i++) { /* waiting: its dependencies within the cycle; namer: taken */
        struct entry *x = find(t, c->ids[i]);
        x->waiting = 0;
        x->namer = 0;
    }
    size_t kept = 0;
    for (size_t k = 0; k < c->n_edges; k++) {
        struct entry *x = find(t, c->edges[k].to);
        if (x && x->state == READ) { /* else to a later cycle: no edge of this one */
            x->waiting++;
            c->edges[kept++] = c->edges[k];
        }
    }
    if (kept > 1)
        qsort(c->edges, kept, sizeof *c->edges, by_from);
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < c->n; i++)
        if (find(t, c->ids[i])->waiting == 0)
            c->queue[tail++] = c->ids[i];
    while (head < tail) {
        uint32_t u = c->queue[head++];
        find(t, u)->namer = 1;
        size_t lo = 0, hi = kept; /* the first edge from u */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (c->edges[mid].from < u)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < kept && c->edges[lo].from == u; lo++) {
            struct entry *d = find(t, c->edges[lo].to);
            if (--d->waiting == 0)
                c->queue[tail++] = d->id;
        }
    }
    for (size_t i = 0; tail < c->n && i < c->n; i++)
        if (!find(t, c->ids[i])->namer) {
            netrace_blame(err, path, c->numbers[i], c->ids[i], "it waits, through the packets it waits for, on "
                          "itself: a dependency cycle within its cycle");
            return false;
        }
    for (size_t i = 0; i < c->n; i++)
        erase(t, find(t, c->ids[i]));
    c->n = c->n_edges = 0;
    return true;
}

static bool scan_fail(struct cfg_error *err, const char *path)
{
    netrace_blame(err, path, 0, 0, "out of memory");
    return false;
}

/* One packet read by the scan; false with *err. */
static bool scan_packet(struct table *t, struct this_cycle *c, const struct netrace_packet *p, uint64_t number,
                        const char *path, struct cfg_error *err)
{
    struct entry *x = find(t, p->id);
    if (x && x->state == READ) {
        netrace_blame(err, path, number, p->id, "its id is already a packet's at this cycle");
        return false;
    }
    if (x)
        erase(t, x); /* it was named: now it follows */
    if (!room(c, false) || !insert(t, p->id, READ))
        return scan_fail(err, path);
    c->ids[c->n] = p->id;
    c->numbers[c->n++] = number;
    for (unsigned i = 0; i < p->num_deps; i++) {
        if (!room(c, true))
            return scan_fail(err, path);
        c->edges[c->n_edges++] = (struct edge){ p->id, p->deps[i] };
        if (find(t, p->deps[i]))
            continue;
        struct entry *d = insert(t, p->deps[i], NAMED);
        if (!d)
            return scan_fail(err, path);
        d->namer = number;
        d->namer_id = p->id;
    }
    return true;
}

bool netrace_scan(const char *path, uint32_t terminals, struct netrace_scan *out, struct cfg_error *err)
{
    struct netrace_file *f = netrace_open(path, terminals, err);
    if (!f)
        return false;
    *out = (struct netrace_scan){ .header = *netrace_header(f), .shortest = 72 };
    struct table t = { 0 };
    struct this_cycle c = { 0 };
    struct netrace_packet *p = malloc(sizeof *p);
    bool ok = p && grow(&t);
    if (!ok)
        scan_fail(err, path);
    enum netrace_status s = NETRACE_ERROR;
    while (ok && (s = netrace_next(f, p, err)) == NETRACE_PACKET) {
        uint64_t number = netrace_count(f);
        if (number == 1)
            out->first_cycle = p->cycle;
        if (p->cycle != out->last_cycle && !close_cycle(&t, &c, path, err)) { /* its ids can no longer be named */
            ok = false;
            break;
        }
        out->last_cycle = p->cycle;
        unsigned bytes = (unsigned)netrace_type_bytes(p->type);
        if (bytes < out->shortest)
            out->shortest = bytes;
        ok = scan_packet(&t, &c, p, number, path, err);
    }
    ok = ok && s == NETRACE_END && close_cycle(&t, &c, path, err);
    out->packets = netrace_count(f);
    out->most_held = t.most;
    const struct entry *missing = NULL; /* the first packet in the file naming an id that never follows */
    for (size_t i = 0; ok && i < t.cap; i++)
        if (t.e[i].state == NAMED && (!missing || t.e[i].namer < missing->namer ||
                                      (t.e[i].namer == missing->namer && t.e[i].id < missing->id)))
            missing = &t.e[i];
    if (missing) {
        char m[200];
        snprintf(m, sizeof m, "its dependent id %u does not follow it in the trace (missing, or at an earlier cycle)",
                 missing->id);
        netrace_blame(err, path, missing->namer, missing->namer_id, m);
        ok = false;
    }
    if (ok && out->packets == 0) {
        netrace_blame(err, path, 0, 0, "the trace has no packets");
        ok = false;
    }
    free(t.e);
    free(c.ids);
    free(c.queue);
    free(c.numbers);
    free(c.edges);
    free(p);
    netrace_close(f);
    return ok;
}

/* --- the replay --- */

struct netrace_replay {
    struct netrace_file *f;
    struct netrace_packet ahead; /* the next packet, read but not yet due */
    bool have_ahead;
    struct table t;
    struct netrace_record *recs;
    uint32_t n_recs, cap_recs, free_rec, held_recs;
    uint32_t *batch;
    size_t n_batch, cap_batch;
};

struct netrace_replay *netrace_replay_open(const char *path, uint32_t terminals, struct cfg_error *err)
{
    struct netrace_replay *r = calloc(1, sizeof *r);
    if (!r || !grow(&r->t)) {
        free(r);
        netrace_blame(err, path, 0, 0, "out of memory");
        return NULL;
    }
    r->free_rec = NONE;
    r->f = netrace_open(path, terminals, err);
    enum netrace_status s = r->f ? netrace_next(r->f, &r->ahead, err) : NETRACE_ERROR;
    if (s == NETRACE_ERROR) {
        netrace_replay_free(r);
        return NULL;
    }
    r->have_ahead = s == NETRACE_PACKET;
    return r;
}

double netrace_replay_next_cycle(const struct netrace_replay *r) { return r->have_ahead ? (double)r->ahead.cycle : INFINITY; }

const struct netrace_record *netrace_replay_record(const struct netrace_replay *r, uint32_t rec) { return &r->recs[rec]; }

size_t netrace_replay_held(const struct netrace_replay *r) { return r->t.n; }
size_t netrace_replay_most_held(const struct netrace_replay *r) { return r->t.most; }

static uint32_t take_record(struct netrace_replay *r)
{
    if (r->free_rec != NONE) {
        uint32_t k = r->free_rec;
        r->free_rec = r->recs[k].next_free;
        return k;
    }
    if (r->n_recs == r->cap_recs) {
        uint32_t cap = r->cap_recs ? 2 * r->cap_recs : 256;
        struct netrace_record *g = cap > r->cap_recs ? realloc(r->recs, (size_t)cap * sizeof *g) : NULL;
        if (!g)
            return NONE;
        r->recs = g;
        r->cap_recs = cap;
    }
    return r->n_recs++;
}

/* Takes the packet ahead into a record and its entries; false with *err when out of
 * memory or when its id is a packet's still held (ids are unique among the packets a
 * replay holds). */
static bool hold(struct netrace_replay *r, struct cfg_error *err)
{
    const struct netrace_packet *p = &r->ahead;
    struct entry *e = find(&r->t, p->id);
    if (e && (e->state == HELD || e->state == INJECTED)) {
        netrace_blame(err, netrace_path(r->f), netrace_count(r->f), p->id, "its id is a packet's not yet delivered");
        return false;
    }
    uint32_t k = take_record(r);
    if (k == NONE)
        return false;
    struct netrace_record *x = &r->recs[k];
    *x = (struct netrace_record){ .cycle = (double)p->cycle, .length = netrace_type_bytes(p->type), .id = p->id,
                                  .src = p->src, .dst = p->dst, .ndeps = p->num_deps, .next_free = NONE };
    if (p->num_deps && !(x->deps = malloc(p->num_deps * sizeof *x->deps)))
        return false;
    if (p->num_deps)
        memcpy(x->deps, p->deps, p->num_deps * sizeof *x->deps);
    if (!e && !(e = insert(&r->t, p->id, HELD)))
        return false;
    e->state = HELD;
    e->rec = k;
    for (unsigned i = 0; i < p->num_deps; i++) {
        struct entry *d = find(&r->t, p->deps[i]);
        if (!d && !(d = insert(&r->t, p->deps[i], NAMED)))
            return false;
        if (d->state != INJECTED) /* the scan refuses naming one already on its way */
            d->waiting++;
    }
    if (r->n_batch == r->cap_batch) {
        size_t cap = r->cap_batch ? 2 * r->cap_batch : 256;
        uint32_t *g = realloc(r->batch, cap * sizeof *g);
        if (!g)
            return false;
        r->batch = g;
        r->cap_batch = cap;
    }
    r->batch[r->n_batch++] = k;
    return true;
}

bool netrace_replay_read(struct netrace_replay *r, double now, netrace_ready_fn *ready, void *ctx,
                         struct cfg_error *err)
{
    r->n_batch = 0;
    while (r->have_ahead && (double)r->ahead.cycle <= now) {
        err->message[0] = '\0';
        if (!hold(r, err)) {
            if (!err->message[0])
                netrace_blame(err, netrace_path(r->f), netrace_count(r->f), r->ahead.id, "out of memory");
            return false;
        }
        enum netrace_status s = netrace_next(r->f, &r->ahead, err);
        if (s == NETRACE_ERROR)
            return false;
        r->have_ahead = s == NETRACE_PACKET;
    }
    for (size_t i = 0; i < r->n_batch; i++) {
        struct entry *e = find(&r->t, r->recs[r->batch[i]].id);
        if (e->waiting == 0) {
            e->state = INJECTED;
            ready(ctx, r->batch[i]);
        }
    }
    return true;
}

void netrace_replay_done(struct netrace_replay *r, uint32_t rec, netrace_ready_fn *ready, void *ctx)
{
    struct netrace_record *x = &r->recs[rec];
    for (uint32_t i = 0; i < x->ndeps; i++) {
        struct entry *d = find(&r->t, x->deps[i]);
        if (!d || d->state == INJECTED || d->waiting == 0)
            continue;
        if (--d->waiting == 0 && d->state == HELD) {
            d->state = INJECTED;
            ready(ctx, d->rec);
        }
    }
    struct entry *e = find(&r->t, x->id);
    if (e && e->rec == rec)
        erase(&r->t, e);
    free(x->deps);
    x->deps = NULL;
    x->next_free = r->free_rec;
    r->free_rec = rec;
}

void netrace_replay_free(struct netrace_replay *r)
{
    if (!r)
        return;
    for (uint32_t k = 0; k < r->n_recs; k++)
        free(r->recs[k].deps);
    free(r->recs);
    free(r->t.e);
    free(r->batch);
    netrace_close(r->f);
    free(r);
}

/* --- the arrival process --- */

static bool check(const struct config *cfg, struct cfg_error *err)
{
    const char *key = cfg->run.duration > 0 ? "run.duration" : cfg->run.precision > 0 ? "run.precision"
                      : cfg->run.warmup[0] == 'a'                                      ? "run.warmup"
                                                                                       : NULL;
    if (key)
        cfg_blame(cfg, key, err, "netrace arrivals measure every packet of the trace, to its end: leave %s out", key);
    return key == NULL;
}

const struct arrival_ops arrival_netrace = {
    .name = "netrace",
    .help = "replay workload.trace, a Netrace v1 trace (bzip2): each packet at its cycle or once the packets it "
            "depends on are delivered, whichever is later; lengths in bytes (rate and destination unused)",
    .params = &trace_param_table,
    .traits = ARRIVAL_REPLAY | ARRIVAL_DEPENDENCIES,
    .check = check,
};
