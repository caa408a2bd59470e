/* Path selection and switching.
 *
 * Path selection (route_ops) picks the next hop of a message among the topology's
 * minimal hops: statelessly through next() (the analytic side walks those routes
 * too), or through choose() when the choice depends on the run's history (least-count
 * keeps per-channel counts in net->route_state).  An algorithm that is a whole
 * slotted engine of its own (backtracking: its own buffers, cycles and flow control)
 * sets `engine`; net_create() then hands it the run instead of the event-driven
 * switching module.  check() refuses the configurations an algorithm cannot run.
 * Switching (switch_ops) moves messages through channels: it owns its event handlers,
 * asks the access protocol for channels (proto_ops.request on net->proto_state) and is
 * told when one is granted (switch_ops.granted, which net_create() hands the protocol
 * as its grant callback).  Both kinds are registered by one line in routing/registry.c.
 * Each declares what it can do as trait bits (sim/core/traits.h: ROUTE_*, SWITCH_*),
 * so that nobody asks for it by name.
 */
#ifndef ROUTING_ROUTING_H
#define ROUTING_ROUTING_H

#include "../sim/core/traits.h"
#include "../sim/run/network.h"

struct slotted_engine;

struct route_ops {
    const char *name, *help;
    unsigned traits; /* enum route_traits */
    const struct cfg_param_table *params; /* its keys (sim/core/params.h); NULL: none */
    /* NULL for algorithms that only choose() or are an engine. */
    path_next_fn next;
    /* Optional: refuses configurations the algorithm cannot run (t is built). */
    bool (*check)(const struct config *cfg, const struct topo *t, struct cfg_error *err);
    /* Optional: per-run state (net->route_state) and a choice that uses it. */
    bool (*init)(struct network *net);
    void (*free)(struct network *net);
    struct hop (*choose)(struct network *net, uint32_t msg);
    const struct slotted_engine *engine; /* optional: the algorithm runs the network itself */
};

/* A slotted engine: init() registers its per-cycle kernel event, allocates its state
 * (net->route_state) and schedules cycle 0; free() releases the state. */
struct slotted_engine {
    bool (*init)(struct network *net);
    void (*free)(struct network *net);
};

struct switch_ops {
    const char *name, *help;
    unsigned traits; /* enum switch_traits */
    const struct cfg_param_table *params; /* its keys (sim/core/params.h); NULL: none */
    /* Optional: refuses (with *err) configurations the switching cannot run. */
    bool (*check)(const struct config *cfg, const struct topo *t, struct cfg_error *err);
    bool (*init)(struct network *net); /* registers handlers, allocates state */
    void (*free)(struct network *net);
    void (*inject)(struct network *net, uint32_t msg); /* a new message at its source, src != dst */
    /* Protocol and node-model callbacks; NULL for switchings that use neither (the
     * flit-level ones arbitrate channels themselves and refuse the node model).
     * granted is the access protocol's grant callback (protocols/protocol.h), so its
     * first argument is untyped: it is the run, struct network. */
    void (*granted)(void *net, uint32_t ch, uint32_t msg);
    /* The node model is done with the message at msg->at (see net_node_visit). */
    void (*visited)(struct network *net, uint32_t msg);
};

const struct route_ops *route_find(const char *name);
const struct switch_ops *switch_find(const char *name);
extern const struct cfg_choices route_choices, switch_choices, dimension_order_choices, forced_choice_choices;

/* The path selection a configuration runs: the algorithm named in routing.algorithm,
 * with routing.dimension_order applied to ecube. */
const struct route_ops *route_select(const struct config *cfg);
/* The algorithm's check() plus routing.dimension_order's: false with *err when the
 * configuration cannot run on topology t. */
bool route_check(const struct config *cfg, const struct topo *t, struct cfg_error *err);
/* least-count: the count node-and-direction `channel` has reached (for tests). */
uint64_t least_count_of(const struct network *net, uint32_t channel);

#endif
