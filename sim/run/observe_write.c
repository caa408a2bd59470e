/* The observer's files (see observe.h and docs/manual.md, "Looking inside one run"):
 * CSV with a header line, one row per channel, node, histogram bin or interval; a
 * figure that does not exist (an engine that keeps no such figure, an empty window) is
 * an empty field, never 0. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "network.h"
#include "observe.h"

/* A number, or nothing when it does not exist. */
static void number(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.10g", x);
}

static double window_of(const struct network *net)
{
    const struct probe *p = &net->probe;
    return p->window_end - p->window_start;
}

/* --- --channels --- */

/* Channel ch's two ends: a link direction's sender and the node it leads to; a
 * half-duplex link's two ends, lower first; a bus has none (its senders are counted). */
static unsigned channel_ends(const struct topo *t, uint32_t ch, uint32_t *senders, struct hop *hops, uint32_t *from,
                             uint32_t *to)
{
    unsigned n = t->ops->senders(t, ch, senders, t->nodes);
    *from = *to = UINT32_MAX;
    if (t->kind == CHANNEL_BUS || n == 0)
        return n;
    *from = senders[0];
    if (t->kind == CHANNEL_HALF_DUPLEX && n > 1) {
        *to = senders[1];
        return n;
    }
    unsigned k = t->ops->neighbors(t, *from, hops, t->max_hops);
    for (unsigned i = 0; i < k; i++)
        if (hops[i].channel == ch)
            *to = hops[i].next;
    return n;
}

static void node_field(FILE *f, uint32_t v)
{
    if (v != UINT32_MAX)
        fprintf(f, "%u", v);
}

bool observe_write_channels(FILE *f, const struct observe *o, const struct network *net)
{
    const struct topo *t = &net->topo;
    uint32_t *senders = malloc((size_t)t->nodes * sizeof *senders);
    struct hop *hops = malloc(((size_t)t->max_hops + 1) * sizeof *hops);
    if (!senders || !hops) {
        free(senders);
        free(hops);
        errno = ENOMEM;
        return false;
    }
    static const char *const kinds[] = { "link", "half-duplex", "bus" };
    double window = window_of(net);
    void (*figures)(const void *, uint32_t, struct channel_figures *) = net->engine->channel_figures;
    fputs("channel,kind,from,to,senders,class,dimension,utilization,queue_mean,wait_mean,blocking,requests\n", f);
    for (uint32_t ch = 0; ch < t->channels; ch++) {
        uint32_t from, to;
        unsigned n = channel_ends(t, ch, senders, hops, &from, &to);
        char cls[32];
        t->ops->class_name(t, t->ops->channel_class(t, ch), cls, sizeof cls);
        fprintf(f, "%u,%s,", ch, kinds[t->kind]);
        node_field(f, from);
        fputc(',', f);
        node_field(f, to);
        fprintf(f, ",%u,%s,", n, cls);
        if (t->ops->channel_dimension)
            fprintf(f, "%u", t->ops->channel_dimension(t, ch));
        fputc(',', f);
        /* As the report computes it (sim/run/collect.c), so the mean of this column is its mean. */
        number(f, window > 0 ? net->chan[ch].busy_time / window : NAN);
        struct channel_figures c = { NAN, NAN, NAN, NAN };
        if (figures) {
            figures(net->engine_state, ch, &c);
        } else if (o->chan && o->inner_self) { /* the wrapped access protocol's requests and grants */
            const struct observe_channel *w = &o->chan[ch];
            c.requests = (double)w->grants;
            c.queue_mean = window > 0 ? w->area / window : NAN;
            c.wait_mean = w->grants ? w->wait_sum / (double)w->grants : NAN;
            c.blocking = w->grants ? (double)w->waited / (double)w->grants : NAN;
        }
        fputc(',', f);
        number(f, c.queue_mean);
        fputc(',', f);
        number(f, c.wait_mean);
        fputc(',', f);
        number(f, c.blocking);
        fputc(',', f);
        number(f, c.requests);
        fputc('\n', f);
    }
    free(senders);
    free(hops);
    return true;
}

/* --- --nodes --- */

bool observe_write_nodes(FILE *f, const struct observe *o, const struct network *net)
{
    double window = window_of(net);
    fputs("node,offered,offered_rate,delivered_as_source,delay_mean_as_source,delivered_as_destination,"
          "delay_mean_as_destination,refused,backlog_end\n",
          f);
    for (uint32_t v = 0; v < o->nodes; v++) {
        const struct observe_node *n = &o->node[v];
        fprintf(f, "%u,%llu,", v, (unsigned long long)n->offered);
        number(f, window > 0 ? (double)n->offered / window : NAN);
        fprintf(f, ",%llu,", (unsigned long long)n->as_source);
        number(f, n->as_source ? n->delay_source / (double)n->as_source : NAN);
        fprintf(f, ",%llu,", (unsigned long long)n->as_dest);
        number(f, n->as_dest ? n->delay_dest / (double)n->as_dest : NAN);
        fprintf(f, ",%llu,%llu\n", (unsigned long long)n->refused, (unsigned long long)(n->created - n->finished));
    }
    return true;
}

