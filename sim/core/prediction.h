/* An analytic prediction as plain data: the analytic models fill it (analytic/model.h),
 * the report formats it, and neither needs the other's header for that.
 *
 * Promise: a model_result is a value (no pointers but to static strings: model names),
 * so it can be copied into a report and kept after the models are gone.  Model figures
 * are named numbers grouped by the model that gave them, as the engines' figures are
 * (figures.h).
 * Needs: nothing but the C library.
 */
#ifndef SIM_CORE_PREDICTION_H
#define SIM_CORE_PREDICTION_H

#include <stdbool.h>

enum { MODEL_FIGURES_MAX = 128, MODEL_APPLIED_MAX = 32 };

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
    /* The models that applied, in registry order (their keys are in the config echo). */
    unsigned n_applied;
    const char *applied[MODEL_APPLIED_MAX];
};

#endif
