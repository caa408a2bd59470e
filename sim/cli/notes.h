/* Notes on stderr about a configuration that loaded but may not do what was meant:
 * one line each, never an error (the run goes on).
 *
 * Promise: note_defaults_only() says when the config file sets no key (an empty file
 * runs every default); note_overrides_without_effect() names each -s override that no
 * plug-in the configuration chose reads, with the choice that rules it out ("sim: -s
 * routing.router has no effect with routing.switching = store-and-forward").  Keys set in
 * a config file are never noted: one file may serve a sweep over plug-ins, and its keys
 * for the plug-ins not chosen are silently ignored, as documented.
 */
#ifndef SIM_CLI_NOTES_H
#define SIM_CLI_NOTES_H

#include <stddef.h>

#include "../config/config.h"

void note_defaults_only(const struct config *cfg);
/* overrides: "section.key=value" as given to -s (--seed and --replications included). */
void note_overrides_without_effect(const struct config *cfg, const char *const *overrides, size_t n_overrides);

#endif
