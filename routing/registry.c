/* Routing and engine registries: adding one is one file and one line here. */
#include "../sim/core/registry.h"
#include "engine.h"
#include "flit_params.h"
#include "routing.h"

extern const struct route_ops route_ecube, route_ecube_descending, route_minimal, route_random_minimal,
    route_least_count, route_backtracking, route_adaptive_minimal, route_valiant, route_ugal, route_up_down;
extern const struct engine_ops switch_store_and_forward, switch_cut_through, switch_wormhole, engine_backtracking,
    engine_iq;

static const struct route_ops *const algorithms[] = {
    &route_ecube,
    &route_minimal,
    &route_random_minimal,
    &route_least_count,
    &route_backtracking,
    &route_adaptive_minimal,
    &route_valiant,
    &route_ugal,
    &route_up_down,
};
/* The engines routing.switching names: the choices users see. */
static const struct engine_ops *const switchings[] = {
    &switch_store_and_forward,
    &switch_cut_through,
    &switch_wormhole,
};
/* Engines no switching name picks: engine_select() finds them by their traits.  They
 * are in no registry the loader walks, so their keys belong on the path selection that
 * selects them (the backtracking keys are route_backtracking's). */
static const struct engine_ops *const engines_by_traits[] = {
    &engine_backtracking,
    &engine_iq,
};

REGISTRY_DEFINE_PLUGINS(struct route_ops, algorithms, route_find, route_choices);
REGISTRY_DEFINE_PLUGINS(struct engine_ops, switchings, switch_find, switch_choices);

const struct engine_ops *engine_registered(size_t i)
{
    size_t n = sizeof switchings / sizeof switchings[0];
    if (i < n)
        return switchings[i];
    i -= n;
    return i < sizeof engines_by_traits / sizeof engines_by_traits[0] ? engines_by_traits[i] : NULL;
}

/* Plain choice values: a name and its meaning. */
struct named_choice {
    const char *name, *help;
};

/* routing.router: the wormhole router model; `engine` runs it instead of the switching's
 * own engine (NULL: the switching's). */
struct router_choice {
    const char *name, *help;
    const struct engine_ops *engine;
    const struct cfg_param_table *params; /* the router's own keys (NULL: none) */
};
static const struct router_choice simple_router = {
    "simple", "seeds 002/003's router: rigid worms, VCs freed when the tail leaves the far-end buffer, a router "
    "delay per hop", NULL, NULL };
static const struct router_choice iq_router = {
    "iq", "the input-queued VC router with credits: route, VC and switch allocation, switch traversal "
    "(routing.routing_delay ... st_delay)", &engine_iq, &iq_param_table };
static const struct router_choice *const routers[] = { &simple_router, &iq_router };
REGISTRY_DEFINE_PLUGINS(struct router_choice, routers, router_find, router_choices);

static const struct named_choice release_tail = { "tail", "once the tail has been sent into it" };
static const struct named_choice release_tail_credit = { "tail-credit", "once the tail's credit has come back" };
static const struct named_choice *const vc_releases[] = { &release_tail, &release_tail_credit };
REGISTRY_DEFINE(struct named_choice, vc_releases, vc_release_find, vc_release_choices);

static const struct named_choice tie_random = { "random", "either way, drawn at random" };
static const struct named_choice tie_negative = { "negative", "the topology's rule (seed 004): the negative way" };
static const struct named_choice *const ties[] = { &tie_random, &tie_negative };
REGISTRY_DEFINE(struct named_choice, ties, tie_find, tie_choices);

static const struct named_choice vc_alloc_islip = {
    "islip", "every free output VC its route and class allow is requested; each output VC grants the request "
    "nearest after its last accepted one, each input VC accepts the grant nearest after its last accepted one "
    "(one iSLIP iteration; pointers move only on an accept)" };
static const struct named_choice vc_alloc_lowest_free = {
    "lowest-free", "a head requests only the lowest free output VC of its class; each output VC grants one "
    "request, round robin (the rule before routing.vc_allocator existed)" };
static const struct named_choice *const vc_allocators[] = { &vc_alloc_islip, &vc_alloc_lowest_free };
REGISTRY_DEFINE(struct named_choice, vc_allocators, vc_allocator_find, vc_allocator_choices);

