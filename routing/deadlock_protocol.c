/* Request-reply's classes and reply queue in the static deadlock check (contract in
 * deadlock_protocol.h): a relation of both classes wrapped around the engine's. */
#include "deadlock_protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "flit_params.h"

enum { REQUEST, REPLY };

/* The engine's relation R, walked once per combined key (request walk, request source,
 * reply pick).  A combined state's aux is R's aux + class * R.aux_count; its VC is R's
 * VC placed by class: R's escape VCs [0, E) first (both classes' copies), then the rest,
 * so the combined escape VCs stay [0, escape) as Duato's check wants them. */
struct both {
    struct dl_relation in;
    uint32_t sets, picks;
    char fix[200];
};

static uint32_t vc_of(const struct both *b, unsigned cls, uint32_t v)
{
    uint32_t E = b->in.escape, V = b->in.vcs, set = b->sets > 1 ? cls : 0;
    return v < E ? set * E + v : b->sets * E + set * (V - E) + (v - E);
}

static uint32_t inner_vc(const struct both *b, unsigned cls, uint32_t v)
{
    uint32_t E = b->in.escape, V = b->in.vcs, set = b->sets > 1 ? cls : 0;
    return v < b->sets * E ? v - set * E : v - b->sets * E - set * (V - E) + E;
}

/* Appends R's steps `from` as class cls's, a VC range split where it spans R's escape
 * VCs and the rest (they are apart in the combined numbering). */
static unsigned place(const struct both *b, unsigned cls, const struct dl_step *from, unsigned n, struct dl_step *out,
                      unsigned k, unsigned max)
{
    uint32_t E = b->in.escape;
    for (unsigned i = 0; i < n && k < max; i++) {
        struct dl_step s = from[i];
        s.aux += cls * b->in.aux_count;
        if (s.channel == DL_NONE && s.hi <= s.lo) { /* an ejection step: no VC */
            out[k++] = s;
            continue;
        }
        uint32_t lo = from[i].lo, hi = from[i].hi;
        if (lo < E && hi > E && k + 1 < max) { /* escape part, then the rest */
            out[k] = s;
            out[k].lo = (uint16_t)vc_of(b, cls, lo);
            out[k++].hi = (uint16_t)(vc_of(b, cls, E - 1) + 1);
            lo = E;
        }
        s.lo = (uint16_t)vc_of(b, cls, lo);
        s.hi = (uint16_t)(vc_of(b, cls, hi - 1) + 1);
        out[k++] = s;
    }
    return k;
}

static void decode(const struct both *b, uint32_t key, uint32_t *request, uint32_t *source, uint32_t *reply)
{
    uint32_t p = key % b->picks, rest = key / b->picks;
    *source = rest % b->in.sources;
    *request = rest / b->in.sources;
    *reply = *source * b->picks + p; /* the reply's walk: back to the request's source */
}

static unsigned seeds(void *self, uint32_t key, uint32_t source, struct dl_step *out, unsigned max)
{
    struct both *b = self;
    uint32_t request, src, reply;
    decode(b, key, &request, &src, &reply);
    if (source != src)
        return 0;
    struct dl_step in[DL_MAX_STEPS];
    unsigned n = b->in.seeds(b->in.self, request, source, in, DL_MAX_STEPS);
    return place(b, REQUEST, in, n, out, 0, max);
}

/* A request ejected at `node`: the first steps of every reply it sends back, appended
 * to out[0, k). */
static unsigned reply_start(const struct both *b, uint32_t reply, uint32_t node, struct dl_step *out, unsigned k,
                            unsigned max)
{
    struct dl_step seed[DL_MAX_STEPS], in[DL_MAX_STEPS];
    unsigned n = b->in.seeds(b->in.self, reply, node, seed, DL_MAX_STEPS);
    for (unsigned i = 0; i < n; i++) {
        unsigned m = b->in.next(b->in.self, reply, &seed[i], in, DL_MAX_STEPS);
        k = place(b, REPLY, in, m, out, k, max);
    }
    return k;
}

