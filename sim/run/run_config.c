#include "run_config.h"

#include "../../analytic/model.h"
#include "../../protocols/protocol.h"
#include "../../routing/engine.h"
#include "../../routing/flit_params.h"
#include "../../routing/routing.h"
#include "../../topo/topo.h"
#include "../../workloads/trace.h"
#include "../../workloads/workload.h"
#include "../core/registry.h"

#include <math.h>
#include <string.h>

/* Plain names, the framework's own: workload.rate_unit and run.warmup. */
struct plain_choice {
    const char *name, *help;
};
static const struct plain_choice messages_unit = { "messages", "messages per node per time unit" };
static const struct plain_choice flits_unit = { "flits", "flits per node per time unit (cycle), as NoC papers state "
                                                      "offered load" };
static const struct plain_choice *const rate_units[] = { &messages_unit, &flits_unit };
REGISTRY_DEFINE(struct plain_choice, rate_units, rate_unit_find, rate_unit_choices);

/* run.warmup: the framework's own rules. */
static const struct plain_choice fixed_warmup = { "fixed", "run.warmup_messages (or run.warmup_time) are discarded" };
static const struct plain_choice auto_warmup = { "auto", "MSER-5 on batch means of 5 messages, from message 0; "
                                                      "message mode" };
static const struct plain_choice *const warmup_rules[] = { &fixed_warmup, &auto_warmup };
REGISTRY_DEFINE(struct plain_choice, warmup_rules, warmup_rule_find, warmup_rule_choices);

/* The order of this list is the order of the plug-ins' keys in --list, the config
 * echo and sweeps (within each section, after the framework's own keys). */
static const struct cfg_registry registries[] = {
    { "network.topology", &topo_choices },
    { "network.links", &link_choices },
    { "routing.algorithm", &route_choices },
    { "routing.switching", &switch_choices },
    { "routing.router", &router_choices }, /* the flit engines' router models: the iq router's keys */
    { "protocol.link", &proto_choices },
    { "protocol.priority", &priority_choices },
    { "workload.destination", &dest_choices },
    { "workload.length", &length_choices },
    { "workload.arrival", &arrival_choices },
    { "workload.classes", &class_choices },
    { "workload.rate_unit", &rate_unit_choices },
    { "run.warmup", &warmup_rule_choices },
    { NULL, &model_choices }, /* every model applies itself: no key chooses one */
};
static const struct cfg_schema schema = { registries, sizeof registries / sizeof registries[0] };

const struct cfg_schema *run_config_schema(void)
{
    return &schema;
}

void run_config_defaults(struct config *cfg)
{
    cfg_defaults(cfg, &schema);
}

bool run_config_workload(struct config *cfg, struct cfg_error *err)
{
    double mean_length;
    if (!workload_check(cfg, &mean_length, err))
        return false;
    cfg->workload.mean_length = mean_length; /* the one a bimodal or empirical distribution implies */
    cfg->workload.mean_flits = 0;
    if (cfg_rate_in_flits(cfg)) { /* the message rate is the rate over the mean whole flits */
        struct lengths lengths;
        if (!length_init(&lengths, cfg)) {
            cfg_blame(cfg, "workload.length", err, "out of memory");
            return false;
        }
        double flits = length_mean_flits(&lengths, cfg->network.bandwidth);
        length_free(&lengths);
        if (!(isfinite(flits) && flits > 0)) {
            cfg_blame(cfg, "workload.rate_unit", err, "%s lengths of mean %g do not give the mean whole flits "
                      "of a message over bandwidth %g, E[max(1, ceil(length / bandwidth))]: state workload.rate "
                      "in messages", cfg->workload.length, mean_length, cfg->network.bandwidth);
            return false;
        }
        cfg->workload.mean_flits = flits;
    }
    return workload_check_arrival(cfg, err); /* it reads the message rate */
}

/* The plug-ins' checks after the loader's (run_config_load, run_config_load_text). */
static bool check_loaded(struct config *cfg, struct cfg_error *err)
{
    for (size_t i = 0; i < model_registry_count; i++)
        if (model_registry[i]->check && !model_registry[i]->check(cfg, err))
            return false;
    if (!run_config_workload(cfg, err))
        return false;
    /* Both read messages by number: time mode has no numbers to cut or to stop at. */
    const char *by_number = cfg->run.precision > 0 ? "run.precision" : cfg->run.warmup[0] == 'a' ? "run.warmup" : NULL;
    if (by_number && cfg->run.duration > 0) {
        cfg_blame(cfg, by_number, err, "needs message mode (run.duration = 0)");
        return false;
    }
    return true;
}

bool run_config_load(struct config *cfg, const char *path, const char *const *overrides, size_t n_overrides,
                     struct cfg_error *err)
{
    return cfg_load(cfg, path, overrides, n_overrides, &schema, err) && check_loaded(cfg, err);
}

bool run_config_load_text(struct config *cfg, const struct cfg_text *text, const char *const *overrides,
                          size_t n_overrides, struct cfg_error *err)
{
    return cfg_load_text(cfg, text, overrides, n_overrides, &schema, err) && check_loaded(cfg, err);
}

const char *run_engine_name(const struct config *cfg)
{
    const struct engine_ops *e = engine_select(cfg);
    return e ? e->name : "";
}

unsigned run_engine_traits(const struct config *cfg)
{
    const struct engine_ops *e = engine_select(cfg);
    return e ? e->traits : 0;
}

static bool was_applied(const char *name, const void *models_)
{
    const struct model_result *models = models_;
    for (unsigned m = 0; models && m < models->n_applied; m++)
        if (strcmp(models->applied[m], name) == 0)
            return true;
    return false;
}

void run_config_echo(const struct config *cfg, const struct model_result *models, struct cfg_echo *out)
{
    cfg_echo_keys(cfg, &schema, was_applied, models, out);
}

static bool any_model(const char *name, const void *ctx)
{
    (void)name;
    (void)ctx;
    return true;
}

void run_config_echo_any_model(const struct config *cfg, struct cfg_echo *out)
{
    cfg_echo_keys(cfg, &schema, any_model, NULL, out);
}

const char *run_input_trace(const struct config *cfg, char *buf, size_t size) { return trace_path(cfg, buf, size); }
