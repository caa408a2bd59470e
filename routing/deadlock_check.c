/* The static deadlock check: the walk of a routing relation by state and the dependency
 * graph it builds (contract in deadlock_check.h; its cycles in deadlock_cycles.c, Duato's
 * indirect dependencies in deadlock_duato.c, the walk by (node, aux) in deadlock_nodes.c,
 * the verdict for a run in deadlock_verdict.c). */
#include "deadlock_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ports_free(struct ports *p)
{
    free(p->base);
    free(p->to);
    free(p->from);
}

static bool ports_build(const struct topo *t, struct ports *p)
{
    uint32_t C = t->channels;
    p->base = calloc((size_t)C + 1, sizeof *p->base);
    p->from = malloc(((size_t)C + 1) * sizeof *p->from);
    struct hop *hops = malloc((t->max_hops ? t->max_hops : 1) * sizeof *hops);
    if (!p->base || !p->from || !hops)
        goto fail;
    for (int pass = 0; pass < 2; pass++) { /* count, then place */
        for (uint32_t v = 0; v < t->nodes; v++) {
            unsigned n = t->ops->neighbors(t, v, hops, t->max_hops);
            for (unsigned i = 0; i < n; i++) {
                uint32_t ch = hops[i].channel;
                if (pass == 0) {
                    p->base[ch + 1]++;
                    p->from[ch] = v;
                    continue;
                }
                uint32_t k = p->base[ch];
                while (p->to[k] != NONE && p->to[k] != hops[i].next)
                    k++;
                p->to[k] = hops[i].next;
            }
        }
        if (pass == 0) {
            for (uint32_t ch = 0; ch < C; ch++)
                p->base[ch + 1] += p->base[ch];
            p->to = malloc(((size_t)p->base[C] + 1) * sizeof *p->to);
            if (!p->to)
                goto fail;
            memset(p->to, 0xff, ((size_t)p->base[C] + 1) * sizeof *p->to);
        }
    }
    free(hops);
    p->direct = p->base[C] == C;
    for (uint32_t ch = 0; p->direct && ch < C; ch++)
        p->direct = p->base[ch] == ch;
    return true;
fail:
    free(hops);
    ports_free(p);
    return false;
}

static inline uint32_t port_of(const struct ports *p, uint32_t ch, uint32_t node)
{
    if (p->direct)
        return ch;
    for (uint32_t k = p->base[ch]; k < p->base[ch + 1]; k++)
        if (p->to[k] == node)
            return k;
    return NONE;
}

/* --- a set of dependencies (from << 32 | to), open addressing --- */

static size_t mix(uint64_t x, size_t mask)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x & mask;
}

bool dl_edges_add(struct edges *s, uint32_t from, uint32_t to)
{
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        uint64_t *slot = malloc(cap * sizeof *slot);
        if (!slot)
            return false;
        memset(slot, 0xff, cap * sizeof *slot);
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i] != EMPTY) {
                size_t j = mix(s->slot[i], cap - 1);
                while (slot[j] != EMPTY)
                    j = (j + 1) & (cap - 1);
                slot[j] = s->slot[i];
            }
        free(s->slot);
        s->slot = slot;
        s->cap = cap;
    }
    uint64_t key = (uint64_t)from << 32 | to;
    size_t j = mix(key, s->cap - 1);
    while (s->slot[j] != EMPTY) {
        if (s->slot[j] == key)
            return true;
        j = (j + 1) & (s->cap - 1);
    }
    s->slot[j] = key;
    s->n++;
    return true;
}

/* --- the walk --- */

static inline uint32_t place_of(const struct walk *w, const struct dl_step *s)
{
    return s->channel == DL_NONE ? w->P + s->node : port_of(&w->ports, s->channel, s->node);
}

static inline size_t state_index(const struct walk *w, const struct dl_step *s, uint32_t vc)
{
    return ((size_t)place_of(w, s) * w->V + vc) * w->A + s->aux;
}

bool dl_grow(void **a, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return true;
    uint32_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *g = realloc(*a, (size_t)c * size);
    if (!g)
        return false;
    *a = g;
    *cap = c;
    return true;
}

/* This pass numbers each walk's states and keeps its steps (Duato's indirect dependencies). */
static inline bool keeps_steps(const struct walk *w)
{
    return w->mode >= WITNESS;
}

