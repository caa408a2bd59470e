#include "suggest.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Edit distance, for "did you mean" suggestions. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 64;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static bool close_enough(size_t distance, const char *word)
{
    size_t len = strlen(word);
    return distance <= (len > 6 ? len / 3 : 2);
}

/* Nearest "section.key" to the given one, or NULL. */
const char *cfg_nearest_key(const struct config *cfg, const char *section, const char *name, char *buf, size_t size)
{
    char want[128];
    snprintf(want, sizeof want, "%s.%s", section, name);
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < cfg->n_keys; i++) {
        char have[128];
        snprintf(have, sizeof have, "%s.%s", cfg->slot[i].key->section, cfg->slot[i].key->name);
        size_t d = edit_distance(want, have);
        /* A key under the wrong section is a near miss too. */
        size_t by_name = edit_distance(name, cfg->slot[i].key->name);
        if (by_name < d)
            d = by_name;
        if (d < best) {
            best = d;
            snprintf(buf, size, "%s", have);
        }
    }
    return best != SIZE_MAX && close_enough(best, want) ? buf : NULL;
}

bool cfg_known_section(const struct config *cfg, const char *section)
{
    for (size_t i = 0; i < cfg->n_keys; i++)
        if (strcmp(cfg->slot[i].key->section, section) == 0)
            return true;
    return false;
}

const char *cfg_nearest_section(const struct config *cfg, const char *section)
{
    const char *best_name = NULL;
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < cfg->n_keys; i++) {
        size_t d = edit_distance(section, cfg->slot[i].key->section);
        if (d < best) {
            best = d;
            best_name = cfg->slot[i].key->section;
        }
    }
    return close_enough(best, section) ? best_name : NULL;
}

void cfg_unknown_section(const struct config *cfg, const char *section, char *buf, size_t size)
{
    const char *near = cfg_nearest_section(cfg, section);
    int n = snprintf(buf, size, "unknown section [%s]", section);
    if (n < 0 || (size_t)n >= size)
        return; /* cut: no room for more */
    if (near) {
        snprintf(buf + n, size - (size_t)n, " (did you mean [%s]?)", near);
        return;
    }
    /* Nothing near: name them all, each once (a section's keys are contiguous in the layout). */
    const char *sep = "; the sections are";
    for (size_t i = 0; i < cfg->n_keys && n >= 0 && (size_t)n < size; i++) {
        const char *s = cfg->slot[i].key->section;
        if (i == 0 || strcmp(s, cfg->slot[i - 1].key->section) != 0) {
            n += snprintf(buf + n, size - (size_t)n, "%s [%s]", sep, s);
            sep = "";
        }
    }
}

const char *cfg_nearest_choice(const struct cfg_choices *c, const char *value)
{
    const char *best_name = NULL;
    size_t best = SIZE_MAX;
    for (size_t i = 0; c->name(i); i++) {
        size_t d = edit_distance(value, c->name(i));
        if (d < best) {
            best = d;
            best_name = c->name(i);
        }
    }
    return close_enough(best, value) ? best_name : NULL;
}

const char *cfg_key_named(const struct config *cfg, const char *name, char *buf, size_t size)
{
    size_t found = 0, seen = 0, used = 0;
    for (size_t i = 0; i < cfg->n_keys; i++)
        found += strcmp(cfg->slot[i].key->name, name) == 0;
    if (found == 0 || size == 0)
        return NULL;
    for (size_t i = 0; i < cfg->n_keys && used + 1 < size; i++) {
        const struct cfg_key *k = cfg->slot[i].key;
        if (strcmp(k->name, name) != 0)
            continue;
        seen++;
        const char *sep = seen == 1 ? "" : seen == found ? " or " : ", ";
        int n = snprintf(buf + used, size - used, "%s%s.%s", sep, k->section, k->name);
        used = n < 0 ? size - 1 : used + (size_t)n < size ? used + (size_t)n : size - 1;
    }
    return buf;
}

const char *cfg_key_elsewhere(const struct config *cfg, const char *name, char *buf, size_t size)
{
    const char *named = cfg_key_named(cfg, name, buf, size);
    return named ? named : name[0] ? cfg_nearest_key(cfg, "", name, buf, size) : NULL;
}
