/* Valiant's channel loads by flow conservation (analytic/valiant_loads.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "valiant_loads.h"

/* The chance a message from s is for d and travels (a self-addressed one is delivered at
 * once unless the engine takes it); a reply from s to d answers a request from d to s. */
static double travels(const struct model_in *in, bool replies, uint32_t s, uint32_t d)
{
    if (s == d && !in->takes_self_addressed)
        return 0;
    return replies ? in->prob(in->dest, d, s) : in->prob(in->dest, s, d);
}

bool valiant_by_class(const struct model_in *in)
{
    const struct topo *t = in->topo;
    if (!in->has_mids || in->mids.by_source || t->terminals != t->nodes || in->mids.picks != t->nodes)
        return false;
    for (uint32_t p = 0; p < in->mids.picks; p++)
        if (in->mids.mid(t, 0, p) != p)
            return false;
    return true;
}

/* By translation invariance phase one from any source is uniform over every node (self
 * included: no hop), and so is phase two, m being independent of d. */
bool valiant_class_hops(const struct model_in *in, struct flow_tree *tr, double *class_hops, double *visits)
{
    const struct topo *t = in->topo;
    double phase[TOPO_MAX_CLASSES] = { 0 };
    for (uint32_t x = 0; x < t->nodes; x++)
        tr->flow[x] = 1.0 / t->nodes;
    struct flow_sums sums = { .per_class = phase, .count_origins = true };
    if (!flow_push(t, in->phase_next, in->phase_split, 0, tr, &sums))
        return false;
    double moving = 0;
    for (uint32_t d = 0; d < t->terminals; d++)
        moving += travels(in, false, 0, d);
    *visits = moving;
    for (unsigned c = 0; c < t->classes; c++) {
        class_hops[c] = 2 * phase[c] * moving;
        *visits += class_hops[c];
    }
    if (in->takes_self_addressed) /* s = m = d: delivered at once, no visit */
        *visits -= in->prob(in->dest, 0, 0) / t->nodes;
    return true;
}

/* Every (source, intermediate) draw, grouped by intermediate: the draws whose mid is m are
 * source[first[m] .. first[m + 1]), each with chance 1 / picks. */
struct draws {
    uint32_t *first, *source;
};

static bool draws_by_mid(const struct model_in *in, struct draws *dr)
{
    const struct topo *t = in->topo;
    uint32_t P = in->mids.picks;
    size_t n = (size_t)t->terminals * P;
    dr->first = calloc((size_t)t->nodes + 1, sizeof *dr->first);
    dr->source = malloc(n * sizeof *dr->source);
    uint32_t *mid = malloc(n * sizeof *mid);
    bool ok = dr->first && dr->source && mid;
    for (size_t i = 0; ok && i < n; i++) {
        mid[i] = in->mids.mid(t, (uint32_t)(i / P), (uint32_t)(i % P));
        dr->first[mid[i] + 1]++;
    }
    for (uint32_t m = 0; ok && m < t->nodes; m++)
        dr->first[m + 1] += dr->first[m];
    uint32_t *fill = ok ? malloc((size_t)t->nodes * sizeof *fill) : NULL;
    ok = ok && fill;
    if (ok) {
        memcpy(fill, dr->first, (size_t)t->nodes * sizeof *fill);
        for (size_t i = 0; i < n; i++)
            dr->source[fill[mid[i]]++] = (uint32_t)(i / P);
    }
    free(fill);
    free(mid);
    return ok;
}

bool valiant_channel_rates(const struct model_in *in, double lambda, bool replies, struct flow_tree *tr,
                           double *rate, double *visits, char *why, size_t why_size)
{
    const struct topo *t = in->topo;
    uint32_t N = t->nodes, T = t->terminals, P = in->mids.picks;
    double *sent = calloc(T, sizeof *sent), *received = calloc(T, sizeof *received);
    double *share = in->mids.by_source ? NULL : calloc(N, sizeof *share);
    struct draws dr = { 0 };
    bool ok = sent && received && (in->mids.by_source ? draws_by_mid(in, &dr) : share != NULL);
    snprintf(why, why_size, "out of memory");
    for (uint32_t s = 0; ok && s < T; s++)
        for (uint32_t d = 0; d < T; d++) {
            double w = lambda * travels(in, replies, s, d);
            sent[s] += w;
            received[d] += w;
        }
    for (uint32_t p = 0; ok && share && p < P; p++)
        share[in->mids.mid(t, 0, p)] += 1.0 / P;
    bool minimal = true;
    /* Phase one: towards every intermediate node m. */
    for (uint32_t m = 0; ok && minimal && m < N; m++) {
        memset(tr->flow, 0, (size_t)N * sizeof *tr->flow);
        double total = 0, self = 0;
        if (share) {
            for (uint32_t s = 0; s < T && share[m] > 0; s++)
                total += tr->flow[s] = sent[s] * share[m];
            self = m < T ? lambda * travels(in, replies, m, m) * share[m] : 0;
        } else {
            for (uint32_t i = dr.first[m]; i < dr.first[m + 1]; i++) {
                uint32_t s = dr.source[i];
                tr->flow[s] += sent[s] / P;
                total += sent[s] / P;
                self += s == m ? lambda * travels(in, replies, m, m) / P : 0;
            }
        }
        struct flow_sums sums = { .per_channel = rate, .per_node = visits, .count_origins = true,
                                  .dst_uncounted = self };
        if (total > 0)
            minimal = flow_push(t, in->phase_next, in->phase_split, m, tr, &sums);
    }
    /* Phase two: towards every destination d, from the intermediate nodes (their visit
     * is phase one's). */
    for (uint32_t d = 0; ok && minimal && d < T; d++) {
        memset(tr->flow, 0, (size_t)N * sizeof *tr->flow);
        if (share) {
            for (uint32_t m = 0; m < N; m++)
                tr->flow[m] = share[m] * received[d];
        } else {
            for (uint32_t m = 0; m < N; m++)
                for (uint32_t i = dr.first[m]; i < dr.first[m + 1]; i++)
                    tr->flow[m] += lambda * travels(in, replies, dr.source[i], d) / P;
        }
        struct flow_sums sums = { .per_channel = rate, .per_node = visits };
        if (received[d] > 0)
            minimal = flow_push(t, in->phase_next, in->phase_split, d, tr, &sums);
    }
    if (!minimal)
        snprintf(why, why_size, "the route of a Valiant phase is not minimal on this topology");
    free(sent);
    free(received);
    free(share);
    free(dr.first);
    free(dr.source);
    return ok && minimal;
}
