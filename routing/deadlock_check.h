/* The static deadlock check: the channel dependency graph of a wormhole routing,
 * built from the routing relation the engine itself routes by, decided before the run.
 *
 * Promise: dl_check() walks the relation an engine hands it (engine_ops.relation)
 * once per (walk key, routing state), a state being a packet's place (the channel it
 * holds and the node it reached, or its source), its VC and the routing state the
 * relation keeps beyond them (aux: a dateline class, Valiant's phase, the dragonfly's
 * class).  A walk key is what the relation's choices depend on besides the state: the
 * destination, and for two-phase routings the intermediate choice too.  Every step a
 * state may take, with every VC of the step's range, is a dependency of the (channel,
 * VC) held on the (channel, VC) asked for.  Without escape VCs (relation.escape 0) the
 * graph of those dependencies must be acyclic (Dally & Seitz 1987: the condition is
 * also necessary for a deterministic routing).  With escape VCs [0, escape) the
 * escape subfunction must offer a step from every state a packet can reach (connected)
 * and its extended dependency graph must be acyclic (Duato 1993/1995): an escape
 * (channel, VC) depends on every escape (channel, VC) a packet holding it may ask for
 * next, directly or after any number of non-escape VCs (direct, indirect and, since
 * the escape (channel, VC) held may have been taken by any step, the cross ones).
 * Duato's condition is decided in three passes at most: the direct escape dependencies
 * (a cycle among them refuses); a witness in linear time, the longest-path depths of the
 * direct graph, checked against every indirect dependency per walk key; only when the
 * witness fails, the extended graph itself (per escape state, a search through the
 * non-escape states after it: quadratic in the worst case).  A relation whose steps
 * depend on the node and aux only (by_node) is first walked by (node, aux) pair: the
 * escape subfunction alone gives the candidate depths, and one pass over every pair
 * checks every direct and indirect dependency against them; when one is out of order
 * (or a cycle or refusal is found) the three passes decide, so verdicts and the cycles
 * named are theirs (a witness found this way only proves what the exact graph would).
 * Acyclicity is decided by one iterative depth-first search, linear in the graph; a
 * cycle found is named in the topology's terms ("dim0+ of node 7, vc 0 -> ...").
 * The verdicts: proved, refused (a cycle, or a state with no VC to ask for), recovery
 * (refused, but routing.deadlock = recover breaks deadlocks at run time), not needed
 * (the engine never holds a channel a message waits on: store-and-forward,
 * cut-through), skipped (no relation, or a graph above DL_WORK_LIMIT unless forced),
 * off (routing.deadlock_check = off).  Protocol (message-dependent) deadlock: request-reply's
 * two classes and bounded reply queue are walked around this check (deadlock_protocol.h).
 * Needs: topo, the engine's relation (routing/engine.h), flit_params.h.
 */
#ifndef ROUTING_DEADLOCK_CHECK_H
#define ROUTING_DEADLOCK_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "../sim/core/config_value.h"
#include "../topo/topo.h"

#define DL_NONE UINT32_MAX /* a step's channel: ejection; a state's channel: at its source */

/* Above this much work, a run skips the check with a note; sim --check-deadlock walks
 * it anyway.  The work: walk keys x (channels + nodes) x VCs, twice with escape VCs; a
 * relation with escape VCs that routes by node (by_node), walked by (node, aux) pair:
 * twice walk keys x nodes x aux states x the most hops a node has (its three passes by
 * state, if that walk finds no order, are then skipped above the limit); Duato's exact
 * extended graph, when its witness fails, the states walked times the diameter.  About
 * 2 s on the machine bench/deadlock_check.sh ran on (a 64x64 torus: dimension order
 * 1.7e8, adaptive-minimal with escape VCs 2.7e8). */
#define DL_WORK_LIMIT 300000000.0

/* A packet's place in a walk, or a step it may take: channel (DL_NONE: at its source,
 * or as a step: ejection), the node it reaches over it, the VCs [lo, hi) it may take
 * there (a state: lo is its VC) and the routing state the relation keeps (< aux_count). */
