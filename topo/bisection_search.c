/* A balanced cut found by search, for families with no bisection in closed form
 * (topo/topo.h, topo_bisection_search).  Minimum bisection is NP-hard in general, so
 * this is the standard heuristic (Fiduccia & Mattheyses 1982, over Kernighan & Lin
 * 1970): start from a breadth-first half (from a pseudo-peripheral node, so that the
 * half is compact), then make passes of single-node moves, each the best gain among the
 * unlocked nodes that keeps the halves within two terminals, and keep the best exactly
 * balanced prefix of each pass, until a pass gains nothing.  Deterministic: ties go to
 * the lowest node.  O(passes · nodes²): a network of at most BISECTION_SEARCH_MAX_NODES
 * nodes. */
#include <stdlib.h>
#include <string.h>

#include "topo.h"

/* Every node's neighbours over channels either way, as a list with multiplicity. */
struct adjacency {
    uint32_t *first, *next_node;
};

static bool adjacency_build(const struct topo *t, struct adjacency *a)
{
    uint32_t N = t->nodes;
    struct hop *hops = malloc((size_t)(t->max_hops ? t->max_hops : 1) * sizeof *hops);
    a->first = calloc((size_t)N + 1, sizeof *a->first);
    bool ok = hops && a->first;
    for (uint32_t x = 0; ok && x < N; x++) { /* out-edges of x and in-edges of its neighbours */
        unsigned n = t->ops->neighbors(t, x, hops, t->max_hops);
        a->first[x + 1] += n;
        for (unsigned i = 0; i < n; i++)
            a->first[hops[i].next + 1]++;
    }
    for (uint32_t x = 0; ok && x < N; x++)
        a->first[x + 1] += a->first[x];
    a->next_node = ok ? malloc((size_t)a->first[N] * sizeof *a->next_node + 1) : NULL;
    uint32_t *fill = ok ? malloc((size_t)N * sizeof *fill) : NULL;
    ok = ok && a->next_node && fill;
    if (ok)
        memcpy(fill, a->first, (size_t)N * sizeof *fill);
    for (uint32_t x = 0; ok && x < N; x++) {
        unsigned n = t->ops->neighbors(t, x, hops, t->max_hops);
        for (unsigned i = 0; i < n; i++) {
            a->next_node[fill[x]++] = hops[i].next;
            a->next_node[fill[hops[i].next]++] = x;
        }
    }
    free(fill);
    free(hops);
    return ok;
}

/* Breadth-first order from root into order[]; returns the last node reached. */
static uint32_t bfs(const struct topo *t, const struct adjacency *a, uint32_t root, uint32_t *order, uint8_t *seen)
{
    memset(seen, 0, t->nodes);
    uint32_t head = 0, tail = 0;
    order[tail++] = root;
    seen[root] = 1;
    while (head < tail) {
        uint32_t x = order[head++];
        for (uint32_t i = a->first[x]; i < a->first[x + 1]; i++)
            if (!seen[a->next_node[i]]) {
                seen[a->next_node[i]] = 1;
                order[tail++] = a->next_node[i];
            }
    }
    return order[tail - 1];
}

/* The channels leaving side[x]'s half at x, less those staying: the cut's change when x
 * moves. */
static long gain_of(const struct adjacency *a, const int8_t *side, uint32_t x)
{
    long g = 0;
    for (uint32_t i = a->first[x]; i < a->first[x + 1]; i++)
        g += side[a->next_node[i]] != side[x] ? 1 : -1;
    return g;
}

/* The channels across the cut side[] (each channel counted once). */
static long cut_of(const struct adjacency *a, uint32_t N, const int8_t *side)
{
    long cut = 0;
    for (uint32_t x = 0; x < N; x++)
        for (uint32_t i = a->first[x]; i < a->first[x + 1]; i++)
            cut += side[a->next_node[i]] != side[x];
    return cut / 2;
}

