/* Dimension-order paths on k-ary n-cubes, walked on the digits (contract in flit_dor.h).
 *
 * ecube's path on a k-ary n-cube is, dimension by dimension (ascending, or descending
 * with routing.dimension_order), so many steps the shorter way round (a tie the
 * negative way, as the topology's canonical first hop has it).  Asking the topology
 * for the next hop at every node costs a division and a modulo per dimension per hop
 * (`make bench`'s profile: 13% of an 8x8 torus run); here the source's and the
 * destination's digits are taken once, each step moves one digit, and the channel
 * comes from a table of every node's outgoing channel by dimension and direction. */
#include "flit_dor.h"

#include "flit.h"

#include <stdlib.h>
#include <string.h>

bool flit_dor_setup(struct flit_engine *e, const struct config *cfg, const struct topo *t)
{
    unsigned traits = route_select(cfg)->traits;
    /* a 2-ary ring has two channels between the same neighbours: the general way there */
    if (e->routing != FLIT_DRAWN || !(traits & ROUTE_DIMENSION_ORDER) || !(t->ops->traits & TOPO_KARY_NCUBE) ||
        e->radix <= 2 || t->dimension > FLIT_DOR_MAX_DIMS)
        return true;
    e->dims = t->dimension;
    e->wrap = t->lattice.wrap;
    e->descending = strcmp(cfg_text(cfg, "routing.dimension_order"), "descending") == 0;
    for (uint32_t i = 0, p = 1; i < e->dims; i++, p *= e->radix)
        e->pow[i] = p;
    size_t slots = (size_t)t->nodes * e->dims * 2;
    e->dor_chan = malloc(slots * sizeof *e->dor_chan);
    struct hop *hops = malloc((size_t)(2 * e->dims) * sizeof *hops);
    if (!e->dor_chan || !hops) {
        free(hops);
        return false;
    }
    memset(e->dor_chan, 0xff, slots * sizeof *e->dor_chan);
    for (uint32_t v = 0; v < t->nodes; v++) {
        unsigned n = t->ops->neighbors(t, v, hops, 2 * e->dims);
        for (unsigned i = 0; i < n; i++) {
            uint32_t d = t->ops->channel_dimension(t, hops[i].channel), p = e->pow[d];
            bool up = hops[i].next / p % e->radix == (v / p % e->radix + 1) % e->radix;
            e->dor_chan[((size_t)v * e->dims + d) * 2 + up] = hops[i].channel;
        }
    }
    free(hops);
    return true;
}

/* Digits without a division: for 32-bit a and k >= 2, with M = floor((2^64 - 1) / k) + 1,
 * a / k = floor(M a / 2^64) and a % k = floor(((M a) mod 2^64) k / 2^64) exactly
 * (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019). */
static inline uint32_t div_by(uint64_t M, uint32_t a) { return (uint32_t)(((__uint128_t)M * a) >> 64); }
static inline uint32_t mod_by(uint64_t M, uint32_t k, uint32_t a)
{
    return (uint32_t)(((__uint128_t)(M * a) * k) >> 64);
}

bool flit_dor_path(struct flit_engine *e, struct worm *x, struct message *msg)
{
    uint32_t k = e->radix, n = e->dims, from[FLIT_DOR_MAX_DIMS], to[FLIT_DOR_MAX_DIMS];
    uint64_t M = UINT64_MAX / k + 1;
    for (uint32_t i = 0, s = msg->src, d = msg->dst; i < n; i++, s = div_by(M, s), d = div_by(M, d)) {
        from[i] = mod_by(M, k, s);
        to[i] = mod_by(M, k, d);
    }
    uint32_t cur = msg->src, h = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t i = e->descending ? n - 1 - j : j, a = from[i], b = to[i], p = e->pow[i];
        if (a == b)
            continue;
        bool up;
        uint32_t steps;
        if (!e->both_ways) {
            up = true;
            steps = b >= a ? b - a : b + k - a;
        } else if (!e->wrap) {
            up = b > a;
            steps = up ? b - a : a - b;
        } else {
            uint32_t negative = a >= b ? a - b : a + k - b; /* hops the negative way */
            up = 2 * negative >= k + 1;          /* a tie goes the negative way */
            steps = up ? k - negative : negative;
        }
        if (steps > e->max_hops - h) { /* minimal routing never gets here */
            kernel_request_stop(e->env.kernel, KERNEL_FAILED);
            return false;
        }
        const uint32_t *out = e->dor_chan + (size_t)i * 2 + up;
        bool crossed = false; /* the wrap-around link of this dimension (the crossing hop included) */
        for (uint32_t s = 0; s < steps; s++, h++) {
            uint32_t next;
            if (up) {
                crossed |= a == k - 1;
                next = a == k - 1 ? cur - (k - 1) * p : cur + p;
                a = a == k - 1 ? 0 : a + 1;
            } else {
                crossed |= a == 0;
                next = a == 0 ? cur + (k - 1) * p : cur - p;
                a = a == 0 ? k - 1 : a - 1;
            }
            x->hop[h].channel = out[(size_t)cur * n * 2];
            x->to[h] = next;
            x->hop[h].cls = (uint8_t)(e->dateline && crossed);
            x->hop[h].sent = 0;
            cur = next;
        }
    }
    x->hops = h;
    msg->hops = h;
    return true;
}
