/* Seed 000's models (Dandamudi & Eager) read from a config: the static figures (L, P,
 * LP ratio) for the flat hypercube with cluster-locality and for the two-level
 * networks bh-bh, bh-br, bh-cc, bh-ccc; and, when the run matches the seed's
 * assumptions, the M/M/1 network's mean delay R, the LR ratio, the per-level link
 * utilisations and Fig. 7's replication rule.  The formulas are in hin_formulas.c.
 *
 * The queueing part assumes random shortest-path routing (eq. 16 spreads a level's
 * intercluster load evenly over its links).  On the flat hypercube every minimal
 * routing gives the same per-link loads, so it also applies to ecube there (and then
 * equals mm1-network); on a hierarchical network it needs routing = random-minimal.
 * Figures do not depend on run length or seed.
 *
 * Its R is a mean over M/M/1 links, so of the channels it relies on what mm1-network
 * does (in->access): work-conserving links (ACCESS_WORK_CONSERVING) whose order
 * ignores lengths (ACCESS_ORDER_BLIND_TO_LENGTH), and FIFO order
 * (ACCESS_FIFO_ORDER) only for the exact claim. */
#include <math.h>
#include <stdio.h>

#include "hin_formulas.h"
#include "model.h"

/* Fig. 7's bound on level-2 utilisation (T11). */
#define FIG7_TARGET_UTILIZATION 0.8

static bool read_net(const struct model_in *in, struct hin_net *h, const char **why)
{
    /* The seed's networks by what the topology is: flat, or which level-2 network. */
    static const struct {
        unsigned traits;
        enum hin_kind kind;
    } kinds[] = { { TOPO_BINARY_HYPERCUBE, HIN_FLAT_BH },
                  { TOPO_HYPERCUBE_CLUSTERS | TOPO_LEVEL2_HYPERCUBE, HIN_BH },
                  { TOPO_HYPERCUBE_CLUSTERS | TOPO_LEVEL2_RING, HIN_BR },
                  { TOPO_HYPERCUBE_CLUSTERS | TOPO_LEVEL2_COMPLETE, HIN_CC },
                  { TOPO_HYPERCUBE_CLUSTERS | TOPO_LEVEL2_CCC, HIN_CCC } };
    const struct config *cfg = in->cfg;
    unsigned traits = in->topo->ops->traits;
    int64_t D = cfg->network.dimension, d = cfg_int(cfg, "network.cluster_dimension");
    size_t i = 0;
    while (i < sizeof kinds / sizeof kinds[0] && (traits & kinds[i].traits) != kinds[i].traits)
        i++;
    if (i == sizeof kinds / sizeof kinds[0]) {
        *why = "needs a binary hypercube or a hierarchical network bh-*";
        return false;
    }
    if (!(in->destination & DEST_CLUSTER_LOCALITY)) {
        *why = "needs the cluster-locality destinations";
        return false;
    }
    if (d > D || d > HIN_MAX_CLUSTER_DIMENSION || D > 62) {
        *why = "needs cluster_dimension <= dimension <= 62, cluster_dimension <= 30";
        return false;
    }
    *h = hin_net_cube(kinds[i].kind, (unsigned)D, (unsigned)d);
    if (kinds[i].kind == HIN_CCC) {
        unsigned dc = 1;
        while (dc < 32 && ldexp(dc, (int)dc) < h->clusters)
            dc++;
        if (ldexp(dc, (int)dc) != h->clusters) {
            *why = "needs 2^(dimension - cluster_dimension) = D_c 2^D_c clusters for bh-ccc";
            return false;
        }
        *h = hin_net_ccc((unsigned)d, dc);
    }
    h->replication = (double)cfg_int(cfg, "network.level2_replication");
    return true;
}

/* Why the queueing part does not apply, or NULL. */
static const char *queue_mismatch(const struct model_in *in, const struct hin_net *h)
{
    const struct config *cfg = in->cfg;
    if (!(in->switching & SWITCH_WHOLE_MESSAGE))
        return "R needs store-and-forward switching";
    if ((in->access & (ACCESS_WORK_CONSERVING | ACCESS_ORDER_BLIND_TO_LENGTH)) !=
        (ACCESS_WORK_CONSERVING | ACCESS_ORDER_BLIND_TO_LENGTH))
        return "R needs FIFO channels and queues";
    if (cfg->node.service_rate > 0)
        return "R needs node.service_rate = 0";
    if (!(in->arrival & ARRIVAL_POISSON))
        return "R needs Poisson arrivals";
    if (!(in->length & LENGTH_EXPONENTIAL))
        return "R needs exponential message lengths";
    if (in->topo->kind != CHANNEL_LINK_DIRECTION) /* these networks have links, not buses */
        return "R needs full-duplex links";
    bool random = in->route & ROUTE_UNIFORM_SPLIT;
    /* on the flat hypercube ecube loads every link of a dimension alike too */
    if (!random && !(h->kind == HIN_FLAT_BH && (in->route & ROUTE_DIMENSION_ORDER)))
        return "R assumes random shortest-path routing (routing.algorithm = random-minimal)";
    return NULL;
}

