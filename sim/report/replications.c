/* Folding replications into one report: every figure averaged over the replications
 * (counts and times summed, minima and maxima kept), and the across-replication
 * Student t intervals of the mean, standard deviation and maximum. */
#include "report.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

static void average_in(double *acc, double x, unsigned k) { *acc += (x - *acc) / (double)(k + 1); }

void report_add_replication(struct run_report *acc, const struct run_report *one, unsigned k)
{
    double figures[3] = { one->delay.mean, one->delay.stddev, one->delay.max };
    if (k == 0) {
        *acc = *one;
        memset(acc->rep_moments, 0, sizeof acc->rep_moments);
    }
    for (int i = 0; i < 3; i++)
        moments_add(&acc->rep_moments[i], figures[i]);
    if (k == 0)
        return;
    struct stats_summary *d = &acc->delay;
    const struct stats_summary *o = &one->delay;
    double *avg[] = { &d->mean, &d->variance, &d->stddev, &d->max, &d->p50, &d->p90, &d->p99, &d->p999,
                      &acc->node_mean, &acc->node_variance, &acc->link_mean, &acc->link_variance,
                      &acc->node_utilization_mean, &acc->node_utilization_max, &acc->throughput, &acc->hops_mean,
                      &acc->utilization_mean, &acc->utilization_max, &acc->simulated_time, &acc->window,
                      &acc->warmup_time, &acc->backlog_start, &acc->backlog_end };
    const double src[] = { o->mean, o->variance, o->stddev, o->max, o->p50, o->p90, o->p99, o->p999,
                           one->node_mean, one->node_variance, one->link_mean, one->link_variance,
                           one->node_utilization_mean, one->node_utilization_max, one->throughput, one->hops_mean,
                           one->utilization_mean, one->utilization_max, one->simulated_time, one->window,
                           one->warmup_time, one->backlog_start, one->backlog_end };
    for (size_t i = 0; i < sizeof src / sizeof src[0]; i++)
        average_in(avg[i], src[i], k);
    struct backtracking_report *b = &acc->bt;
    const struct backtracking_report *ob = &one->bt;
    double *bt_avg[] = { &b->cycles, &b->generated, &b->accepted, &b->rejected, &b->acceptance, &b->throughput,
                         &b->throughput_per_node, &b->occupancy_mean, &b->full_fraction, &b->backtrack_fraction,
                         &b->forced_fraction, &b->forward_probability, &b->backtrack_probability, &b->in_network,
                         &b->power };
    const double bt_src[] = { ob->cycles, ob->generated, ob->accepted, ob->rejected, ob->acceptance, ob->throughput,
                              ob->throughput_per_node, ob->occupancy_mean, ob->full_fraction, ob->backtrack_fraction,
                              ob->forced_fraction, ob->forward_probability, ob->backtrack_probability,
                              ob->in_network, ob->power };
    for (size_t i = 0; i < sizeof bt_src / sizeof bt_src[0]; i++)
        average_in(bt_avg[i], bt_src[i], k);
    b->delivered_run += ob->delivered_run;
    for (unsigned c = 0; c < acc->classes; c++) {
        average_in(&acc->cls[c].utilization_mean, one->cls[c].utilization_mean, k);
        average_in(&acc->cls[c].utilization_max, one->cls[c].utilization_max, k);
        average_in(&acc->cls[c].blocking, one->cls[c].blocking, k);
        average_in(&acc->cls[c].blocked_cycles, one->cls[c].blocked_cycles, k);
    }
    if (one->flit.on) {
        struct flit_report *a = &acc->flit;
        const struct flit_report *o = &one->flit;
        double *fa[] = { &a->blocking, &a->blocking_max, &a->blocked_cycles_mean, &a->acceptance,
                         &a->throughput_flits, &a->backlog_start, &a->backlog_end };
        const double fo[] = { o->blocking, o->blocking_max, o->blocked_cycles_mean, o->acceptance,
                              o->throughput_flits, o->backlog_start, o->backlog_end };
        for (size_t i = 0; i < sizeof fo / sizeof fo[0]; i++)
            average_in(fa[i], fo[i], k);
        if (o->saturated && !a->saturated) {
            a->saturated = true;
            snprintf(a->note, sizeof a->note, "%s", o->note);
        }
        if (a->saturated)
            d->mean = NAN;
    }
    if (o->min < d->min)
        d->min = o->min;
    d->count += o->count;
    acc->messages_created += one->messages_created;
    acc->events += one->events;
    acc->wall_seconds += one->wall_seconds;
    acc->events_per_second = acc->wall_seconds > 0 ? (double)acc->events / acc->wall_seconds : NAN;
    if (one->interrupted) {
        acc->interrupted = true;
        acc->stop_reason = one->stop_reason;
    }
    acc->replications = k + 1;
}

void report_finish_replications(struct run_report *acc)
{
    if (acc->replications < 2)
        return;
    struct replication_spread *out[3] = { &acc->rep_mean, &acc->rep_stddev, &acc->rep_max };
    double n = (double)acc->replications;
    double t = gsl_cdf_tdist_Pinv(0.975, n - 1);
    for (int i = 0; i < 3; i++) {
        const struct moments *m = &acc->rep_moments[i];
        double sd = sqrt(moments_variance(m)), half = t * sd / sqrt(n);
        *out[i] = (struct replication_spread){ m->mean, sd, { m->mean - half, m->mean + half } };
    }
    /* The replications' means are independent: their interval replaces batch means. */
    acc->delay.ci95[0] = acc->rep_mean.ci95[0];
    acc->delay.ci95[1] = acc->rep_mean.ci95[1];
    acc->delay.batch_correlation = NAN;
    acc->delay.batches_used = 0;
}

/* --- value formatting shared by the three formats --- */
