/* Bus hypercubes of seed 004 (McHenry) on a W^D lattice, nodes x = sum d_i W^i.
 *
 * Spanning-bus hypercube: every node is on D buses, one per dimension; the
 * dimension-i bus joins the W nodes that differ only in d_i.  Bus i*W^(D-1) + (x
 * without digit i) (thesis App. A.2.1); class = dimension.  Routing corrects d_0,
 * d_1, ... in turn, each in one hop straight to the addressed member.
 *
 * Dual-bus hypercube: every node keeps its dimension-0 (primary) bus and one
 * secondary bus, in dimension X(d_0) = (d_0 mod (D-1)) + 1 (note 004 §8 item 3).
 * Primary bus x / W; secondary bus W^(D-1) + d_0 W^(D-2) + (digits other than 0 and
 * X) (App. A.2.3).  Classes: 0 primary, X secondary of dimension X.  Routing is the
 * thesis's rule with its "final note": the destination's own secondary dimension is
 * corrected last, so that correction lands on the destination (note 004 §1.3); it
 * gives the thesis's 2.86 mean hops on 4^3.
 *
 * A bus is one server; its senders are its W members in the order of their digit. */
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>

#include "../sim/core/params.h"
#include "lattice.h"
#include "topo.h"

/* Bus hypercubes: W members per bus.  Listed after the k-ary n-cube keys, where
 * --list has always shown it. */
struct bus_params {
    int64_t width;
};

static const struct cfg_key bus_keys[] = {
    { "network", "width", CFG_INT, offsetof(struct bus_params, width), "4", 2, 1 << 30, false, NULL,
      "bus hypercubes: W nodes on each bus (W^dimension nodes)" },
};
static CFG_PARAM_TABLE_AFTER(bus_param_table, struct bus_params, bus_keys, "network.bidirectional");

/* This plug-in's own key values. */
static const struct bus_params *bus_params_of(const struct config *cfg)
{
    return cfg_params(cfg, &bus_param_table);
}

enum { BUS_MAX_DIMENSION = 30 };

struct lattice {
    uint32_t W, D;
    uint32_t pow[BUS_MAX_DIMENSION + 1];
    uint32_t per_dim; /* W^(D-1): buses per dimension (SBH), primary and secondary buses (DBH) */
};

static const struct lattice *L(const struct topo *t) { return t->impl; }

static bool build_lattice(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    bool half;
    if (!topo_read_links(cfg, false, &half, err))
        return false;
    double nodes = 1;
    for (int64_t i = 0; i < cfg->network.dimension && nodes <= TOPO_MAX_NODES; i++)
        nodes *= (double)bus_params_of(cfg)->width;
    if (cfg->network.dimension > BUS_MAX_DIMENSION || nodes > TOPO_MAX_NODES) {
        cfg_blame(cfg, "network.dimension", err, "width^dimension = %lld^%lld nodes is too large (at most 2^30)",
                  (long long)bus_params_of(cfg)->width, (long long)cfg->network.dimension);
        return false;
    }
    struct lattice *g = calloc(1, sizeof *g);
    if (!g) {
        cfg_blame(cfg, "network.topology", err, "out of memory");
        return false;
    }
    g->W = (uint32_t)bus_params_of(cfg)->width;
    g->D = (uint32_t)cfg->network.dimension;
    g->pow[0] = 1;
    for (unsigned i = 1; i <= g->D; i++)
        g->pow[i] = g->pow[i - 1] * g->W;
    g->per_dim = g->pow[g->D - 1];
    t->impl = g;
    t->nodes = g->pow[g->D];
    t->dimension = g->D;
    t->kind = CHANNEL_BUS;
    return true;
}

static void free_lattice(struct topo *t) { free(t->impl); }

/* ---------------- spanning-bus hypercube ---------------- */

static uint32_t sbh_bus(const struct lattice *g, uint32_t x, unsigned i)
{
    return i * g->per_dim + digit_remove(x, g->pow[i], g->W);
}

