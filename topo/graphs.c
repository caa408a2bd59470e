#include "graphs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lattice.h"

enum { GRAPH_COMPLETE_MAX_NODES = 4096 }; /* K(K-1) channels */

static uint32_t rotate_left(uint32_t x, unsigned s, unsigned n)
{
    uint32_t mask = (1u << n) - 1;
    s %= n;
    return s ? ((x << s) | (x >> (n - s))) & mask : x;
}

static uint32_t rotate_right(uint32_t x, unsigned s, unsigned n) { return rotate_left(x, (n - s % n) % n, n); }

/* Breadth-first distances from node 0 of a CCC: one table serves every pair, since
 * XOR translations and the rotation (w, i) -> (rotl(w), i+1) are automorphisms. */
static bool ccc_tabulate(struct graph *g)
{
    g->ccc_distance = malloc(g->nodes);
    uint32_t *queue = malloc((size_t)g->nodes * sizeof *queue);
    if (!g->ccc_distance || !queue) {
        free(queue);
        return false;
    }
    for (uint32_t u = 0; u < g->nodes; u++)
        g->ccc_distance[u] = UINT8_MAX;
    uint32_t head = 0, tail = 0;
    g->ccc_distance[0] = 0;
    queue[tail++] = 0;
    g->diameter = 0;
    g->distance_sum = 0;
    while (head < tail) {
        uint32_t u = queue[head++];
        unsigned du = g->ccc_distance[u];
        g->distance_sum += du;
        if (du > g->diameter)
            g->diameter = du;
        for (unsigned s = 0; s < 3; s++) {
            uint32_t v = graph_neighbor(g, u, s);
            if (g->ccc_distance[v] == UINT8_MAX) {
                g->ccc_distance[v] = (uint8_t)(du + 1);
                queue[tail++] = v;
            }
        }
    }
    free(queue);
    return true;
}

bool graph_init(struct graph *g, enum graph_kind kind, uint32_t size, char *why, size_t why_size)
{
    *g = (struct graph){ .kind = kind };
    switch (kind) {
    case GRAPH_HYPERCUBE:
        g->dim = g->degree = g->diameter = size;
        g->nodes = 1u << size;
        g->links = (uint64_t)size << (size ? size - 1 : 0);
        g->distance_sum = size ? ldexp(size, (int)size - 1) : 0;
        return true;
    case GRAPH_RING:
        if (size == 2) {
            snprintf(why, why_size, "a bidirectional ring of 2 nodes is degenerate (one link counted twice)");
            return false;
        }
        g->nodes = size;
        g->degree = size >= 3 ? 2 : 0;
        g->links = size >= 3 ? size : 0;
        g->diameter = size / 2;
        for (uint32_t j = 1; j < size; j++)
            g->distance_sum += j < size - j ? j : size - j;
        return true;
    case GRAPH_COMPLETE:
        if (size > GRAPH_COMPLETE_MAX_NODES) {
            snprintf(why, why_size, "a complete connection of %u nodes is too large (at most %d)", size,
                     GRAPH_COMPLETE_MAX_NODES);
            return false;
        }
        g->nodes = size;
        g->degree = size - 1;
        g->links = (uint64_t)size * (size - 1) / 2;
        g->diameter = size > 1;
        g->distance_sum = size - 1;
        return true;
    case GRAPH_CCC:
        if (size < 3 || size > GRAPH_CCC_MAX_DIMENSION) {
            snprintf(why, why_size, "a cube-connected-cycles network needs dimension 3 to %d (got %u)",
                     GRAPH_CCC_MAX_DIMENSION, size);
            return false;
        }
        g->dim = size;
        g->nodes = size << size;
        g->degree = 3;
        g->links = (uint64_t)3 * size << (size - 1);
        if (!ccc_tabulate(g)) {
            snprintf(why, why_size, "out of memory");
            return false;
        }
        return true;
    }
    return false;
}

