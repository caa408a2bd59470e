/* Networks described by their routers (contract in routers.h). */
#include "routers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { UNREACHED = UINT8_MAX };

static const struct router_net *RN(const struct topo *t) { return t->impl; }

bool router_net_init(struct router_net *rn, uint32_t routers, unsigned classes)
{
    memset(rn, 0, sizeof *rn);
    rn->routers = routers;
    rn->classes = classes;
    return routers >= 1 && routers <= ROUTERS_MAX && classes + 2 <= TOPO_MAX_CLASSES;
}

bool router_net_add(struct router_net *rn, uint32_t a, uint32_t b, unsigned cls)
{
    if (rn->links == rn->cap) {
        uint32_t cap = rn->cap ? 2 * rn->cap : 256;
        uint32_t *from = realloc(rn->from, cap * sizeof *from);
        if (from)
            rn->from = from;
        uint32_t *to = realloc(rn->to, cap * sizeof *to);
        if (to)
            rn->to = to;
        uint8_t *c = realloc(rn->cls, cap);
        if (c)
            rn->cls = c;
        if (!from || !to || !c)
            return false;
        rn->cap = cap;
    }
    rn->from[rn->links] = a;
    rn->to[rn->links] = b;
    rn->cls[rn->links++] = (uint8_t)cls;
    return true;
}

bool router_net_attach(struct router_net *rn, uint32_t per_router)
{
    uint64_t n = (uint64_t)rn->routers * per_router;
    if (n == 0 || n > TOPO_MAX_NODES)
        return false;
    rn->terminals = (uint32_t)n;
    rn->attach = malloc(n * sizeof *rn->attach);
    if (!rn->attach)
        return false;
    for (uint32_t i = 0; i < rn->terminals; i++)
        rn->attach[i] = i / per_router;
    return true;
}

/* Channels grouped by source router, keeping the family's order within a router (a
 * stable counting sort). */
static bool group_by_source(struct router_net *rn)
{
    uint32_t R = rn->routers, E = rn->links;
    rn->first = calloc((size_t)R + 1, sizeof *rn->first);
    uint32_t *from = malloc(((size_t)E + 1) * sizeof *from), *to = malloc(((size_t)E + 1) * sizeof *to);
    uint8_t *cls = malloc((size_t)E + 1);
    if (!rn->first || !from || !to || !cls) {
        free(from);
        free(to);
        free(cls);
        return false;
    }
    for (uint32_t c = 0; c < E; c++)
        rn->first[rn->from[c] + 1]++;
    for (uint32_t r = 0; r < R; r++)
        rn->first[r + 1] += rn->first[r];
    for (uint32_t c = 0; c < E; c++) {
        uint32_t at = rn->first[rn->from[c]]++;
        from[at] = rn->from[c];
        to[at] = rn->to[c];
        cls[at] = rn->cls[c];
    }
    for (uint32_t r = R; r > 0; r--) /* the cursors ended at the next router's start */
        rn->first[r] = rn->first[r - 1];
    rn->first[0] = 0;
    free(rn->from);
    free(rn->to);
    free(rn->cls);
    rn->from = from;
    rn->to = to;
    rn->cls = cls;
    return true;
}

static bool index_terminals(struct router_net *rn)
{
    uint32_t R = rn->routers, T = rn->terminals;
    rn->term_first = calloc((size_t)R + 1, sizeof *rn->term_first);
    rn->term = malloc(((size_t)T + 1) * sizeof *rn->term);
    if (!rn->term_first || !rn->term)
        return false;
    for (uint32_t i = 0; i < T; i++)
        rn->term_first[rn->attach[i] + 1]++;
    for (uint32_t r = 0; r < R; r++)
        rn->term_first[r + 1] += rn->term_first[r];
    uint32_t *at = malloc(((size_t)R + 1) * sizeof *at);
    if (!at)
        return false;
    memcpy(at, rn->term_first, ((size_t)R + 1) * sizeof *at);
    for (uint32_t i = 0; i < T; i++)
        rn->term[at[rn->attach[i]]++] = i;
    free(at);
    return true;
}

/* Breadth-first search from every router; the largest distance, or -1 when some router
 * cannot reach another. */
