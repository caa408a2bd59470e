/* Analytic models: a model input in, predicted metrics out.
 *
 * A model sees a struct model_in, filled by the caller (sim/run/model_input.c): the
 * config, the built topology, a pure path function with the path selection's
 * traits, the traits of the switching and the channel access, the access protocol's
 * capacity as a number, the workload's traits and its destination probabilities, and
 * the channel loads.  It never sees routing, protocol or workload internals, and asks
 * capability questions as trait bits (sim/core/traits.h, topo/topo.h), never by name.
 *
 * channel_loads computes, by flow conservation, the message rate every channel
 * carries for the configured topology, path function and destination distribution:
 * from one source when the topology says loads are uniform within a channel class,
 * by enumerating every (source, destination) pair otherwise.  It is also the
 * stability check.  Models read the loads and say whether they apply; when one does
 * not, `why` says so instead of a number.  No simulation code here.
 */
#ifndef ANALYTIC_MODEL_H
#define ANALYTIC_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "../sim/core/config_value.h"
#include "../sim/core/prediction.h"
#include "../sim/core/traits.h"
#include "../sim/core/valiant_mids.h"
#include "../sim/core/zero_load.h"
#include "../topo/topo.h"

enum { LOADS_ENUMERATION_MAX_NODES = 4096 };

struct channel_loads;
struct destinations; /* opaque here: only handed back to model_in.prob */

/* Everything a model may know about the configured run. */
struct model_in {
    const struct config *cfg;
    const struct topo *topo;  /* built; topo->ops->traits say what family it is */
    path_next_fn next;        /* topo/topo.h; NULL when the path selection has none (it keeps state, or runs
                               * the network) */
    /* When next() draws: the hops it draws among, evenly (random-minimal: every minimal
     * hop; e-cube with ROUTE_RANDOM_TIES: both ways of a tied dimension).  NULL when the
     * path is a function of the pair. */
    path_split_fn split;
    /* Valiant (ROUTE_VALIANT): how the engine draws the intermediate node, when it says
     * (has_mids), and the path of each phase: the topology's canonical minimal route as the
     * engine follows it (as next and split above). */
    bool has_mids;
    struct valiant_mids mids;
    path_next_fn phase_next;
    path_split_fn phase_split;
    unsigned route;           /* enum route_traits of the path selection the engine follows */
    unsigned switching;       /* enum switch_traits */
    unsigned access;          /* enum access_traits both protocol.link and protocol.priority keep */
    double capacity;          /* the largest channel utilisation the access protocol sustains (FIFO: 1) */
    unsigned arrival;         /* enum arrival_traits of workload.arrival */
    unsigned destination;     /* enum dest_traits of workload.destination */
    unsigned length;          /* enum length_traits of workload.length */
    /* The destination distribution set up on topo: a message from src goes to dst with
     * probability prob(dest, src, dst).  prob is NULL when the distribution refuses the
     * topology (or memory ran out), and dest_why says why. */
    double (*prob)(const struct destinations *dest, uint32_t src, uint32_t dst);
    struct destinations *dest;
    char dest_why[CFG_TEXT_MAX];
    const struct channel_loads *loads; /* NULL until the caller attaches loads_compute()'s result */
    /* The engine's zero-load delay as a form over routes (sim/core/zero_load.h), when it
     * declares one; else zero_load_why says why not. */
    bool has_zero_load;
    struct zero_load_terms zero_load;
    char zero_load_why[160];
    bool takes_self_addressed; /* the engine runs self-addressed messages (else delay 0) */
    double mean_flits;         /* E[max(1, ceil(length / bandwidth))]; NaN when unknown */
    /* Request-reply traffic (workload.classes): every request (rate workload.rate, fixed
     * request_length) brings a reply of reply_length from its destination back to its
     * source; closed: sources wait at workload.max_outstanding, so the offered rate is
     * not known in advance.  The loads count both classes; the models take one class of
     * message and do not apply. */
    struct {
        bool on, closed;
        double request_length, reply_length;
    } reply;
};

/* The mean zero-load delay of in's messages: the engine's form (in->zero_load) summed
 * over the channel loads in->loads, which weight every channel by the messages that
 * cross it (analytic/zero_load.c).  False with why when it cannot be computed. */
bool zero_load_delay(const struct model_in *in, double *delay, char *why, size_t why_size);

