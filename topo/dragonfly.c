/* The dragonfly (Kim, Dally, Scott & Abts, ISCA 2008): g groups of a routers; the
 * routers of a group completely connected by local links; each router has h global
 * links and `network.concentration` (p) terminals.  Router r = G a + i (group G,
 * index i).  A group's a h global ports are numbered j = i h + k (router i, its port
 * k).
 *  - g = a h + 1 (network.groups = 0): every pair of groups is joined by exactly one
 *    global link, the paper's arrangement as the reference simulator's `dragonflynew`
 *    builds it (absolute): port j of group G leads to group j if j < G, else j + 1.
 *  - smaller g: a circulant arrangement, m = a h / (g - 1) parallel links between
 *    every pair of groups: port j = c (g - 1) + o (copy c, offset o) of group G leads
 *    to group G + 1 + o (mod g), arriving on that group's port c (g - 1) + (g - 2 - o).
 *    (g - 1 must divide a h.)
 * Minimal routes take at most one global link (local, global, local: the paper's
 * minimal routing), so distance() is that metric, not the graph's shortest paths
 * (which may cross two global links).  Channels per router: its a - 1 local links by
 * partner index, then its h global ports; classes `local`, `global` (then the
 * terminal links' `inject`, `eject` when p > 1). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "../sim/core/params.h"
#include "routers.h"

struct dragonfly_params {
    int64_t group_routers, global_links, groups, global_latency;
};


static const struct cfg_key dragonfly_keys[] = {
    { "network", "group_routers", CFG_INT, offsetof(struct dragonfly_params, group_routers), "4", 1, 256, false, NULL,
      "dragonfly: a, routers per group (completely connected by local links)" },
    { "network", "global_links", CFG_INT, offsetof(struct dragonfly_params, global_links), "2", 1, 256, false, NULL,
      "dragonfly: h, global links per router" },
    { "network", "groups", CFG_INT, offsetof(struct dragonfly_params, groups), "0", 0, 8192, false, NULL,
      "dragonfly: g groups; 0: a h + 1 (every pair of groups joined by exactly one global link); fewer: "
      "a circulant arrangement of a h / (g - 1) parallel links between every pair" },
    { "network", "global_latency", CFG_INT, offsetof(struct dragonfly_params, global_latency), "0", 0, 1000, false,
      NULL, "dragonfly: latency of the global channels in cycles (0: routing.link_latency, as the local ones; the iq "
      "router only)" },
};
static CFG_PARAM_TABLE(dragonfly_param_table, struct dragonfly_params, dragonfly_keys);

enum { LOCAL, GLOBAL };

struct dragonfly {
    struct router_net rn; /* first: routers.h reads it from t->impl */
    uint32_t a, h, g, copies; /* copies: parallel global links between two groups */
    uint32_t global_latency;  /* 0: the engine's link latency */
    bool absolute;            /* g = a h + 1 */
};

static const struct dragonfly *DF(const struct router_net *rn) { return (const struct dragonfly *)rn; }

/* Group G's port j leads to group *to, arriving on its port *far. */
static void global_peer(const struct dragonfly *d, uint32_t G, uint32_t j, uint32_t *to, uint32_t *far)
{
    if (d->absolute) {
        *to = j < G ? j : j + 1;
        *far = G < *to ? G : G - 1;
        return;
    }
    uint32_t c = j / (d->g - 1), o = j % (d->g - 1);
    *to = (G + 1 + o) % d->g;
    *far = c * (d->g - 1) + (d->g - 2 - o);
}

/* Group G's port that is copy c of its links to group D (D != G). */
static uint32_t port_to(const struct dragonfly *d, uint32_t G, uint32_t D, uint32_t c)
{
    if (d->absolute)
        return D < G ? D : D - 1;
    return c * (d->g - 1) + (D + d->g - G - 1) % d->g;
}

/* The channel of router r's global port k, and of its local link to index i2. */
static uint32_t global_channel(const struct dragonfly *d, uint32_t r, uint32_t k)
{
    return d->rn.first[r] + (d->a - 1) + k;
}

static uint32_t local_channel(const struct dragonfly *d, uint32_t r, uint32_t i2)
{
    uint32_t i = r % d->a;
    return d->rn.first[r] + (i2 < i ? i2 : i2 - 1);
}

/* Hops of the local-global-local route by copy c from router r (group G) towards router
 * rd (group D != G): the global link's near and far routers. */
static void copy_ends(const struct dragonfly *d, uint32_t G, uint32_t D, uint32_t c, uint32_t *near, uint32_t *far,
                      uint32_t *port)
{
    uint32_t j = port_to(d, G, D, c), to, jf;
    global_peer(d, G, j, &to, &jf);
    *near = G * d->a + j / d->h;
    *far = D * d->a + jf / d->h;
    *port = j % d->h;
}

static unsigned distance(const struct router_net *rn, uint32_t r, uint32_t rd)
{
    const struct dragonfly *d = DF(rn);
    uint32_t G = r / d->a, D = rd / d->a;
    if (r == rd)
        return 0;
    if (G == D)
        return 1;
    unsigned best = 3;
    for (uint32_t c = 0; c < d->copies && best > 1; c++) {
        uint32_t near, far, port;
        copy_ends(d, G, D, c, &near, &far, &port);
        unsigned len = (near != r) + 1 + (far != rd);
        best = len < best ? len : best;
    }
    return best;
}

