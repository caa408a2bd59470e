/* Slim Fly (Besta & Hoefler, SC 2014): the McKay-Miller-Siran (MMS) graph of 2q^2
 * routers for a prime q = 4w + delta, delta = +1 or -1 (a prime above 2 is never a
 * multiple of 4, so delta = 0, q a power of two, does not arise and is refused with
 * every other q that is not an odd prime).  Network radix (3q - delta) / 2, router
 * diameter 2, `network.concentration` terminals per router.
 *
 * Routers (0, x, y) and (1, m, c), x, y, m, c in GF(q): router s q^2 + a q + b for
 * (s, a, b).  With xi a primitive element of GF(q) (the smallest) and the paper's
 * generator sets X, X' (Sec. 3.1, after Hafner 2004):
 *   delta = +1:  X = {1, xi^2, ..., xi^(q-3)},                     X' = {xi, xi^3, ..., xi^(q-2)}
 *   delta = -1:  X = {1, xi^2, ..., xi^(2w-2), xi^(2w-1), xi^(2w+1), ..., xi^(4w-3)},
 *                X' = {xi, xi^3, ..., xi^(2w-1), xi^(2w), xi^(2w+2), ..., xi^(4w-2)}
 * the links are (0, x, y) - (0, x, y') when y - y' is in X, (1, m, c) - (1, m, c')
 * when c - c' is in X', and (0, x, y) - (1, m, c) when y = m x + c.  Both sets are
 * closed under negation, so every link is full-duplex; tests check the degree and
 * the diameter of 2 that the construction promises.
 *
 * Channels: a router's links within its side (class "intra") in increasing order of
 * the neighbour's id, then its links to the other side ("inter"), likewise; minimal
 * routes are the breadth-first table's (routers.h), the canonical hop the first of
 * them in that order.  Minimal routing on an MMS graph has cyclic channel dependencies
 * (routes of two hops in every direction around its 5-cycles), so the family does not
 * claim TOPO_MINIMAL_ACYCLIC: the iq router gives it a VC class per router-to-router hop
 * (routing/iq_nets.c), and on one VC the simple wormhole router can deadlock (its
 * deadlock search stops the run, or recovers). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "../sim/core/params.h"
#include "routers.h"

enum { SLIM_FLY_Q_MAX = 61 }; /* 2 q^2 <= ROUTERS_MAX */
enum { CLASS_INTRA, CLASS_INTER, CLASSES };

struct slim_fly_params {
    int64_t q;
};



static const struct cfg_key slim_fly_keys[] = {
    { "network", "q", CFG_INT, offsetof(struct slim_fly_params, q), "5", 3, SLIM_FLY_Q_MAX, false, NULL,
      "slim-fly: the prime q of the MMS graph (2 q^2 routers of network radix (3q - delta)/2, q = 4w + delta)" },
};
static CFG_PARAM_TABLE(slim_fly_param_table, struct slim_fly_params, slim_fly_keys);

struct slim_fly {
    struct router_net rn; /* first: routers.h reads it from t->impl */
    uint32_t q;
    int delta;
};

static bool is_prime(uint32_t q)
{
    if (q < 2)
        return false;
    for (uint32_t d = 2; d * d <= q; d++)
        if (q % d == 0)
            return false;
    return true;
}

/* The smallest element of order q - 1 in GF(q), q prime. */
static uint32_t primitive_element(uint32_t q)
{
    for (uint32_t g = 2; g < q; g++) {
        uint32_t x = 1, order = 0;
        do {
            x = x * g % q;
            order++;
        } while (x != 1);
        if (order == q - 1)
            return g;
    }
    return 1; /* q = 2: GF(2)'s only unit */
}

/* Marks in set[] (q entries) xi^e for the exponents the paper gives. */
static void generator_sets(uint32_t q, int delta, bool *X, bool *Xp)
{
    uint32_t xi = primitive_element(q), power[2 * SLIM_FLY_Q_MAX];
    power[0] = 1;
    for (uint32_t e = 1; e < q; e++)
        power[e] = power[e - 1] * xi % q;
    if (delta == 1) {
        for (uint32_t e = 0; e + 3 <= q; e += 2)
            X[power[e]] = true;
        for (uint32_t e = 1; e + 2 <= q; e += 2)
            Xp[power[e]] = true;
        return;
    }
    uint32_t w = (q + 1) / 4;
    for (uint32_t e = 0; e <= 2 * w - 2; e += 2)
        X[power[e]] = true;
    for (uint32_t e = 2 * w - 1; e <= 4 * w - 3; e += 2)
        X[power[e]] = true;
    for (uint32_t e = 1; e <= 2 * w - 1; e += 2)
        Xp[power[e]] = true;
    for (uint32_t e = 2 * w; e <= 4 * w - 2; e += 2)
        Xp[power[e]] = true;
}

