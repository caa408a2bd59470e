/* Duato's condition for a relation that routes by node (rel->by_node: a state's steps
 * depend on its node and aux only), walked by (node, aux) pair rather than by state: the
 * contract is in deadlock_walk.h and deadlock_check.h.
 *
 * Two passes.  The first walks the escape subfunction alone (escape VCs only, from the
 * sources) and keeps its direct dependencies; if they are acyclic, their longest-path
 * depths are a candidate order.  The second walks every pair and checks, in topological
 * order of the pairs, that every dependency an escape (channel, VC) may have on one asked
 * for next goes deeper: the direct ones (however the first was reached) and the indirect
 * ones through adaptive VCs.  A pair's states share their steps, so the deepest escape
 * (channel, VC) held at the pair or carried into it over adaptive VCs (val) is all a step
 * needs: an escape step must lie deeper, an adaptive step carries val on.  That is the
 * witness of deadlock_duato.c with the pair for the state.  When every dependency goes
 * deeper, the extended graph is acyclic: proved, with w->deps holding the direct
 * dependencies.  Otherwise (a cycle, a refusal, pairs in a cycle, a dependency out of
 * order) nothing is decided and the three passes decide from scratch, so a refusal and
 * the cycle it names are theirs. */
#include <stdlib.h>
#include <string.h>

#include "deadlock_walk.h"

struct pairs {           /* per (node, aux): node * A + aux */
    uint32_t *stamp;     /* the walk that reached it (gen + key + 1) */
    uint32_t *val;       /* the deepest escape (channel, VC) + 1 held at it or carried into it */
    uint32_t *indegree;  /* steps into it not yet ordered */
    uint32_t *reached, *order, n;
};

enum { GIVE_UP, DONE, NO_MEMORY };

/* The steps of a pair: dl_steps_of()'s memo is indexed by node * A + aux, the pair, so
 * one asked already is read here without a call or a division. */
static inline const struct dl_step *pair_steps(struct walk *w, uint32_t key, uint32_t pair, unsigned *n)
{
    if (w->memo_stamp[pair] == w->gen + key + 1) {
        *n = w->memo_n[pair];
        return w->pool + w->memo_at[pair];
    }
    struct dl_step at = { DL_NONE, pair / w->A, 0, 1, pair % w->A };
    return dl_steps_of(w, key, &at, n);
}

static void reach(struct pairs *pr, uint32_t pair, uint32_t stamp)
{
    if (pr->stamp[pair] == stamp)
        return;
    pr->stamp[pair] = stamp;
    pr->val[pair] = 0;
    pr->indegree[pair] = 0;
    pr->reached[pr->n++] = pair;
}

/* The direct dependencies of escape state z = (channel, vc) reaching pair q. */
static int escape_deps(struct walk *w, uint32_t key, uint32_t q, uint32_t channel, uint32_t vc)
{
    unsigned m;
    const struct dl_step *y = pair_steps(w, key, q, &m);
    if (!y)
        return NO_MEMORY;
    struct dl_step z = { channel, q / w->A, (uint16_t)vc, (uint16_t)(vc + 1), q % w->A };
    for (unsigned j = 0; j < m; j++) {
        if (y[j].channel == DL_NONE)
            continue;
        for (uint32_t u = y[j].lo; u < y[j].hi && u < w->rel->escape; u++)
            if (!dep(w, &z, y[j].channel, u))
                return NO_MEMORY;
    }
    return DONE;
}

/* Every pair of walk key reachable from the sources (over escape VCs only unless fused),
 * with the direct dependencies in w->deps. */
