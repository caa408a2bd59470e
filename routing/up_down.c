/* Up-down routing, Autonet's "up* down*" (Schroeder et al., "Autonet: a high-speed,
 * self-configuring local area network using point-to-point links", IEEE JSAC 1991).
 *
 * A breadth-first spanning tree from router 0 gives every node a level (its distance
 * from the root); a hop is "up" when it leads to a node of a lower level, or of the
 * same level and a lower id, and "down" otherwise, so that up hops follow a strict
 * order and cannot close a cycle.  A legal route never takes an up hop after a down
 * hop; the channel dependencies of legal routes are then acyclic, so wormhole needs no
 * virtual-channel classes for them on any network of full-duplex links.
 *
 * Autonet's switches route on (input port, destination).  A path function here sees
 * only (node, destination), so the routes towards each destination form one tree:
 * built breadth-first backwards from the destination over (node, phase) states, where
 * a node whose route goes only down may be entered by a down or an up hop, and one
 * whose route starts with an up hop only by an up hop.  Each node keeps the first
 * route it is reached by: the fewest hops, an all-down route before one that starts
 * up (it can be extended by more nodes), then the lowest channel.  Every node is
 * reached (the tree path from the root down to the destination is all down, and every
 * node climbs to the root), so routes always arrive; they are deterministic and
 * shortest among legal routes that continue along the next node's own route, but not
 * minimal in general (tests check legality, arrival, and deadlock freedom).
 *
 * The tables depend only on the topology: next() keeps them with it (struct
 * topo.derived), building them on first use; check() builds them before
 * the run so that a network too large is refused instead.  Routes can be longer than
 * the diameter: max_route_hops() tells the engines that keep whole paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "routing.h"

enum { UP_DOWN_NODES_MAX = 4096, NO_HOP = UINT16_MAX };

struct up_down_table {
    uint32_t nodes, terminals;
    uint32_t *first;        /* nodes + 1: node x's hops are hops[first[x] .. first[x+1]-1] */
    struct hop *hops;       /* every node's hops, as neighbors() lists them */
    uint32_t *level;        /* per node: its distance from the root */
    uint16_t *route;        /* terminals x nodes: the index of the hop node x takes towards d */
    unsigned longest;       /* the most hops of any route */
};

extern const struct route_ops route_up_down; /* the owner of the tables a topology keeps */

/* Whether the hop from x to y goes up: towards the root's level, lower id first. */
static inline bool goes_up(const struct up_down_table *u, uint32_t x, uint32_t y)
{
    return u->level[y] < u->level[x] || (u->level[y] == u->level[x] && y < x);
}

static void table_free(struct up_down_table *u)
{
    if (!u)
        return;
    free(u->first);
    free(u->hops);
    free(u->level);
    free(u->route);
    free(u);
}

/* Levels by breadth-first search from the root (router 0); false if some node is not
 * reached. */
static bool levels(struct up_down_table *u, uint32_t root, uint32_t *queue)
{
    for (uint32_t x = 0; x < u->nodes; x++)
        u->level[x] = UINT32_MAX;
    uint32_t head = 0, tail = 0;
    u->level[root] = 0;
    queue[tail++] = root;
    while (head < tail) {
        uint32_t x = queue[head++];
        for (uint32_t i = u->first[x]; i < u->first[x + 1]; i++)
            if (u->level[u->hops[i].next] == UINT32_MAX) {
                u->level[u->hops[i].next] = u->level[x] + 1;
                queue[tail++] = u->hops[i].next;
            }
    }
    return tail == u->nodes;
}

enum phase { UNSET, ALL_DOWN, STARTS_UP };

/* The hops into each node, for the backward search: in_from[k] takes hop in_hop[k]
 * (an index into hops) into the node whose list holds k. */
struct incoming {
    uint32_t *first, *from, *hop;
};

/* The routes of every node towards destination d, into row (one hop index per node);
 * returns the most hops of them.  Layer by layer from d: a node is settled in the
 * layer that first reaches it, with its best offer of that layer. */