/* Fills *in for cfg on the built topology t and, when `loads` is not NULL, computes
 * the loads into it (the caller frees them with loads_free) and attaches them.
 * Returns false when the loads are unknown.  *in holds the destination distribution
 * it set up until the caller releases it (model_input_free, beside the implementation).
 * Implemented above the analytic layer (sim/run/model_input.c), which may read
 * routing, protocols and workloads; a layer that may not call it is handed it. */
typedef bool model_input_fn(struct model_in *in, const struct config *cfg, const struct topo *t,
                            struct channel_loads *loads);

/* A group of channels with the same message rate and bandwidth: a whole class when
 * loads are uniform within classes, else one channel. */
struct load_group {
    double rate;      /* messages per time unit through each channel of the group */
    double bandwidth;
    uint64_t channels;
    unsigned cls;
    double length;    /* mean length of the messages through it; 0: workload.mean_length */
};

struct channel_loads {
    const struct topo *topo;  /* the network the loads are for (models may walk its routes) */
    double capacity;          /* the model input's: what max_utilization is measured against */
    bool known;
    char why[256];            /* when !known */
    double message_rate;      /* messages created per time unit, whole network */
    double mean_hops;         /* over all messages, self-addressed ones counting 0 */
    struct load_group *groups; /* one per class when by_class, else one per channel, in channel order */
    size_t n_groups;
    bool by_class;
    bool request_reply;       /* the messages are requests and their replies (model_in.reply) */
    double max_utilization;
    unsigned busiest_class;
    double class_utilization[TOPO_MAX_CLASSES]; /* mean over the class's channels */
    double class_rate[TOPO_MAX_CLASSES];        /* messages per time unit, mean over the class's channels */
    double class_rate_max[TOPO_MAX_CLASSES];    /* the class's busiest channel */
    double node_visit_rate_max; /* visits per time unit at the busiest node (source, relay, destination) */
};

/* The loads of in->cfg on in->topo along in->next, or split equally over in->split's
 * hops at every node when it is set (in->loads is not read). */
bool loads_compute(const struct model_in *in, struct channel_loads *out);
/* Forces the pair-by-pair enumeration (tests check it against the class shortcut). */
bool loads_compute_enumerated(const struct model_in *in, struct channel_loads *out);
void loads_free(struct channel_loads *l);

/* struct model_result, the prediction as plain data (what the report formats), is
 * sim/core/prediction.h's. */

struct model_ops {
    const char *name, *help;
    const struct cfg_param_table *params; /* its keys (sim/core/params.h); NULL: none */
    /* Optional: refuses values of its own keys it can never use, whichever model the
     * run prints (sim/run/run_config.c calls it after loading every config). */
    bool (*check)(const struct config *cfg, struct cfg_error *err);
    /* Returns false (and explains in out->why) when the model does not apply.  A
     * model that applies fills the scalars it knows and adds its figures with
     * model_add(); it sets delay_mean only if it predicts the mean delay. */
    bool (*predict)(const struct model_in *in, struct model_result *out);
};

/* Adds a figure to out (silently ignored past MODEL_FIGURES_MAX: a model adds a
 * fixed, small number). */
void model_add(struct model_result *out, const char *name, double value);

/* Runs every registered model.  The first that applies and predicts the delay is
 * the delay model (out->model, the scalars); every model that applies adds its
 * figures.  When none applies, out->model = NULL and out->why gives each reason. */
void model_predict(const struct model_in *in, struct model_result *out);

/* The registered models, for --list; model_choices gives the loader their keys. */
extern const struct model_ops *const model_registry[];
extern const size_t model_registry_count;
extern const struct cfg_choices model_choices;

/* Stability: the offered load of the busiest node server (node model) and of the
 * busiest channel, each as a fraction of what it can serve (a channel's capacity is
 * its protocol's, loads->capacity: 1 for FIFO and TDM, less for token passing).  Saturated when either
 * reaches 1: queues then grow without bound and delays depend on the run's length. */
struct stability {
    bool known;              /* false when the loads are unknown (why says so) */
    bool saturated;
    double node_load;        /* busiest node: visit rate / μ_N (0 without the node model) */
    double channel_load;     /* busiest channel: utilisation / protocol capacity */
    const char *blame;       /* the key ("section.name") to name in an error */
    char why[256];           /* what saturates, or why unknown */
};

void stability_check(const struct config *cfg, const struct topo *t, const struct channel_loads *loads,
                     struct stability *out);

#endif