static int reach_pairs(struct walk *w, struct pairs *pr, uint32_t key, bool fused, uint64_t *states)
{
    const struct dl_relation *rel = w->rel;
    uint32_t stamp = w->gen + key + 1, E = rel->escape;
    struct dl_step seeds[DL_MAX_STEPS];
    pr->n = 0;
    w->pool_n = 0;
    for (uint32_t src = 0; src < rel->sources; src++) {
        unsigned n = rel->seeds(rel->self, key, src, seeds, DL_MAX_STEPS);
        for (unsigned i = 0; i < n; i++)
            reach(pr, seeds[i].node * w->A + seeds[i].aux, stamp);
    }
    for (uint32_t h = 0; h < pr->n; h++) {
        uint32_t p = pr->reached[h];
        unsigned n;
        const struct dl_step *o = pair_steps(w, key, p, &n);
        if (!o)
            return NO_MEMORY;
        size_t base = (size_t)(o - w->pool); /* the pool may move as more pairs are asked */
        ++*states;
        bool escape_step = false;
        for (unsigned i = 0; i < n; i++) {
            struct dl_step s = w->pool[base + i];
            if (s.channel == DL_NONE) {
                escape_step = true;
                continue;
            }
            if (s.lo >= s.hi)
                return GIVE_UP;
            escape_step |= s.lo < E;
            uint32_t q = s.node * w->A + s.aux;
            for (uint32_t v = s.lo; v < s.hi && (fused || v < E); v++) {
                reach(pr, q, stamp);
                pr->indegree[q]++;
                int done = v < E ? escape_deps(w, key, q, s.channel, v) : DONE;
                if (done != DONE)
                    return done;
            }
        }
        if (!escape_step)
            return GIVE_UP;
    }
    return DONE;
}

/* The witness over the pairs of walk key, in topological order (fused pass). */
static int order_pairs(struct walk *w, struct pairs *pr, uint32_t key)
{
    uint32_t head = 0, tail = 0, E = w->rel->escape;
    for (uint32_t h = 0; h < pr->n; h++)
        if (pr->indegree[pr->reached[h]] == 0)
            pr->order[tail++] = pr->reached[h];
    while (head < tail) {
        uint32_t p = pr->order[head++];
        unsigned n;
        const struct dl_step *o = pair_steps(w, key, p, &n); /* asked already: the pool stays */
        for (unsigned i = 0; i < n; i++) {
            if (o[i].channel == DL_NONE)
                continue;
            uint32_t q = o[i].node * w->A + o[i].aux;
            for (uint32_t v = o[i].lo; v < o[i].hi; v++) {
                uint32_t carried = pr->val[p];
                if (v < E) { /* an escape (channel, VC) asked for: deeper than all held before */
                    uint32_t depth = w->depth[o[i].channel * w->V + v];
                    if (carried > depth)
                        return GIVE_UP;
                    carried = depth + 1;
                }
                pr->val[q] = pr->val[q] > carried ? pr->val[q] : carried;
                if (--pr->indegree[q] == 0)
                    pr->order[tail++] = q;
            }
        }
    }
    return tail == pr->n ? DONE : GIVE_UP; /* else pairs in a cycle: no order this way */
}

bool dl_by_node(struct walk *w, uint32_t nodes, struct dl_result *r, bool *proved)
{
    size_t count = (size_t)w->t->nodes * w->A + 1;
    struct pairs pr = { calloc(count, sizeof *pr.stamp), malloc(count * sizeof *pr.val),
                        malloc(count * sizeof *pr.indegree), malloc(count * sizeof *pr.reached),
                        malloc(count * sizeof *pr.order), 0 };
    int done = pr.stamp && pr.val && pr.indegree && pr.reached && pr.order ? DONE : NO_MEMORY;
    for (int fused = 0; fused <= 1 && done == DONE; fused++) {
        w->escape_only = !fused;
        for (uint32_t key = 0; key < w->rel->keys && done == DONE; key++) {
            done = reach_pairs(w, &pr, key, fused, &r->states);
            if (done == DONE && fused)
                done = order_pairs(w, &pr, key);
        }
        w->gen += w->rel->keys;
        if (done != DONE || fused)
            break;
        bool cyclic = false;
        char cycle[8];
        if (!dl_find_cycle(w, nodes, cycle, sizeof cycle, &cyclic) || (!cyclic && !dl_depths(w, nodes)))
            done = NO_MEMORY;
        else if (cyclic)
            done = GIVE_UP;
        else
            dl_empty_deps(w, nodes);
    }
    w->escape_only = false;
    *proved = done == DONE;
    free(pr.stamp);
    free(pr.val);
    free(pr.indegree);
    free(pr.reached);
    free(pr.order);
    return done != NO_MEMORY;
}
