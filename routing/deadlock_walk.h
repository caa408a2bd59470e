/* The static deadlock check's walk, shared by its files (routing/deadlock_check.c: the
 * walk by state and the graph; deadlock_cycles.c: its cycles; deadlock_duato.c: Duato's
 * indirect dependencies; deadlock_nodes.c: Duato's condition walked by (node, aux)).  Not
 * an interface: deadlock_check.h is.
 *
 * Promise: struct walk is one dl_decide()'s state: the topology's ports, the stamps of
 * the states walked, the dependencies found (struct edges, a set of from << 32 | to),
 * and with escape VCs the current walk key's states and steps (node_of, step_from,
 * step_to), and the relation's steps asked in the current walk, once per (place or node,
 * aux) (memo_*, pool: dl_steps_of()).  dl_edges_add(), depend() and dep() add a
 * dependency (false when out of memory); dl_grow() makes an array room for `need` items.
 * dl_extended_edges() adds the current walk's extended (indirect and cross)
 * dependencies; dl_witness() checks them against w->depth instead, setting
 * w->witness_failed when one is out of order; dl_depths() sets w->depth to the
 * longest-path depths of the graph in w->deps; dl_find_cycle() looks for a cycle in it,
 * dl_empty_deps() empties it; dl_by_node() decides Duato's condition by (node, aux) pair
 * or leaves it to the passes by state.  All false when out of memory.
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
    uint64_t *known;            /* per (channel, VC): its successors in deps, a bit per (out_slot, VC) */
    uint8_t *out_slot;          /* per channel: its place among its sender's out-channels */
    /* Duato: this walk's states (their (channel, VC) node, escape or not) and steps */
    uint32_t *node_of, n_local, local_cap;
    uint32_t *step_from, *step_to, n_steps, from_cap, steps_cap;
    /* per (place, aux): the walk that asked the relation (gen + key + 1), where its
     * steps are in pool and how many */
    uint32_t *memo_stamp, *memo_at;
    uint8_t *memo_n;
    struct dl_step *pool;
    uint32_t pool_n, pool_cap;
    bool escape_only;           /* ask rel->escape_next (the walk of the escape subfunction) */
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

/* The dependency of state s's (channel, VC) on (channel, vc), found once per walk or more:
 * a bit per (out-channel of s's node, VC) of each (channel, VC) says it is in w->deps
 * already (w->known, when every node's out-channels and VCs fit 64 bits), else depend()'s
 * cache.  False when out of memory. */
static inline bool dep(struct walk *w, const struct dl_step *s, uint32_t channel, uint32_t vc)
{
    uint32_t from = s->channel * w->V + s->lo, to = channel * w->V + vc;
    if (!w->known || w->ports.from[channel] != s->node)
        return depend(&w->deps, w->seen_succ, from, to);
    uint64_t bit = 1ull << (w->out_slot[channel] * w->V + vc);
    if (w->known[from] & bit)
        return true;
    w->known[from] |= bit;
    return dl_edges_add(&w->deps, from, to);
}

/* The steps of state s of walk key (*n of them; NULL when out of memory), asked of the
 * relation once per walk and place (node: rel->by_node) and aux. */
const struct dl_step *dl_steps_of(struct walk *w, uint32_t key, const struct dl_step *s, unsigned *n);
/* Empties w->deps. */
void dl_empty_deps(struct walk *w, uint32_t nodes);
/* Is the graph in w->deps cyclic?  A cycle found is named into note. */
bool dl_find_cycle(struct walk *w, uint32_t nodes, char *note, size_t size, bool *cyclic);
/* routing/deadlock_nodes.c: Duato's condition walked by (node, aux) when rel->by_node:
 * *proved, or nothing decided (the three passes decide). */
bool dl_by_node(struct walk *w, uint32_t nodes, struct dl_result *r, bool *proved);

bool dl_extended_edges(struct walk *w);
bool dl_witness(struct walk *w);
bool dl_depths(struct walk *w, uint32_t nodes);

#endif
