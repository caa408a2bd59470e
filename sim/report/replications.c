/* Folding replications into one report: every figure averaged over the replications
 * (counts and times summed, minima and maxima kept; the engine's named figures by
 * their hints), and the across-replication Student t intervals of the mean, standard
 * deviation and maximum. */
#include "report.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void average_in(double *acc, double x, unsigned k) { *acc += (x - *acc) / (double)(k + 1); }

/* The engine's figures, by their hints: numbers averaged (totals added up), flags true
 * when true in any replication, a note kept from the first replication that has one.
 * Every replication of a config reports the same figures in the same order. */
static void fold_figures(struct figures *acc, const struct figures *one, unsigned k)
{
    for (unsigned i = 0; i < acc->n && i < one->n; i++) {
        struct figure *a = &acc->item[i];
        const struct figure *o = &one->item[i];
        switch (a->kind) {
        case FIGURE_NUMBER:
            if (a->hints & FIGURE_TOTAL)
                a->value += o->value;
            else
                average_in(&a->value, o->value, k);
            break;
        case FIGURE_FLAG:
            a->value = a->value || o->value;
            break;
        case FIGURE_TEXT:
            if (!a->text[0])
                snprintf(a->text, sizeof a->text, "%s", o->text);
            break;
        case FIGURE_LINE:
            break;
        }
    }
}

void report_add_replication(struct run_report *acc, const struct run_report *one, unsigned k)
{
    double figures[3] = { one->delay.mean, one->delay.stddev, one->delay.max };
    double quantiles[STATS_QUANTILE_CIS] = { one->delay.p50, one->delay.p90, one->delay.p99 };
    if (k == 0) {
        *acc = *one;
        memset(acc->rep_moments, 0, sizeof acc->rep_moments);
        memset(acc->rep_quantiles, 0, sizeof acc->rep_quantiles);
    }
    for (int i = 0; i < 3; i++)
        moments_add(&acc->rep_moments[i], figures[i]);
    for (int i = 0; i < STATS_QUANTILE_CIS; i++)
        moments_add(&acc->rep_quantiles[i], quantiles[i]);
    if (k == 0)
        return;
    /* The target is met when every replication met it. */
    if (acc->precision_met == 1 && one->precision_met != 1)
        acc->precision_met = 0;
    acc->warmup_unsettled |= one->warmup_unsettled;
    struct stats_summary *d = &acc->delay;
    const struct stats_summary *o = &one->delay;
    double *avg[] = { &d->mean, &d->variance, &d->stddev, &d->max, &d->p50, &d->p90, &d->p99, &d->p999,
                      &acc->node_mean, &acc->node_variance, &acc->link_mean, &acc->link_variance,
                      &acc->node_utilization_mean, &acc->node_utilization_max, &acc->throughput, &acc->hops_mean,
                      &acc->utilization_mean, &acc->utilization_max, &acc->simulated_time, &acc->window,
                      &acc->warmup_time, &acc->backlog_start, &acc->backlog_end, &acc->warmup_messages };
    const double src[] = { o->mean, o->variance, o->stddev, o->max, o->p50, o->p90, o->p99, o->p999,
                           one->node_mean, one->node_variance, one->link_mean, one->link_variance,
                           one->node_utilization_mean, one->node_utilization_max, one->throughput, one->hops_mean,
                           one->utilization_mean, one->utilization_max, one->simulated_time, one->window,
                           one->warmup_time, one->backlog_start, one->backlog_end, one->warmup_messages };
    for (size_t i = 0; i < sizeof src / sizeof src[0]; i++)
        average_in(avg[i], src[i], k);
    fold_figures(&acc->figures, &one->figures, k);
    if (one->stability.saturated && !acc->stability.saturated) /* saturated in any replication */
        acc->stability = one->stability;
    acc->delivered_total += one->delivered_total;
    for (unsigned c = 0; c < acc->classes; c++) {
        average_in(&acc->cls[c].utilization_mean, one->cls[c].utilization_mean, k);
        average_in(&acc->cls[c].utilization_max, one->cls[c].utilization_max, k);
    }
    if (report_delay_withheld(acc)) /* a mean of a growing quantity means nothing */
        d->mean = NAN;
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
    for (int q = 0; q < STATS_QUANTILE_CIS; q++) { /* likewise each replication's quantile */
        const struct moments *m = &acc->rep_quantiles[q];
        double half = t * sqrt(moments_variance(m) / n);
        acc->delay.quantile_ci95[q][0] = m->mean - half;
        acc->delay.quantile_ci95[q][1] = m->mean + half;
    }
    report_set_precision(acc);
}

void report_set_precision(struct run_report *r)
{
    double half = (r->delay.ci95[1] - r->delay.ci95[0]) / 2;
    r->precision_reached = r->delay.mean != 0 ? half / fabs(r->delay.mean) : NAN;
    r->precision_batches = r->replications > 1 || r->delay.batches_used == 0 ? NAN : r->delay.batches_used;
}

/* --- value formatting shared by the three formats --- */
