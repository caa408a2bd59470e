/* Seed 004's FIFO network model (McHenry 1990, §4.2; note 004 §4): every node an
 * M/D/1 queue of service 1/μ_N fed by all its visits, every channel an M/M/1 queue,
 * a message's length drawn once and kept on every hop.  A message with δ hops gets
 * δ + 1 node times T_R and, per hop, a channel wait and its transmission:
 *   E[T] = (1 + E[δ]) E[T_R] + Σ_g E[δ_g] E[T_LW,g] + E[L] E[Y],   Y = Σ_hops 1/bandwidth
 * (eqs. 4.20, 4.43; g runs over groups of channel classes with the same load, the
 * thesis's δ_1 and δ_2 on the dual-bus hypercube).  The variance is the thesis's
 * sum of independent random sums (4.21-4.25, 4.44-4.51); `delay_variance_correlated`
 * adds the covariances that sum omits (they share δ), conditioning on the route.
 * Hop distributions come from walking every route (from node 0 when the network
 * and workload are symmetric).  Corrected readings of note 004 §8: ρ_N = λ_NM/μ_N
 * with λ_NM = (1 + E[δ]) λ (items 6, 8), Var[T_R] = E[T_NW²] - E[T_NW]² (item 7).
 *
 * What it relies on of the queues (in->access): work-conserving channels
 * (ACCESS_WORK_CONSERVING) served, like the nodes, in arrival order
 * (ACCESS_FIFO_ORDER): besides the means, it gives the variances of the M/D/1 node
 * wait and of the M/M/1 channel wait, which are FIFO's (another order keeps the mean
 * of a length-blind queue but not its variance). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

enum { MAX_GROUPS = TOPO_MAX_CLASSES, MAX_HOPS = 256 };

struct route_sums {
    double weight;                    /* total probability walked */
    double hops[MAX_HOPS];            /* P(δ = n) */
    double group[MAX_GROUPS][MAX_HOPS]; /* P(δ_g = n) */
    double y, y2;                     /* E[Y], E[Y²] */
    double a, a2;                     /* E[A], E[A²] for A = δ E[T_R] + Σ δ_g E[T_LW,g] + E[L] Y */
};

struct walk {
    const struct topo *t;
    path_next_fn next;
    const unsigned *group_of; /* class -> group */
    const double *wait;       /* group -> E[T_LW] */
    double node_time, mean_length;
};

static bool walk_route(const struct walk *w, uint32_t s, uint32_t d, double p, struct route_sums *acc)
{
    unsigned delta = 0, per_group[MAX_GROUPS] = { 0 };
    double y = 0, a = 0;
    for (uint32_t cur = s; cur != d;) {
        struct hop h = w->next(w->t, cur, d, NULL);
        unsigned g = w->group_of[w->t->ops->channel_class(w->t, h.channel)];
        double inv_bw = 1 / topo_channel_bandwidth(w->t, h.channel);
        if (++delta >= MAX_HOPS)
            return false;
        per_group[g]++;
        y += inv_bw;
        a += w->node_time + w->wait[g] + w->mean_length * inv_bw;
        cur = h.next;
    }
    acc->weight += p;
    acc->hops[delta] += p;
    for (unsigned g = 0; g < MAX_GROUPS; g++)
        acc->group[g][per_group[g]] += p;
    acc->y += p * y;
    acc->y2 += p * y * y;
    acc->a += p * a;
    acc->a2 += p * a * a;
    return true;
}

/* Σ_n P(n) ((n m)² + n v) - (E[n] m)²: the variance of a sum of n independent terms of
 * mean m and variance v, n drawn from P. */
static double random_sum_variance(const double *p, double m, double v)
{
    double sum = 0, mean = 0;
    for (unsigned n = 0; n < MAX_HOPS; n++) {
        sum += p[n] * ((n * m) * (n * m) + n * v);
        mean += p[n] * n;
    }
    return sum - (mean * m) * (mean * m);
}

static double mean_of(const double *p)
{
    double mean = 0;
    for (unsigned n = 0; n < MAX_HOPS; n++)
        mean += p[n] * n;
    return mean;
}

static const char *applies(const struct model_in *in)
{
    const struct config *cfg = in->cfg;
    const struct channel_loads *l = in->loads;
    if (!(in->switching & SWITCH_WHOLE_MESSAGE))
        return "needs store-and-forward switching";
    if ((in->access & (ACCESS_WORK_CONSERVING | ACCESS_FIFO_ORDER)) != (ACCESS_WORK_CONSERVING | ACCESS_FIFO_ORDER))
        return "needs FIFO channels and queues";
    if (cfg->node.service_rate <= 0)
        return "needs node servers (node.service_rate > 0)";
    if (!(in->arrival & ARRIVAL_POISSON))
        return "needs Poisson arrivals";
    if (!(in->length & LENGTH_EXPONENTIAL))
        return "needs exponential message lengths";
    if (!(in->route & ROUTE_DETERMINISTIC) || !in->next)
        return "needs deterministic routing (it walks each pair's one route)";
    if (cfg->run.redraw_length_per_hop)
        return "keeps a message's length on every hop (run.redraw_length_per_hop = false)";
    if (!l->known)
        return l->why;
    for (unsigned c = 0; c < l->topo->classes; c++)
        if (fabs(l->class_rate_max[c] - l->class_rate[c]) > 1e-9 * l->class_rate_max[c])
            return "needs every channel of a class equally loaded";
    double visits = l->message_rate / l->topo->nodes * (1 + l->mean_hops);
    if (fabs(l->node_visit_rate_max - visits) > 1e-9 * visits)
        return "needs every node equally loaded";
    return NULL;
}