void graph_free(struct graph *g)
{
    free(g->ccc_distance);
    g->ccc_distance = NULL;
}

uint32_t graph_neighbor(const struct graph *g, uint32_t u, unsigned slot)
{
    switch (g->kind) {
    case GRAPH_HYPERCUBE:
        return u ^ (1u << slot);
    case GRAPH_RING:
        return slot == 0 ? (u + 1) % g->nodes : (u + g->nodes - 1) % g->nodes;
    case GRAPH_COMPLETE:
        return slot < u ? slot : slot + 1;
    case GRAPH_CCC: {
        unsigned n = g->dim, i = u % n;
        uint32_t w = u / n;
        if (slot == 0)
            return (w ^ (1u << i)) * n + i;
        return w * n + (slot == 1 ? (i + 1) % n : (i + n - 1) % n);
    }
    }
    return u;
}

unsigned graph_distance(const struct graph *g, uint32_t u, uint32_t v)
{
    switch (g->kind) {
    case GRAPH_HYPERCUBE:
        return (unsigned)__builtin_popcount(u ^ v);
    case GRAPH_RING: {
        uint32_t plus = (v + g->nodes - u) % g->nodes;
        return plus < g->nodes - plus ? plus : g->nodes - plus;
    }
    case GRAPH_COMPLETE:
        return u != v;
    case GRAPH_CCC: {
        unsigned n = g->dim, i1 = u % n, i2 = v % n;
        uint32_t x = rotate_right((u / n) ^ (v / n), i1, n);
        return g->ccc_distance[x * n + (i2 + n - i1) % n];
    }
    }
    return 0;
}

unsigned graph_minimal_slots(const struct graph *g, uint32_t u, uint32_t v, unsigned *slots)
{
    unsigned count = 0;
    switch (g->kind) {
    case GRAPH_HYPERCUBE:
        for (uint32_t diff = u ^ v; diff; diff &= diff - 1)
            slots[count++] = (unsigned)__builtin_ctz(diff);
        return count;
    case GRAPH_RING: {
        uint32_t plus = (v + g->nodes - u) % g->nodes, minus = g->nodes - plus;
        if (plus <= minus)
            slots[count++] = 0;
        if (minus <= plus)
            slots[count++] = 1;
        return count;
    }
    case GRAPH_COMPLETE:
        slots[0] = v < u ? v : v - 1;
        return 1;
    case GRAPH_CCC: {
        unsigned here = graph_distance(g, u, v);
        for (unsigned s = 0; s < 3; s++)
            if (graph_distance(g, graph_neighbor(g, u, s), v) + 1 == here)
                slots[count++] = s;
        return count;
    }
    }
    return 0;
}

static uint64_t complete_row_start(uint64_t k, uint64_t a) { return a * (2 * k - a - 1) / 2; }

uint32_t graph_link(const struct graph *g, uint32_t u, unsigned slot)
{
    switch (g->kind) {
    case GRAPH_HYPERCUBE:
        return (slot << (g->dim - 1)) + bit_remove(u, slot);
    case GRAPH_RING:
        return slot == 0 ? u : (u + g->nodes - 1) % g->nodes;
    case GRAPH_COMPLETE: {
        uint32_t v = graph_neighbor(g, u, slot), a = u < v ? u : v, b = u < v ? v : u;
        return (uint32_t)(complete_row_start(g->nodes, a) + (b - a - 1));
    }
    case GRAPH_CCC: {
        unsigned n = g->dim, i = u % n;
        uint32_t w = u / n;
        if (slot == 0)
            return (i << (n - 1)) + bit_remove(w, i);
        uint32_t cube_links = n << (n - 1);
        return cube_links + (slot == 1 ? u : w * n + (i + n - 1) % n);
    }
    }
    return 0;
}

