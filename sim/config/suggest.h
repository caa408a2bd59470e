/* "Did you mean": the nearest valid section, key or choice to a misspelt one, by edit
 * distance (within a third of the word's length, at least 2), or NULL when nothing is
 * near enough.  Internal to the config loader.
 */
#ifndef SIM_CONFIG_SUGGEST_H
#define SIM_CONFIG_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

/* Nearest "section.key" (written into buf), a key under the wrong section included. */
const char *cfg_nearest_key(const struct config *cfg, const char *section, const char *name, char *buf, size_t size);
bool cfg_known_section(const struct config *cfg, const char *section);
const char *cfg_nearest_section(const struct config *cfg, const char *section);
/* "unknown section [x] (did you mean [y]?)", or with the list of sections when none is near. */
void cfg_unknown_section(const struct config *cfg, const char *section, char *buf, size_t size);
const char *cfg_nearest_choice(const struct cfg_choices *c, const char *value);

#endif