/* The first half of a breadth-first order from the node farthest from root. */
static void bfs_half(const struct topo *t, const struct adjacency *a, uint32_t root, uint32_t *order, uint8_t *seen,
                     int8_t *side)
{
    uint32_t N = t->nodes, T = t->terminals, far = bfs(t, a, root, order, seen);
    bfs(t, a, far, order, seen);
    uint32_t taken = 0;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t x = order[i];
        side[x] = taken < T / 2 ? 0 : 1;
        taken += x < T && side[x] == 0;
    }
    for (uint32_t x = 0; x < N; x++) /* nodes no search reached (a disconnected graph): side 1 */
        if (!seen[x])
            side[x] = 1;
}

struct scratch {
    uint8_t *locked;
    long *gain;
    uint32_t *moved;
};

/* Fiduccia-Mattheyses passes on side[] until one gains nothing. */
static void refine(const struct topo *t, const struct adjacency *a, int8_t *side, struct scratch *s)
{
    uint32_t N = t->nodes, T = t->terminals;
    for (int pass = 0; pass < 32; pass++) {
        memset(s->locked, 0, N);
        for (uint32_t x = 0; x < N; x++)
            s->gain[x] = gain_of(a, side, x);
        long imbalance = 0, cut_change = 0, best_change = 0; /* imbalance: side 0's terminals less T/2 */
        uint32_t best_moves = 0, made = 0;
        for (uint32_t m = 0; m < N; m++) {
            uint32_t pick = UINT32_MAX;
            for (uint32_t x = 0; x < N; x++) {
                if (s->locked[x])
                    continue;
                long after = imbalance + (x < T ? (side[x] == 0 ? -1 : 1) : 0);
                if (after < -2 || after > 2)
                    continue;
                if (pick == UINT32_MAX || s->gain[x] > s->gain[pick])
                    pick = x;
            }
            if (pick == UINT32_MAX)
                break;
            imbalance += pick < T ? (side[pick] == 0 ? -1 : 1) : 0;
            cut_change -= s->gain[pick];
            side[pick] ^= 1;
            s->locked[pick] = 1;
            s->moved[made++] = pick;
            for (uint32_t i = a->first[pick]; i < a->first[pick + 1]; i++) {
                uint32_t y = a->next_node[i];
                s->gain[y] += side[y] == side[pick] ? -2 : 2;
            }
            s->gain[pick] = -s->gain[pick];
            if (imbalance == 0 && cut_change < best_change) {
                best_change = cut_change;
                best_moves = made;
            }
        }
        for (uint32_t m = made; m > best_moves; m--) /* undo the moves after the best balanced prefix */
            side[s->moved[m - 1]] ^= 1;
        if (best_change == 0)
            return;
    }
}

/* Several starts (breadth-first halves from evenly spaced roots: up to 64, fewer on
 * large networks, the search being quadratic), each refined; the smallest cut wins,
 * the first among equals. */
bool topo_bisection_search(const struct topo *t, int8_t *side)
{
    uint32_t N = t->nodes, T = t->terminals;
    if (N > BISECTION_SEARCH_MAX_NODES || T % 2 || T < 2)
        return false;
    struct adjacency a = { 0 };
    struct scratch s = { malloc(N), malloc((size_t)N * sizeof *s.gain), malloc((size_t)N * sizeof *s.moved) };
    uint32_t *order = malloc((size_t)N * sizeof *order);
    uint8_t *seen = malloc(N);
    int8_t *trial = malloc(N);
    bool ok = s.locked && s.gain && s.moved && order && seen && trial && adjacency_build(t, &a);
    uint64_t budget = ((uint64_t)1 << 24) / ((uint64_t)N * N); /* about 2^24 node visits a pass, over all starts */
    uint32_t starts = budget < 1 ? 1 : budget > 64 ? 64 : (uint32_t)budget;
    starts = starts > N ? N : starts;
    long best = -1;
    for (uint32_t k = 0; ok && k < starts; k++) {
        bfs_half(t, &a, (uint32_t)((uint64_t)N * k / starts), order, seen, trial);
        refine(t, &a, trial, &s);
        long cut = cut_of(&a, N, trial);
        if (best < 0 || cut < best) {
            best = cut;
            memcpy(side, trial, N);
        }
    }
    free(a.first);
    free(a.next_node);
    free(s.locked);
    free(s.gain);
    free(s.moved);
    free(order);
    free(seen);
    free(trial);
    return ok;
}
