/* Looking inside one run: the per-channel, per-node, histogram and time-series files
 * (sim --channels, --nodes, --histogram, --series), collected beside the report.
 *
 * Promise: observe_create() is called only when cfg->files asks for something (a run
 * without these options has no observer: its hooks are a NULL test, and its output is
 * byte for byte the same with or without them, since nothing here draws a random
 * number, schedules an event or changes what the engines see).  While the run goes, the
 * network calls observe_created() for each message it creates and the engine's tap
 * (engine_env.tap) reports each delivery and refusal; with --channels on an engine that
 * takes channel grants (store-and-forward), the access protocol is wrapped
 * (observe_access_ops) so that each request and grant is timed.  After the run,
 * observe_write() writes each asked-for file to the path in cfg->files (the caller's
 * temporary file: sim/cli commits or discards them all).
 *  - A delivery counts for a node's delay when the probe measures it (message mode:
 *    its number is measured; time mode: the window is open), so the per-node counts
 *    sum to the report's measured count and their weighted mean delay is its mean.
 *  - The series covers the whole run in intervals of series_interval (default: the
 *    expected window over 100), restarted at the window's opening so that no interval
 *    straddles it; an interval's backlog is the messages in flight at its end.  Past
 *    OBSERVE_SERIES_MAX intervals the interval doubles (neighbours merged).
 * Needs: the run (network.h), the probe's window, the topology and the engine's
 * optional channel_figures.
 */
#ifndef SIM_RUN_OBSERVE_H
#define SIM_RUN_OBSERVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../protocols/protocol.h"
#include "../../routing/engine.h"
#include "../../topo/topo.h"
#include "../core/probe.h"

enum { OBSERVE_SERIES_MAX = 1 << 16 };

struct network;

/* Per node, over the whole run unless said otherwise. */
struct observe_node {
    uint64_t offered;               /* created here while the window was open */
    uint64_t created, finished;     /* created here; of those, delivered or refused */
    uint64_t refused;               /* refused at this source, inside the window */
    uint64_t as_source, as_dest;    /* measured deliveries from and to this node */
    double delay_source, delay_dest; /* their delays' sums */
};

/* One interval of the series: [start, end). */
struct observe_bin {
    double start, end;
    uint64_t delivered, measured; /* every delivery; those the probe measured */
    double delay_sum;             /* of every delivery */
    uint32_t backlog;             /* messages in flight at `end` */
    bool window;                  /* inside the measurement window */
};

/* A channel's requests and grants as the wrapped access protocol saw them. */
struct observe_channel {
    uint32_t waiting;    /* requests not yet granted */
    double since;        /* last change of `waiting` */
    double area;         /* integral of `waiting` over the window */
    uint64_t grants;     /* granted inside the window */
    uint64_t waited;     /* of those, not granted at once */
    double wait_sum;     /* their waits */
};

struct observe {
    const struct config *cfg;
    const struct probe *probe;
    const struct kernel *kernel;
    const uint32_t *in_flight;
    uint32_t nodes;
    struct engine_tap tap;
    struct observe_node *node; /* NULL without --nodes */
    /* --series */
    bool series;
    double interval;
    bool cut;                  /* the window's opening has been cut into the series */
    uint32_t part;             /* first bin of the current part (warm-up, then window) */
    struct observe_bin *bin;
    uint32_t bins, bin_cap;
    /* --channels on an engine that takes grants: the wrapped access protocol */
    struct observe_channel *chan;
    uint32_t channels;
    double *requested;         /* per message index: when it asked for its channel */
    uint32_t requested_cap;
    const struct proto_ops *inner;
    const void *inner_params;
    void *inner_self;
    access_grant_fn *grant;
    void *engine;
};

/* Bytes an observer of cfg needs on t (the run's memory check adds them). */
double observe_memory(const struct config *cfg, const struct topo *t);
/* NULL when out of memory.  The probe, kernel and in-flight count must outlive it. */
struct observe *observe_create(const struct config *cfg, const struct topo *t, const struct probe *p,
                               const struct kernel *k, const uint32_t *in_flight);
void observe_free(struct observe *o);
/* A message is created at `node` (before it is counted in flight). */
void observe_created(struct observe *o, uint32_t node, double now);
/* The access protocol to hand the engine instead of `inner` (its params: the params to
 * hand with it, which carry the inner protocol's). */
const struct proto_ops *observe_access_ops(void);
/* Writes every file cfg->files asks for; false (one line on stderr) when one fails. */
bool observe_write(struct observe *o, const struct network *net);

/* observe_write.c: the files, each from its part. */
bool observe_write_channels(FILE *f, const struct observe *o, const struct network *net);
bool observe_write_nodes(FILE *f, const struct observe *o, const struct network *net);
bool observe_write_histogram(FILE *f, const struct network *net);
bool observe_write_series(FILE *f, struct observe *o, const struct network *net);
/* The series brought to the run's end (observe.c). */
void observe_series_finish(struct observe *o, double end);

#endif