void graph_link_ends(const struct graph *g, uint32_t link, uint32_t *a, uint32_t *b)
{
    switch (g->kind) {
    case GRAPH_HYPERCUBE: {
        unsigned m = link >> (g->dim - 1);
        *a = bit_insert(link & ((1u << (g->dim - 1)) - 1), m, 0);
        *b = *a | 1u << m;
        return;
    }
    case GRAPH_RING:
        *a = link;
        *b = (link + 1) % g->nodes;
        return;
    case GRAPH_COMPLETE: {
        uint64_t k = g->nodes, r = (uint64_t)(((double)(2 * k - 1) - sqrt((double)((2 * k - 1) * (2 * k - 1) - 8 * link))) / 2);
        while (r + 1 < k && complete_row_start(k, r + 1) <= link)
            r++;
        while (r > 0 && complete_row_start(k, r) > link)
            r--;
        *a = (uint32_t)r;
        *b = (uint32_t)(link - complete_row_start(k, r) + r + 1);
        return;
    }
    case GRAPH_CCC: {
        unsigned n = g->dim;
        uint32_t cube_links = n << (n - 1);
        if (link < cube_links) {
            unsigned i = link >> (n - 1);
            uint32_t w = bit_insert(link & ((1u << (n - 1)) - 1), i, 0);
            *a = w * n + i;
            *b = (w | 1u << i) * n + i;
        } else {
            uint32_t c = link - cube_links;
            *a = c;
            *b = c / n * n + (c % n + 1) % n;
        }
        return;
    }
    }
}

uint32_t graph_translate(const struct graph *g, uint32_t x, uint32_t to)
{
    switch (g->kind) {
    case GRAPH_HYPERCUBE:
        return x ^ to;
    case GRAPH_RING:
    case GRAPH_COMPLETE:
        return (x + to) % g->nodes;
    case GRAPH_CCC: {
        unsigned n = g->dim, shift = to % n;
        return (rotate_left(x / n, shift, n) ^ (to / n)) * n + (x % n + shift) % n;
    }
    }
    return x;
}

const char *graph_slot_kind_name(const struct graph *g, unsigned kind, char *buf, size_t size)
{
    static const char *const ring[] = { "ring+", "ring-" }, *const ccc[] = { "cube", "cycle+", "cycle-" };
    switch (g->kind) {
    case GRAPH_HYPERCUBE:
        snprintf(buf, size, "dim%u", kind);
        break;
    case GRAPH_RING:
        snprintf(buf, size, "%s", ring[kind]);
        break;
    case GRAPH_COMPLETE:
        snprintf(buf, size, "complete");
        break;
    case GRAPH_CCC:
        snprintf(buf, size, "%s", ccc[kind]);
        break;
    }
    return buf;
}

unsigned graph_link_kind(const struct graph *g, uint32_t link)
{
    switch (g->kind) {
    case GRAPH_HYPERCUBE:
        return link >> (g->dim - 1);
    case GRAPH_CCC:
        return link >= (g->dim << (g->dim - 1));
    default:
        return 0;
    }
}

uint64_t graph_links_of_kind(const struct graph *g, unsigned kind)
{
    switch (g->kind) {
    case GRAPH_HYPERCUBE:
        return (uint64_t)1 << (g->dim - 1);
    case GRAPH_CCC:
        return kind == 0 ? (uint64_t)g->dim << (g->dim - 1) : (uint64_t)g->dim << g->dim;
    default:
        return g->links;
    }
}

const char *graph_link_kind_name(const struct graph *g, unsigned kind, char *buf, size_t size)
{
    switch (g->kind) {
    case GRAPH_HYPERCUBE:
        snprintf(buf, size, "dim%u", kind);
        break;
    case GRAPH_RING:
        snprintf(buf, size, "ring");
        break;
    case GRAPH_COMPLETE:
        snprintf(buf, size, "complete");
        break;
    case GRAPH_CCC:
        snprintf(buf, size, "%s", kind == 0 ? "cube" : "cycle");
        break;
    }
    return buf;
}
