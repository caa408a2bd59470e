/* Analytic model registry: adding a model is one file and one line here.  The first
 * model that applies to a configuration is printed beside the simulation. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model.h"

extern const struct model_ops model_mm1_network, model_md1_mm1_network;

static const struct model_ops *const models[] = {
    &model_mm1_network,
    &model_md1_mm1_network,
};

static void clear(struct model_result *out)
{
    memset(out, 0, sizeof *out);
    out->delay_variance = out->delay_variance_correlated = NAN;
    out->node_mean = out->node_variance = out->link_mean = out->link_variance = NAN;
}

void model_predict(const struct config *cfg, const struct channel_loads *loads, struct model_result *out)
{
    char reasons[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        clear(out);
        if (models[i]->predict(cfg, loads, out))
            return;
        used += (size_t)snprintf(reasons + used, used < sizeof reasons ? sizeof reasons - used : 0, "%s%s",
                                 used ? "; " : "", out->why);
    }
    clear(out);
    snprintf(out->why, sizeof out->why, "%s", reasons);
}
