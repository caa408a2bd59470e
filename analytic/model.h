/* Analytic models: the same struct config in, predicted metrics out.
 *
 * channel_loads computes, by flow conservation, the message rate every channel
 * carries for the configured topology, deterministic routing and destination
 * distribution: from one source when the topology says loads are uniform within a
 * channel class, by enumerating every (source, destination) pair otherwise.  It is
 * also the stability check.  Models read the loads and say whether they apply;
 * when one does not, `why` says so instead of a number.  No simulation code here.
 */
#ifndef ANALYTIC_MODEL_H
#define ANALYTIC_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "../sim/config/config.h"
#include "../topo/topo.h"

enum { LOADS_ENUMERATION_MAX_NODES = 4096 };

/* A group of channels with the same message rate and bandwidth: a whole class when
 * loads are uniform within classes, else one channel. */
struct load_group {
    double rate;      /* messages per time unit through each channel of the group */
    double bandwidth;
    uint64_t channels;
    unsigned cls;
};

struct channel_loads {
    const struct topo *topo;  /* the network the loads are for (models may walk its routes) */
    bool known;
    char why[256];            /* when !known */
    double message_rate;      /* messages created per time unit, whole network */
    double mean_hops;         /* over all messages, self-addressed ones counting 0 */
    struct load_group *groups;
    size_t n_groups;
    double max_utilization;
    unsigned busiest_class;
    double class_utilization[TOPO_MAX_CLASSES]; /* mean over the class's channels */
    double class_rate[TOPO_MAX_CLASSES];        /* messages per time unit, mean over the class's channels */
    double class_rate_max[TOPO_MAX_CLASSES];    /* the class's busiest channel */
    double node_visit_rate_max; /* visits per time unit at the busiest node (source, relay, destination) */
};

bool loads_compute(const struct config *cfg, const struct topo *t, struct channel_loads *out);
/* Forces the pair-by-pair enumeration (tests check it against the class shortcut). */
bool loads_compute_enumerated(const struct config *cfg, const struct topo *t, struct channel_loads *out);
void loads_free(struct channel_loads *l);

enum { MODEL_FIGURES_MAX = 128 };

/* One predicted figure.  A figure that predicts a simulated report field has that
 * field's name (e.g. "throughput", "hops_mean"), so the writers print the two side
 * by side; other figures (static properties of a topology, a model's internal
 * quantities) have names of their own.  Names are lower-case, dotted, no spaces. */
struct model_figure {
    const char *model; /* the model that gave it (set by model_predict) */
    char name[48];
    double value;
};

struct model_result {
    const char *model;  /* the delay model printed beside the simulation; NULL when none applies */
    char why[1024];     /* why none applies, or what the model assumes */
    bool exact;         /* exact for this configuration, not an approximation */
    bool unstable;
    double delay_mean;  /* NaN from models that do not predict the delay */
    double mean_hops;
    double max_utilization;
    /* NaN when the model does not give them: */
    double delay_variance;            /* the model's own variance formula */
    double delay_variance_correlated; /* the same model with the covariances its formula omits */
    double node_mean, node_variance, link_mean, link_variance; /* the two parts of the delay */
    /* Every figure of every model that applies, in registry order (the delay model's
     * scalars above included). */
    unsigned n_figures;
    struct model_figure figures[MODEL_FIGURES_MAX];
};

struct model_ops {
    const char *name, *help;
    /* Returns false (and explains in out->why) when the model does not apply.  A
     * model that applies fills the scalars it knows and adds its figures with
     * model_add(); it sets delay_mean only if it predicts the mean delay. */
    bool (*predict)(const struct config *cfg, const struct channel_loads *loads, struct model_result *out);
};

/* Adds a figure to out (silently ignored past MODEL_FIGURES_MAX: a model adds a
 * fixed, small number). */
void model_add(struct model_result *out, const char *name, double value);

/* Runs every registered model.  The first that applies and predicts the delay is
 * the delay model (out->model, the scalars); every model that applies adds its
 * figures.  When none applies, out->model = NULL and out->why gives each reason. */
void model_predict(const struct config *cfg, const struct channel_loads *loads, struct model_result *out);

/* The registered models, for --list. */
extern const struct model_ops *const model_registry[];
extern const size_t model_registry_count;

/* Stability: the offered load of the busiest node server (node model) and of the
 * busiest channel, each as a fraction of what it can serve (a channel's capacity is
 * its protocol's: 1 for FIFO and TDM, less for token passing).  Saturated when either
 * reaches 1: queues then grow without bound and delays depend on the run's length. */
struct stability {
    bool known;              /* false when the loads are unknown (why says so) */
    bool saturated;
    double node_load;        /* busiest node: visit rate / μ_N (0 without the node model) */
    double channel_load;     /* busiest channel: utilisation / protocol capacity */
    enum cfg_key_id blame;   /* the key to name in an error */
    char why[256];           /* what saturates, or why unknown */
};

void stability_check(const struct config *cfg, const struct topo *t, const struct channel_loads *loads,
                     struct stability *out);

#endif