static int distances(struct router_net *rn)
{
    uint32_t R = rn->routers;
    rn->dist = malloc((size_t)R * R);
    uint32_t *queue = malloc((size_t)R * sizeof *queue);
    if (!rn->dist || !queue) {
        free(queue);
        return -2;
    }
    memset(rn->dist, UNREACHED, (size_t)R * R);
    int diameter = 0;
    for (uint32_t s = 0; s < R && diameter >= 0; s++) {
        uint8_t *d = rn->dist + (size_t)s * R;
        uint32_t head = 0, tail = 0;
        d[s] = 0;
        queue[tail++] = s;
        while (head < tail) {
            uint32_t u = queue[head++];
            for (uint32_t c = rn->first[u]; c < rn->first[u + 1]; c++) {
                uint32_t v = rn->to[c];
                if (d[v] == UNREACHED) {
                    d[v] = (uint8_t)(d[u] + 1);
                    queue[tail++] = v;
                }
            }
        }
        if (tail < R)
            diameter = -1;
        else if (d[queue[R - 1]] > diameter)
            diameter = d[queue[R - 1]];
    }
    free(queue);
    return diameter;
}

bool router_net_finish(struct router_net *rn, struct topo *t, char *why, size_t why_size)
{
    uint32_t R = rn->routers, T = rn->terminals;
    if (!group_by_source(rn) || (T && !index_terminals(rn))) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    unsigned ports_max = 0;
    for (uint32_t r = 0; r < R; r++) {
        unsigned ports = rn->first[r + 1] - rn->first[r] + (T ? rn->term_first[r + 1] - rn->term_first[r] : 0);
        ports_max = ports > ports_max ? ports : ports_max;
    }
    if (ports_max > ROUTER_PORTS_MAX) {
        snprintf(why, why_size, "a router would have %u ports (at most %d)", ports_max, ROUTER_PORTS_MAX);
        return false;
    }
    if (R > 1 && rn->links == 0) {
        snprintf(why, why_size, "the routers are not connected");
        return false;
    }
    int diameter = 0;
    if (rn->distance) /* the family's own metric: connected by construction */
        for (uint32_t a = 0; a < R; a++)
            for (uint32_t b = 0; b < R; b++) {
                unsigned d = rn->distance(rn, a, b);
                diameter = (int)d > diameter ? (int)d : diameter;
            }
    else
        diameter = distances(rn);
    if (diameter == -2) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    if (diameter < 0 || diameter > UNREACHED - 3) {
        snprintf(why, why_size, diameter < 0 ? "the routers are not connected" : "the network's diameter is too large");
        return false;
    }
    memset(rn->class_count, 0, sizeof rn->class_count);
    for (uint32_t c = 0; c < rn->links; c++)
        rn->class_count[rn->cls[c]]++;
    rn->class_count[rn->classes] = rn->class_count[rn->classes + 1] = T;
    t->routers = R;
    t->terminals = T ? T : R;
    t->nodes = T + R;
    t->channels = rn->links + 2 * T;
    t->links = rn->links / 2 + T;
    t->kind = CHANNEL_LINK_DIRECTION;
    t->classes = T ? rn->classes + 2 : rn->classes;
    t->degree = t->max_hops = ports_max;
    t->router_degree = 0;
    for (uint32_t r = 0; r < R; r++) /* router-to-router links: the out channels */
        t->router_degree = rn->first[r + 1] - rn->first[r] > t->router_degree ? rn->first[r + 1] - rn->first[r]
                                                                               : t->router_degree;
    t->router_diameter = (unsigned)diameter;
    /* Terminal to terminal across the network: two terminal links more, when there are any. */
    t->diameter = (unsigned)diameter + (T ? 2 : 0);
    return true;
}

void router_net_free(struct router_net *rn)
{
    free(rn->from);
    free(rn->to);
    free(rn->cls);
    free(rn->first);
    free(rn->attach);
    free(rn->term_first);
    free(rn->term);
    free(rn->dist);
    memset(rn, 0, sizeof *rn);
}

void router_net_free_impl(struct topo *t)
{
    struct router_net *rn = t->impl;
    if (rn)
        router_net_free(rn);
    free(rn);
    t->impl = NULL;
}

uint32_t router_net_router_index(const struct router_net *rn, uint32_t x)
{
    return rn->terminals ? (x < rn->terminals ? rn->attach[x] : x - rn->terminals) : x;
}

uint32_t router_net_router_of(const struct router_net *rn, uint32_t x)
{
    return rn->terminals && x < rn->terminals ? rn->terminals + rn->attach[x] : x;
}

/* The router index (0..R-1) of node x. */
static inline uint32_t router_index(const struct router_net *rn, uint32_t x)
{
    return rn->terminals ? (x < rn->terminals ? rn->attach[x] : x - rn->terminals) : x;
}

static inline unsigned hop_count(const struct router_net *rn, uint32_t a, uint32_t b)
{
    return rn->distance ? rn->distance(rn, a, b) : rn->dist[(size_t)a * rn->routers + b];
}