static const struct named_choice sw_alloc_islip = {
    "islip", "each input port requests every output port one of its VCs can use (per port pair, the VC nearest "
    "after the port's last one sent); each output port grants the input port nearest after its last accepted "
    "one, each input port accepts the output port nearest after its last accepted one (one iSLIP iteration)" };
static const struct named_choice sw_alloc_input_first = {
    "input-first", "each input port first picks one VC with a flit and a credit (round robin over its VCs), "
    "then each output port grants one of the input ports that picked it (round robin): the rule before "
    "routing.sw_allocator existed" };
static const struct named_choice *const sw_allocators[] = { &sw_alloc_islip, &sw_alloc_input_first };
REGISTRY_DEFINE(struct named_choice, sw_allocators, sw_allocator_find, sw_allocator_choices);

static const struct named_choice deadlock_stop = { "stop", "stop the run (exit status 3) naming a cycle of channels" };
static const struct named_choice deadlock_recover = {
    "recover", "abort the youngest worm of the cycle and send it again from its source (simple router)" };
static const struct named_choice *const deadlock_handlings[] = { &deadlock_stop, &deadlock_recover };
REGISTRY_DEFINE(struct named_choice, deadlock_handlings, deadlock_find, deadlock_choices);

static const struct named_choice check_on = { "on", "walk the routing's channel dependency graph before the run" };
static const struct named_choice check_off = { "off", "run unchecked (the periodic search stays)" };
static const struct named_choice *const deadlock_checks[] = { &check_on, &check_off };
REGISTRY_DEFINE(struct named_choice, deadlock_checks, deadlock_check_find, deadlock_check_choices);

static const struct named_choice class_vcs_separate = {
    "separate", "request-reply: each message class has its own routing.virtual_channels VCs per channel" };
static const struct named_choice class_vcs_shared = {
    "shared", "request-reply: requests and replies share one set of VCs (protocol deadlock can happen)" };
static const struct named_choice *const class_vc_sets[] = { &class_vcs_separate, &class_vcs_shared };
REGISTRY_DEFINE(struct named_choice, class_vc_sets, class_vcs_find, class_vcs_choices);

uint32_t flit_vc_sets(const struct config *cfg, bool two_classes)
{
    return two_classes && class_vcs_find(flit_params_of(cfg)->class_vcs) == &class_vcs_separate ? 2 : 1;
}

bool flit_router_is_iq(const struct config *cfg)
{
    return router_find(flit_params_of(cfg)->router)->engine != NULL;
}

const struct engine_ops *engine_select(const struct config *cfg)
{
    if (route_select(cfg)->traits & ROUTE_BACKTRACKS)
        for (size_t i = 0; i < sizeof engines_by_traits / sizeof engines_by_traits[0]; i++)
            if (engines_by_traits[i]->traits & ENGINE_BACKTRACKS)
                return engines_by_traits[i];
    const struct engine_ops *e = switch_find(cfg->routing.switching);
    const struct router_choice *r = router_find(flit_params_of(cfg)->router);
    /* Only wormhole has router models; cut-through refuses the iq router in its check. */
    if (e && (e->traits & SWITCH_HOLDS_CHANNELS) && r && r->engine)
        return r->engine;
    return e;
}

static const struct named_choice ascending = { "ascending", "correct differing dimensions lowest first" };
static const struct named_choice descending = { "descending", "correct differing dimensions highest first" };
static const struct named_choice *const dimension_orders[] = { &ascending, &descending };
REGISTRY_DEFINE(struct named_choice, dimension_orders, dimension_order_find, dimension_order_choices);

static bool descending_order(const struct config *cfg)
{
    return dimension_order_find(cfg_text(cfg, "routing.dimension_order")) == &descending;
}

const struct route_ops *route_select(const struct config *cfg)
{
    const struct route_ops *r = route_find(cfg->routing.algorithm);
    return r == &route_ecube && descending_order(cfg) ? &route_ecube_descending : r;
}

bool route_check(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    const struct route_ops *r = route_select(cfg);
    if (r == &route_ecube_descending && !t->ops->channel_dimension) {
        cfg_blame(cfg, "routing.dimension_order", err,
                  "%s has no dimension order to reverse (descending needs hypercube, kary-ncube, torus or "
                  "spanning-bus-hypercube)", cfg->network.topology);
        return false;
    }
    return !r->check || r->check(cfg, t, err);
}

bool flit_deadlock_recovers(const struct config *cfg)
{
    return deadlock_find(flit_params_of(cfg)->deadlock) == &deadlock_recover;
}
