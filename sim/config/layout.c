/* The layout of a config: which keys exist, in which order, and where each value
 * lives (see layout.h). */
#include "layout.h"

#include <string.h>

static const struct cfg_choices *registry_names(const struct cfg_schema *schema, const char *key)
{
    for (size_t g = 0; g < schema->count; g++)
        if (schema->registries[g].key && strcmp(schema->registries[g].key, key) == 0)
            return schema->registries[g].choices;
    return NULL;
}

/* Appends the rows of table t (of `section` only, or all when section is NULL) to
 * the layout; `at` is where the owner's values start in struct config. */
static void lay_out_rows(struct config *cfg, const char *section, const struct cfg_param_table *t, size_t at,
                         const struct cfg_schema *schema, size_t position)
{
    for (size_t r = 0; r < t->count; r++) {
        const struct cfg_key *k = &t->keys[r];
        if (section && strcmp(k->section, section) != 0)
            continue;
        char name[128];
        snprintf(name, sizeof name, "%s.%s", k->section, k->name);
        if (cfg_key_index(cfg, name) >= 0)
            cfg_internal_error("key %s declared twice", name);
        if (cfg->n_keys == CFG_KEYS_MAX)
            cfg_internal_error("more than CFG_KEYS_MAX keys (%s)", name);
        const struct cfg_choices *choices = k->choices ? k->choices : registry_names(schema, name);
        if (k->type == CFG_CHOICE && !choices)
            cfg_internal_error("choice key %s has no names (no registry in the schema?)", name);
        memmove(&cfg->slot[position + 1], &cfg->slot[position], (cfg->n_keys - position) * sizeof cfg->slot[0]);
        cfg->slot[position++] = (struct cfg_slot){ k, choices, at + k->offset };
        cfg->n_keys++;
    }
}

static bool has_section(const char *const *sections, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(sections[i], s) == 0)
            return true;
    return false;
}

/* One table with where its values live: the framework's in struct config itself,
 * a plug-in's in its block of the arena. */
struct placed_table {
    const struct cfg_param_table *table;
    size_t at;
};

/* A block for every distinct plug-in table, then the keys section by section (the
 * framework's tables first, then the plug-ins' in schema order), then each table
 * with listed_after right after its anchor. */
void cfg_lay_out(struct config *cfg, const struct cfg_schema *schema)
{
    enum { FRAMEWORK_TABLES_MAX = 8 };
    struct placed_table tables[CFG_BLOCKS_MAX + FRAMEWORK_TABLES_MAX];
    size_t n_tables = 0, used = 0;
    if (cfg_framework_table_count > FRAMEWORK_TABLES_MAX)
        cfg_internal_error("more than %s framework key tables", "FRAMEWORK_TABLES_MAX");
    for (size_t f = 0; f < cfg_framework_table_count; f++)
        tables[n_tables++] = (struct placed_table){ &cfg_framework_tables[f], 0 };
    for (size_t g = 0; g < schema->count; g++) {
        const struct cfg_choices *c = schema->registries[g].choices;
        for (size_t i = 0; c->params && c->name(i); i++) {
            const struct cfg_param_table *t = c->params(i);
            bool seen = !t;
            for (size_t b = 0; !seen && b < cfg->n_blocks; b++)
                seen = cfg->block[b].table == t;
            if (seen)
                continue;
            used = (used + 15) / 16 * 16;
            if (cfg->n_blocks == CFG_BLOCKS_MAX || used + t->size > CFG_ARENA_MAX)
                cfg_internal_error("key tables do not fit in struct config (%s)", t->count ? t->keys[0].name : "");
            size_t at = offsetof(struct config, arena) + used;
            cfg->block[cfg->n_blocks].table = t;
            cfg->block[cfg->n_blocks++].at = at;
            tables[n_tables++] = (struct placed_table){ t, at };
            used += t->size;
        }
    }
    const char *sections[32];
    size_t n_sections = 0;
    for (size_t i = 0; i < n_tables; i++)
        for (size_t r = 0; r < tables[i].table->count; r++) {
            const char *section = tables[i].table->keys[r].section;
            if (has_section(sections, n_sections, section))
                continue;
            if (n_sections == sizeof sections / sizeof sections[0])
                cfg_internal_error("too many sections (%s)", section);
            sections[n_sections++] = section;
        }
    for (size_t s = 0; s < n_sections; s++)
        for (size_t i = 0; i < n_tables; i++)
            if (!tables[i].table->listed_after)
                lay_out_rows(cfg, sections[s], tables[i].table, tables[i].at, schema, cfg->n_keys);
    for (size_t i = 0; i < n_tables; i++) {
        const struct cfg_param_table *t = tables[i].table;
        if (!t->listed_after || !t->count)
            continue;
        /* Its rows share one section (the anchor's): they are listed as one run. */
        const char *section = t->keys[0].section;
        for (size_t r = 1; r < t->count; r++)
            if (strcmp(t->keys[r].section, section) != 0)
                cfg_internal_error("a table listed after a key spans two sections (%s)", t->keys[r].name);
        int anchor = cfg_key_index(cfg, t->listed_after);
        if (anchor >= 0 && strcmp(cfg->slot[anchor].key->section, section) != 0)
            cfg_internal_error("a table is listed after a key of another section (%s)", t->listed_after);
        /* Without its anchor (a schema without that plug-in), at the end of its section. */
        size_t at = cfg->n_keys;
        if (anchor >= 0)
            at = (size_t)anchor + 1;
        else
            for (size_t k = 0; k < cfg->n_keys; k++)
                if (strcmp(cfg->slot[k].key->section, section) == 0)
                    at = k + 1;
        lay_out_rows(cfg, NULL, t, tables[i].at, schema, at);
    }
}
