/* Path selection.
 *
 * Path selection (route_ops) picks the next hop of a message among the topology's
 * minimal hops: statelessly through next() (the analytic side walks those routes
 * too), or through choose() when the choice depends on the run's history (least-count
 * keeps per-channel counts in the state create() builds).  An algorithm that needs an
 * engine of its own (backtracking: its own buffers, cycles and flow control) says so
 * with ROUTE_BACKTRACKS and has neither: engine_select() (routing/engine.h) then picks
 * the engine that routes by itself.  check() refuses the configurations an algorithm
 * cannot run.  Algorithms are registered by one line in routing/registry.c and declare
 * what they can do as trait bits (sim/core/traits.h: ROUTE_*), so that nobody asks for
 * one by name.  The switching engines are in routing/engine.h.
 * Needs: sim/core (streams, traits), topo.
 */
#ifndef ROUTING_ROUTING_H
#define ROUTING_ROUTING_H

#include "../sim/core/rng.h"
#include "../sim/core/traits.h"
#include "../topo/topo.h"

struct route_ops {
    const char *name, *help;
    unsigned traits; /* enum route_traits */
    const struct cfg_param_table *params; /* its keys (sim/core/params.h); NULL: none */
    /* NULL for algorithms that only choose() or need an engine of their own. */
    path_next_fn next;
    /* Set when next() draws, evenly, among hops it can list: those hops (the models
     * split flows over them; topo/topo.h).  NULL for a deterministic next(). */
    path_split_fn split;
    /* Optional, for routes that may be longer than the diameter (not minimal): the
     * most hops of any route on t.  NULL: routes are minimal, t->diameter at most. */
    unsigned (*max_route_hops)(const struct topo *t);
    /* Optional: refuses configurations the algorithm cannot run (t is built). */
    bool (*check)(const struct config *cfg, const struct topo *t, struct cfg_error *err);
    /* Optional: per-run state (NULL when out of memory), a choice that uses it, and
     * its release. */
    void *(*create)(const struct topo *t);
    void (*destroy)(void *state);
    struct hop (*choose)(void *state, const struct topo *t, uint32_t at, uint32_t dst, struct rng *r);
};

/* One run's path selection: the algorithm, its state, the per-node routing streams. */
struct path_selection {
    const struct route_ops *ops;
    void *state;           /* ops->create()'s; NULL for stateless algorithms */
    const struct topo *topo;
    struct rng *streams;   /* per node: the routing stream of the node choosing; NULL when
                            * nothing draws from it (a deterministic algorithm) */
};

/* The hop a message at `at` takes toward dst (at != dst). */
static inline struct hop path_next(struct path_selection *p, uint32_t at, uint32_t dst)
{
    struct rng *r = p->streams ? &p->streams[at] : NULL;
    if (p->ops->choose)
        return p->ops->choose(p->state, p->topo, at, dst, r);
    return p->ops->next(p->topo, at, dst, r);
}

const struct route_ops *route_find(const char *name);
/* The choices of routing.algorithm, routing.switching (the engines of
 * routing/engine.h), routing.dimension_order and routing.forced_choice. */
extern const struct cfg_choices route_choices, switch_choices, dimension_order_choices, forced_choice_choices;

/* The path selection a configuration runs: the algorithm named in routing.algorithm,
 * with routing.dimension_order applied to ecube. */
const struct route_ops *route_select(const struct config *cfg);
/* ecube's path as the input-queued router runs it with tie = random (ROUTE_RANDOM_TIES):
 * r's variant that draws a torus's antipodal ties when r is ecube (either order) and t
 * a torus with links both ways and an even radix above 2 (a 2-ary ring's two ways are
 * parallel channels, of which the router takes the topology's canonical one); r
 * itself otherwise. */
const struct route_ops *ecube_random_ties(const struct route_ops *r, const struct topo *t);
/* The topology's canonical minimal route (routing.algorithm = minimal), which each of
 * Valiant's phases follows (routing/ecube.c). */
const struct route_ops *route_canonical_minimal(void);
/* The algorithm's check() plus routing.dimension_order's: false with *err when the
 * configuration cannot run on topology t. */
bool route_check(const struct config *cfg, const struct topo *t, struct cfg_error *err);
/* least-count: the count node-and-direction `channel` has reached, from its state
 * (for tests). */
uint64_t least_count_of(const void *state, uint32_t channel);

#endif