/* Visits state s of walk key (vc = s->lo): false if it was seen; its local number. */
static bool visit(struct walk *w, uint32_t key, const struct dl_step *s, uint32_t *local)
{
    size_t i = state_index(w, s, s->lo);
    key += w->gen;
    if (w->stamp[i] == key + 1) {
        *local = keeps_steps(w) ? w->local[i] : 0;
        return false;
    }
    w->stamp[i] = key + 1;
    *local = 0;
    if (keeps_steps(w)) {
        *local = w->local[i] = w->n_local++;
        uint32_t cap = w->local_cap;
        if (!dl_grow((void **)&w->node_of, &cap, w->n_local, sizeof *w->node_of)) {
            w->failed = true;
            return false;
        }
        w->local_cap = cap;
        w->node_of[*local] = s->channel == DL_NONE ? NONE : s->channel * w->V + s->lo;
    }
    if (w->top == w->stack_cap) {
        size_t cap = w->stack_cap ? 2 * w->stack_cap : 1024;
        struct dl_step *g = realloc(w->stack, cap * sizeof *g);
        if (!g) {
            w->failed = true;
            return false;
        }
        w->stack = g;
        w->stack_cap = cap;
    }
    w->stack[w->top++] = *s;
    return true;
}

static void state_name(const struct walk *w, const struct dl_step *s, char *buf, size_t size)
{
    if (s->channel == DL_NONE) {
        snprintf(buf, size, "a packet at its source %u", s->node);
        return;
    }
    char ch[96];
    dl_channel_name(w->t, s->channel, s->node, ch, sizeof ch);
    snprintf(buf, size, "%s, vc %u", ch, s->lo);
}

static void refuse(struct walk *w, const char *what, const struct dl_step *s)
{
    if (w->refused)
        return;
    char at[128];
    state_name(w, s, at, sizeof at);
    w->refused = true;
    snprintf(w->note, sizeof w->note, "%s %s; %s", what, at, w->rel->fix);
}


/* The steps of state s of walk key (*n of them): the relation's answer for its place (or
 * node: rel->by_node) and aux, asked once per walk whatever else s holds (the relation
 * does not read it), kept in w->pool.  NULL when out of memory. */
const struct dl_step *dl_steps_of(struct walk *w, uint32_t key, const struct dl_step *s, unsigned *n)
{
    size_t i = (size_t)(w->rel->by_node ? s->node : place_of(w, s)) * w->A + s->aux;
    uint32_t stamp = w->gen + key + 1;
    if (w->memo_stamp[i] != stamp) {
        if (!dl_grow((void **)&w->pool, &w->pool_cap, w->pool_n + DL_MAX_STEPS, sizeof *w->pool))
            return NULL;
        w->memo_stamp[i] = stamp;
        w->memo_at[i] = w->pool_n;
        unsigned (*next)(void *, uint32_t, const struct dl_step *, struct dl_step *, unsigned) =
            w->escape_only && w->rel->escape_next ? w->rel->escape_next : w->rel->next;
        w->memo_n[i] = (uint8_t)next(w->rel->self, key, s, w->pool + w->pool_n, DL_MAX_STEPS);
        w->pool_n += w->memo_n[i];
    }
    *n = w->memo_n[i];
    return w->pool + w->memo_at[i];
}

