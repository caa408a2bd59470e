/* Kleinrock's open network of M/M/1 channel queues.  Each channel c with message
 * rate λ_c and mean transmission time x̄_c holds a message for x̄_c / (1 - λ_c x̄_c)
 * on average, and by Little's law the mean delay over all γ messages is
 * T = (1/γ) Σ_c λ_c x̄_c / (1 - λ_c x̄_c).  Exact (a product-form network: FIFO,
 * exponential service of one rate per channel) when the length is re-drawn at every
 * hop; Kleinrock's independence approximation when a message keeps its length.
 *
 * What it relies on of the channels (in->access): a channel is one server that never
 * idles while a message waits (ACCESS_WORK_CONSERVING), and picks the next message
 * without looking at the waiting messages' lengths (ACCESS_ORDER_BLIND_TO_LENGTH).
 * Then, with exponential service, the number of messages at a channel evolves as
 * under FIFO whichever message it picks, so its mean, and by Little's law the mean
 * delay, are the M/M/1 ones; an order by length (shortest-first) changes them.  FIFO
 * order itself (ACCESS_FIFO_ORDER) is needed only for the exact claim: the product
 * form of the whole network is FIFO's (BCMP); under another length-blind order the
 * formula is each channel's exact mean with the independence approximation between
 * channels. */
#include <stdio.h>

#include "model.h"

static bool predict(const struct model_in *in, struct model_result *out)
{
    const struct config *cfg = in->cfg;
    const struct channel_loads *l = in->loads;
    const char *why = NULL;
    if (!(in->switching & SWITCH_WHOLE_MESSAGE))
        why = "needs store-and-forward switching";
    else if (!(in->access & ACCESS_WORK_CONSERVING)) /* the setting that gives it: protocol.link = fifo */
        why = "needs FIFO channels";
    else if (!(in->access & ACCESS_ORDER_BLIND_TO_LENGTH)) /* the one setting that always gives it */
        why = "needs first-come-first-served queues (protocol.priority = fifo)";
    else if (cfg->node.service_rate > 0)
        why = "has no node servers (node.service_rate = 0)";
    else if (!(in->arrival & ARRIVAL_POISSON))
        why = "needs Poisson arrivals";
    else if (!(in->length & LENGTH_EXPONENTIAL))
        why = "needs exponential message lengths";
    else if (!l->known)
        why = l->why;
    if (why) {
        snprintf(out->why, sizeof out->why, "mm1-network %.200s", why);
        return false;
    }
    out->model = "mm1-network";
    out->exact = cfg->run.redraw_length_per_hop && (in->access & ACCESS_FIFO_ORDER);
    out->mean_hops = l->mean_hops;
    out->max_utilization = l->max_utilization;
    if (l->max_utilization >= 1) {
        out->unstable = true;
        snprintf(out->why, sizeof out->why, "unstable: a channel's utilisation reaches %.4g", l->max_utilization);
        return true;
    }
    double sum = 0;
    for (size_t i = 0; i < l->n_groups; i++) {
        const struct load_group *g = &l->groups[i];
        double x = cfg->workload.mean_length / g->bandwidth;
        sum += (double)g->channels * g->rate * x / (1 - g->rate * x);
    }
    out->delay_mean = sum / l->message_rate;
    snprintf(out->why, sizeof out->why, "%s",
             out->exact ? "exact: lengths re-drawn per hop make a product-form network"
             : !cfg->run.redraw_length_per_hop
                 ? "Kleinrock's independence approximation (lengths kept along the path)"
                 : "each channel's M/M/1 mean, which its length-blind order keeps; the network is product-form "
                   "only in FIFO order");
    return true;
}

const struct model_ops model_mm1_network = {
    .name = "mm1-network",
    .help = "open network of M/M/1 channel queues (Kleinrock; Jackson/BCMP with per-hop re-draw)",
    .predict = predict,
};