static bool predict(const struct model_in *in, struct model_result *out)
{
    const struct config *cfg = in->cfg;
    const struct channel_loads *loads = in->loads;
    struct hin_net h;
    const char *why = NULL;
    if (!read_net(in, &h, &why)) {
        snprintf(out->why, sizeof out->why, "hin %s", why);
        return false;
    }
    double alpha = cfg_real(cfg, "workload.locality");
    struct hin_net ref = hin_reference(&h);
    model_add(out, "links", hin_links(&h));
    model_add(out, "links.bh", hin_links(&ref));
    model_add(out, "distance.level2", hin_level2_distance(&h));
    model_add(out, "distance.mean", hin_distance(&h, alpha));
    model_add(out, "distance.bh", hin_distance(&ref, alpha));
    model_add(out, "lp_ratio", hin_lp_ratio(&h, alpha));

    why = queue_mismatch(in, &h);
    if (why) {
        snprintf(out->why, sizeof out->why, "hin: static figures only; %s", why);
        return true;
    }
    double lambda = cfg_message_rate(cfg), mean = cfg->workload.mean_length;
    double mu_cl = cfg->network.bandwidth / mean;
    double level2_bandwidth = cfg_real(cfg, "network.level2_bandwidth");
    double wire = level2_bandwidth > 0 ? level2_bandwidth : cfg->network.bandwidth;
    double replication = (double)cfg_int(cfg, "network.level2_replication");
    double mu_ncl = h.kind == HIN_FLAT_BH ? mu_cl : wire * replication / mean;
    struct hin_queue q, qref;
    hin_queue(&h, alpha, lambda, mu_cl, mu_ncl, &q);
    hin_queue(&ref, alpha, lambda, mu_cl, mu_cl, &qref);
    /* With exact channel loads mm1-network (registered first) is the delay model, and
     * R, P and the busiest link are this model's figures; without them (random
     * routing before loads covered it) this is the delay model and the registry adds
     * them.  Either way each appears once, under the report field it predicts. */
    if (loads->known) {
        if (!q.unstable)
            model_add(out, "delay.mean", q.delay);
        model_add(out, "hops_mean", hin_distance(&h, alpha));
        model_add(out, "channels.utilization_max", q.max_utilization);
    } else {
        out->mean_hops = hin_distance(&h, alpha);
        out->max_utilization = q.max_utilization;
        out->unstable = q.unstable;
        out->exact = cfg->run.redraw_length_per_hop && (in->access & ACCESS_FIFO_ORDER) && h.kind != HIN_CCC;
        if (!q.unstable)
            out->delay_mean = q.delay;
    }
    if (!qref.unstable)
        model_add(out, "delay.bh", qref.delay);
    if (!q.unstable && !qref.unstable)
        model_add(out, "lr_ratio", hin_lr_ratio(&h, alpha, lambda, mu_cl, mu_ncl));
    char name[48];
    if (h.kind == HIN_FLAT_BH) {
        model_add(out, "utilization.cluster", h.d ? q.cluster_utilization[1] : 0);
        model_add(out, "utilization.noncluster", q.level2_utilization);
    } else {
        for (unsigned j = 1; j <= h.d; j++) {
            snprintf(name, sizeof name, "utilization.cluster_j%u", j);
            model_add(out, name, q.cluster_utilization[j]);
        }
        model_add(out, "utilization.level2", q.level2_utilization);
        model_add(out, "replication.below_80", hin_replication_below(&h, alpha, lambda, wire / mean,
                                                                      FIG7_TARGET_UTILIZATION));
    }
    if (q.unstable)
        snprintf(out->why, sizeof out->why, "hin: unstable: a link's utilisation reaches %.4g", q.max_utilization);
    else if (h.kind == HIN_CCC)
        snprintf(out->why, sizeof out->why, "hin: seed 000 eq. 21 (Wittie's CCC distance, level-2 load spread "
                 "evenly): an approximation for bh-ccc");
    else
        snprintf(out->why, sizeof out->why, "hin: seed 000 eqs. 15-20 (M/M/1 links, random shortest paths)%s",
                 out->exact ? ", exact with lengths re-drawn per hop"
                 : !cfg->run.redraw_length_per_hop ? ", Kleinrock's independence approximation"
                                                   : ", each link's M/M/1 mean, which its length-blind order keeps");
    return true;
}

const struct model_ops model_hin = {
    .name = "hin",
    .help = "seed 000 (Dandamudi & Eager): links, mean distance, LP ratio; M/M/1 delay R, LR ratio and per-level "
            "utilisations of the hypercube and the bh-* hierarchical networks",
    .predict = predict,
};
