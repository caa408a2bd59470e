/* Analytic model registry: adding a model is one file and one line here.  Every
 * model that applies contributes its figures; the first that predicts the mean
 * delay is printed beside the simulated delay. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/core/registry.h"
#include "model.h"

extern const struct model_ops model_mm1_network, model_md1_mm1_network, model_backtracking_chain, model_hin,
    model_wormhole_hypercube, model_kary_contention, model_kary_physical, model_zero_load;

const struct model_ops *const model_registry[] = {
    &model_mm1_network,
    &model_md1_mm1_network,
    &model_backtracking_chain,
    &model_wormhole_hypercube,
    &model_hin,
    &model_kary_contention,
    &model_kary_physical,
    &model_zero_load,
};
const size_t model_registry_count = sizeof model_registry / sizeof model_registry[0];
REGISTRY_PLUGIN_CHOICES(model_registry, model_choices);

static void clear(struct model_result *out)
{
    memset(out, 0, sizeof *out);
    out->delay_mean = out->mean_hops = out->max_utilization = NAN;
    out->delay_variance = out->delay_variance_correlated = NAN;
    out->node_mean = out->node_variance = out->link_mean = out->link_variance = NAN;
}

void model_add(struct model_result *out, const char *name, double value)
{
    if (out->n_figures == MODEL_FIGURES_MAX)
        return;
    struct model_figure *f = &out->figures[out->n_figures++];
    f->model = NULL;
    snprintf(f->name, sizeof f->name, "%s", name);
    f->value = value;
}

/* The delay model's scalars as figures, under the report fields they predict. */
static void add_scalars(struct model_result *m)
{
    static const struct {
        const char *name;
        size_t offset;
    } scalars[] = {
        { "delay.mean", offsetof(struct model_result, delay_mean) },
        { "hops_mean", offsetof(struct model_result, mean_hops) },
        { "channels.utilization_max", offsetof(struct model_result, max_utilization) },
        { "delay.variance", offsetof(struct model_result, delay_variance) },
        { "delay.variance_correlated", offsetof(struct model_result, delay_variance_correlated) },
        { "delay.node_mean", offsetof(struct model_result, node_mean) },
        { "delay.node_variance", offsetof(struct model_result, node_variance) },
        { "delay.link_mean", offsetof(struct model_result, link_mean) },
        { "delay.link_variance", offsetof(struct model_result, link_variance) },
    };
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        double v = *(const double *)((const char *)m + scalars[i].offset);
        if (!isnan(v) && !(m->unstable && i != 1 && i != 2))
            model_add(m, scalars[i].name, v);
    }
}

void model_predict(const struct model_in *in, struct model_result *out)
{
    char reasons[sizeof out->why] = "";
    size_t used = 0;
    const char *names[MODEL_APPLIED_MAX];
    unsigned applied = 0;
    if (model_registry_count > MODEL_APPLIED_MAX) { /* every model may apply: the list must hold them all */
        fprintf(stderr, "sim: internal error: %zu models registered, MODEL_APPLIED_MAX is %d\n",
                model_registry_count, MODEL_APPLIED_MAX);
        abort();
    }
    clear(out);
    /* Each model's own result, and the figures of earlier non-delay models while the
     * delay model's replace them: large, so on the heap. */
    struct model_result *one = malloc(sizeof *one), *keep = malloc(sizeof *keep);
    if (!one || !keep) {
        free(one);
        free(keep);
        snprintf(out->why, sizeof out->why, "out of memory");
        return;
    }
    /* Request-reply: two classes of their own lengths, replies not Poisson; no model's
     * assumptions (the loads count both classes). */
    if (in->reply.on)
        snprintf(reasons, sizeof reasons, "the models take one class of message, not request-reply (channel "
                 "loads: %.200s)", in->loads && !in->loads->known ? in->loads->why : "both classes");
    for (size_t i = 0; i < model_registry_count && !in->reply.on; i++) {
        clear(one);
        if (!model_registry[i]->predict(in, one)) {
            used += (size_t)snprintf(reasons + used, used < sizeof reasons ? sizeof reasons - used : 0, "%s%s",
                                     used ? "; " : "", one->why);
            continue;
        }
        names[applied++] = model_registry[i]->name;
        bool delay_model = !out->model && (!isnan(one->delay_mean) || one->unstable);
        if (delay_model) {
            *keep = *out;
            *out = *one;
            out->model = model_registry[i]->name;
            add_scalars(out);
            unsigned own = out->n_figures;
            /* earlier models' figures first, in registry order */
            memmove(out->figures + keep->n_figures, out->figures,
                    (own + keep->n_figures > MODEL_FIGURES_MAX ? MODEL_FIGURES_MAX - keep->n_figures : own) *
                        sizeof out->figures[0]);
            memcpy(out->figures, keep->figures, keep->n_figures * sizeof out->figures[0]);
            out->n_figures = own + keep->n_figures > MODEL_FIGURES_MAX ? MODEL_FIGURES_MAX : own + keep->n_figures;
            for (unsigned k = keep->n_figures; k < out->n_figures; k++)
                out->figures[k].model = model_registry[i]->name;
            continue;
        }
        for (unsigned k = 0; k < one->n_figures && out->n_figures < MODEL_FIGURES_MAX; k++) {
            out->figures[out->n_figures] = one->figures[k];
            out->figures[out->n_figures++].model = model_registry[i]->name;
        }
    }
    free(one);
    free(keep);
    out->n_applied = applied;
    memcpy(out->applied, names, applied * sizeof names[0]);
    if (!out->model)
        snprintf(out->why, sizeof out->why, "%s", reasons);
}