static bool sbh_build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    if (!build_lattice(t, cfg, err))
        return false;
    const struct lattice *g = L(t);
    t->channels = g->D * g->per_dim;
    t->links = t->channels;
    t->degree = t->diameter = t->classes = g->D;
    t->max_hops = g->D * (g->W - 1);
    t->transitive = t->uniform_class_loads = true;
    snprintf(t->label, sizeof t->label, "%u^%u spanning-bus hypercube", g->W, g->D);
    return true;
}

static unsigned sbh_minimal_hops(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    const struct lattice *g = L(t);
    unsigned count = 0;
    for (unsigned i = 0; i < g->D && count < max; i++) {
        uint32_t e = digit_get(dst, g->pow[i], g->W);
        if (digit_get(cur, g->pow[i], g->W) != e)
            out[count++] = (struct hop){ sbh_bus(g, cur, i), digit_set(cur, g->pow[i], g->W, e) };
    }
    return count;
}

static unsigned sbh_distance(const struct topo *t, uint32_t a, uint32_t b)
{
    const struct lattice *g = L(t);
    unsigned count = 0;
    for (unsigned i = 0; i < g->D; i++, a /= g->W, b /= g->W)
        count += a % g->W != b % g->W;
    return count;
}

static unsigned sbh_neighbors(const struct topo *t, uint32_t x, struct hop *out, unsigned max)
{
    const struct lattice *g = L(t);
    unsigned count = 0;
    for (unsigned i = 0; i < g->D; i++) {
        uint32_t bus = sbh_bus(g, x, i), own = digit_get(x, g->pow[i], g->W);
        for (uint32_t v = 0; v < g->W && count < max; v++)
            if (v != own)
                out[count++] = (struct hop){ bus, digit_set(x, g->pow[i], g->W, v) };
    }
    return count;
}

static unsigned sbh_senders(const struct topo *t, uint32_t bus, uint32_t *out, unsigned max)
{
    const struct lattice *g = L(t);
    unsigned i = bus / g->per_dim, count = 0;
    uint32_t rest = bus % g->per_dim;
    for (uint32_t v = 0; v < g->W && count < max; v++)
        out[count++] = digit_insert(rest, g->pow[i], g->W, v);
    return count;
}

static unsigned sbh_class(const struct topo *t, uint32_t bus) { return bus / L(t)->per_dim; }

static uint64_t sbh_in_class(const struct topo *t, unsigned cls)
{
    (void)cls;
    return L(t)->per_dim;
}

static void sbh_class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    (void)t;
    snprintf(buf, size, "dim%u", cls);
}

static uint32_t sbh_translate(const struct topo *t, uint32_t x, uint32_t to)
{
    const struct lattice *g = L(t);
    uint32_t y = 0;
    for (unsigned i = 0; i < g->D; i++, x /= g->W, to /= g->W)
        y += (x % g->W + to % g->W) % g->W * g->pow[i];
    return y;
}

const struct topo_ops topo_spanning_bus = {
    .name = "spanning-bus-hypercube",
    .help = "width^dimension nodes, one bus of W nodes per dimension through every node (keys: width, dimension)",
    .params = &bus_param_table,
    .build = sbh_build,
    .free = free_lattice,
    .minimal_hops = sbh_minimal_hops,
    .distance = sbh_distance,
    .neighbors = sbh_neighbors,
    .senders = sbh_senders,
    .channel_class = sbh_class,
    .channel_dimension = sbh_class,
    .channels_in_class = sbh_in_class,
    .class_name = sbh_class_name,
    .translate = sbh_translate,
};

/* ---------------- dual-bus hypercube ---------------- */

static unsigned secondary_dim(const struct lattice *g, uint32_t d0) { return d0 % (g->D - 1) + 1; }

static uint32_t dbh_primary(const struct lattice *g, uint32_t x) { return x / g->W; }

