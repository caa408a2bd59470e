/* Cube-connected cycles (Preparata & Vuillemin): nodes (w, i), w in [0, 2^n), i in
 * [0, n), numbered w*n + i; cycle links (w, i)-(w, i+1 mod n) and cube links
 * (w, i)-(w xor 2^i, i).  Full duplex: channel node*3 + slot (slot 0 cube, 1 cycle+,
 * 2 cycle-); half duplex: one channel per link.  Routing takes the first of cube,
 * cycle+, cycle- that lies on a shortest path (breadth-first distances). */
#include <stdio.h>
#include <stdlib.h>

#include "graphs.h"
#include "topo.h"

struct ccc {
    struct graph g;
    bool half;
};

static const struct ccc *C(const struct topo *t) { return t->impl; }

static uint32_t channel_of(const struct ccc *c, uint32_t u, unsigned slot)
{
    return c->half ? graph_link(&c->g, u, slot) : u * 3 + slot;
}

static bool build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    bool half;
    if (!topo_read_links(cfg, true, &half, err))
        return false;
    struct ccc *c = calloc(1, sizeof *c);
    char why[128];
    if (!c || !graph_init(&c->g, GRAPH_CCC, (uint32_t)cfg->network.dimension, why, sizeof why)) {
        cfg_blame(cfg, "network.dimension", err, "%s", c ? why : "out of memory");
        free(c);
        return false;
    }
    c->half = half;
    t->impl = c;
    t->dimension = c->g.dim;
    t->nodes = c->g.nodes;
    t->links = c->g.links;
    t->channels = half ? (uint32_t)c->g.links : t->nodes * 3;
    t->kind = half ? CHANNEL_HALF_DUPLEX : CHANNEL_LINK_DIRECTION;
    t->degree = t->max_hops = 3;
    t->diameter = c->g.diameter;
    t->classes = half ? 2 : 3;
    t->transitive = t->uniform_class_loads = true;
    snprintf(t->label, sizeof t->label, "cube-connected cycles of dimension %u%s", t->dimension,
             half ? ", half-duplex links" : "");
    return true;
}

static void free_ccc(struct topo *t)
{
    struct ccc *c = t->impl;
    if (c)
        graph_free(&c->g);
    free(c);
}

static unsigned minimal_hops(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    const struct ccc *c = C(t);
    unsigned slots[3], m = graph_minimal_slots(&c->g, cur, dst, slots), count = 0;
    for (unsigned i = 0; i < m && count < max; i++)
        out[count++] = (struct hop){ channel_of(c, cur, slots[i]), graph_neighbor(&c->g, cur, slots[i]) };
    return count;
}

static unsigned distance(const struct topo *t, uint32_t a, uint32_t b) { return graph_distance(&C(t)->g, a, b); }

static unsigned neighbors(const struct topo *t, uint32_t x, struct hop *out, unsigned max)
{
    const struct ccc *c = C(t);
    unsigned count = 0;
    for (unsigned s = 0; s < 3 && count < max; s++)
        out[count++] = (struct hop){ channel_of(c, x, s), graph_neighbor(&c->g, x, s) };
    return count;
}

static unsigned senders(const struct topo *t, uint32_t ch, uint32_t *out, unsigned max)
{
    const struct ccc *c = C(t);
    if (!c->half) {
        out[0] = ch / 3;
        return 1;
    }
    uint32_t a, b;
    graph_link_ends(&c->g, ch, &a, &b);
    return topo_link_ends(out, max, a, b);
}

static unsigned channel_class(const struct topo *t, uint32_t ch)
{
    const struct ccc *c = C(t);
    return c->half ? graph_link_kind(&c->g, ch) : ch % 3;
}

static uint64_t channels_in_class(const struct topo *t, unsigned cls)
{
    const struct ccc *c = C(t);
    return c->half ? graph_links_of_kind(&c->g, cls) : t->nodes;
}

static void class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    const struct ccc *c = C(t);
    if (c->half)
        graph_link_kind_name(&c->g, cls, buf, size);
    else
        graph_slot_kind_name(&c->g, cls, buf, size);
}

static uint32_t translate(const struct topo *t, uint32_t x, uint32_t to) { return graph_translate(&C(t)->g, x, to); }

const struct topo_ops topo_ccc = {
    .name = "ccc",
    .help = "cube-connected cycles: dimension * 2^dimension nodes of degree 3 (keys: dimension >= 3, links)",
    .build = build,
    .free = free_ccc,
    .minimal_hops = minimal_hops,
    .distance = distance,
    .neighbors = neighbors,
    .senders = senders,
    .channel_class = channel_class,
    .channels_in_class = channels_in_class,
    .class_name = class_name,
    .translate = translate,
};
