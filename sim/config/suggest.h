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
/* Every "section.name" of the layout with this name: "workload.rate", or "network.dimension
 * or physical.dimension" (into buf); NULL when no section has it. */
const char *cfg_key_named(const struct config *cfg, const char *name, char *buf, size_t size);
/* A key named without its section ("rate": what BookSim users type, -s rate=0.3): every
 * section.name with that name (cfg_key_named), else the nearest key by name, else NULL. */
const char *cfg_key_elsewhere(const struct config *cfg, const char *name, char *buf, size_t size);

#endif
