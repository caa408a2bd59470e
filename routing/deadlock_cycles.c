/* The static deadlock check's cycles: one iterative depth-first search over the
 * dependency graph in CSR form, and the shortest cycle through the node it finds, named
 * in the topology's terms (contract in deadlock_walk.h and deadlock_check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deadlock_walk.h"

/* The shortest cycle through v (breadth first), named into note. */
static bool shortest_cycle(const struct walk *w, const uint32_t *base, const uint32_t *adj, uint32_t nodes,
                           uint32_t v, char *note, size_t size)
{
    uint32_t *parent = malloc((size_t)nodes * sizeof *parent), *queue = malloc((size_t)nodes * sizeof *queue);
    if (!parent || !queue) {
        free(parent);
        free(queue);
        return false;
    }
    memset(parent, 0xff, (size_t)nodes * sizeof *parent);
    uint32_t head = 0, tail = 0, last = NONE;
    queue[tail++] = v;
    parent[v] = v;
    while (head < tail && last == NONE) {
        uint32_t u = queue[head++];
        for (uint32_t k = base[u]; k < base[u + 1]; k++) {
            if (adj[k] == v) {
                last = u;
                break;
            }
            if (parent[adj[k]] == NONE) {
                parent[adj[k]] = u;
                queue[tail++] = adj[k];
            }
        }
    }
    uint32_t len = 0; /* the path v .. last, reversed into queue */
    for (uint32_t x = last; x != v; x = parent[x])
        queue[len++] = x;
    queue[len++] = v;
    size_t at = 0; /* v, the path, v again */
    for (int64_t i = (int64_t)len - 1; i >= -1 && at + 100 < size; i--) {
        uint32_t node = i >= 0 ? queue[i] : v, ch = node / w->V;
        char name[96];
        dl_channel_name(w->t, ch, w->ports.to[w->ports.base[ch]], name, sizeof name);
        at += (size_t)snprintf(note + at, size - at, "%s%s, vc %u", at ? " -> " : "", name, node % w->V);
    }
    if (at + 100 >= size)
        snprintf(note + at, size - at, " ...");
    free(parent);
    free(queue);
    return true;
}

bool dl_find_cycle(struct walk *w, uint32_t nodes, char *note, size_t size, bool *cyclic)
{
    struct edges *d = &w->deps;
    uint32_t *base = calloc((size_t)nodes + 1, sizeof *base), *adj = malloc((d->n + 1) * sizeof *adj);
    uint8_t *color = calloc(nodes ? nodes : 1, 1);
    uint32_t *stack = malloc(((size_t)nodes + 1) * sizeof *stack), *next = malloc(((size_t)nodes + 1) * sizeof *next);
    bool ok = base && adj && color && stack && next;
    *cyclic = false;
    for (size_t i = 0; ok && i < d->cap; i++)
        if (d->slot[i] != EMPTY)
            base[(d->slot[i] >> 32) + 1]++;
    for (uint32_t i = 0; ok && i < nodes; i++)
        base[i + 1] += base[i];
    for (size_t i = 0; ok && i < d->cap; i++)
        if (d->slot[i] != EMPTY)
            adj[base[d->slot[i] >> 32]++] = (uint32_t)d->slot[i];
    for (uint32_t i = nodes; ok && i > 0; i--)
        base[i] = base[i - 1];
    if (ok)
        base[0] = 0;
    for (uint32_t root = 0; ok && root < nodes && !*cyclic; root++) {
        if (color[root])
            continue;
        uint32_t top = 0;
        stack[top] = root;
        next[top++] = base[root];
        color[root] = 1;
        while (top && !*cyclic) {
            uint32_t u = stack[top - 1];
            if (next[top - 1] == base[u + 1]) {
                color[u] = 2;
                top--;
                continue;
            }
            uint32_t v = adj[next[top - 1]++];
            if (color[v] == 0) {
                color[v] = 1;
                stack[top] = v;
                next[top++] = base[v];
            } else if (color[v] == 1) { /* a back edge: v is on a cycle */
                *cyclic = true;
                ok = shortest_cycle(w, base, adj, nodes, v, note, size);
            }
        }
    }
    free(base);
    free(adj);
    free(color);
    free(stack);
    free(next);
    return ok;
}
