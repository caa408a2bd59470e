/* Duato's condition on escape VCs: the indirect and cross dependencies of one walk key,
 * exactly (the extended graph) or against a witness order (the depths of the direct
 * escape graph); the contract is in deadlock_walk.h and deadlock_check.h. */
#include <stdlib.h>
#include <string.h>

#include "deadlock_walk.h"

/* This walk's steps in CSR form (csr_base, csr), and room for a search: false when out
 * of memory. */
static bool local_csr(struct walk *w)
{
    uint32_t n = w->n_local, cap = 0;
    free(w->csr_base);
    free(w->seen);
    free(w->dfs);
    free(w->csr);
    w->csr = NULL;
    w->csr_base = calloc((size_t)n + 1, sizeof *w->csr_base);
    w->seen = calloc((size_t)n + 1, sizeof *w->seen);
    w->dfs = malloc(((size_t)n + 1) * sizeof *w->dfs);
    if (!w->csr_base || !w->seen || !w->dfs || !dl_grow((void **)&w->csr, &cap, w->n_steps + 1, sizeof *w->csr))
        return false;
    for (uint32_t k = 0; k < w->n_steps; k++)
        w->csr_base[w->step_from[k] + 1]++;
    for (uint32_t i = 0; i < n; i++)
        w->csr_base[i + 1] += w->csr_base[i];
    for (uint32_t k = 0; k < w->n_steps; k++)
        w->csr[w->csr_base[w->step_from[k]]++] = w->step_to[k];
    for (uint32_t i = n; i > 0; i--)
        w->csr_base[i] = w->csr_base[i - 1];
    w->csr_base[0] = 0;
    return true;
}

/* Duato, exactly: the escape (channel, VC)s a packet holding escape state s may ask for
 * next, directly or through non-escape states of this walk: dependencies of the
 * extended graph. */
bool dl_extended_edges(struct walk *w)
{
    if (!local_csr(w))
        return false;
    uint32_t n = w->n_local, gen = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (!is_escape(w, w->node_of[s]))
            continue;
        gen++;
        uint32_t top = 0;
        w->dfs[top++] = s;
        while (top) {
            uint32_t x = w->dfs[--top];
            for (uint32_t k = w->csr_base[x]; k < w->csr_base[x + 1]; k++) {
                uint32_t y = w->csr[k];
                if (w->seen[y] == gen)
                    continue;
                w->seen[y] = gen;
                if (is_escape(w, w->node_of[y])) {
                    if (!depend(&w->deps, w->seen_succ, w->node_of[s], w->node_of[y]))
                        return false;
                } else {
                    w->dfs[top++] = y;
                }
            }
        }
    }
    return true;
}

/* Duato, in linear time: do the depths of the direct escape graph order this walk's
 * indirect dependencies too?  Per non-escape state, the deepest escape state that reaches
 * it through non-escape states (+1, 0: none), carried in topological order of the
 * non-escape states; an escape state asked for from there must lie deeper.  A cycle
 * among the non-escape states, or a dependency out of order, fails the witness (the
 * exact pass then decides).  seen[] holds the carried depth, dfs[] the queue. */
bool dl_witness(struct walk *w)
{
    if (!local_csr(w))
        return false;
    uint32_t n = w->n_local;
    uint32_t *indegree = calloc((size_t)n + 1, sizeof *indegree);
    if (!indegree)
        return false;
    uint32_t adaptive = 0, head = 0, tail = 0;
    for (uint32_t x = 0; x < n; x++) {
        bool esc = is_escape(w, w->node_of[x]);
        adaptive += !esc;
        for (uint32_t k = w->csr_base[x]; k < w->csr_base[x + 1]; k++) {
            uint32_t y = w->csr[k];
            if (is_escape(w, w->node_of[y]))
                continue;
            if (esc) {
                uint32_t d = w->depth[w->node_of[x]] + 1;
                w->seen[y] = w->seen[y] > d ? w->seen[y] : d;
            } else {
                indegree[y]++;
            }
        }
    }
    for (uint32_t x = 0; x < n; x++)
        if (!is_escape(w, w->node_of[x]) && indegree[x] == 0)
            w->dfs[tail++] = x;
    while (head < tail && !w->witness_failed) {
        uint32_t x = w->dfs[head++];
        for (uint32_t k = w->csr_base[x]; k < w->csr_base[x + 1]; k++) {
            uint32_t y = w->csr[k];
            if (is_escape(w, w->node_of[y])) {
                w->witness_failed |= w->seen[x] > w->depth[w->node_of[y]];
                continue;
            }
            w->seen[y] = w->seen[y] > w->seen[x] ? w->seen[y] : w->seen[x];
            if (--indegree[y] == 0)
                w->dfs[tail++] = y;
        }
    }
    w->witness_failed |= tail < adaptive;
    free(indegree);
    return true;
}

/* The longest-path depth of every node of the (acyclic) graph in w->deps: false when out
 * of memory. */
bool dl_depths(struct walk *w, uint32_t nodes)
{
    struct edges *d = &w->deps;
    uint32_t *base = calloc((size_t)nodes + 1, sizeof *base), *adj = malloc((d->n + 1) * sizeof *adj);
    uint32_t *indegree = calloc((size_t)nodes + 1, sizeof *indegree), *queue = malloc(((size_t)nodes + 1) * sizeof *queue);
    free(w->depth);
    w->depth = calloc((size_t)nodes + 1, sizeof *w->depth);
    bool ok = base && adj && indegree && queue && w->depth;
    for (size_t i = 0; ok && i < d->cap; i++)
        if (d->slot[i] != EMPTY) {
            base[(d->slot[i] >> 32) + 1]++;
            indegree[(uint32_t)d->slot[i]]++;
        }
    for (uint32_t i = 0; ok && i < nodes; i++)
        base[i + 1] += base[i];
    for (size_t i = 0; ok && i < d->cap; i++)
        if (d->slot[i] != EMPTY)
            adj[base[d->slot[i] >> 32]++] = (uint32_t)d->slot[i];
    for (uint32_t i = nodes; ok && i > 0; i--)
        base[i] = base[i - 1];
    uint32_t head = 0, tail = 0;
    if (ok) {
        base[0] = 0;
        for (uint32_t v = 0; v < nodes; v++)
            if (indegree[v] == 0)
                queue[tail++] = v;
    }
    while (ok && head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t k = base[u]; k < base[u + 1]; k++) {
            uint32_t v = adj[k];
            w->depth[v] = w->depth[v] > w->depth[u] + 1 ? w->depth[v] : w->depth[u] + 1;
            if (--indegree[v] == 0)
                queue[tail++] = v;
        }
    }
    free(base);
    free(adj);
    free(indegree);
    free(queue);
    return ok;
}