struct dl_step {
    uint32_t channel, node;
    uint16_t lo, hi;
    uint32_t aux;
};

enum { DL_MAX_STEPS = 160 };

/* What an engine hands the check: its routing relation on the built topology. */
struct dl_relation {
    uint32_t vcs;       /* VCs per channel */
    uint32_t escape;    /* VCs [0, escape) form the escape subfunction (Duato); 0: none */
    uint32_t keys;      /* walks */
    uint32_t sources;   /* nodes a packet may start at: 0 .. sources - 1 */
    uint32_t aux_count; /* routing states beyond (channel, VC) */
    bool by_node;       /* next() reads only key, at->node and at->aux (not the channel or VC
                         * held): the walk asks once per (node, aux) and walk; else once per
                         * (channel, node, aux) (next() never reads the VC held) */
    const char *fix;    /* what to change when the check refuses (a sentence, no final stop) */
    const char *key;    /* the key a refusal names (the one the fix changes) */
    void *self;
    /* The states a packet of walk `key` starts in at `source` (channel DL_NONE): their
     * node and aux; 0 when none starts there (its destination is its source). */
    unsigned (*seeds)(void *self, uint32_t key, uint32_t source, struct dl_step *out, unsigned max);
    /* The steps a packet of walk `key` in state `at` may take (at most max). */
    unsigned (*next)(void *self, uint32_t key, const struct dl_step *at, struct dl_step *out, unsigned max);
    /* Optional (by_node relations with escape VCs): next's steps on escape VCs and its
     * ejection alone, cheaper (the walk of the escape subfunction asks here; NULL: next). */
    unsigned (*escape_next)(void *self, uint32_t key, const struct dl_step *at, struct dl_step *out, unsigned max);
    void (*destroy)(void *self);
};

enum dl_verdict { DL_OFF, DL_NOT_NEEDED, DL_PROVED, DL_REFUSED, DL_RECOVERY, DL_SKIPPED };

struct dl_result {
    enum dl_verdict verdict;
    bool duato;             /* decided by Duato's condition on the escape VCs */
    uint64_t nodes, edges;  /* the dependency graph: (channel, VC) pairs, dependencies */
    uint64_t states;        /* routing states walked; by_node: (node, aux) pairs walked */
    bool by_node;           /* proved by the walk by (node, aux) pair */
    char note[640];         /* refused or recovery: the cycle; skipped: why; else empty */
    char key[48];           /* refused: the key the fix changes */
};

struct engine_ops;

/* The check of a configuration on its built topology, as the run makes it: the engine
 * that runs it, force (sim --check-deadlock: walk whatever the size and whatever
 * routing.deadlock_check says).  False only when out of memory. */
bool dl_check(const struct config *cfg, const struct topo *t, const struct engine_ops *engine, bool force,
              struct dl_result *r);
/* The check of a relation already built (tests, dl_check): fills r's verdict (proved
 * or refused), graph size and note.  False when out of memory. */
bool dl_decide(const struct topo *t, const struct dl_relation *rel, struct dl_result *r);
/* The same, but when Duato's condition needs the exact extended graph (the linear-time
 * witness, the depths of the escape VCs' direct dependencies, does not order the
 * indirect ones) and its work (states walked x (diameter + 1)) exceeds exact_work
 * (>= 0), or needs its passes by state after the walk by node found no order and their
 * work (DL_WORK_LIMIT's) exceeds it, the verdict is skipped; DL_EXACT_ONLY: the exact
 * graph without the witness or the walk by node (tests compare them). */
#define DL_EXACT_ONLY (-2.0)
bool dl_decide_within(const struct topo *t, const struct dl_relation *rel, double exact_work, struct dl_result *r);
/* "proved", "refused", ... */
const char *dl_verdict_name(enum dl_verdict v);
/* One line for reports and --describe: the verdict, how, the graph's size, the note. */
void dl_summary(const struct dl_result *r, char *buf, size_t size);
/* Channel ch of t as a person names it: "dim0+ of node 7", "channel 12 (3->4)". */
void dl_channel_name(const struct topo *t, uint32_t ch, uint32_t to, char *buf, size_t size);

#endif
