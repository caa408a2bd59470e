/* Wormhole and cut-through (contract in flit_setup.h): the engine's memory, its
 * checks of a configuration and the two engine_ops; the cycle itself is in
 * flit_cycle.c, the sources in flit_source.c. */
#include "flit_setup.h"

#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "../sim/core/params.h"
#include "flit.h"
#include "flit_cycle.h"
#include "flit_dor.h"
#include "flit_figures.h"
#include "flit_params.h"
#include "flit_source.h"
#include "vc_classes.h"

/* The flit engines' keys, one table for wormhole and cut-through, both routers
 * (struct flit_params: flit_params.h). */
static const struct cfg_key flit_keys[] = {
    { "routing", "flit_buffers", CFG_INT, offsetof(struct flit_params, flit_buffers), "4", 1, 1 << 20, false, NULL,
      "wormhole: flits one virtual channel's buffer holds at the far end of its link (flits on the wire "
      "included)" },
    { "routing", "virtual_channels", CFG_INT, offsetof(struct flit_params, virtual_channels), "1", 1, 64, false, NULL,
      "wormhole, cut-through: virtual channels per channel (torus, >= 2: dateline classes, lower half "
      "before the wrap-around link, upper half after)" },
    { "routing", "router_delay", CFG_INT, offsetof(struct flit_params, router_delay), "0", 0, 1000, false, NULL,
      "wormhole, cut-through: cycles from a header's arrival at a node (or its offer at the source) to its "
      "request for the next channel" },
    { "routing", "link_latency", CFG_INT, offsetof(struct flit_params, link_latency), "1", 1, 256, false, NULL,
      "wormhole, cut-through: a link's latency; simple router: cycles a flit takes to cross it (sent at c, "
      "arrives at c + link_latency); iq router: the reference simulator's channel latency d (a flit or credit "
      "written at w is read at w + d + 1; injection and ejection channels have d = 1)" },
    { "routing", "finite_buffer", CFG_BOOL, offsetof(struct flit_params, finite_buffer), "false", 0, 0, false, NULL,
      "wormhole, cut-through: seed 003's finite-buffer mode, a new message whose source is busy or whose "
      "first channel has no free VC is refused (lost)" },
    { "routing", "router", CFG_CHOICE, offsetof(struct flit_params, router), "simple", 0, 0, false, &router_choices,
      "wormhole: the router model" },
    { "routing", "escape_vcs", CFG_INT, offsetof(struct flit_params, escape_vcs), "-1", -1, 64, false, NULL,
      "wormhole, cut-through: adaptive-minimal and random-minimal's VCs kept for escape routes (dimension order "
      "on lattices, the canonical minimal route on router networks); -1: the least the topology needs (2 dateline "
      "VCs on a torus, 1 on a mesh or hypercube; router networks: one per VC class of the canonical route; simple "
      "router, random-minimal: none, paths drawn at creation)" },
    { "routing", "deadlock", CFG_CHOICE, offsetof(struct flit_params, deadlock), "stop", 0, 0, false,
      &deadlock_choices, "wormhole: what a deadlock found by the periodic search does (recover: simple router only)" },
    { "routing", "deadlock_check", CFG_CHOICE, offsetof(struct flit_params, deadlock_check), "on", 0, 0, false,
      &deadlock_check_choices, "wormhole: prove before the run that the routing's channel dependency graph is "
      "acyclic (Duato's condition with escape VCs); a cycle refuses the run (exit status 2) unless deadlock = "
      "recover (docs/models.md, \"The static deadlock check\")" },
    { "routing", "class_vcs", CFG_CHOICE, offsetof(struct flit_params, class_vcs), "separate", 0, 0, false,
      &class_vcs_choices, "wormhole, cut-through, request-reply: separate gives requests and replies each their own "
      "copy of the VCs the routing needs (routing.virtual_channels counts per class, so a channel has twice as many), "
      "shared puts both on one set; no effect with one class of message or store-and-forward" },
    { "routing", "deadlock_interval", CFG_INT, offsetof(struct flit_params, deadlock_interval), "1024", 1, 1 << 30,
      false, NULL, "wormhole: cycles between searches for a deadlock (with recover, the time a deadlock can last "
      "before it is broken)" },
    { "routing", "recovery_delay", CFG_INT, offsetof(struct flit_params, recovery_delay), "0", 0, 1 << 30, false,
      NULL, "wormhole, deadlock = recover: cycles from a worm's abort to its new offer at its source" },
};
CFG_PARAM_TABLE(flit_param_table, struct flit_params, flit_keys);

