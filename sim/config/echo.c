/* The keys a run's reports echo (contract in config.h: cfg_echo_keys). */
#include <string.h>

#include "config.h"

/* Marks the keys of table t, and the shared keys its plug-ins read, as in effect. */
static void mark_table(const struct config *cfg, const struct cfg_param_table *t, bool *in)
{
    if (!t)
        return;
    for (size_t r = 0; r < t->count; r++) {
        char name[128];
        snprintf(name, sizeof name, "%s.%s", t->keys[r].section, t->keys[r].name);
        int i = cfg_key_index(cfg, name);
        if (i >= 0)
            in[i] = true;
    }
    for (const char *const *k = t->reads; k && *k; k++) {
        int i = cfg_key_index(cfg, *k);
        if (i < 0)
            cfg_internal_error("a key table reads %s, which no table declares", *k);
        in[i] = true;
    }
}

void cfg_echo_keys(const struct config *cfg, const struct cfg_schema *schema,
                   bool (*applied)(const char *name, const void *ctx), const void *ctx, struct cfg_echo *out)
{
    bool in[CFG_KEYS_MAX] = { false }, settled[CFG_KEYS_MAX] = { false };
    for (size_t f = 0; f < cfg_framework_table_count; f++)
        mark_table(cfg, &cfg_framework_tables[f], in);
    /* A keyed registry's plug-in is its key's value, and counts only while that key is
     * in effect: a registry keyed by a plug-in's own key (a sub-choice such as a router
     * model) is reached once that plug-in has been marked, so a few passes settle it.
     * The registries no key chooses (the analytic models) choose themselves. */
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t g = 0; g < schema->count && g < CFG_KEYS_MAX; g++) {
            const struct cfg_registry *reg = &schema->registries[g];
            if (settled[g] || !reg->choices->params)
                continue; /* done, or plain names: no plug-in keys */
            int key = reg->key ? cfg_key_index(cfg, reg->key) : -1;
            if (reg->key && (key < 0 || !in[key]))
                continue;
            settled[g] = grew = true;
            const char *chosen = reg->key ? cfg_text(cfg, reg->key) : NULL;
            for (size_t i = 0; reg->choices->name(i); i++) {
                const char *name = reg->choices->name(i);
                if (chosen ? strcmp(name, chosen) == 0 : applied && applied(name, ctx))
                    mark_table(cfg, reg->choices->params(i), in);
            }
        }
    }
    out->n = 0;
    for (size_t i = 0; i < cfg_key_count(cfg); i++)
        if (in[i])
            out->key[out->n++] = (uint16_t)i;
}
