/* The k-ary n-tree (Petrini & Vanneschi, 1997; the reference simulator's `fattree`):
 * k^n terminals and n levels of k^(n-1) switches of 2k ports (k down, k up; the
 * roots' up ports unused).  Switch <l, w>, level l (0: the leaves) and w of n - 1
 * base-k digits, is router l k^(n-1) + w; for l < n - 1 it links up to the k switches
 * <l + 1, w'> whose w' differs from w at most in digit l.  Terminal p hangs off leaf
 * w = p / k.
 *
 * Routes go up to a nearest common ancestor and down again: every up port on the way
 * is minimal (random-minimal and adaptive-minimal choose among them), the way down is
 * unique.  The canonical (minimal) route takes, at level l, the up port to the switch
 * whose digit l is the destination terminal's digit l (destination-mod-k: each down
 * channel then carries one destination's messages); such routes turn once, so they
 * are deadlock-free on one VC.  Classes: up and down per level, then the terminal links' inject and eject. */
#include <stdio.h>
#include <stdlib.h>

#include "../sim/core/params.h"
#include "routers.h"

static const char *const fat_tree_reads[] = { "network.radix", NULL };
static const struct cfg_param_table fat_tree_param_table = { NULL, 0, 0, NULL, fat_tree_reads };

struct fat_tree {
    struct router_net rn; /* first: routers.h reads it from t->impl */
    uint32_t k, n, per_level; /* per_level = k^(n-1) */
};

static const struct fat_tree *F(const struct topo *t) { return t->impl; }

static uint32_t digit(uint32_t w, uint32_t l, uint32_t k)
{
    for (uint32_t i = 0; i < l; i++)
        w /= k;
    return w % k;
}

/* Destination-mod-k: among the up hops, the one to the switch whose digit l (l: the
 * level it leaves) is the destination terminal's digit l, so that each down channel
 * carries the messages of one destination. */
static unsigned canonical(const struct topo *t, uint32_t at, uint32_t dst, const struct hop *hops, unsigned n)
{
    const struct fat_tree *f = F(t);
    uint32_t T = f->rn.terminals, r = at - T, level = r / f->per_level;
    uint32_t want = digit(dst, level, f->k);
    for (unsigned i = 0; i < n; i++)
        if (digit((hops[i].next - T) % f->per_level, level, f->k) == want)
            return i;
    return 0;
}

static bool build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    bool half;
    if (!topo_read_links(cfg, true, &half, err))
        return false;
    if (half) {
        cfg_blame(cfg, "network.links", err, "fat-tree has full-duplex links only");
        return false;
    }
    uint64_t k = (uint64_t)cfg_int(cfg, "network.radix"), n = (uint64_t)cfg->network.dimension, per_level = 1;
    for (uint64_t i = 1; i < n && per_level * n <= ROUTERS_MAX; i++)
        per_level *= k;
    if (per_level * n > ROUTERS_MAX || 2 * k > ROUTER_PORTS_MAX || 2 * (n - 1) + 2 > TOPO_MAX_CLASSES) {
        cfg_blame(cfg, "network.radix", err, "a %llu-ary %llu-tree is too large (at most %d switches of at most %d "
                  "ports)", (unsigned long long)k, (unsigned long long)n, ROUTERS_MAX, ROUTER_PORTS_MAX);
        return false;
    }
    struct fat_tree *f = calloc(1, sizeof *f);
    if (!f || !router_net_init(&f->rn, (uint32_t)(per_level * n), (unsigned)(2 * (n - 1)))) {
        free(f);
        cfg_blame(cfg, "network.topology", err, "out of memory");
        return false;
    }
    t->impl = f;
    f->k = (uint32_t)k;
    f->n = (uint32_t)n;
    f->per_level = (uint32_t)per_level;
    f->rn.canonical = canonical;
    bool ok = true;
    /* Per switch: its up links (j ascending), then its down links (j ascending). */
    for (uint32_t l = 0; ok && l < f->n; l++)
        for (uint32_t w = 0; ok && w < f->per_level; w++) {
            uint32_t stride = 1;
            for (uint32_t i = 0; i < l && i + 1 < f->n; i++)
                stride *= f->k;
            uint32_t r = l * f->per_level + w;
            for (uint32_t j = 0; ok && l + 1 < f->n && j < f->k; j++) {
                uint32_t w2 = w - digit(w, l, f->k) * stride + j * stride;
                ok = router_net_add(&f->rn, r, (l + 1) * f->per_level + w2, l);
            }
            if (l == 0)
                continue;
            uint32_t below = 1;
            for (uint32_t i = 0; i + 1 < l; i++)
                below *= f->k;
            for (uint32_t j = 0; ok && j < f->k; j++) {
                uint32_t w2 = w - digit(w, l - 1, f->k) * below + j * below;
                ok = router_net_add(&f->rn, r, (l - 1) * f->per_level + w2, f->n - 1 + (l - 1));
            }
        }
    if (ok) { /* k terminals per leaf; the other levels have none */
        f->rn.terminals = (uint32_t)(per_level * k);
        f->rn.attach = malloc((size_t)f->rn.terminals * sizeof *f->rn.attach);
        ok = f->rn.attach != NULL;
        for (uint32_t p = 0; ok && p < f->rn.terminals; p++)
            f->rn.attach[p] = p / f->k;
    }
    char why[128] = "out of memory";
    if (!ok || !router_net_finish(&f->rn, t, why, sizeof why)) {
        cfg_blame(cfg, "network.radix", err, "%s", why);
        router_net_free_impl(t);
        return false;
    }
    t->dimension = f->n;
    t->group_terminals = f->n > 1 ? f->k : 0; /* a leaf's terminals */
    snprintf(t->label, sizeof t->label, "%u-ary %u-tree: %u terminals, %u levels of %u switches", f->k, f->n,
             f->rn.terminals, f->n, f->per_level);
    return true;
}

static void class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    const struct fat_tree *f = F(t);
    if (router_net_class_name(t, cls, buf, size))
        return;
    if (cls < f->n - 1)
        snprintf(buf, size, "up%u", cls);
    else
        snprintf(buf, size, "down%u", cls - (f->n - 1));
}

/* Bisection: the subtrees below the roots' down ports 0..k/2-1 on one side, the others
 * on the other; a switch <l, w> (roots included) by digit n - 2 of w, a terminal by its
 * leaf's.  For an even k it cuts k^n / 2 links, the full bisection of the tree. */
static int bisection_side(const struct topo *t, uint32_t x)
{
    const struct fat_tree *f = F(t);
    if (f->k % 2 || f->n < 2)
        return -1;
    uint32_t w = router_net_router_index(&f->rn, x) % f->per_level;
    return digit(w, f->n - 2, f->k) >= f->k / 2;
}

const struct topo_ops topo_fat_tree = {
    .name = "fat-tree",
    .help = "k-ary n-tree: radix^dimension terminals, dimension levels of radix^(dimension-1) switches of "
            "2 radix ports (keys: radix k, dimension n)",
    .traits = TOPO_NO_DIMENSIONS | TOPO_MINIMAL_ACYCLIC,
    .params = &fat_tree_param_table,
    .build = build,
    ROUTER_NET_OPS,
    .class_name = class_name,
    .bisection_side = bisection_side,
};
