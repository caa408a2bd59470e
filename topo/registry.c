/* The topology registry: adding a topology is one file and one line here. */
#include "../sim/core/registry.h"
#include "topo.h"

extern const struct topo_ops topo_hypercube, topo_kary_ncube, topo_torus, topo_mesh, topo_bh_bh, topo_bh_br,
    topo_bh_cc, topo_bh_ccc, topo_ccc, topo_spanning_bus, topo_dual_bus, topo_hyperx, topo_fat_tree,
    topo_dragonfly, topo_slim_fly, topo_graph;

static const struct topo_ops *const topologies[] = {
    &topo_hypercube, &topo_kary_ncube, &topo_torus, &topo_mesh,         &topo_bh_bh,    &topo_bh_br,
    &topo_bh_cc,     &topo_bh_ccc,     &topo_ccc,   &topo_spanning_bus, &topo_dual_bus, &topo_hyperx,
    &topo_fat_tree,  &topo_dragonfly, &topo_slim_fly, &topo_graph,
};

REGISTRY_DEFINE_PLUGINS(struct topo_ops, topologies, topo_find, topo_choices);

/* network.links: a registry of two names, so the config loader checks and lists them. */
struct link_mode {
    const char *name, *help;
};
static const struct link_mode full_duplex = { "full-duplex", "two channels per link, one per direction" };
static const struct link_mode half_duplex = { "half-duplex", "one channel per link, shared by both ends" };
static const struct link_mode *const link_modes[] = { &full_duplex, &half_duplex };
static const struct link_mode *link_mode_find(const char *name);
REGISTRY_DEFINE(struct link_mode, link_modes, link_mode_find, link_choices);

bool topo_read_links(const struct config *cfg, bool has_links, bool *half, struct cfg_error *err)
{
    *half = link_mode_find(cfg->network.links) == &half_duplex;
    if (*half && !has_links) {
        cfg_blame(cfg, "network.links", err, "%s has buses, not point-to-point links; use full-duplex",
                  cfg->network.topology);
        return false;
    }
    return true;
}
