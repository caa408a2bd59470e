/* Workloads: when messages are created, where they go, how long they are.
 *
 * Promise: every function draws only from the stream it is handed, so workloads are
 * reproducible per node and independent of the rest of the run.  No function here
 * writes the configuration: every one takes it const.  What a destination or length
 * distribution derives from its keys (tables, cumulative probabilities) lives in its
 * own per-run state, made from its key block by dest_init() or length_init() and
 * released by dest_free() or length_free(); a value the run's config must hold (the
 * mean length a distribution implies) is returned to sim/run, which sets it.  prob()
 * gives the exact destination distribution to the analytic models (through
 * sim/run/model_input.c).  workload_check() refuses parameters no pattern can honour
 * (called by run_config_load), dest_init() those the topology cannot.  Shapes the
 * analytic models ask about are trait bits on the ops (ARRIVAL_*, DEST_*, LENGTH_*),
 * never names.  Registered by one line each in workloads/registry.c.
 * Needs: the configuration as a value (sim/core/config_value.h), random streams, and
 * the built topology for destinations.
 */
#ifndef WORKLOADS_WORKLOAD_H
#define WORKLOADS_WORKLOAD_H

#include "../sim/core/config_value.h"
#include "../sim/core/rng.h"
#include "../sim/core/traits.h"
#include "../topo/topo.h"

/* What a process or distribution is, as the run and the models ask it (the ops'
 * `traits`): enum arrival_traits, dest_traits and length_traits, in sim/core/traits.h
 * so that the analytic models ask them without including workloads/. */

struct arrival_ops {
    const char *name, *help;
    unsigned traits; /* enum arrival_traits */
    const struct cfg_param_table *params; /* its keys (sim/core/params.h); NULL: none */
    /* Event-driven engines: the time to a node's next message; NULL when the process
     * only exists in slotted time (a batch per cycle). */
    double (*interarrival)(const struct config *cfg, struct rng *r);
    /* Optional: the time of a node's first message (default: interarrival()). */
    double (*first)(const struct config *cfg, struct rng *r);
    /* Slotted engines (one step per cycle): how many messages a node creates in one
     * cycle, independent across cycles and nodes; NULL when the counts of successive
     * cycles are not independent (deterministic: use interarrival). */
    uint32_t (*per_cycle)(const struct config *cfg, struct rng *r);
    /* Optional: refuses parameters the process cannot take (e.g. a probability > 1). */
    bool (*check)(const struct config *cfg, struct cfg_error *err);
};

/* A destination distribution set up for one topology.  What the distribution keeps of
 * its own (key values, tables) is its `impl`, which only its ops read: dest_init() has
 * ops->init create it, dest_free() has ops->free release it.  A new distribution with
 * keys and tables is its own file and a line in workloads/registry.c. */
struct destinations {
    const struct dest_ops *ops;
    const struct topo *topo;
    void *impl; /* the distribution's own state; NULL when it keeps none */
};

struct dest_ops {
    const char *name, *help;
    unsigned traits; /* enum dest_traits */
    const struct cfg_param_table *params; /* its keys (sim/core/params.h); NULL: none */
    /* Optional: checks its key values (params: its block, cfg_params(cfg, ops->params),
     * handed once; NULL without a table) against d->topo and creates d->impl.  cfg
     * names keys in errors and answers other modules' keys by name.  False with *err;
     * whatever it already set in d->impl is then released by ops->free. */
    bool (*init)(struct destinations *d, const void *params, const struct config *cfg, struct cfg_error *err);
    uint32_t (*pick)(const struct destinations *d, uint32_t src, struct rng *r);
    double (*prob)(const struct destinations *d, uint32_t src, uint32_t dst);
    /* Releases d->impl (not called when it is NULL); NULL when init makes none. */
    void (*free)(void *impl);
};

