/* The static deadlock check's walk, shared by its two files (routing/deadlock_check.c:
 * the walk, the graph and its cycles; routing/deadlock_duato.c: Duato's indirect
 * dependencies).  Not an interface: deadlock_check.h is.
 *
 * Promise: struct walk is one dl_decide()'s state: the topology's ports, the stamps of
 * the states walked, the dependencies found (struct edges, a set of from << 32 | to),
 * and with escape VCs the current walk key's states and steps (node_of, step_from,
 * step_to).  dl_edges_add() and depend() add a dependency (false when out of memory);
 * dl_grow() makes an array room for `need` items.  dl_extended_edges() adds the current
 * walk's extended (indirect and cross) dependencies; dl_witness() checks them against
 * w->depth instead, setting w->witness_failed when one is out of order; dl_depths() sets
 * w->depth to the longest-path depths of the graph in w->deps.  All false when out of
 * memory.
 * Needs: deadlock_check.h.
 */
#ifndef ROUTING_DEADLOCK_WALK_H
#define ROUTING_DEADLOCK_WALK_H

#include <stddef.h>

#include "deadlock_check.h"

#define NONE UINT32_MAX
#define EMPTY UINT64_MAX

/* --- the topology's ports: (channel, node reached) pairs, numbered --- */

struct ports {
    bool direct;     /* one port per channel, numbered as the channels */
    uint32_t *base;  /* per channel: its first port; base[C]: the ports' count */
    uint32_t *to;    /* per port: the node reached */
    uint32_t *from;  /* per channel: a node sending on it */
};

struct edges {
    uint64_t *slot;
    size_t cap, n;
};

enum { SEEN = 8 };

bool dl_edges_add(struct edges *s, uint32_t from, uint32_t to);
bool dl_grow(void **a, uint32_t *cap, uint32_t need, size_t size);

/* A dependency, through a small per-node cache of the successors seen (most are seen
 * once per destination). */
static inline bool depend(struct edges *s, uint32_t *seen, uint32_t from, uint32_t to)
{
    uint32_t *c = seen + (size_t)from * SEEN;
    for (unsigned i = 0; i < SEEN; i++) {
        if (c[i] == to)
            return true;
        if (c[i] == UINT32_MAX) {
            c[i] = to;
            return dl_edges_add(s, from, to);
        }
    }
    return dl_edges_add(s, from, to);
}

struct walk {
    const struct topo *t;
    const struct dl_relation *rel;
    struct ports ports;
    uint32_t V, A, P;           /* VCs, aux states, ports (sources follow: P + node) */
    uint32_t *stamp, *local;    /* per state: the walk that saw it (key + 1); its number in that walk */
    struct dl_step *stack;
    size_t top, stack_cap;
    struct edges deps;
    uint32_t *seen_succ;        /* per (channel, VC): SEEN successors already in deps */
    /* Duato: this walk's states (their (channel, VC) node, escape or not) and steps */
    uint32_t *node_of, n_local, local_cap;
    uint32_t *step_from, *step_to, n_steps, steps_cap;
    uint32_t *csr, *csr_base, *seen, seen_gen, *dfs;
    enum { PLAIN, DIRECT, WITNESS, EXACT } mode; /* without escape VCs; Duato's three passes */
    uint32_t gen;               /* stamps of this pass: gen + key + 1 */
    uint32_t *depth;            /* WITNESS: per escape (channel, VC), its depth in the direct graph */
    bool witness_failed;        /* an indirect dependency the depths do not order */
    bool failed;                /* out of memory */
    bool refused;
    char note[400];
};

static inline bool is_escape(const struct walk *w, uint32_t node)
{
    return node != NONE && node % w->V < w->rel->escape;
}

bool dl_extended_edges(struct walk *w);
bool dl_witness(struct walk *w);
bool dl_depths(struct walk *w, uint32_t nodes);

#endif
