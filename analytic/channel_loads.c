/* Channel loads by flow conservation.  For one destination d the routes of every
 * source form a tree (the routing is deterministic and minimal), so the messages
 * bound for d are pushed hop by hop from the farthest nodes inwards: every node is
 * visited once per destination, not once per hop of every path.  With the class
 * shortcut only destination 0 is needed; otherwise every destination is.
 *
 * A path function that draws evenly among hops it lists (model_in.split) is the same
 * push over a DAG instead of a tree: a node's flow splits equally over those hops.
 * Random minimal routing lists every minimal hop; e-cube as the iq router runs it with
 * tie = random lists both ways of a torus dimension whose two ways are equally short
 * (and one hop elsewhere).  Each message's choice at a node is independent of how it
 * got there, so the expected rate through every channel is exact.  Valiant's two
 * phases are two such flows (analytic/valiant_loads.c).  Algorithms whose
 * choice depends on the run's history (least-count) or that are not minimal
 * (backtracking) have no such flow.
 *
 * Request-reply (model_in.reply): a request from s to d at rate λ p(s, d) brings a reply
 * from d to s at the same rate, so the replies are the requests' flow reversed: pushed
 * towards each destination d from every x at λ p(d, x).  A channel's utilisation weighs
 * each class's messages by its own length. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow_push.h"
#include "model.h"
#include "valiant_loads.h"

/* Pushes weight(s) * p(s, dst) (in->prob) from every source s towards dst; the replies:
 * weight * p(dst, s), a reply going from s to dst as often as a request from dst to s. */
static bool push_towards(const struct topo *t, const struct model_in *in, uint32_t dst, double weight, bool replies,
                         struct flow_tree *tr, double *per_class, double *per_channel, double *per_node)
{
    for (uint32_t x = 0; x < t->nodes; x++) /* routers send nothing */
        tr->flow[x] = x >= t->terminals ? 0
                      : weight * (replies ? in->prob(in->dest, dst, x) : in->prob(in->dest, x, dst));
    struct flow_sums sums = { per_class, per_channel, per_node, true, weight * in->prob(in->dest, dst, dst) };
    return flow_push(t, in->next, in->split, dst, tr, &sums);
}

/* The mean length of the messages through a channel carrying req requests and rep
 * replies per time unit (request-reply). */
static double class_length(const struct model_in *in, double req, double rep)
{
    return req + rep > 0 ? (req * in->reply.request_length + rep * in->reply.reply_length) / (req + rep)
                         : (in->reply.request_length + in->reply.reply_length) / 2;
}

static void finish(const struct config *cfg, const struct topo *t, struct channel_loads *l)
{
    double class_busy[TOPO_MAX_CLASSES] = { 0 }, class_rate[TOPO_MAX_CLASSES] = { 0 };
    uint64_t class_channels[TOPO_MAX_CLASSES] = { 0 };
    l->max_utilization = 0;
    for (size_t i = 0; i < l->n_groups; i++) {
        const struct load_group *g = &l->groups[i];
        double u = g->rate * (g->length > 0 ? g->length : cfg->workload.mean_length) / g->bandwidth;
        class_busy[g->cls] += u * (double)g->channels;
        class_rate[g->cls] += g->rate * (double)g->channels;
        class_channels[g->cls] += g->channels;
        if (g->rate > l->class_rate_max[g->cls])
            l->class_rate_max[g->cls] = g->rate;
        if (u > l->max_utilization) {
            l->max_utilization = u;
            l->busiest_class = g->cls;
        }
    }
    for (unsigned c = 0; c < t->classes; c++) {
        l->class_utilization[c] = class_channels[c] ? class_busy[c] / (double)class_channels[c] : 0;
        l->class_rate[c] = class_channels[c] ? class_rate[c] / (double)class_channels[c] : 0;
    }
}

