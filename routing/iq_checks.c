/* The input-queued router's checks: the configurations it refuses before a run, on
 * lattices and on router networks (routing/iq_nets.c), and what adaptive routing needs
 * to run at all on either flit router, with the fix the static deadlock check names when
 * its escape VCs are too few (vc_classes.h).  The contract is in iq.h. */
#include <stdio.h>
#include <string.h>

#include "../protocols/protocol.h"
#include "../sim/core/params.h"
#include "flit_params.h"
#include "iq.h"
#include "routing.h"

int64_t iq_escape_vcs(const struct config *cfg, const struct topo *t)
{
    int64_t set = flit_params_of(cfg)->escape_vcs;
    bool torus = (t->ops->traits & TOPO_KARY_NCUBE) && t->lattice.wrap;
    return set >= 0 ? set : torus ? 2 : 1;
}

/* Adaptive and random-minimal selections (both routers): what they need to run at all
 * (enough escape VCs to be deadlock-free is the static check's question). */
bool escapes_fit(const struct config *cfg, const struct topo *t, bool iq, struct cfg_error *err)
{
    int64_t escape = iq_escape_vcs(cfg, t);
    if ((t->ops->traits & TOPO_KARY_NCUBE) && t->lattice.radix <= 2) {
        cfg_blame(cfg, "network.radix", err, "the %s router routes adaptively on k-ary n-cubes of radix 3 or more "
                  "(and hypercubes)", iq ? "iq" : "simple");
        return false;
    }
    return (!iq || iq_escapes_released(cfg, escape, err)) && adaptive_vc_left(cfg, escape, err);
}

bool adaptive_vc_left(const struct config *cfg, int64_t escape, struct cfg_error *err)
{
    int64_t vcs = flit_params_of(cfg)->virtual_channels;
    if (vcs <= escape) {
        cfg_blame(cfg, "routing.virtual_channels", err, "%s needs an adaptive VC beyond the %lld escape VCs: "
                  "virtual_channels must be at least %lld (got %lld)", cfg->routing.algorithm, (long long)escape,
                  (long long)escape + 1, (long long)vcs);
        return false;
    }
    return true;
}

bool iq_escapes_released(const struct config *cfg, int64_t escape, struct cfg_error *err)
{
    if (escape > 0 && cfg_is_set(cfg, "routing.vc_release") && strcmp(iq_params_of(cfg)->vc_release, "tail") == 0) {
        cfg_blame(cfg, "routing.vc_release", err, "with escape VCs a VC is taken only when empty (tail-credit): a head "
                  "queued behind another packet could never take its escape VC");
        return false;
    }
    return true;
}

void escape_fix(const struct config *cfg, const struct topo *t, char *buf, size_t size)
{
    bool torus = (t->ops->traits & TOPO_KARY_NCUBE) && t->lattice.wrap;
    int64_t escape = iq_escape_vcs(cfg, t), least = torus ? 2 : 1;
    int64_t vcs = flit_params_of(cfg)->virtual_channels;
    bool lattice = t->ops->traits & (TOPO_KARY_NCUBE | TOPO_BINARY_HYPERCUBE);
    const char *why = torus ? "two dateline classes on a torus" : lattice ? "one dimension-order VC"
                                                                          : "one VC for the canonical route";
    if (escape < least && vcs > least)
        snprintf(buf, size, "the fix: routing.escape_vcs = %lld (%s: Duato's condition) or another "
                 "routing.algorithm", (long long)least, why);
    else if (escape < least)
        snprintf(buf, size, "the fix: routing.escape_vcs = %lld with routing.virtual_channels = %lld (%s, and an "
                 "adaptive VC: Duato's condition) or another routing.algorithm", (long long)least,
                 (long long)least + 1, why);
    else
        snprintf(buf, size, "the fix: more escape VCs (routing.escape_vcs: %s, Duato's condition) or another "
                 "routing.algorithm", why);
}