static bool add_links(struct slim_fly *s, const bool *X, const bool *Xp)
{
    uint32_t q = s->q, side = q * q;
    for (uint32_t r = 0; r < 2 * side; r++) {
        uint32_t sd = r / side, a = r % side / q, b = r % q;
        const bool *gen = sd == 0 ? X : Xp;
        for (uint32_t b2 = 0; b2 < q; b2++) /* within the side: same x (or m), difference in X (X') */
            if (b2 != b && gen[(b + q - b2) % q] && !router_net_add(&s->rn, r, sd * side + a * q + b2, CLASS_INTRA))
                return false;
        /* Across: (0, x, y) - (1, m, c) with y = m x + c.  From (0, x, y), one c per m;
         * from (1, m, c), one y per x.  Listed by the neighbour's id. */
        for (uint32_t k = 0; k < q; k++) {
            uint32_t other = sd == 0 ? side + k * q + (b + q * q - k * a % q) % q /* (1, m = k, c = y - m x) */
                                     : k * q + (a * k + b) % q;                    /* (0, x = k, y = m x + c) */
            if (!router_net_add(&s->rn, r, other, CLASS_INTER))
                return false;
        }
    }
    return true;
}

static bool build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    const struct slim_fly_params *p = cfg_params(cfg, &slim_fly_param_table);
    bool half;
    if (!topo_read_links(cfg, true, &half, err))
        return false;
    if (half) {
        cfg_blame(cfg, "network.links", err, "slim-fly has full-duplex links only");
        return false;
    }
    uint32_t q = (uint32_t)p->q;
    if (!is_prime(q) || q == 2) {
        cfg_blame(cfg, "network.q", err, "slim-fly needs an odd prime q (q = 4w + 1 or 4w - 1); got %u", q);
        return false;
    }
    int64_t concentration = cfg->network.concentration;
    struct slim_fly *s = calloc(1, sizeof *s);
    if (!s || !router_net_init(&s->rn, 2 * q * q, CLASSES)) {
        free(s);
        cfg_blame(cfg, "network.topology", err, "out of memory");
        return false;
    }
    t->impl = s;
    s->q = q;
    s->delta = q % 4 == 1 ? 1 : -1;
    bool X[SLIM_FLY_Q_MAX + 1] = { false }, Xp[SLIM_FLY_Q_MAX + 1] = { false };
    generator_sets(q, s->delta, X, Xp);
    bool ok = add_links(s, X, Xp);
    if (ok && concentration > 1)
        ok = router_net_attach(&s->rn, (uint32_t)concentration);
    char why[128] = "out of memory";
    if (!ok || !router_net_finish(&s->rn, t, why, sizeof why)) {
        cfg_blame(cfg, "network.q", err, "%s", why);
        router_net_free_impl(t);
        return false;
    }
    snprintf(t->label, sizeof t->label, "Slim Fly (MMS graph) of q = %u: %u routers of network radix %u, %lld "
             "terminal%s per router", q, 2 * q * q, (3 * q - s->delta) / 2, (long long)concentration,
             concentration == 1 ? "" : "s");
    return true;
}

static void class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    if (!router_net_class_name(t, cls, buf, size))
        snprintf(buf, size, "%s", cls == CLASS_INTRA ? "intra" : "inter");
}

const struct topo_ops topo_slim_fly = {
    .name = "slim-fly",
    .help = "Slim Fly: the MMS graph of 2 q^2 routers for a prime q = 4w + delta, network radix (3q - delta)/2, "
            "diameter 2, concentration terminals per router (keys: q, concentration)",
    .traits = TOPO_NO_DIMENSIONS | TOPO_OWN_TERMINALS,
    .params = &slim_fly_param_table,
    .build = build,
    ROUTER_NET_OPS,
    .class_name = class_name,
};