/* One walk: every state reachable from the key's seeds, and the dependencies. */
static bool walk_key(struct walk *w, uint32_t key, uint64_t *states)
{
    const struct dl_relation *rel = w->rel;
    struct dl_step seeds[DL_MAX_STEPS];
    w->top = 0;
    w->n_local = 0;
    w->n_steps = 0;
    for (uint32_t src = 0; src < rel->sources; src++) {
        unsigned n = rel->seeds(rel->self, key, src, seeds, DL_MAX_STEPS);
        for (unsigned i = 0; i < n; i++) {
            uint32_t id;
            seeds[i].channel = DL_NONE;
            seeds[i].lo = 0;
            visit(w, key, &seeds[i], &id);
        }
    }
    w->pool_n = 0;
    while (w->top && !w->failed) {
        struct dl_step s = w->stack[--w->top];
        uint32_t from = keeps_steps(w) ? w->local[state_index(w, &s, s.lo)] : 0;
        unsigned n;
        const struct dl_step *out = dl_steps_of(w, key, &s, &n);
        if (!out)
            return false;
        ++*states;
        if (keeps_steps(w) && !dl_grow((void **)&w->step_from, &w->from_cap, w->n_steps + n * w->V,
                                           sizeof *w->step_from))
            return false;
        if (keeps_steps(w) && !dl_grow((void **)&w->step_to, &w->steps_cap, w->n_steps + n * w->V,
                                           sizeof *w->step_to))
            return false;
        bool escape_step = false;
        for (unsigned i = 0; i < n; i++) {
            const struct dl_step *o = &out[i];
            if (o->channel == DL_NONE) {
                escape_step = true;
                continue;
            }
            if (o->lo >= o->hi) {
                refuse(w, "no virtual channel of its class is left to take at", o);
                continue;
            }
            escape_step |= o->lo < rel->escape;
            for (uint32_t v = o->lo; v < o->hi; v++) {
                struct dl_step t = *o;
                t.lo = (uint16_t)v;
                t.hi = (uint16_t)(v + 1);
                uint32_t to;
                visit(w, key, &t, &to);
                if (w->failed)
                    return false;
                if (s.channel == DL_NONE)
                    continue;
                if (!rel->escape) {
                    if (!dep(w, &s, o->channel, v))
                        return false;
                    continue;
                }
                if (w->mode == DIRECT) { /* escape to escape, whichever way the first was taken */
                    if (s.lo < rel->escape && v < rel->escape && !dep(w, &s, o->channel, v))
                        return false;
                    continue;
                }
                w->step_from[w->n_steps] = from;
                w->step_to[w->n_steps++] = to;
            }
        }
        if (rel->escape && !escape_step && n)
            refuse(w, "the escape VCs are not connected: no escape step from", &s);
        if (!n)
            refuse(w, "the routing offers no step from", &s);
    }
    if (w->failed)
        return false;
    return w->mode == EXACT ? dl_extended_edges(w) : w->mode == WITNESS ? dl_witness(w) : true;
}

/* Every walk of one pass. */
static bool walk_all(struct walk *w, struct dl_result *r)
{
    bool ok = true;
    for (uint32_t key = 0; ok && key < w->rel->keys && !w->witness_failed; key++)
        ok = walk_key(w, key, &r->states);
    w->gen += w->rel->keys;
    return ok;
}

void dl_empty_deps(struct walk *w, uint32_t nodes)
{
    free(w->deps.slot);
    w->deps = (struct edges){ 0 };
    memset(w->seen_succ, 0xff, ((size_t)nodes + 1) * SEEN * sizeof *w->seen_succ);
    if (w->known)
        memset(w->known, 0, (size_t)nodes * sizeof *w->known);
}

/* w->out_slot and w->known when every channel has one sender and a node's out-channels
 * times the VCs fit 64 bits (else dep() uses depend()'s cache): false when out of memory. */
static bool known_build(struct walk *w, uint32_t nodes)
{
    const struct topo *t = w->t;
    if (!w->ports.direct || (uint64_t)t->max_hops * w->V > 64)
        return true;
    struct hop *hops = malloc((t->max_hops ? t->max_hops : 1) * sizeof *hops);
    w->out_slot = malloc(((size_t)t->channels + 1) * sizeof *w->out_slot);
    uint32_t *senders = calloc((size_t)t->channels + 1, sizeof *senders);
    bool ok = hops && w->out_slot && senders;
    for (uint32_t v = 0; ok && v < t->nodes; v++) {
        unsigned n = t->ops->neighbors(t, v, hops, t->max_hops);
        for (unsigned i = 0; i < n; i++) {
            w->out_slot[hops[i].channel] = (uint8_t)i;
            senders[hops[i].channel]++;
        }
    }
    bool one_sender = ok;
    for (uint32_t ch = 0; one_sender && ch < t->channels; ch++)
        one_sender = senders[ch] == 1;
    if (ok && one_sender) {
        w->known = calloc(nodes ? nodes : 1, sizeof *w->known);
        ok = w->known != NULL;
    }
    free(hops);
    free(senders);
    return ok;
}

bool dl_decide(const struct topo *t, const struct dl_relation *rel, struct dl_result *r)
{
    return dl_decide_within(t, rel, -1, r);
}

