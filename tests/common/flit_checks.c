/* The flit engine's invariants (routing/flit.h), checked at every delivery by the
 * suites that run it under deadlock recovery and per-hop routing. */
#include "../../routing/flit.h"
#include "checks.h"
#include "test.h"

/* At every delivery: every owned VC is held by its owner on a hop it has acquired and
 * not yet released (wormhole: from the hop before the first the tail has not crossed;
 * cut-through: from that hop), and every such hop owns its VC; the waiting headers (channel
 * queues and the per-hop list) number `waiting`; the delivered worm's hops are each
 * one step closer to its destination. */
static uint32_t first_held(const struct flit_engine *e, const struct worm *x)
{
    return e->wormhole && x->lo ? x->lo - 1 : x->lo;
}

void flit_check_invariants(void *ctx, const struct worm *done, int64_t cycle)
{
    struct flit_invariants *k = ctx;
    const struct flit_engine *e = k->e;
    const struct topo *t = e->env.topo;
    uint64_t owned = 0, held = 0, queued = e->per_hop.n;
    for (uint32_t ch = 0; ch < t->channels; ch++) {
        for (uint32_t v = 0; v < e->Vt; v++) {
            uint32_t w = flit_owner(e, ch)[v];
            if (w == MSG_NONE)
                continue;
            owned++;
            const struct worm *x = &e->worms[w];
            bool found = false;
            for (uint32_t j = first_held(e, x); j < x->acquired && !found; j++)
                found = x->hop[j].channel == ch && x->hop[j].vc == v;
            ck_assert_msg(found, "cycle %lld: channel %u VC %u owned by worm %u, which does not hold it",
                          (long long)cycle, ch, v, w);
        }
        for (uint32_t w = e->chans[ch].wait_head; w != MSG_NONE; w = e->worms[w].next) {
            ck_assert_uint_eq(e->worms[w].hop[e->worms[w].acquired].channel, ch);
            queued++;
        }
    }
    for (uint32_t i = 0; i < e->n_active; i++) {
        const struct worm *x = &e->worms[e->active[i]];
        held += x->acquired - first_held(e, x);
    }
    ck_assert_uint_eq(queued, e->waiting);
    ck_assert_uint_eq(owned, held);
    if (e->routing == FLIT_PER_HOP) {
        uint32_t dst = e->env.pool->msgs[done->msg].dst;
        for (uint32_t j = 0; j < done->hops; j++)
            ck_assert_uint_eq(t->ops->distance(t, done->to[j], dst), done->hops - j - 1);
    }
    k->checks++;
}