/* --- life cycle --- */

/* A ring of at least n slots, a power of two (n <= 2^31): its index mask. */
static uint32_t ring_mask(uint32_t n)
{
    uint32_t size = 1;
    while (size < n)
        size *= 2;
    return size - 1;
}

static uint32_t *filled(size_t n, uint32_t value)
{
    uint32_t *a = malloc((n ? n : 1) * sizeof *a);
    if (a)
        for (size_t i = 0; i < n; i++)
            a[i] = value;
    return a;
}

static void engine_free(void *self)
{
    struct flit_engine *e = self;
    if (!e)
        return;
    free(e->worms);
    free(e->slab);
    free(e->dor_chan);
    free(e->src_busy);
    free(e->src_head);
    free(e->src_tail);
    free(e->active);
    free(e->owner);
    free(e->reply_held);
    free(e->replies_in);
    free(e->eject_wait.v);
    free(e->chans);
    free(e->counts);
    free(e->dirty_list.v);
    free(e->cand);
    free(e->retries.v);
    free(e->per_hop.v);
    free(e->order);
    for (uint32_t s = 0; e->ready_cal && s <= e->ready_mask; s++)
        free(e->ready_cal[s].v);
    for (uint32_t s = 0; e->deliver_cal && s <= e->deliver_mask; s++)
        free(e->deliver_cal[s].v);
    for (uint32_t s = 0; e->wake_cal && s <= e->wake_mask; s++)
        free(e->wake_cal[s].v);
    free(e->ready_cal);
    free(e->deliver_cal);
    free(e->wake_cal);
    free(e);
}

/* Whether the simple router routes hop by hop: adaptive-minimal, and random-minimal
 * given escape VCs (without them it keeps its paths drawn at creation). */
bool flit_routes_per_hop(const struct config *cfg)
{
    unsigned traits = route_select(cfg)->traits;
    return (traits & ROUTE_ADAPTIVE) || ((traits & ROUTE_UNIFORM_SPLIT) && flit_params_of(cfg)->escape_vcs >= 1);
}

/* A network of routers (not a lattice, nor one of the seeds' hierarchical networks),
 * where per-hop routing escapes on the canonical minimal route. */
static bool router_network(const struct topo *t)
{
    return t->ops->traits & (TOPO_NO_DIMENSIONS | TOPO_MINIMAL_ACYCLIC);
}

int64_t flit_escape_vcs(const struct config *cfg, const struct topo *t)
{
    int64_t set = flit_params_of(cfg)->escape_vcs;
    if (set >= 0 || !router_network(t))
        return iq_escape_vcs(cfg, t);
    struct flit_classes c;
    flit_escape_classes(t, &c);
    return c.classes ? c.classes : 1;
}

/* Per-hop routing on a network of routers, what it needs to run at all: an adaptive VC
 * beyond the escape VCs, which cannot be when the escape route's classes alone need
 * every VC a channel can have.  (Whether the escape VCs hold every class is the static
 * deadlock check's to decide.) */
static bool net_escapes_fit(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    struct flit_classes c;
    flit_escape_classes(t, &c);
    const char *why;
    flit_classes_needed(t, &(struct route_ops){ .name = "minimal" }, &why);
    if (c.classes >= FLIT_MAX_CLASSES) {
        cfg_blame(cfg, "routing.algorithm", err, "%s on %s would need %u escape VCs (%s) and an adaptive VC, more "
                  "than routing.virtual_channels allows (%d): use routing.algorithm = up-down or minimal",
                  cfg->routing.algorithm, t->ops->name, c.classes, why, FLIT_MAX_CLASSES);
        return false;
    }
    return adaptive_vc_left(cfg, flit_escape_vcs(cfg, t), err);
}