static unsigned routes_towards(const struct up_down_table *u, const struct incoming *in, uint32_t d, uint16_t *row,
                               uint8_t *phase, uint32_t *frontier, uint32_t *next_frontier, uint32_t *offered_in)
{
    for (uint32_t x = 0; x < u->nodes; x++) {
        phase[x] = UNSET;
        row[x] = NO_HOP;
        offered_in[x] = UINT32_MAX;
    }
    uint8_t offer[UP_DOWN_NODES_MAX]; /* the phase a pending node would get */
    uint32_t n = 0, layer = 0;
    phase[d] = ALL_DOWN;
    frontier[n++] = d;
    while (n) {
        uint32_t m = 0;
        layer++;
        for (uint32_t f = 0; f < n; f++) {
            uint32_t w = frontier[f];
            for (uint32_t k = in->first[w]; k < in->first[w + 1]; k++) {
                uint32_t x = in->from[k], h = in->hop[k];
                if (phase[x] != UNSET)
                    continue;
                bool up = goes_up(u, x, w);
                if (!up && phase[w] != ALL_DOWN) /* down, then up: illegal */
                    continue;
                uint8_t p = up ? STARTS_UP : ALL_DOWN;
                uint16_t idx = (uint16_t)(h - u->first[x]);
                if (offered_in[x] != layer) {
                    offered_in[x] = layer;
                    next_frontier[m++] = x;
                } else if (!(p < offer[x] || (p == offer[x] && u->hops[h].channel < u->hops[u->first[x] + row[x]].channel))) {
                    continue;
                }
                offer[x] = p;
                row[x] = idx;
            }
        }
        for (uint32_t i = 0; i < m; i++)
            phase[next_frontier[i]] = offer[next_frontier[i]];
        memcpy(frontier, next_frontier, m * sizeof *frontier);
        n = m;
    }
    return layer - 1;
}

static struct up_down_table *table_build(const struct topo *t)
{
    uint32_t N = t->nodes, T = t->terminals;
    if (N > UP_DOWN_NODES_MAX || t->max_hops >= NO_HOP)
        return NULL;
    struct up_down_table *u = calloc(1, sizeof *u);
    struct incoming in = { 0 };
    uint32_t *queue = malloc(((size_t)N + 1) * 3 * sizeof *queue);
    uint8_t *phase = malloc((size_t)N + 1);
    struct hop *buf = malloc(((size_t)t->max_hops + 1) * sizeof *buf);
    bool ok = u && queue && phase && buf;
    if (ok) {
        *u = (struct up_down_table){ .nodes = N, .terminals = T };
        u->first = calloc((size_t)N + 1, sizeof *u->first);
        u->level = malloc((size_t)N * sizeof *u->level);
        in.first = calloc((size_t)N + 1, sizeof *in.first);
        ok = u->first && u->level && in.first;
    }
    for (uint32_t x = 0; ok && x < N; x++)
        u->first[x + 1] = u->first[x] + t->ops->neighbors(t, x, buf, t->max_hops);
    size_t H = ok ? u->first[N] : 0;
    if (ok) {
        u->hops = malloc((H + 1) * sizeof *u->hops);
        in.from = malloc((H + 1) * sizeof *in.from);
        in.hop = malloc((H + 1) * sizeof *in.hop);
        u->route = malloc((size_t)T * N * sizeof *u->route + 1);
        ok = u->hops && in.from && in.hop && u->route;
    }
    for (uint32_t x = 0; ok && x < N; x++) {
        t->ops->neighbors(t, x, u->hops + u->first[x], t->max_hops);
        for (uint32_t i = u->first[x]; i < u->first[x + 1]; i++)
            in.first[u->hops[i].next + 1]++;
    }
    for (uint32_t x = 0; ok && x < N; x++)
        in.first[x + 1] += in.first[x];
    for (uint32_t x = 0; ok && x < N; x++) /* by source, then hop: the cursors end at the next node's start */
        for (uint32_t i = u->first[x]; i < u->first[x + 1]; i++) {
            uint32_t at = in.first[u->hops[i].next]++;
            in.from[at] = x;
            in.hop[at] = i;
        }
    for (uint32_t x = N; ok && x > 0; x--)
        in.first[x] = in.first[x - 1];
    if (ok)
        in.first[0] = 0;
    /* Router 0: node 0 where routers are their own terminals, node T where terminals hang off routers. */
    ok = ok && levels(u, N - t->routers, queue);
    for (uint32_t d = 0; ok && d < T; d++) {
        uint32_t *frontier = queue, *next_frontier = queue + N + 1, *offered = queue + 2 * (N + 1);
        unsigned longest = routes_towards(u, &in, d, u->route + (size_t)d * N, phase, frontier, next_frontier, offered);
        u->longest = longest > u->longest ? longest : u->longest;
        for (uint32_t x = 0; x < N; x++)
            ok = ok && (x == d || u->route[(size_t)d * N + x] != NO_HOP);
    }
    free(in.first);
    free(in.from);
    free(in.hop);
    free(queue);
    free(phase);
    free(buf);
    if (!ok) {
        table_free(u);
        return NULL;
    }
    return u;
}