static unsigned next(void *self, uint32_t key, const struct dl_step *at, struct dl_step *out, unsigned max)
{
    struct both *b = self;
    uint32_t request, source, reply;
    decode(b, key, &request, &source, &reply);
    unsigned cls = at->aux / b->in.aux_count;
    struct dl_step inner = *at, in[DL_MAX_STEPS];
    inner.aux = at->aux % b->in.aux_count;
    if (at->channel != DL_NONE) {
        inner.lo = (uint16_t)inner_vc(b, cls, at->lo);
        inner.hi = (uint16_t)(inner.lo + 1);
    }
    unsigned n = b->in.next(b->in.self, cls == REQUEST ? request : reply, &inner, in, DL_MAX_STEPS), k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (cls == REQUEST && in[i].channel == DL_NONE) /* its ejection waits for its replies' first channels */
            k = reply_start(b, reply, at->node, out, k, max);
        else
            k = place(b, cls, &in[i], 1, out, k, max);
    }
    return k;
}

static void destroy(void *self)
{
    struct both *b = self;
    b->in.destroy(b->in.self);
    free(b);
}

/* R wrapped into the relation of both classes: false (R destroyed) when out of memory
 * or when R's keys are not laid out per destination (why then says so). */
static bool wrap(const struct config *cfg, struct dl_relation *rel, char *why, size_t why_size)
{
    if (!rel->sources || rel->keys % rel->sources || !rel->aux_count) {
        snprintf(why, why_size, "the relation's walks are not one per destination: the classes are not walked");
        rel->destroy(rel->self);
        return false;
    }
    struct both *b = calloc(1, sizeof *b);
    if (!b) {
        rel->destroy(rel->self);
        return false;
    }
    b->in = *rel;
    b->sets = flit_vc_sets(cfg, true);
    b->picks = rel->keys / rel->sources;
    snprintf(b->fix, sizeof b->fix, "%s", b->sets > 1 ? rel->fix : "the fix: routing.class_vcs = separate (a copy of "
             "the VCs for the replies)");
    *rel = (struct dl_relation){
        .vcs = rel->vcs * b->sets,
        .escape = rel->escape * b->sets,
        .keys = rel->keys * rel->sources * b->picks,
        .sources = rel->sources,
        .aux_count = rel->aux_count * 2,
        .fix = b->fix,
        .key = b->sets > 1 ? rel->key : "routing.class_vcs",
        .self = b,
        .seeds = seeds,
        .next = next,
        .destroy = destroy,
    };
    return true;
}

bool dl_check_classes(const struct config *cfg, const struct topo *t, const struct engine_ops *engine, bool force,
                      uint32_t reply_queue, struct dl_result *r)
{
    if (!dl_check(cfg, t, engine, force, r))
        return false;
    if (!reply_queue || r->verdict != DL_PROVED) /* one class's verdict is the whole one */
        return true;
    struct dl_relation rel = { 0 };
    if (!engine->relation(cfg, t, &rel))
        return false;
    char why[160] = "";
    if (!wrap(cfg, &rel, why, sizeof why)) {
        if (!why[0])
            return false;
        r->verdict = DL_SKIPPED;
        snprintf(r->note, sizeof r->note, "%s", why);
        return true;
    }
    double work = (double)rel.keys * ((double)t->channels + t->nodes) * rel.vcs * (rel.escape ? 2 : 1);
    if (!force && work > DL_WORK_LIMIT) {
        r->verdict = DL_SKIPPED;
        snprintf(r->note, sizeof r->note, "request-reply with a bounded reply queue: the graph of both classes is "
                 "too big to walk before every run (about %.3g steps, above %.3g); sim --check-deadlock walks it",
                 work, DL_WORK_LIMIT);
        rel.destroy(rel.self);
        return true;
    }
    bool ok = dl_decide_within(t, &rel, force ? -1 : DL_WORK_LIMIT, r);
    rel.destroy(rel.self);
    if (!ok)
        return false;
    char note[sizeof r->note];
    snprintf(note, sizeof note, "%s", r->note);
    if (r->verdict == DL_PROVED)
        snprintf(r->note, sizeof r->note, "both message classes, a request's ejection waiting for its replies' "
                 "first channels (a bounded reply queue)");
    else if (r->verdict == DL_REFUSED)
        snprintf(r->note, sizeof r->note, "protocol deadlock (a request's ejection waits for its replies' first "
                 "channels: a bounded reply queue): %.500s", note);
    return true;
}