static bool predict(const struct model_in *in, struct model_result *out)
{
    const struct config *cfg = in->cfg;
    const struct channel_loads *l = in->loads;
    const char *why = applies(in);
    if (why) {
        snprintf(out->why, sizeof out->why, "md1-mm1-network %.200s", why);
        return false;
    }
    const struct topo *t = l->topo;
    out->model = "md1-mm1-network";
    out->mean_hops = l->mean_hops;
    double m = cfg->workload.mean_length;
    /* Node: M/D/1 with every visit, eqs. 4.6-4.11. */
    double S = 1 / cfg->node.service_rate, rho_n = l->node_visit_rate_max * S;
    out->max_utilization = fmax(l->max_utilization, rho_n);
    if (rho_n >= 1 || l->max_utilization >= 1) {
        out->unstable = true;
        snprintf(out->why, sizeof out->why, "unstable: node utilisation %.4g, channel utilisation %.4g", rho_n,
                 l->max_utilization);
        return true;
    }
    double nw = rho_n * S / (2 * (1 - rho_n));
    double nw2 = rho_n * S * S / (3 * (1 - rho_n)) + (rho_n * S) * (rho_n * S) / (2 * (1 - rho_n) * (1 - rho_n));
    double tr = nw + S, vtr = nw2 - nw * nw;
    /* Channels: M/M/1 per group of classes with the same load, eqs. 4.1-4.5. */
    unsigned group_of[MAX_GROUPS], groups = 0;
    double wait[MAX_GROUPS], wait_var[MAX_GROUPS], group_rate[MAX_GROUPS], group_bw[MAX_GROUPS];
    for (unsigned c = 0; c < t->classes; c++) {
        unsigned g = 0;
        while (g < groups && !(group_rate[g] == l->class_rate[c] && group_bw[g] == t->class_bandwidth[c]))
            g++;
        if (g == groups) {
            double mu = t->class_bandwidth[c] / m, r = l->class_rate[c] / mu;
            group_rate[g] = l->class_rate[c];
            group_bw[g] = t->class_bandwidth[c];
            wait[g] = r / (mu * (1 - r));
            wait_var[g] = 2 * r / (mu * mu * (1 - r) * (1 - r)) - wait[g] * wait[g];
            groups++;
        }
        group_of[c] = g;
    }
    /* Hop distributions by walking the routes. */
    if (!in->prob) {
        snprintf(out->why, sizeof out->why, "md1-mm1-network %.200s", in->dest_why);
        out->model = NULL;
        return false;
    }
    struct route_sums *acc = calloc(1, sizeof *acc);
    struct walk w = { t, in->next, group_of, wait, tr, m };
    bool from_zero = t->transitive && (in->destination & DEST_TRANSLATION_INVARIANT), ok = acc != NULL;
    uint32_t sources = from_zero ? 1 : t->terminals;
    for (uint32_t s = 0; ok && s < sources; s++)
        for (uint32_t d = 0; ok && d < t->terminals; d++) {
            double p = in->prob(in->dest, s, d);
            if (p > 0 && s != d)
                ok = walk_route(&w, s, d, p / sources, acc);
            else if (p > 0)
                ok = false; /* self-addressed messages get no node service: not this model */
        }
    if (!ok) {
        free(acc);
        out->model = NULL;
        snprintf(out->why, sizeof out->why, "md1-mm1-network %s",
                 acc ? "needs destinations other than the source" : "out of memory");
        return false;
    }
    double ed = mean_of(acc->hops);
    double node_mean = (1 + ed) * tr, link_mean = m * acc->y;
    double node_var = vtr + random_sum_variance(acc->hops, tr, vtr);
    double link_var = 2 * m * m * acc->y2 - (m * acc->y) * (m * acc->y); /* L kept: E[L²] = 2 m² */
    for (unsigned g = 0; g < groups; g++) {
        link_mean += mean_of(acc->group[g]) * wait[g];
        link_var += random_sum_variance(acc->group[g], wait[g], wait_var[g]);
    }
    out->node_mean = node_mean;
    out->link_mean = link_mean;
    out->node_variance = node_var;
    out->link_variance = link_var;
    out->delay_mean = node_mean + link_mean;
    out->delay_variance = node_var + link_var;
    /* Conditioning on the route: E[Var | route] + Var(E | route). */
    double within = (1 + ed) * vtr + m * m * acc->y2;
    for (unsigned g = 0; g < groups; g++)
        within += mean_of(acc->group[g]) * wait_var[g];
    out->delay_variance_correlated = within + (acc->a2 - acc->a * acc->a);
    free(acc);
    snprintf(out->why, sizeof out->why, "seed 004's model (M/D/1 nodes and M/M/1 channels with the length kept "
             "on every hop; terms taken as independent)");
    return true;
}

const struct model_ops model_md1_mm1_network = {
    .name = "md1-mm1-network",
    .help = "seed 004's FIFO model: M/D/1 node servers and M/M/1 channels (McHenry 1990, eqs. 4.20-4.51)",
    .predict = predict,
};
