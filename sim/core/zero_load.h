/* The zero-load delay of a switching engine as a linear form over a route: what the
 * engines declare (routing/engine.h, engine_ops.zero_load) and the analytic side sums
 * over the routes of a destination distribution (analytic/zero_load.c).
 * Needs: nothing.
 */
#ifndef SIM_CORE_ZERO_LOAD_H
#define SIM_CORE_ZERO_LOAD_H

#include <stdbool.h>
#include <stdint.h>

/* The engine's zero-load delay as a linear form over a message's route, for the
 * analytic side (analytic/zero_load.c): a message of S flits (max(1, ceil(length /
 * bandwidth))) whose route crosses h channels that count as hops, with latencies d_c and
 * transmission times x_c = length / bandwidth_c, alone in the network, takes
 *   per_message + per_hop h + sum d_c + per_flit (S - 1) + sum x_c · per_transmission
 *   + the wait from its creation to the engine's first cycle (wait_integer when it is
 *     created at a whole time unit, wait_continuous on average when its creation time
 *     is continuous)
 * time units.  d_c is the topology's channel_latency when it sets one, else
 * link_latency.  Self-addressed messages take per_message + per_flit (S - 1) + the
 * wait when the engine takes them (ENGINE_TAKES_SELF_ADDRESSED), else 0.  Terminal
 * links (a channel to or from a node below topo.terminals on a network whose terminals
 * hang off routers) count as hops only when terminal_links_are_hops; the iq router
 * runs them as its injection and ejection channels, whose cost is in per_message. */
struct zero_load_terms {
    double per_message, per_hop, per_flit, per_transmission;
    double link_latency;
    double wait_integer, wait_continuous;
    bool terminal_links_are_hops;
    /* Flits stream one per cycle only for messages of at most this many flits (the
     * buffers cover the credits' round trip beyond it); UINT32_MAX: any length. */
    uint32_t streaming_flits_max;
};

#endif