static void tables_free(void *tables)
{
    table_free(tables);
}

/* The tables of t, built on first use and kept with it (NULL: too large, out of memory,
 * or a topology with no slot for them). */
static const struct up_down_table *table_of(const struct topo *t)
{
    struct topo_derived *d = t->derived;
    if (!d)
        return NULL;
    if (d->owner == &route_up_down)
        return d->tables;
    if (d->free)
        d->free(d->tables);
    *d = (struct topo_derived){ .tables = table_build(t), .free = tables_free };
    d->owner = d->tables ? &route_up_down : NULL;
    return d->tables;
}

static struct hop next(const struct topo *t, uint32_t cur, uint32_t dst, struct rng *r)
{
    (void)r;
    const struct up_down_table *u = table_of(t);
    if (!u) { /* check() built them before the run: only memory running out later gets here */
        fputs("sim: up-down: out of memory for its route tables\n", stderr);
        abort();
    }
    return u->hops[u->first[cur] + u->route[(size_t)dst * u->nodes + cur]];
}

static unsigned max_route_hops(const struct topo *t)
{
    const struct up_down_table *u = table_of(t);
    return u ? u->longest : t->diameter;
}

static bool check(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    if (t->nodes > UP_DOWN_NODES_MAX) {
        cfg_blame(cfg, "routing.algorithm", err, "up-down keeps a route table per node and destination: at most %d "
                  "nodes (this network has %u)", UP_DOWN_NODES_MAX, t->nodes);
        return false;
    }
    const struct engine_ops *e = engine_select(cfg);
    if (e && (e->traits & SWITCH_HOLDS_CHANNELS) && t->kind != CHANNEL_LINK_DIRECTION) {
        cfg_blame(cfg, cfg_is_set(cfg, "network.links") ? "network.links" : "routing.algorithm", err,
                  "up-down is deadlock-free on %s only over full-duplex links: a %s serves both directions",
                  cfg->routing.switching, t->kind == CHANNEL_BUS ? "bus" : "half-duplex link");
        return false;
    }
    if (t->lattice.radix > 2 && !t->lattice.both_ways) { /* its tables would find no legal route up a ring */
        cfg_blame(cfg, "routing.algorithm", err, "up-down needs links both ways: on one-way rings no route can climb "
                  "back towards the root");
        return false;
    }
    if (!table_of(t)) {
        cfg_blame(cfg, "routing.algorithm", err, "up-down: out of memory for its route tables");
        return false;
    }
    return true;
}

const struct route_ops route_up_down = {
    .name = "up-down",
    .help = "Autonet's up* down*: a breadth-first tree from router 0 orders the links; routes never go up after "
            "going down (deadlock-free wormhole on any network of full-duplex links; not minimal in general)",
    .traits = ROUTE_DETERMINISTIC | ROUTE_OBLIVIOUS,
    .next = next,
    .check = check,
    .max_route_hops = max_route_hops,
};