static uint32_t dbh_secondary(const struct lattice *g, uint32_t x)
{
    uint32_t d0 = x % g->W;
    unsigned X = secondary_dim(g, d0);
    return g->per_dim + d0 * g->pow[g->D - 2] + digit_remove(x / g->W, g->pow[X - 1], g->W);
}

static bool dbh_build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    if (cfg->network.dimension < 2) {
        cfg_blame(cfg, "network.dimension", err, "a dual-bus hypercube needs dimension >= 2");
        return false;
    }
    if (bus_params_of(cfg)->width < cfg->network.dimension - 1) {
        cfg_blame(cfg, "network.width", err,
                  "a dual-bus hypercube needs width >= dimension - 1 = %lld, or some secondary dimension has no bus",
                  (long long)(cfg->network.dimension - 1));
        return false;
    }
    if (!build_lattice(t, cfg, err))
        return false;
    const struct lattice *g = L(t);
    t->channels = 2 * g->per_dim;
    t->links = t->channels;
    t->degree = 2;
    t->max_hops = 2 * (g->W - 1);
    t->diameter = 2 * (g->D - 1);
    t->classes = g->D;
    snprintf(t->label, sizeof t->label, "%u^%u dual-bus hypercube", g->W, g->D);
    return true;
}

/* The set S of secondary dimensions (1 .. D-1) in which a and b differ, as a bit
 * mask, and its size. */
static uint64_t secondary_differences(const struct lattice *g, uint32_t a, uint32_t b, unsigned *size)
{
    uint64_t S = 0;
    *size = 0;
    for (unsigned j = 1; j < g->D; j++)
        if (digit_get(a, g->pow[j], g->W) != digit_get(b, g->pow[j], g->W)) {
            S |= (uint64_t)1 << j;
            ++*size;
        }
    return S;
}

/* Shortest-path distance: the differing secondary dimensions S must each be
 * corrected on a bus of its dimension, reached by a primary hop unless it is the
 * current node's own; the path ends at d_0 = e_0, which costs a last primary hop
 * unless the last correction is in the destination's own dimension X_e reached by
 * a primary hop straight to e_0 (see note 004 §1.3). */
static unsigned dbh_distance(const struct topo *t, uint32_t a, uint32_t b)
{
    const struct lattice *g = L(t);
    uint32_t a0 = a % g->W, b0 = b % g->W;
    unsigned xa = secondary_dim(g, a0), xb = secondary_dim(g, b0), size;
    uint64_t S = secondary_differences(g, a, b, &size);
    if (!S)
        return a0 != b0;
    bool has_xa = S >> xa & 1, has_xb = S >> xb & 1;
    unsigned primary = size - has_xa; /* a primary hop into each other dimension's buses */
    unsigned last;
    if (has_xb && xb != xa)
        last = 0;
    else if (has_xb && size == 1) /* only the shared own dimension: correct it, then move along d_0 */
        last = a0 != b0;
    else
        last = 1;
    return size + primary + last;
}

/* The thesis's rule, made precise in note 004 §1.3. */
static struct hop dbh_rule(const struct topo *t, uint32_t cur, uint32_t dst)
{
    const struct lattice *g = L(t);
    uint32_t c0 = cur % g->W, e0 = dst % g->W;
    unsigned xc = secondary_dim(g, c0), xe = secondary_dim(g, e0), size;
    uint64_t S = secondary_differences(g, cur, dst, &size);
    uint32_t row = cur - c0;
    if (!S)
        return (struct hop){ dbh_primary(g, cur), row + e0 };
    if ((S >> xc & 1) && !(xc == xe && size > 1))
        return (struct hop){ dbh_secondary(g, cur),
                             digit_set(cur, g->pow[xc], g->W, digit_get(dst, g->pow[xc], g->W)) };
    uint64_t others = S & ~((uint64_t)1 << xe);
    if (!others)
        return (struct hop){ dbh_primary(g, cur), row + e0 };
    unsigned target = (unsigned)__builtin_ctzll(others);
    uint32_t d0 = target - 1; /* the wrap-around choice */
    for (uint32_t v = c0 + 1; v < g->W; v++)
        if (secondary_dim(g, v) == target) {
            d0 = v;
            break;
        }
    return (struct hop){ dbh_primary(g, cur), row + d0 };
}