/* What the iq router refuses on every topology. */
static bool common_checks(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    const struct flit_params *fp = flit_params_of(cfg);
    if (flit_deadlock_recovers(cfg)) {
        cfg_blame(cfg, "routing.deadlock", err, "deadlock recovery runs on routing.router = simple; on the iq router "
                  "use escape VCs (routing.escape_vcs) to avoid deadlock");
        return false;
    }
    bool fifo_link = (proto_find(cfg->protocol.link)->traits & ACCESS_PLAIN_CHANNEL) == ACCESS_PLAIN_CHANNEL;
    if (!fifo_link || !(priority_discipline(cfg->protocol.priority)->traits & ACCESS_FIFO_ORDER)) {
        cfg_blame(cfg, fifo_link ? "protocol.priority" : "protocol.link", err,
                  "the iq router arbitrates channels itself (separable round-robin allocators): protocol.link and "
                  "protocol.priority must be fifo");
        return false;
    }
    if (cfg->node.service_rate > 0) {
        cfg_blame(cfg, "node.service_rate", err, "the node model does not apply to the iq router (its pipeline "
                  "delays are routing.routing_delay, vc_alloc_delay, sw_alloc_delay and st_delay)");
        return false;
    }
    if (cfg->run.redraw_length_per_hop) {
        cfg_blame(cfg, "run.redraw_length_per_hop", err, "a message keeps its flits in the iq router");
        return false;
    }
    if (!t->uniform_bandwidth) {
        cfg_blame(cfg, "network.level2_bandwidth", err, "the iq router needs one bandwidth (one flit per cycle) "
                  "on every channel");
        return false;
    }
    if (fp->finite_buffer) {
        cfg_blame(cfg, "routing.finite_buffer", err, "seed 003's finite-buffer mode belongs to routing.router = "
                  "simple; the iq router keeps every message in its source queue");
        return false;
    }
    if (fp->flit_buffers > IQ_MAX_BUFFERS) {
        cfg_blame(cfg, "routing.flit_buffers", err, "the iq router keeps at most %d flits per virtual channel "
                  "(got %lld)", IQ_MAX_BUFFERS, (long long)fp->flit_buffers);
        return false;
    }
    if (t->dimension > 32) {
        cfg_blame(cfg, "network.dimension", err, "the iq router handles at most 32 dimensions");
        return false;
    }
    return true;
}

bool iq_check(const struct engine_spec *spec, struct cfg_error *err)
{
    const struct config *cfg = spec->cfg;
    const struct topo *t = spec->topo;
    bool lattice_family = t->ops->traits & (TOPO_BINARY_HYPERCUBE | TOPO_KARY_NCUBE);
    bool lattice = lattice_family && t->ops->channel_dimension;
    /* Every other network routes by its canonical minimal route (routing/iq_nets.c). */
    if ((lattice_family && !lattice) || t->kind != CHANNEL_LINK_DIRECTION) {
        cfg_blame(cfg, "network.topology", err, "routing.router = iq runs on networks of full-duplex links, not on "
                  "%s", t->label);
        return false;
    }
    if (!lattice)
        return common_checks(cfg, t, err) && iq_nets_check(cfg, t, err);
    if (flit_deadlock_recovers(cfg))
        return common_checks(cfg, t, err); /* its message first, as before */
    unsigned route_traits = route_select(cfg)->traits;
    bool dimension_order = route_traits & ROUTE_DIMENSION_ORDER;
    bool own_path = route_traits & ROUTE_DETERMINISTIC; /* up-down: its own route, acyclic on any VC */
    if (!dimension_order && !own_path && !(route_traits & (ROUTE_ADAPTIVE | ROUTE_UNIFORM_SPLIT | ROUTE_VALIANT))) {
        cfg_blame(cfg, "routing.algorithm", err, "routing.router = iq routes by ecube, adaptive-minimal, "
                  "random-minimal, valiant or up-down");
        return false;
    }
    if (route_traits & ROUTE_VALIANT) {
        if (!valiant_vcs_fit(cfg, t, "iq", err))
            return false;
    } else if (!dimension_order && !own_path && !escapes_fit(cfg, t, true, err)) {
        return false;
    }
    return common_checks(cfg, t, err);
}