/* The routing mode and the VC range of each class a drawn hop may have. */
static void set_routing(struct flit_engine *e, const struct config *cfg, const struct topo *t)
{
    unsigned traits = route_select(cfg)->traits;
    e->routing = traits & ROUTE_VALIANT ? FLIT_VALIANT : flit_routes_per_hop(cfg) ? FLIT_PER_HOP : FLIT_DRAWN;
    if (e->routing != FLIT_PER_HOP)
        flit_classes_select(t, route_select(cfg), e->V, &e->classes);
    if (e->classes.classes > FLIT_MAX_CLASSES) /* more than the VCs: the check refused it */
        e->classes.rule = FLIT_CLASSES_NONE;
    if (e->classes.rule != FLIT_CLASSES_NONE) {
        for (uint32_t c = 0; c <= e->classes.classes; c++)
            flit_classes_range(&e->classes, e->V, c, &e->class_lo[c], &e->class_hi[c]);
        return;
    }
    for (unsigned c = 0; c < 4; c++) {
        e->class_lo[c] = 0;
        e->class_hi[c] = e->V;
        if (e->routing == FLIT_VALIANT)
            valiant_vc_range(e->V, c / 2, e->dateline, c % 2, &e->class_lo[c], &e->class_hi[c]);
        else if (e->dateline && c) /* the upper half once the path has crossed the wrap-around link */
            e->class_lo[c] = e->V / 2;
        else if (e->dateline)
            e->class_hi[c] = e->V / 2;
    }
    if (e->routing == FLIT_PER_HOP) {
        e->E = (uint32_t)flit_escape_vcs(cfg, t);
        flit_escape_classes(t, &e->escape);
        e->most_free = traits & ROUTE_ADAPTIVE;
        e->dateline = (t->ops->traits & TOPO_KARY_NCUBE) && t->lattice.wrap; /* of the escapes */
    }
}

