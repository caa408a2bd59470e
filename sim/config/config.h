/* The configuration loader (the value it fills is sim/core/config_value.h).
 *
 * Promise: cfg_load() fills a struct config from an .ini file (parsed with inih) and
 * `-s section.key=value` overrides, or returns a cfg_error naming the file, line and
 * key at fault: unknown section or key (with the nearest valid key), wrong type,
 * impossible value, key set twice, unreadable file.  The keys are the framework's
 * own rows (config_keys.c: the choice keys, run.*, and the few every plug-in of a
 * kind reads, typed fields of struct config) and every plug-in's table
 * (sim/core/params.h), found through the registries in the cfg_schema the caller
 * hands over: the loader includes no plug-in.  --list, the report's config echo (the
 * keys in effect: cfg_echo_keys) and sweeps walk the same layout (cfg_key_count/cfg_key_at), in one order: sections as
 * the framework declares them; in each, the framework's keys, then the plug-ins'
 * in the schema's order.
 * Checks a plug-in makes across its own keys are not the loader's: sim/run/run_config.h
 * runs them after loading.
 * Needs: inih; the schema (names and key tables of the registries).
 */
#ifndef SIM_CONFIG_H
#define SIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/config_value.h" /* struct config and reading it */
#include "../core/params.h"       /* struct cfg_key, cfg_param_table, cfg_list */
#include "../core/registry.h"     /* struct cfg_choices */
#include "../core/text_input.h"   /* enum text_status */

/* One registry as the loader sees it: the choice key whose values are its names
 * ("network.topology"; NULL for a registry that is no key's values, the analytic
 * models), and its names, meanings and key tables. */
struct cfg_registry {
    const char *key;
    const struct cfg_choices *choices;
};

/* What the loader is handed: the registries, in the order their plug-ins' keys are
 * listed.  Built by sim/run/run_config.c. */
struct cfg_schema {
    const struct cfg_registry *registries;
    size_t count;
};

/* The framework's keys (config_keys.c): tables whose offsets are into struct config. */
extern const struct cfg_param_table cfg_framework_tables[];
extern const size_t cfg_framework_table_count;

/* Lays out the keys of the framework and of every plug-in in `schema`, then loads
 * their defaults, the file and each override ("section.key=value").  Returns false
 * and fills *err on the first problem. */
bool cfg_load(struct config *cfg, const char *path, const char *const *overrides, size_t n_overrides,
              const struct cfg_schema *schema, struct cfg_error *err);
/* A configuration file's text, read once (cfg_read_whole_file) so that every load of
 * it sees the same bytes, whatever happens to the file since (a sweep's points). */
struct cfg_text {
    const char *path; /* names it in messages and reports */
    char *text;
    size_t len;
};
/* Reads the file whole by the loader's rules (size, lines, control bytes): TEXT_END
 * when read, else TEXT_REFUSED or TEXT_INTERRUPTED (a held stop signal) with *err. */
enum text_status cfg_read_whole_file(const char *path, char **text, size_t *len, struct cfg_error *err);
/* cfg_load with the file's text already read. */
bool cfg_load_text(struct config *cfg, const struct cfg_text *text, const char *const *overrides,
                   size_t n_overrides, const struct cfg_schema *schema, struct cfg_error *err);
/* The layout and the defaults only (tests build configs this way). */
void cfg_defaults(struct config *cfg, const struct cfg_schema *schema);
/* Sets one key as if from `file`:`line`; used by cfg_load and by tests. */
bool cfg_set(struct config *cfg, const char *section, const char *name, const char *value, const char *file,
             int line, struct cfg_error *err);

/* The keys in effect for cfg, which its reports echo (*out, in listing order): the
 * framework's keys; for each keyed registry of the schema whose key is in effect, the
 * keys of the plug-in the key chose (a registry keyed by a plug-in's own key counts
 * only when that plug-in is chosen); for a registry no key chooses (the analytic models), those of each
 * plug-in `applied` says took part (NULL: none); with each table, the shared keys it
 * reads (cfg_param_table.reads).  A plug-in cfg does not choose adds nothing. */
void cfg_echo_keys(const struct config *cfg, const struct cfg_schema *schema,
                   bool (*applied)(const char *name, const void *ctx), const void *ctx, struct cfg_echo *out);

/* Why key `key` (a position in the layout) is not in `echo`, cfg_echo_keys' output:
 * the choice keys in effect whose value chose no plug-in that reads it, as
 * "routing.switching = store-and-forward" (several joined by " and "; a choice key that is
 * itself out of effect is followed up to the choice that rules it out), into buf.
 * False when no choice would read it (a key of the analytic models). */
bool cfg_echo_why_not(const struct config *cfg, const struct cfg_schema *schema, const struct cfg_echo *echo,
                      size_t key, char *buf, size_t size);
/* Whether the config file itself set any key (an empty one runs the defaults). */
bool cfg_file_sets_keys(const struct config *cfg);

/* Prints every key of cfg's layout, grouped by section, with type, default and
 * meaning (for --list). */
void cfg_print_keys(const struct config *cfg, FILE *out);
/* The same as Markdown tables, one per section, with each key's allowed values (for
 * --list-markdown: docs/manual.md's key reference). */
void cfg_print_keys_markdown(const struct config *cfg, FILE *out);

#endif
