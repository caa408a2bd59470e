/* Least-count routing: seed 000's "improved" (abstract) algorithm, Sec. IV-B.
 *
 * Every node keeps, for each of its outgoing links, the cumulative number of messages
 * it has sent on it (from 0, never reset).  A message takes, among its minimal next
 * hops, the link with the lowest count, and that count goes up by one; ties are
 * broken uniformly at random.  Routing stays minimal: only the order in which
 * dimensions are corrected changes.  Readings of what the paper leaves open (note
 * 000 §2.2): the count is per node and per outgoing direction; ties are random; the
 * rule applies to cluster links only, so level-2 hops of the hierarchical networks
 * (channel class TOPO_LEVEL2_CLASS) stay uniformly random, and their counts are not kept.
 * Every message sent on a counted link counts, chosen or not.
 * Needs channels that are link directions (one sender each). */
#include <stdlib.h>

#include "routing.h"

enum { MINIMAL_HOPS_MAX = 64 };

struct least_count {
    uint64_t *count;            /* per channel (= per node and outgoing direction) */
    bool counted[TOPO_MAX_CLASSES]; /* false for level-2 classes */
};

static bool check(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    if (t->kind != CHANNEL_LINK_DIRECTION) {
        cfg_blame(cfg, cfg_is_set(cfg, "network.links") ? "network.links" : "routing.algorithm", err,
                  "least-count keeps a count per outgoing link direction; it needs full-duplex point-to-point "
                  "links (this network has %s)", t->kind == CHANNEL_BUS ? "buses" : "half-duplex links");
        return false;
    }
    return true;
}

static void release(void *state)
{
    struct least_count *lc = state;
    if (lc)
        free(lc->count);
    free(lc);
}

static void *create(const struct topo *t)
{
    struct least_count *lc = calloc(1, sizeof *lc);
    if (!lc)
        return NULL;
    lc->count = calloc(t->channels, sizeof *lc->count);
    if (!lc->count) {
        release(lc);
        return NULL;
    }
    bool clustered = t->ops->traits & TOPO_HYPERCUBE_CLUSTERS;
    for (unsigned c = 0; c < t->classes; c++)
        lc->counted[c] = !(clustered && c == TOPO_LEVEL2_CLASS);
    return lc;
}

static struct hop choose(void *state, const struct topo *t, uint32_t at, uint32_t dst, struct rng *r)
{
    struct least_count *lc = state;
    struct hop hops[MINIMAL_HOPS_MAX];
    unsigned count = t->ops->minimal_hops(t, at, dst, hops, MINIMAL_HOPS_MAX);
    /* The candidates of one hop are all cluster links or all level-2 links (the
     * three phases of the hierarchical route never mix them). */
    if (!lc->counted[t->ops->channel_class(t, hops[0].channel)])
        return hops[count > 1 ? rng_below(r, count) : 0];
    unsigned lowest[MINIMAL_HOPS_MAX], ties = 0;
    uint64_t best = UINT64_MAX;
    for (unsigned i = 0; i < count; i++) {
        uint64_t c = lc->count[hops[i].channel];
        if (c < best) {
            best = c;
            ties = 0;
        }
        if (c == best)
            lowest[ties++] = i;
    }
    struct hop h = hops[lowest[ties > 1 ? rng_below(r, ties) : 0]];
    lc->count[h.channel]++;
    return h;
}

/* For tests: the count a node keeps for its outgoing channel. */
uint64_t least_count_of(const void *state, uint32_t channel)
{
    const struct least_count *lc = state;
    return lc->count[channel];
}

const struct route_ops route_least_count = {
    .name = "least-count",
    .help = "seed 000's improved routing: the minimal next hop whose outgoing link this node has used least "
            "(cumulative count; ties random; level-2 hops random)",
    .traits = 0, /* the choice depends on the counts the run has built up */
    .check = check,
    .create = create,
    .destroy = release,
    .choose = choose,
};