static void *engine_create(const struct engine_env *env, bool wormhole)
{
    const struct config *cfg = env->cfg;
    struct flit_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->env = *env;
    e->wormhole = wormhole;
    e->finite = flit_params_of(cfg)->finite_buffer;
    e->V = (uint32_t)flit_params_of(cfg)->virtual_channels;
    e->vc_sets = flit_vc_sets(cfg, env->classes != NULL);
    e->Vt = e->V * e->vc_sets;
    e->reply_queue = env->classes ? env->classes->reply_queue : 0;
    e->B = wormhole ? (uint32_t)flit_params_of(cfg)->flit_buffers : UINT32_MAX;
    e->r = (uint32_t)flit_params_of(cfg)->router_delay;
    e->L = (uint32_t)flit_params_of(cfg)->link_latency;
    e->recover = flit_deadlock_recovers(cfg);
    e->deadlock_interval = (uint32_t)flit_params_of(cfg)->deadlock_interval;
    e->recovery_delay = (uint32_t)flit_params_of(cfg)->recovery_delay;
    /* rings that close need a dateline to break their cycles (the torus enforces wrap) */
    bool kary = env->topo->ops->traits & TOPO_KARY_NCUBE;
    e->dateline = e->V >= 2 && kary && env->topo->lattice.wrap;
    e->radix = kary ? env->topo->lattice.radix : 2; /* read only on a k-ary n-cube */
    e->both_ways = !kary || env->topo->lattice.both_ways;
    set_routing(e, cfg, env->topo);
    e->lazy_paths = !e->finite && (e->routing == FLIT_PER_HOP ||
                                   (e->routing == FLIT_DRAWN && (route_select(cfg)->traits & ROUTE_DETERMINISTIC)));
    const struct route_ops *route = route_select(cfg);
    e->max_hops = route->max_route_hops ? route->max_route_hops(env->topo) : env->topo->diameter;
    e->max_hops = e->max_hops ? e->max_hops : 1;
    if (e->routing == FLIT_VALIANT) /* two phases */
        e->max_hops *= 2;
    e->at_mask = ring_mask(e->L);
    e->stride = e->max_hops * (FLIT_HOP_WORDS + 1 + (e->L > 2 ? e->at_mask + 1 : 0));
    e->tick_at = -1;
    e->worm_free = e->pending_head = e->pending_tail = MSG_NONE;
    uint32_t n = env->topo->nodes, ch = env->topo->channels;
    e->ready_mask = ring_mask(e->r + e->L + 2);
    e->deliver_mask = ring_mask(e->L + 1);
    e->wake_mask = ring_mask(e->L + 1);
    size_t lines = (size_t)n * e->vc_sets;
    e->src_busy = filled(lines, MSG_NONE);
    e->src_head = filled(lines, MSG_NONE);
    e->src_tail = filled(lines, MSG_NONE);
    e->owner = e->Vt > FLIT_INLINE_VCS ? filled((size_t)ch * e->Vt, MSG_NONE) : NULL;
    if (e->reply_queue) {
        e->reply_held = calloc(n, sizeof *e->reply_held);
        e->replies_in = calloc(n, sizeof *e->replies_in);
    }
    /* Two records to a cache line, none across two. */
    size_t chan_bytes = ((ch ? ch : 1) * sizeof *e->chans + 63) / 64 * 64;
    e->chans = aligned_alloc(64, chan_bytes);
    e->counts = calloc(ch ? ch : 1, sizeof *e->counts);
    for (uint32_t c = 0; e->chans && c < ch; c++)
        e->chans[c] = (struct flit_channel){ .wait_head = MSG_NONE, .wait_tail = MSG_NONE, .pick = MSG_NONE,
                                             .rr_last = e->Vt - 1, .owner = { MSG_NONE, MSG_NONE } };
    e->ready_cal = calloc((size_t)e->ready_mask + 1, sizeof *e->ready_cal);
    e->deliver_cal = calloc((size_t)e->deliver_mask + 1, sizeof *e->deliver_cal);
    e->wake_cal = calloc((size_t)e->wake_mask + 1, sizeof *e->wake_cal);
    if (!e->src_busy || !e->src_head || !e->src_tail || (e->Vt > FLIT_INLINE_VCS && !e->owner) ||
        (e->reply_queue && (!e->reply_held || !e->replies_in)) || !e->chans || !e->counts || !e->ready_cal || !e->deliver_cal ||
        !e->wake_cal || !flit_pool_grow(e) || !flit_dor_setup(e, cfg, env->topo)) {
        engine_free(e);
        return NULL;
    }
    e->ev_tick = kernel_register(env->kernel, flit_tick, e);
    return e;
}

static void inject(void *self, uint32_t m) { flit_inject(self, m); }

/* The busy cycles counted in the engine's channel records go to the run's books. */
static void finish(void *self)
{
    struct flit_engine *e = self;
    for (uint32_t ch = 0; ch < e->env.topo->channels; ch++)
        e->env.chan[ch].busy_time += (double)(e->counts[ch].busy_wraps << 32 | e->chans[ch].busy);
}