struct length_ops {
    const char *name, *help;
    unsigned traits; /* enum length_traits */
    const struct cfg_param_table *params; /* its keys (sim/core/params.h); NULL: none */
    /* Optional: refuses parameters the distribution cannot take (params: its block,
     * cfg_params(cfg, ops->params); cfg names keys in errors). */
    bool (*check)(const void *params, const struct config *cfg, struct cfg_error *err);
    /* Optional: the mean its parameters imply (bimodal, empirical), which the run's
     * loading makes workload.mean_length (see workload_check()). */
    double (*implied_mean)(const void *params);
    /* The state its draws read (workload.mean_length, its key values, tables derived
     * from them), made once per run from a checked config and its block (params, as
     * for check); NULL when out of memory.  The config is not written. */
    void *(*create)(const void *params, const struct config *cfg);
    /* One length, in length units, from that state alone. */
    double (*draw)(const void *state, struct rng *r);
    /* Optional: the mean whole flits of a message on channels of `bandwidth` length units
     * per cycle, E[msg_flits(L, bandwidth)] = E[max(1, ceil(L / bandwidth))] (as the flit
     * engines cut messages, sim/core/message.h), from that state alone; NaN when it
     * cannot say.  workload.rate_unit = flits divides the rate by it, and is refused
     * for a distribution without it (see length_mean_flits()). */
    double (*mean_flits)(const void *state, double bandwidth);
    /* Releases what create made. */
    void (*free)(void *state);
};

/* A length distribution set up for one run: length_init() has ops->create make its
 * state, length_free() has ops->free release it, and each draw is one call of
 * ops->draw on that state. */
struct lengths {
    const struct length_ops *ops;
    void *state; /* the distribution's own, read only by its ops */
};

/* Sets up cfg's length distribution (cfg as run_config_load leaves it: checked, with
 * workload.mean_length in effect); false when out of memory. */
bool length_init(struct lengths *l, const struct config *cfg);
void length_free(struct lengths *l);

static inline double length_draw(const struct lengths *l, struct rng *r)
{
    return l->ops->draw(l->state, r);
}

/* The mean whole flits of a message of l on channels of `bandwidth`: the
 * distribution's mean_flits, or NaN when it has none or cannot say. */
double length_mean_flits(const struct lengths *l, double bandwidth);

/* Cross-key checks of the workload section's lengths and trace (run_config_load calls
 * it last).  True with *mean_length the mean length a run of cfg has: the one the
 * length distribution implies (implied_mean), else workload.mean_length; the caller,
 * which owns loading, makes that workload.mean_length (and, with workload.rate_unit =
 * flits, workload.mean_flits from length_mean_flits()).  False with *err blaming the
 * key, among others a hand-set workload.mean_length that differs from the implied one. */
bool workload_check(const struct config *cfg, double *mean_length, struct cfg_error *err);
/* The arrival process's check (e.g. a Bernoulli probability past 1), which reads the
 * message rate (cfg_message_rate): called once the loading has set what that rate
 * depends on (workload.mean_flits).  False with *err blaming the key. */
bool workload_check_arrival(const struct config *cfg, struct cfg_error *err);

/* Sets up cfg's destination distribution on topology t; false with *err on
 * parameters the topology cannot honour. */
bool dest_init(struct destinations *d, const struct config *cfg, const struct topo *t, struct cfg_error *err);
void dest_free(struct destinations *d);

/* The k-ary n-cube shape (node x = sum d_i k^i) shared by the lattice patterns. */
struct dest_lattice {
    uint32_t radix, dims;
    bool wrap; /* end-around links */
};

/* The k-ary n-cube t is, for lattice patterns: a binary hypercube (k = 2) or a
 * TOPO_KARY_NCUBE family.  False for every other family (*out then unset). */
bool dest_lattice(const struct topo *t, const struct config *cfg, struct dest_lattice *out);

const struct arrival_ops *arrival_find(const char *name);
const struct dest_ops *dest_find(const char *name);
const struct length_ops *length_find(const char *name);
extern const struct cfg_choices arrival_choices, dest_choices, length_choices, class_choices;

/* workload.classes (workloads/classes.c): single, or request-reply with these keys. */
struct class_choice {
    const char *name, *help;
    const struct cfg_param_table *params; /* NULL: none */
};
struct reply_params {
    double request_length, reply_length, reply_delay;
    int64_t max_outstanding; /* 0: no cap */
    int64_t reply_queue;     /* replies a terminal holds before it stops ejecting requests; 0: unbounded */
};
const struct class_choice *class_find(const char *name);
/* The request-reply keys' values; NULL with workload.classes = single. */
const struct reply_params *reply_params_of(const struct config *cfg);

#endif