bool dl_decide_within(const struct topo *t, const struct dl_relation *rel, double exact_work, struct dl_result *r)
{
    struct walk w = { .t = t, .rel = rel, .V = rel->vcs, .A = rel->aux_count ? rel->aux_count : 1 };
    memset(r, 0, sizeof *r);
    r->duato = rel->escape > 0;
    if (!ports_build(t, &w.ports))
        return false;
    w.P = w.ports.base[t->channels];
    size_t states = ((size_t)w.P + t->nodes) * w.V * w.A;
    uint32_t nodes = t->channels * w.V;
    w.stamp = calloc(states, sizeof *w.stamp);
    w.local = rel->escape ? malloc(states * sizeof *w.local) : NULL;
    w.seen_succ = malloc(((size_t)nodes + 1) * SEEN * sizeof *w.seen_succ);
    size_t places = ((size_t)w.P + t->nodes) * w.A;
    w.memo_stamp = calloc(places, sizeof *w.memo_stamp);
    w.memo_at = malloc(places * sizeof *w.memo_at);
    w.memo_n = malloc(places);
    bool ok = w.stamp && (w.local || !rel->escape) && w.seen_succ && w.memo_stamp && w.memo_at && w.memo_n &&
              known_build(&w, nodes);
    if (w.seen_succ)
        memset(w.seen_succ, 0xff, ((size_t)nodes + 1) * SEEN * sizeof *w.seen_succ);
    bool cyclic = false, exact_skipped = false;
    char cycle[360];
    if (ok && rel->escape && rel->by_node && exact_work != DL_EXACT_ONLY) {
        bool proved = false;
        ok = dl_by_node(&w, nodes, r, &proved);
        if (ok && proved) {
            r->nodes = nodes;
            r->edges = w.deps.n;
            r->verdict = DL_PROVED;
            r->by_node = true;
            snprintf(r->key, sizeof r->key, "%s", rel->key ? rel->key : "routing.algorithm");
            goto done;
        }
        /* no order found this way: Duato's three passes decide, from scratch, if a run has
         * the time for them */
        w.refused = w.witness_failed = false;
        w.note[0] = 0;
        r->states = 0;
        if (ok)
            dl_empty_deps(&w, nodes);
        if (ok && exact_work >= 0 && 2.0 * rel->keys * ((double)t->channels + t->nodes) * rel->vcs > exact_work) {
            r->verdict = DL_SKIPPED;
            snprintf(r->note, sizeof r->note, "the walk by node found no order of the escape VCs' dependencies, and "
                     "Duato's passes by state are too big to walk before every run; sim --check-deadlock walks them");
            goto done;
        }
    }
    w.mode = rel->escape ? DIRECT : PLAIN;
    ok = ok && walk_all(&w, r);
    if (ok && !w.refused)
        ok = dl_find_cycle(&w, nodes, cycle, sizeof cycle, &cyclic);
    if (ok && rel->escape && !w.refused && !cyclic) { /* the direct graph is acyclic: now the indirect dependencies */
        r->edges = w.deps.n;
        w.mode = WITNESS;
        w.witness_failed = exact_work == DL_EXACT_ONLY;
        ok = w.witness_failed || (dl_depths(&w, nodes) && walk_all(&w, r));
        if (ok && w.witness_failed && exact_work >= 0 && exact_work < (double)r->states * (t->diameter + 1)) {
            exact_skipped = true;
        } else if (ok && w.witness_failed) { /* no witness: the extended graph itself */
            w.mode = EXACT;
            dl_empty_deps(&w, nodes);
            w.witness_failed = false; /* walk_all stops at a failed witness: the exact pass walks every key */
            ok = walk_all(&w, r) && dl_find_cycle(&w, nodes, cycle, sizeof cycle, &cyclic);
            w.witness_failed = true;
        }
    }
    r->nodes = nodes;
    if (!(rel->escape && !w.witness_failed && !w.refused && !cyclic))
        r->edges = w.deps.n;
    if (ok) {
        r->verdict = exact_skipped ? DL_SKIPPED : w.refused || cyclic ? DL_REFUSED : DL_PROVED;
        snprintf(r->key, sizeof r->key, "%s", rel->key ? rel->key : "routing.algorithm");
        if (exact_skipped)
            snprintf(r->note, sizeof r->note, "the depths of the escape VCs' direct dependencies do not order the "
                     "indirect ones, and the extended graph is too big to build before every run; sim "
                     "--check-deadlock builds it");
        else if (w.refused)
            snprintf(r->note, sizeof r->note, "%s", w.note);
        else if (cyclic)
            snprintf(r->note, sizeof r->note, "%s cycle: %s; %s", rel->escape ? "escape VCs' extended dependency"
                     : "channel dependency", cycle, rel->fix);
    }
done:
    ports_free(&w.ports);
    free(w.stamp);
    free(w.local);
    free(w.seen_succ);
    free(w.known);
    free(w.out_slot);
    free(w.memo_stamp);
    free(w.memo_at);
    free(w.memo_n);
    free(w.pool);
    free(w.stack);
    free(w.deps.slot);
    free(w.node_of);
    free(w.step_from);
    free(w.step_to);
    free(w.csr);
    free(w.csr_base);
    free(w.seen);
    free(w.dfs);
    free(w.depth);
    return ok;
}