static bool check(const struct engine_spec *spec, struct cfg_error *err)
{
    const struct config *cfg = spec->cfg;
    const struct topo *t = spec->topo;
    const char *sw = cfg->routing.switching;
    if (topo_sets_latencies(t)) {
        cfg_blame(cfg, "routing.router", err, "%s sets channel latencies of its own, which only the iq router "
                  "models (routing.switching = wormhole, routing.router = iq)", cfg->network.topology);
        return false;
    }
    if (flit_router_is_iq(cfg)) { /* only wormhole takes it: engine_select() runs the iq engine then */
        cfg_blame(cfg, "routing.router", err, "the iq router is a wormhole router: %s switching runs on "
                  "routing.router = simple", sw);
        return false;
    }
    if (spec->reply_queue && flit_deadlock_recovers(cfg)) {
        cfg_blame(cfg, "routing.deadlock", err, "recover aborts worms waiting for channels, not requests waiting "
                  "for room in a reply queue (workload.reply_queue): use stop");
        return false;
    }
    if (spec->reply_queue && flit_params_of(cfg)->finite_buffer) {
        cfg_blame(cfg, "routing.finite_buffer", err, "a refused reply would hold its place in the reply queue "
                  "(workload.reply_queue) for ever");
        return false;
    }
    unsigned route_traits = route_select(cfg)->traits;
    if ((route_traits & ROUTE_VALIANT || flit_routes_per_hop(cfg)) && (t->ops->traits & TOPO_KARY_NCUBE) &&
        t->kind != CHANNEL_LINK_DIRECTION) {
        /* both ways along a ring or line share each link: dimension order's own hops wait on each other */
        cfg_blame(cfg, "network.links", err, "%s on the simple router needs full-duplex links on a k-ary n-cube: "
                  "a half-duplex link serves both directions, and dimension order is not deadlock-free on it",
                  cfg->routing.algorithm);
        return false;
    }
    if (route_traits & ROUTE_VALIANT) {
        const char *why;
        uint32_t need = flit_classes_needed(t, route_select(cfg), &why);
        int64_t vcs = flit_params_of(cfg)->virtual_channels;
        if (need > FLIT_MAX_CLASSES) {
            cfg_blame(cfg, "routing.algorithm", err, "valiant on %s would need %u virtual channels (%s) to be "
                      "deadlock-free on the simple router, more than routing.virtual_channels allows (%d)",
                      t->ops->name, need, why, FLIT_MAX_CLASSES);
            return false;
        }
        if (need && vcs < need) {
            cfg_blame(cfg, "routing.virtual_channels", err, "valiant on %s needs %u virtual channels (%s) to be "
                      "deadlock-free on the simple router (got %lld)", t->ops->name, need, why, (long long)vcs);
            return false;
        }
        if (!need && (!valiant_has_dimension_order(cfg, t, err) || !valiant_vcs_fit(cfg, t, "simple", err)))
            return false;
    } else if (flit_routes_per_hop(cfg)) {
        bool lattice = (t->ops->traits & (TOPO_BINARY_HYPERCUBE | TOPO_KARY_NCUBE)) && t->ops->channel_dimension;
        if (!lattice && !router_network(t)) {
            cfg_blame(cfg, "network.topology", err, "%s on the simple router routes hop by hop with escape VCs on "
                      "a deterministic route: it runs on hypercubes, k-ary n-cubes (torus, mesh) and networks of "
                      "routers, not on %s", cfg->routing.algorithm, t->label);
            return false;
        }
        if (lattice ? !escapes_fit(cfg, t, false, err) : !net_escapes_fit(cfg, t, err))
            return false;
        if (flit_params_of(cfg)->finite_buffer) {
            cfg_blame(cfg, "routing.finite_buffer", err, "seed 003's finite-buffer mode refuses a message whose first "
                      "channel is busy, which %s chooses only when its header asks", cfg->routing.algorithm);
            return false;
        }
    } else if (!(route_traits & ROUTE_OBLIVIOUS)) {
        cfg_blame(cfg, "routing.algorithm", err, "%s switching on the simple router runs ecube, random-minimal, "
                  "adaptive-minimal or valiant", sw);
        return false;
    }
    bool fifo_link = (proto_find(cfg->protocol.link)->traits & ACCESS_PLAIN_CHANNEL) == ACCESS_PLAIN_CHANNEL;
    if (!fifo_link || !(priority_discipline(cfg->protocol.priority)->traits & ACCESS_FIFO_ORDER)) {
        cfg_blame(cfg, fifo_link ? "protocol.priority" : "protocol.link", err,
                  "%s switching arbitrates channels itself (headers first come first served, virtual channels "
                  "round robin): protocol.link and protocol.priority must be fifo", sw);
        return false;
    }
    if (cfg->node.service_rate > 0) {
        cfg_blame(cfg, "node.service_rate", err, "the node model does not apply to %s switching "
                  "(use routing.router_delay)", sw);
        return false;
    }
    if (cfg->run.redraw_length_per_hop) {
        cfg_blame(cfg, "run.redraw_length_per_hop", err, "a message keeps its flits in %s switching", sw);
        return false;
    }
    if (!t->uniform_bandwidth) {
        cfg_blame(cfg, "network.level2_bandwidth", err, "%s switching needs one bandwidth (one flit per cycle) "
                  "on every channel", sw);
        return false;
    }
    return true;
}

