/* Path selection and switching.
 *
 * Path selection (route_ops) picks the next hop of a message among the topology's
 * minimal hops.  Switching (switch_ops) moves messages through channels: it owns its
 * event handlers, asks the access protocol for channels (proto_ops.request) and is
 * told when one is granted (switch_ops.granted).  Both kinds are registered by one
 * line in routing/registry.c.
 */
#ifndef ROUTING_ROUTING_H
#define ROUTING_ROUTING_H

#include "../sim/network.h"

struct route_ops {
    const char *name, *help;
    bool deterministic; /* the path depends only on (source, destination) */
    struct hop (*next)(const struct topo *t, uint32_t cur, uint32_t dst, struct rng *r);
};

struct switch_ops {
    const char *name, *help;
    /* Optional: refuses (with *err) configurations the switching cannot run. */
    bool (*check)(const struct config *cfg, const struct topo *t, struct cfg_error *err);
    bool (*init)(struct network *net); /* registers handlers, allocates state */
    void (*free)(struct network *net);
    void (*inject)(struct network *net, uint32_t msg); /* a new message at its source, src != dst */
    /* Protocol and node-model callbacks; NULL for switchings that use neither (the
     * flit-level ones arbitrate channels themselves and refuse the node model). */
    void (*granted)(struct network *net, uint32_t ch, uint32_t msg);
    /* The node model is done with the message at msg->at (see net_node_visit). */
    void (*visited)(struct network *net, uint32_t msg);
};

const struct route_ops *route_find(const char *name);
const struct switch_ops *switch_find(const char *name);
extern const struct cfg_choices route_choices, switch_choices;

#endif