/* The i-th hop out of x, i in [0, 2(W-1)): the primary bus's other members first. */
static struct hop dbh_hop(const struct lattice *g, uint32_t x, unsigned i)
{
    uint32_t x0 = x % g->W;
    if (i < g->W - 1) {
        uint32_t v = i < x0 ? i : i + 1;
        return (struct hop){ dbh_primary(g, x), x - x0 + v };
    }
    i -= g->W - 1;
    unsigned X = secondary_dim(g, x0);
    uint32_t own = digit_get(x, g->pow[X], g->W), v = i < own ? i : i + 1;
    return (struct hop){ dbh_secondary(g, x), digit_set(x, g->pow[X], g->W, v) };
}

static unsigned dbh_neighbors(const struct topo *t, uint32_t x, struct hop *out, unsigned max)
{
    const struct lattice *g = L(t);
    unsigned count = 0;
    for (unsigned i = 0; i < 2 * (g->W - 1) && count < max; i++)
        out[count++] = dbh_hop(g, x, i);
    return count;
}

static unsigned dbh_minimal_hops(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    const struct lattice *g = L(t);
    if (max == 0)
        return 0;
    out[0] = dbh_rule(t, cur, dst);
    unsigned count = 1, here = dbh_distance(t, cur, dst);
    for (unsigned i = 0; i < 2 * (g->W - 1) && count < max; i++) {
        struct hop h = dbh_hop(g, cur, i);
        if (h.next != out[0].next && dbh_distance(t, h.next, dst) + 1 == here)
            out[count++] = h;
    }
    return count;
}

static unsigned dbh_senders(const struct topo *t, uint32_t bus, uint32_t *out, unsigned max)
{
    const struct lattice *g = L(t);
    unsigned count = 0;
    if (bus < g->per_dim) {
        for (uint32_t v = 0; v < g->W && count < max; v++)
            out[count++] = bus * g->W + v;
        return count;
    }
    uint32_t b = bus - g->per_dim, x0 = b / g->pow[g->D - 2], rest = b % g->pow[g->D - 2];
    unsigned X = secondary_dim(g, x0);
    for (uint32_t v = 0; v < g->W && count < max; v++)
        out[count++] = x0 + g->W * digit_insert(rest, g->pow[X - 1], g->W, v);
    return count;
}

static unsigned dbh_class(const struct topo *t, uint32_t bus)
{
    const struct lattice *g = L(t);
    return bus < g->per_dim ? 0 : secondary_dim(g, (bus - g->per_dim) / g->pow[g->D - 2]);
}

static uint64_t dbh_in_class(const struct topo *t, unsigned cls)
{
    const struct lattice *g = L(t);
    if (cls == 0)
        return g->per_dim;
    uint64_t rows = 0;
    for (uint32_t v = 0; v < g->W; v++)
        rows += secondary_dim(g, v) == cls;
    return rows * g->pow[g->D - 2];
}

static void dbh_class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    (void)t;
    if (cls == 0)
        snprintf(buf, size, "primary");
    else
        snprintf(buf, size, "secondary-dim%u", cls);
}

const struct topo_ops topo_dual_bus = {
    .name = "dual-bus-hypercube",
    .help = "width^dimension nodes on two buses each: dimension 0 and one secondary dimension (keys: width, "
            "dimension)",
    .params = &bus_param_table,
    .build = dbh_build,
    .free = free_lattice,
    .minimal_hops = dbh_minimal_hops,
    .distance = dbh_distance,
    .neighbors = dbh_neighbors,
    .senders = dbh_senders,
    .channel_class = dbh_class,
    .channels_in_class = dbh_in_class,
    .class_name = dbh_class_name,
};