static void *create_wormhole(const struct engine_env *env) { return engine_create(env, true); }
static void *create_cut_through(const struct engine_env *env) { return engine_create(env, false); }

/* A message alone (flit.h): offered at the first cycle after its creation, its header
 * takes router_delay + link_latency cycles a hop, and the flits behind it one cycle
 * each.  Wormhole: they stream one per cycle when a buffer outlasts a flit's stay on the
 * wire and in it (link_latency + 1 flits); else only messages that fit the buffers do.
 * Self-addressed messages are delivered at once. */
static bool zero_load_terms(const struct config *cfg, bool wormhole, struct zero_load_terms *out)
{
    const struct flit_params *fp = flit_params_of(cfg);
    *out = (struct zero_load_terms){
        .per_hop = (double)fp->router_delay,
        .per_flit = 1,
        .link_latency = (double)fp->link_latency,
        .wait_integer = 1,
        .wait_continuous = 0.5,
        .terminal_links_are_hops = true,
        .streaming_flits_max = !wormhole || fp->flit_buffers >= fp->link_latency + 1 ? UINT32_MAX
                                                                                      : (uint32_t)fp->flit_buffers,
    };
    return true;
}

static bool zero_load_wormhole(const struct config *cfg, const struct topo *t, struct zero_load_terms *out, char *why,
                               size_t why_size)
{
    (void)t, (void)why, (void)why_size;
    return zero_load_terms(cfg, true, out);
}

static bool zero_load_cut_through(const struct config *cfg, const struct topo *t, struct zero_load_terms *out,
                                  char *why, size_t why_size)
{
    (void)t, (void)why, (void)why_size;
    return zero_load_terms(cfg, false, out);
}

struct flit_engine *flit_engine_of(const struct engine_ops *ops, void *self)
{
    return ops == &switch_wormhole || ops == &switch_cut_through ? self : NULL;
}

const struct engine_ops switch_wormhole = {
    .name = "wormhole",
    .help = "flits follow the header; a blocked header holds every channel its flits occupy",
    .params = &flit_param_table,
    .traits = SWITCH_PIPELINED | SWITCH_HOLDS_CHANNELS | ENGINE_ROUTES_ADAPTIVELY | ENGINE_READS_IDS | ENGINE_DRAWS_ROUTING |
              ENGINE_BOUNDS_REPLY_QUEUE,
    .check = check,
    .create = create_wormhole,
    .inject = inject,
    .zero_load = zero_load_wormhole,
    .valiant_mids = valiant_mids_any_node,
    .figures = flit_figures,
    .finish = finish,
    .channel_figures = flit_channel_figures,
    .relation = flit_relation,
    .destroy = engine_free,
};

const struct engine_ops switch_cut_through = {
    .name = "cut-through",
    .help = "virtual cut-through: as wormhole, but a blocked message is buffered whole at the header's node",
    .params = &flit_param_table,
    .traits = SWITCH_PIPELINED | ENGINE_ROUTES_ADAPTIVELY | ENGINE_READS_IDS | ENGINE_DRAWS_ROUTING |
              ENGINE_BOUNDS_REPLY_QUEUE,
    .check = check,
    .create = create_cut_through,
    .inject = inject,
    .zero_load = zero_load_cut_through,
    .valiant_mids = valiant_mids_any_node,
    .figures = flit_figures,
    .finish = finish,
    .channel_figures = flit_channel_figures,
    .destroy = engine_free,
};