unsigned router_net_minimal_hops(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max)
{
    const struct router_net *rn = RN(t);
    uint32_t T = rn->terminals, E = rn->links;
    if (max == 0 || cur == dst)
        return 0;
    if (T && cur < T) { /* a terminal: its injection channel */
        out[0] = (struct hop){ E + cur, T + rn->attach[cur] };
        return 1;
    }
    uint32_t r = cur - T, rd = router_index(rn, dst);
    if (rd == r) { /* dst is a terminal of this router */
        out[0] = (struct hop){ E + T + dst, dst };
        return 1;
    }
    if (rn->hops)
        return rn->hops(rn, r, rd, out, max);
    struct hop hops[ROUTER_PORTS_MAX];
    unsigned n = 0, want = hop_count(rn, r, rd) - 1u;
    for (uint32_t c = rn->first[r]; c < rn->first[r + 1]; c++)
        if (hop_count(rn, rn->to[c], rd) == want)
            hops[n++] = (struct hop){ c, T + rn->to[c] };
    if (rn->canonical && n > 1) { /* the family's canonical hop first, the others in order */
        unsigned k = rn->canonical(t, cur, dst, hops, n);
        struct hop h = hops[k];
        memmove(hops + 1, hops, k * sizeof *hops);
        hops[0] = h;
    }
    n = n < max ? n : max;
    memcpy(out, hops, n * sizeof *hops);
    return n;
}

unsigned router_net_distance(const struct topo *t, uint32_t a, uint32_t b)
{
    const struct router_net *rn = RN(t);
    if (a == b)
        return 0;
    uint32_t T = rn->terminals;
    return hop_count(rn, router_index(rn, a), router_index(rn, b)) + (T && a < T) + (T && b < T);
}

unsigned router_net_neighbors(const struct topo *t, uint32_t x, struct hop *out, unsigned max)
{
    const struct router_net *rn = RN(t);
    uint32_t T = rn->terminals, E = rn->links;
    if (max == 0)
        return 0;
    if (T && x < T) {
        out[0] = (struct hop){ E + x, T + rn->attach[x] };
        return 1;
    }
    uint32_t r = x - T;
    unsigned n = 0;
    for (uint32_t c = rn->first[r]; c < rn->first[r + 1] && n < max; c++)
        out[n++] = (struct hop){ c, T + rn->to[c] };
    for (uint32_t k = T ? rn->term_first[r] : 0; T && k < rn->term_first[r + 1] && n < max; k++)
        out[n++] = (struct hop){ E + T + rn->term[k], rn->term[k] };
    return n;
}

unsigned router_net_senders(const struct topo *t, uint32_t ch, uint32_t *out, unsigned max)
{
    const struct router_net *rn = RN(t);
    uint32_t T = rn->terminals, E = rn->links;
    if (max == 0)
        return 0;
    out[0] = ch < E ? T + rn->from[ch] : ch < E + T ? ch - E : T + rn->attach[ch - E - T];
    return 1;
}

unsigned router_net_channel_class(const struct topo *t, uint32_t ch)
{
    const struct router_net *rn = RN(t);
    uint32_t E = rn->links;
    return ch < E ? rn->cls[ch] : ch < E + rn->terminals ? rn->classes : rn->classes + 1;
}

uint64_t router_net_channels_in_class(const struct topo *t, unsigned cls)
{
    return cls < TOPO_MAX_CLASSES ? RN(t)->class_count[cls] : 0;
}

double router_net_mean_distance(const struct topo *t)
{
    const struct router_net *rn = RN(t);
    uint32_t R = rn->routers, T = rn->terminals;
    if (t->terminals < 2)
        return 0;
    /* Pairs of terminals by their routers: n_a n_b (d(a, b) + 2) apart, or 2 on one router. */
    double sum = 0;
    for (uint32_t a = 0; a < R; a++)
        for (uint32_t b = 0; b < R; b++) {
            double na = T ? rn->term_first[a + 1] - rn->term_first[a] : 1;
            double nb = T ? rn->term_first[b + 1] - rn->term_first[b] : 1;
            double pairs = a == b ? na * (nb - 1) : na * nb;
            sum += pairs * (hop_count(rn, a, b) + (T ? 2 : 0));
        }
    return sum / ((double)t->terminals * (t->terminals - 1));
}

bool router_net_class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    const struct router_net *rn = RN(t);
    if (!rn->terminals || cls < rn->classes)
        return false;
    snprintf(buf, size, "%s", cls == rn->classes ? "inject" : "eject");
    return true;
}
