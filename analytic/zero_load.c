/* The zero-load delay: a message alone in the network.  Every engine's delay at zero
 * load is a linear form over the route (sim/core/zero_load.h: a cost per message, per
 * hop, per unit of channel latency, per flit behind the head, per transmission time),
 * so its mean over the workload needs only the mean of each term, and the channel
 * loads give those: a channel carrying λ_c messages per time unit out of γ is on a
 * fraction λ_c / γ of the routes.  So every topology, routing and destination
 * distribution whose loads are known gets it, from the same routes the loads walk.
 * Exact for the form; the tests hold the engines to it at very low load. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model.h"

/* Per channel: 1 when it counts as a hop of the engine's form (terminal links may not). */
static bool mark_terminal_links(const struct topo *t, unsigned char *terminal)
{
    struct hop *hops = malloc((size_t)(t->max_hops ? t->max_hops : 1) * sizeof *hops);
    if (!hops)
        return false;
    for (uint32_t x = 0; x < t->nodes; x++) {
        unsigned n = t->ops->neighbors(t, x, hops, t->max_hops);
        for (unsigned i = 0; i < n; i++)
            if (x < t->terminals || hops[i].next < t->terminals)
                terminal[hops[i].channel] = 1;
    }
    free(hops);
    return true;
}

static double channel_latency(const struct topo *t, const struct zero_load_terms *z, uint32_t c)
{
    unsigned own = t->ops->channel_latency ? t->ops->channel_latency(t, c) : 0;
    return own ? own : z->link_latency;
}

/* The mean over messages of hops, latencies and transmission times the form counts,
 * per message created. */
static bool route_sums(const struct model_in *in, double *hops, double *latency, double *transmission)
{
    const struct topo *t = in->topo;
    const struct channel_loads *l = in->loads;
    const struct zero_load_terms *z = &in->zero_load;
    bool terminals_hang = t->terminals < t->nodes && !z->terminal_links_are_hops;
    unsigned char *terminal = calloc(t->channels, 1);
    double *class_latency = calloc(TOPO_MAX_CLASSES, sizeof *class_latency);
    uint64_t *class_counted = calloc(TOPO_MAX_CLASSES, sizeof *class_counted);
    bool ok = terminal && class_latency && class_counted && (!terminals_hang || mark_terminal_links(t, terminal));
    /* Per class, what its counted channels add up to (classes' loads are uniform when
     * the groups are classes). */
    for (uint32_t c = 0; ok && c < t->channels; c++) {
        unsigned cls = t->ops->channel_class(t, c);
        if (!terminal[c]) {
            class_latency[cls] += channel_latency(t, z, c);
            class_counted[cls]++;
        }
    }
    bool per_channel = !l->by_class;
    double h = 0, d = 0, x = 0;
    for (size_t i = 0; ok && i < l->n_groups; i++) {
        const struct load_group *g = &l->groups[i];
        double crossings = g->rate * (double)g->channels; /* messages per time unit over the group */
        x += crossings * in->cfg->workload.mean_length / g->bandwidth;
        if (per_channel) {
            if (!terminal[i]) {
                h += crossings;
                d += crossings * channel_latency(t, z, (uint32_t)i);
            }
        } else if (g->channels) {
            h += crossings * (double)class_counted[g->cls] / (double)g->channels;
            d += g->rate * class_latency[g->cls];
        }
    }
    free(terminal);
    free(class_latency);
    free(class_counted);
    *hops = h / l->message_rate;
    *latency = d / l->message_rate;
    *transmission = x / l->message_rate;
    return ok;
}

/* The fraction of messages a source addresses to itself, over every terminal. */
static double self_addressed(const struct model_in *in)
{
    double sum = 0;
    for (uint32_t s = 0; s < in->topo->terminals; s++)
        sum += in->prob(in->dest, s, s);
    return sum / in->topo->terminals;
}

bool zero_load_delay(const struct model_in *in, double *delay, char *why, size_t why_size)
{
    const struct zero_load_terms *z = &in->zero_load;
    const struct channel_loads *l = in->loads;
    const char *reason = NULL;
    double wait = NAN;
    if (in->reply.on)
        reason = "request-reply: requests and replies have lengths of their own";
    else if (!in->has_zero_load)
        reason = in->zero_load_why;
    else if (!l || !l->known)
        reason = l ? l->why : "no channel loads";
    else if (!(in->access & ACCESS_WORK_CONSERVING))
        reason = "needs channels that never idle while a message waits (protocol.link = fifo)";
    else if (!in->prob)
        reason = in->dest_why;
    else if (z->wait_integer == z->wait_continuous)
        wait = z->wait_integer;
    else if (in->arrival & ARRIVAL_WHOLE_TIMES)
        wait = z->wait_integer;
    else if (in->arrival & ARRIVAL_POISSON)
        wait = z->wait_continuous;
    else
        reason = "needs arrivals at whole time units (bernoulli, on-off) or Poisson arrivals";
    double flits = in->mean_flits;
    if (!reason && z->per_flit != 0 && isnan(flits))
        reason = "the length distribution gives no mean number of flits";
    if (!reason && z->streaming_flits_max != UINT32_MAX &&
        (!(in->length & LENGTH_FIXED) || flits > z->streaming_flits_max))
        reason = "the buffers do not cover the credits' round trip, so a long message's flits do not stream";
    double hops = 0, latency = 0, transmission = 0;
    if (!reason && !route_sums(in, &hops, &latency, &transmission))
        reason = "out of memory";
    if (reason) {
        snprintf(why, why_size, "%s", reason);
        return false;
    }
    double self = self_addressed(in), alone = z->per_message + z->per_flit * (flits - 1) + wait;
    *delay = alone * (in->takes_self_addressed ? 1 : 1 - self) + z->per_hop * hops + latency +
             z->per_transmission * transmission;
    return true;
}

static bool predict(const struct model_in *in, struct model_result *out)
{
    double delay;
    char why[200];
    if (!zero_load_delay(in, &delay, why, sizeof why)) {
        snprintf(out->why, sizeof out->why, "zero-load %s", why);
        return false;
    }
    out->model = "zero-load";
    out->exact = true;
    model_add(out, "delay_mean", delay);
    return true;
}

const struct model_ops model_zero_load = {
    .name = "zero-load",
    .help = "the engine's delay of a message alone in the network, over the routes of the destination distribution",
    .predict = predict,
};