static unsigned hops(const struct router_net *rn, uint32_t r, uint32_t rd, struct hop *out, unsigned max)
{
    const struct dragonfly *d = DF(rn);
    uint32_t T = rn->terminals, G = r / d->a, D = rd / d->a;
    if (max == 0 || r == rd)
        return 0;
    if (G == D) {
        out[0] = (struct hop){ local_channel(d, r, rd % d->a), T + rd };
        return 1;
    }
    unsigned best = distance(rn, r, rd), n = 0;
    for (uint32_t c = 0; c < d->copies && n < max; c++) {
        uint32_t near, far, port;
        copy_ends(d, G, D, c, &near, &far, &port);
        if ((near != r) + 1u + (far != rd) != best)
            continue;
        struct hop h = near == r ? (struct hop){ global_channel(d, r, port), T + far }
                                 : (struct hop){ local_channel(d, r, near % d->a), T + near };
        bool seen = false;
        for (unsigned i = 0; i < n; i++)
            seen = seen || out[i].channel == h.channel;
        if (!seen)
            out[n++] = h;
    }
    return n;
}

static bool build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    const struct dragonfly_params *p = cfg_params(cfg, &dragonfly_param_table);
    bool half;
    if (!topo_read_links(cfg, true, &half, err))
        return false;
    if (half) {
        cfg_blame(cfg, "network.links", err, "dragonfly has full-duplex links only");
        return false;
    }
    uint64_t a = (uint64_t)p->group_routers, h = (uint64_t)p->global_links, full = a * h + 1;
    uint64_t g = p->groups ? (uint64_t)p->groups : full, conc = (uint64_t)cfg->network.concentration;
    if (g < 2 || g > full || (a * h) % (g - 1) != 0) {
        cfg_blame(cfg, "network.groups", err, "a dragonfly of a = %llu routers with h = %llu global links each joins "
                  "2 to %llu groups, g - 1 dividing a h = %llu (got %llu)", (unsigned long long)a,
                  (unsigned long long)h, (unsigned long long)full, (unsigned long long)(a * h),
                  (unsigned long long)g);
        return false;
    }
    if (g * a > ROUTERS_MAX || (a - 1) + h + conc > ROUTER_PORTS_MAX) {
        cfg_blame(cfg, "network.group_routers", err, "a dragonfly of %llu groups of %llu routers is too large (at "
                  "most %d routers of %d ports)", (unsigned long long)g, (unsigned long long)a, ROUTERS_MAX,
                  ROUTER_PORTS_MAX);
        return false;
    }
    struct dragonfly *d = calloc(1, sizeof *d);
    if (!d || !router_net_init(&d->rn, (uint32_t)(g * a), 2)) {
        free(d);
        cfg_blame(cfg, "network.topology", err, "out of memory");
        return false;
    }
    t->impl = d;
    d->a = (uint32_t)a;
    d->h = (uint32_t)h;
    d->g = (uint32_t)g;
    d->copies = (uint32_t)(a * h / (g - 1));
    d->absolute = g == full;
    d->global_latency = (uint32_t)p->global_latency;
    d->rn.distance = distance;
    d->rn.hops = hops;
    bool ok = true;
    for (uint32_t r = 0; ok && r < g * a; r++) {
        uint32_t G = r / d->a, i = r % d->a;
        for (uint32_t i2 = 0; ok && i2 < d->a; i2++)
            if (i2 != i)
                ok = router_net_add(&d->rn, r, G * d->a + i2, LOCAL);
        for (uint32_t k = 0; ok && k < d->h; k++) {
            uint32_t to, far;
            global_peer(d, G, i * d->h + k, &to, &far);
            ok = router_net_add(&d->rn, r, to * d->a + far / d->h, GLOBAL);
        }
    }
    if (ok && conc > 1)
        ok = router_net_attach(&d->rn, (uint32_t)conc);
    char why[128] = "out of memory";
    if (!ok || !router_net_finish(&d->rn, t, why, sizeof why)) {
        cfg_blame(cfg, "network.group_routers", err, "%s", why);
        router_net_free_impl(t);
        return false;
    }
    t->group_terminals = t->terminals / d->g;
    snprintf(t->label, sizeof t->label, "dragonfly: %u groups of %u routers, %u global links and %llu terminal%s "
             "per router%s", d->g, d->a, d->h, (unsigned long long)conc, conc == 1 ? "" : "s",
             d->absolute ? "" : ", circulant global links");
    return true;
}

static bool raises_vc_class(const struct topo *t, uint32_t ch) { return router_net_channel_class(t, ch) == GLOBAL; }

static unsigned channel_latency(const struct topo *t, uint32_t ch)
{
    return raises_vc_class(t, ch) ? ((const struct dragonfly *)t->impl)->global_latency : 0;
}

static void class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    if (!router_net_class_name(t, cls, buf, size))
        snprintf(buf, size, "%s", cls == LOCAL ? "local" : "global");
}

/* Bisection: groups 0..g/2-1 on one side, for an even g; (g/2)^2 global links (times
 * the parallel copies) cross, local links never (Kim et al.'s bisection). */
static int bisection_side(const struct topo *t, uint32_t x)
{
    const struct dragonfly *d = t->impl;
    if (d->g % 2)
        return -1;
    return router_net_router_index(&d->rn, x) / d->a >= d->g / 2;
}

const struct topo_ops topo_dragonfly = {
    .name = "dragonfly",
    .help = "dragonfly: groups of completely connected routers, h global links per router, minimal routes "
            "local-global-local (keys: group_routers a, global_links h, groups g, concentration p, global_latency)",
    .traits = TOPO_NO_DIMENSIONS | TOPO_OWN_TERMINALS,
    .params = &dragonfly_param_table,
    .build = build,
    ROUTER_NET_OPS,
    .class_name = class_name,
    .raises_vc_class = raises_vc_class,
    .channel_latency = channel_latency,
    .bisection_side = bisection_side,
};