static bool compute(const struct model_in *in, struct channel_loads *l, bool use_classes)
{
    const struct config *cfg = in->cfg;
    const struct topo *t = in->topo;
    memset(l, 0, sizeof *l);
    l->topo = t;
    l->capacity = in->capacity;
    double lambda = cfg_message_rate(cfg);
    bool replies = in->reply.on;
    l->message_rate = lambda * t->terminals * (replies ? 2 : 1);
    l->request_reply = replies;
    if (replies && in->reply.closed) {
        snprintf(l->why, sizeof l->why, "request-reply with workload.max_outstanding: sources wait for their "
                 "replies, so the offered rate depends on the round trip and is not known in advance");
        return false;
    }
    if (in->arrival & ARRIVAL_REPLAY) {
        snprintf(l->why, sizeof l->why, "trace replay: the loads are the trace's, not workload.rate's");
        return false;
    }
    bool valiant = (in->route & ROUTE_VALIANT) && in->has_mids;
    if (!valiant && (!in->next || !(in->split || (in->route & ROUTE_DETERMINISTIC)))) {
        snprintf(l->why, sizeof l->why, "%s", in->route & ROUTE_BACKTRACKS
                     ? "backtracking: finite buffers and non-minimal hops; loads depend on the run (see the "
                       "backtracking figures)"
                     : in->route & ROUTE_ADAPTIVE
                     ? "channel loads are not computed for adaptive-minimal routing: its choices depend on the "
                       "queues or credits of the moment, so no flow can be pushed without simulating"
                     : in->route & ROUTE_SOURCE_ADAPTIVE
                     ? "channel loads are not computed for ugal: each packet's route depends on the source router's "
                       "queues of the moment"
                     : in->route & ROUTE_VALIANT
                     ? "channel loads are not computed for valiant routing on this engine (it does not say how "
                       "it draws the intermediate node)"
                     : "channel loads are not computed for least-count routing: its choices depend on the counts "
                       "the run has built up, so no flow can be pushed without simulating");
        return false;
    }
    bool by_class = use_classes && t->uniform_class_loads && (in->destination & DEST_TRANSLATION_INVARIANT) &&
                    (!valiant || valiant_by_class(in));
    if (!by_class && t->nodes > LOADS_ENUMERATION_MAX_NODES) {
        snprintf(l->why, sizeof l->why, "channel loads of a %s network of more than %d nodes are not computed",
                 t->uniform_class_loads ? "non-uniform workload on a" : "non-symmetric", LOADS_ENUMERATION_MAX_NODES);
        return false;
    }
    if (!in->prob) { /* the distribution refused the topology */
        snprintf(l->why, sizeof l->why, "%.200s", in->dest_why);
        return false;
    }
    struct flow_tree tr = { 0 };
    double *rate = NULL, *visits = NULL, *reply_rate = NULL;
    bool ok = flow_tree_alloc(&tr, t);
    snprintf(l->why, sizeof l->why, "out of memory");
    if (ok && by_class) {
        double class_hops[TOPO_MAX_CLASSES] = { 0 }, reply_hops[TOPO_MAX_CLASSES] = { 0 }, visits_per_message = 0;
        if (valiant) /* the replies' phases are as uniform as the requests' */
            ok = valiant_class_hops(in, &tr, class_hops, &visits_per_message) &&
                 (!replies || valiant_class_hops(in, &tr, reply_hops, &visits_per_message));
        else
            ok = push_towards(t, in, 0, 1.0, false, &tr, class_hops, NULL, NULL) &&
                 (!replies || push_towards(t, in, 0, 1.0, true, &tr, reply_hops, NULL, NULL));
        l->groups = calloc(t->classes, sizeof *l->groups);
        ok = ok && l->groups;
        double per_class = lambda * t->terminals; /* requests (and as many replies) per time unit */
        for (unsigned c = 0; ok && c < t->classes; c++) {
            uint64_t n = t->ops->channels_in_class(t, c);
            double req = per_class * class_hops[c] / (double)n, rep = per_class * reply_hops[c] / (double)n;
            l->groups[c] = (struct load_group){ req + rep, t->class_bandwidth[c], n, c,
                                                replies ? class_length(in, req, rep) : 0 };
            l->mean_hops += replies ? (class_hops[c] + reply_hops[c]) / 2 : class_hops[c];
        }
        l->n_groups = t->classes;
        l->by_class = true;
        /* Every node alike: a message visits its source and one node per hop. */
        if (!valiant)
            visits_per_message = ok ? 1 - in->prob(in->dest, 0, 0) + l->mean_hops : 0;
        l->node_visit_rate_max = lambda * (replies ? 2 : 1) * visits_per_message;
    } else if (ok) {
        rate = calloc(t->channels, sizeof *rate);
        visits = calloc(t->nodes, sizeof *visits);
        l->groups = calloc(t->channels, sizeof *l->groups);
        ok = rate && visits && l->groups;
        reply_rate = replies ? calloc(t->channels, sizeof *reply_rate) : NULL;
        ok = ok && (!replies || reply_rate);
        if (ok && valiant)
            ok = valiant_channel_rates(in, lambda, false, &tr, rate, visits, l->why, sizeof l->why) &&
                 (!replies || valiant_channel_rates(in, lambda, true, &tr, reply_rate, visits, l->why, sizeof l->why));
        for (uint32_t d = 0; ok && !valiant && d < t->terminals; d++)
            ok = push_towards(t, in, d, lambda, false, &tr, NULL, rate, visits) &&
                 (!replies || push_towards(t, in, d, lambda, true, &tr, NULL, reply_rate, visits));
        for (uint32_t v = 0; ok && v < t->nodes; v++)
            if (visits[v] > l->node_visit_rate_max)
                l->node_visit_rate_max = visits[v];
        double total = 0;
        for (uint32_t ch = 0; ok && ch < t->channels; ch++) {
            unsigned cls = t->ops->channel_class(t, ch);
            double rep = replies ? reply_rate[ch] : 0;
            l->groups[ch] = (struct load_group){ rate[ch] + rep, t->class_bandwidth[cls], 1, cls,
                                                 replies ? class_length(in, rate[ch], rep) : 0 };
            total += rate[ch] + rep;
        }
        l->n_groups = t->channels;
        l->mean_hops = total / l->message_rate;
    }
    if (ok)
        finish(cfg, t, l);
    else if (l->groups && !(valiant && !by_class)) /* allocated, so the routing was at fault (Valiant's says) */
        snprintf(l->why, sizeof l->why, "the routing is not minimal on this topology");
    free(rate);
    free(reply_rate);
    free(visits);
    flow_tree_free(&tr);
    if (!ok)
        loads_free(l);
    l->known = ok;
    return ok;
}

bool loads_compute(const struct model_in *in, struct channel_loads *l)
{
    return compute(in, l, true);
}

bool loads_compute_enumerated(const struct model_in *in, struct channel_loads *l)
{
    return compute(in, l, false);
}

void loads_free(struct channel_loads *l)
{
    free(l->groups);
    l->groups = NULL;
    l->n_groups = 0;
}
