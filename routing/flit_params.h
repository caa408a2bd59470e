/* The flit engines' keys: one table (routing/flit_setup.c) for wormhole and cut-through,
 * the simple router and the input-queued one (routing.router), and the input-queued
 * router's own (routing/iq_setup.c), laid out through the routing.router registry.
 *
 * Promise: flit_params_of() and iq_params_of() give this run's values of the tables'
 * keys; the engines of routing/flit*.c and routing/iq*.c read their keys only through them.
 * Needs: sim/core (params, config).
 */
#ifndef ROUTING_FLIT_PARAMS_H
#define ROUTING_FLIT_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "../sim/core/config_value.h"
#include "../sim/core/params.h"

struct flit_params {
    int64_t flit_buffers, virtual_channels, router_delay, link_latency;
    bool finite_buffer;
    const char *router; /* routing.router: "simple" or "iq" (router_choices) */
    int64_t escape_vcs;     /* -1: the least the topology needs */
    /* Deadlock handling: how often the wait-for graph is searched, what a find does. */
    int64_t deadlock_interval, recovery_delay;
    const char *deadlock;   /* "stop" or "recover" (deadlock_choices) */
    const char *deadlock_check; /* "on" or "off" (deadlock_check_choices): the static check before a run */
    const char *class_vcs;  /* "separate" or "shared" (class_vcs_choices): request-reply's VC sets */
};

/* The input-queued router's own keys (routing.router = iq: its table is reached
 * through router_choices, so a run echoes them only with that router): its pipeline
 * and flow control. */
struct iq_params {
    int64_t routing_delay, vc_alloc_delay, sw_alloc_delay, st_delay, credit_delay;
    const char *vc_release; /* "tail" or "tail-credit" */
    const char *tie;        /* "random" or "negative" */
    const char *vc_allocator; /* "islip" or "lowest-free" */
    const char *sw_allocator; /* "islip" or "input-first" */
};

extern const struct cfg_param_table flit_param_table, iq_param_table;
extern const struct cfg_choices router_choices, vc_release_choices, tie_choices, deadlock_choices,
    deadlock_check_choices, vc_allocator_choices, sw_allocator_choices, class_vcs_choices;

static inline const struct flit_params *flit_params_of(const struct config *cfg)
{
    return cfg_params(cfg, &flit_param_table);
}

static inline const struct iq_params *iq_params_of(const struct config *cfg)
{
    return cfg_params(cfg, &iq_param_table);
}

/* Whether routing.router names the input-queued router. */
bool flit_router_is_iq(const struct config *cfg);
/* The VC sets a run's messages use: 2 with two message classes (request-reply) and
 * routing.class_vcs = separate, else 1 (routing.virtual_channels VCs per set). */
uint32_t flit_vc_sets(const struct config *cfg, bool two_classes);
/* Whether routing.deadlock = recover. */
bool flit_deadlock_recovers(const struct config *cfg);

#endif
