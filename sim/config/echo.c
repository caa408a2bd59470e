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

/* Whether a plug-in table declares key `name` or names it among the keys it reads. */
static bool table_has(const struct cfg_param_table *t, const char *name)
{
    char row[128];
    for (size_t r = 0; t && r < t->count; r++) {
        snprintf(row, sizeof row, "%s.%s", t->keys[r].section, t->keys[r].name);
        if (strcmp(row, name) == 0)
            return true;
    }
    for (const char *const *k = t ? t->reads : NULL; k && *k; k++)
        if (strcmp(*k, name) == 0)
            return true;
    return false;
}

static bool echoed(const struct cfg_echo *echo, int key)
{
    for (size_t e = 0; e < echo->n; e++)
        if (echo->key[e] == key)
            return true;
    return false;
}

/* Appends "choice.key = value" for each keyed registry in effect with a plug-in that reads
 * `name`; a registry whose own key is out of effect is followed up its key (depth: how many
 * more steps), so that a key of a sub-choice is blamed on the choice that rules it out. */
static void append_causes(const struct config *cfg, const struct cfg_schema *schema, const struct cfg_echo *echo,
                          const char *name, int depth, char *buf, size_t size, size_t *used)
{
    for (size_t g = 0; g < schema->count && depth > 0; g++) {
        const struct cfg_registry *reg = &schema->registries[g];
        bool reads = false;
        for (size_t i = 0; reg->key && reg->choices->params && reg->choices->name(i) && !reads; i++)
            reads = table_has(reg->choices->params(i), name);
        if (!reads)
            continue;
        int key = cfg_key_index(cfg, reg->key);
        if (key >= 0 && !echoed(echo, key)) {
            append_causes(cfg, schema, echo, reg->key, depth - 1, buf, size, used);
            continue;
        }
        char cause[192];
        snprintf(cause, sizeof cause, "%s = %s", reg->key, cfg_text(cfg, reg->key));
        if (strstr(buf, cause)) /* reached twice */
            continue;
        int n = snprintf(buf + *used, size - *used, "%s%s", *used ? " and " : "", cause);
        if (n > 0)
            *used = *used + (size_t)n < size ? *used + (size_t)n : size - 1;
    }
}

bool cfg_echo_why_not(const struct config *cfg, const struct cfg_schema *schema, const struct cfg_echo *echo,
                      size_t key, char *buf, size_t size)
{
    char name[128];
    snprintf(name, sizeof name, "%s.%s", cfg_key_at(cfg, key)->section, cfg_key_at(cfg, key)->name);
    size_t used = 0;
    if (size == 0)
        return false;
    buf[0] = '\0';
    append_causes(cfg, schema, echo, name, 4, buf, size, &used);
    return used > 0;
}
