/* Virtual-channel classes shared by the two flit routers (routing.router = simple and
 * iq): which VCs a hop of Valiant's two phases or of a dimension-order escape route
 * may use, and the checks that a configuration has enough VCs for them.
 *
 * Promise: the same arithmetic for both routers, so that the two give every hop the
 * same VC range.  Dateline on a torus: `ahead` says whether the way in the hop's
 * dimension crosses the wrap-around link, as the caller judges it (escape hops: from
 * the hop's own node, every hop; Valiant on rings both ways: once, on entering the
 * dimension, so the hops after the crossing keep the upper part); ahead uses the upper
 * part of the range, else the lower; both parts are free of cycles, so dimension
 * order in each is deadlock-free.
 * Needs: sim/core (config), topo.
 */
#ifndef ROUTING_VC_CLASSES_H
#define ROUTING_VC_CLASSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../sim/core/config_value.h"
#include "../topo/topo.h"

/* Whether the way from digit a to digit b of a ring of radix k, whose next hop goes to
 * digit `next`, still crosses the wrap-around link. */
static inline bool dateline_ahead(uint32_t k, uint32_t a, uint32_t b, uint32_t next)
{
    bool up = next == (a + 1) % k;
    return up ? b < a : b > a;
}

/* Whether the hop cur -> next of a k-ary n-cube crosses the wrap-around link of its
 * dimension, and that dimension (the simple router's drawn paths: the class of a hop
 * is whether its dimension's wrap-around link is behind it, this hop included). */
static inline bool lattice_wraps(uint32_t k, uint32_t cur, uint32_t next, unsigned *dim)
{
    uint32_t p = 1;
    for (unsigned i = 0;; i++, p *= k) {
        uint32_t a = cur / p % k, b = next / p % k;
        if (a != b) {
            *dim = i;
            return b == (a + 1) % k ? a == k - 1 : a == 0;
        }
    }
}

/* Valiant: phase 0 on the lower half of V VCs, phase 1 on the upper half; on a torus
 * each half split into its two dateline classes when it has two VCs or more (with
 * fewer, 2 or 3 VCs, both classes share the phase's VC: a ring's cycle, which the static
 * deadlock check refuses; V >= 2 is valiant_vcs_fit's). */
static inline void valiant_vc_range(uint32_t V, unsigned phase, bool dateline, bool ahead, uint32_t *lo,
                                    uint32_t *hi)
{
    uint32_t half = V / 2, base = phase ? half : 0, width = phase ? V - half : half;
    *lo = base;
    *hi = base + width;
    if (dateline && width >= 2) {
        *lo = ahead ? base + width / 2 : base;
        *hi = ahead ? base + width : base + width / 2;
    }
}

/* The escape VCs [0, E) of a dimension-order hop; on a torus (E >= 2) split into the
 * two dateline classes. */
static inline void escape_vc_range(uint32_t E, bool dateline, bool ahead, uint32_t *lo, uint32_t *hi)
{
    *lo = 0;
    *hi = E;
    if (dateline && E >= 2) {
        *lo = ahead ? E / 2 : 0;
        *hi = ahead ? E : E / 2;
    }
}

/* routing.escape_vcs, or the least the topology needs (-1): 2 on a torus, else 1.
 * (routing/iq_setup.c) */
int64_t iq_escape_vcs(const struct config *cfg, const struct topo *t);
/* Adaptive-minimal and random-minimal with escape VCs on the iq router (iq) or the
 * simple one, what they need to run at all: a k-ary n-cube of radix 3 or more or a
 * hypercube, an adaptive VC beyond the escape VCs, tail-credit release on the iq router.
 * Whether the escape VCs are enough to be deadlock-free (2 dateline classes on a torus,
 * 1 elsewhere) is the static deadlock check's to decide; escape_fix() is the fix it
 * names.  (routing/iq_checks.c) */
bool escapes_fit(const struct config *cfg, const struct topo *t, bool iq, struct cfg_error *err);
/* Per-hop routing's VCs beyond its `escape` escape VCs: at least one adaptive VC (both
 * routers), else false with *err; and on the iq router, which takes an escape VC only
 * when it is empty, not with tail-credit VC release.  (routing/iq_checks.c) */
bool adaptive_vc_left(const struct config *cfg, int64_t escape, struct cfg_error *err);
bool iq_escapes_released(const struct config *cfg, int64_t escape, struct cfg_error *err);
void escape_fix(const struct config *cfg, const struct topo *t, char *buf, size_t size);
/* Valiant on a flit router named `router`, what it needs to run at all: radix 3 or
 * more, and a VC for each of its two phases.  Whether its VCs are enough to be
 * deadlock-free (two dateline classes per phase on a torus: 4) is the static deadlock
 * check's to decide; valiant_fix() is the fix it names.  (routing/valiant.c) */
bool valiant_vcs_fit(const struct config *cfg, const struct topo *t, const char *router, struct cfg_error *err);
void valiant_fix(const struct config *cfg, const struct topo *t, char *buf, size_t size);
/* Valiant routes both phases by dimension order: false with *err on a topology without
 * one.  (routing/valiant.c) */
bool valiant_has_dimension_order(const struct config *cfg, const struct topo *t, struct cfg_error *err);

#endif