/* --- --histogram --- */

/* Bins for a readable picture: the statistics' 1% log bins (sim/core/stats.h), whole
 * groups of them, so that at most HISTOGRAM_BINS cover the smallest to the largest
 * measured delay; exact zeros (self-addressed messages) are a first row 0,0. */
enum { HISTOGRAM_BINS = 100 };

bool observe_write_histogram(FILE *f, const struct network *net)
{
    const struct sample_stats *s = &net->probe.delay;
    const gsl_histogram *h = s->hist;
    fputs("lower,upper,count,cumulative\n", f);
    if (s->count == 0)
        return true;
    double total = (double)s->count, below = 0;
    if (s->zeros) {
        below = (double)s->zeros;
        fprintf(f, "0,0,%llu,", (unsigned long long)s->zeros);
        number(f, below / total);
        fputc('\n', f);
    }
    size_t lo = h->n, hi = 0;
    for (size_t i = 0; i < h->n; i++)
        if (h->bin[i] > 0) {
            if (lo == h->n)
                lo = i;
            hi = i;
        }
    if (lo == h->n)
        return true;
    size_t group = (hi - lo + HISTOGRAM_BINS) / HISTOGRAM_BINS; /* ceil((hi - lo + 1) / HISTOGRAM_BINS) */
    for (size_t i = lo; i <= hi; i += group) {
        size_t end = i + group <= hi + 1 ? i + group : hi + 1;
        double count = 0;
        for (size_t j = i; j < end; j++)
            count += h->bin[j];
        below += count;
        number(f, h->range[i]);
        fputc(',', f);
        number(f, h->range[end]);
        fprintf(f, ",%.0f,", count);
        number(f, below / total);
        fputc('\n', f);
    }
    return true;
}

/* --- --series --- */

bool observe_write_series(FILE *f, struct observe *o, const struct network *net)
{
    observe_series_finish(o, net->kernel.now > net->probe.window_end ? net->kernel.now : net->probe.window_end);
    fputs("start,end,window,delivered,measured,throughput,delay_mean,backlog\n", f);
    for (uint32_t i = 0; i < o->bins; i++) {
        const struct observe_bin *b = &o->bin[i];
        double span = b->end - b->start;
        number(f, b->start);
        fputc(',', f);
        number(f, b->end);
        fprintf(f, ",%d,%llu,%llu,", b->window, (unsigned long long)b->delivered, (unsigned long long)b->measured);
        number(f, span > 0 ? (double)b->delivered / span / o->nodes : NAN);
        fputc(',', f);
        number(f, b->delivered ? b->delay_sum / (double)b->delivered : NAN);
        fprintf(f, ",%u\n", b->backlog);
    }
    return true;
}

/* --- all of them --- */

/* Writes one file with `write`; false with one line naming the option. */
static bool write_one(const char *path, const char *option, struct observe *o, const struct network *net,
                      bool (*write)(FILE *, struct observe *, const struct network *))
{
    if (!path)
        return true;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "sim: %s: cannot write: %s\n", option, strerror(errno));
        return false;
    }
    bool ok = write(f, o, net);
    ok = !ferror(f) && ok;
    int saved = errno;
    ok = fclose(f) == 0 && ok;
    if (!ok)
        fprintf(stderr, "sim: %s: cannot write: %s\n", option, strerror(saved ? saved : errno));
    return ok;
}

static bool channels(FILE *f, struct observe *o, const struct network *net)
{
    return observe_write_channels(f, o, net);
}

static bool nodes(FILE *f, struct observe *o, const struct network *net) { return observe_write_nodes(f, o, net); }

static bool histogram(FILE *f, struct observe *o, const struct network *net)
{
    (void)o;
    return observe_write_histogram(f, net);
}

bool observe_write(struct observe *o, const struct network *net)
{
    const struct run_files *files = &net->cfg->files;
    return write_one(files->channels, "--channels", o, net, channels) &&
           write_one(files->nodes, "--nodes", o, net, nodes) &&
           write_one(files->histogram, "--histogram", o, net, histogram) &&
           write_one(files->series, "--series", o, net, observe_write_series);
}
