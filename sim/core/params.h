/* Parameter tables: how a plug-in declares the configuration keys it owns.
 *
 * Promise: a plug-in (topology, path selection, switching engine, access protocol,
 * arrival, destination, length, analytic model) that has keys of its own declares a
 * struct of their values and one cfg_param_table of rows, each row a key with its
 * section, name, type, offset into that struct, default, bounds and meaning, and
 * points its ops table's `params` at it.  The loader (sim/config) finds the tables
 * through the registries it is handed, lays out one block per table inside the
 * struct config, fills it from the defaults, the file and -s overrides, and hands
 * the block back to the plug-in (cfg_params()).  Several plug-ins may point at one
 * table (wormhole and cut-through share the flit engine's keys): it is laid out once.
 * The framework's own keys (the choice keys, run.*, and the few every plug-in of a
 * kind reads) are rows of the same type in sim/config/config_keys.c, with offsets
 * into struct config.  A table also names the shared keys of other tables its
 * plug-ins read by name (`reads`), so that a run's config echo lists every key in
 * effect and nothing else (sim/config/config.h: cfg_echo_keys).
 * Needs: nothing (plain data), so a plug-in declares keys without the loader.
 */
#ifndef SIM_CORE_PARAMS_H
#define SIM_CORE_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cfg_choices;

enum { CFG_TEXT_MAX = 512, CFG_LIST_MAX = 64 };

/* How a key's value is written and stored: INT int64_t, UINT uint64_t, REAL double,
 * BOOL bool, CHOICE const char * (one of `choices`' names), LIST struct cfg_list,
 * TEXT char[CFG_TEXT_MAX]. */
enum cfg_type { CFG_INT, CFG_UINT, CFG_REAL, CFG_BOOL, CFG_CHOICE, CFG_LIST, CFG_TEXT };

/* A list key's value: up to CFG_LIST_MAX numbers written "a, b, c" (empty: none). */
struct cfg_list {
    uint32_t count;
    double value[CFG_LIST_MAX];
};

struct cfg_key {
    const char *section, *name;
    enum cfg_type type;
    size_t offset;         /* into the owner's values: its params struct, or struct config */
    const char *fallback;  /* default, as it would be written in the file */
    double min, max;       /* inclusive bounds for numbers (every element of a list) */
    bool min_exclusive;    /* e.g. rate > 0 */
    /* CHOICE: the allowed names.  NULL in the framework's rows of a registry's name
     * (network.topology...): the loader takes those from the registries it is handed. */
    const struct cfg_choices *choices;
    const char *help;
};

struct cfg_param_table {
    const struct cfg_key *keys;
    size_t count;
    size_t size; /* sizeof the plug-in's params struct */
    /* Optional: list these keys right after that one ("section.name") instead of at
     * the end of their section, to keep an order users know. */
    const char *listed_after;
    /* Optional, NULL-terminated: the keys of other tables (shared keys, "section.name")
     * the plug-ins of this table read by name.  A run's config echo lists them when
     * one of these plug-ins is chosen, as it lists the table's own keys. */
    const char *const *reads;
};

/* Declares `name` as the table of the rows in `keys_array` for values in `params_type`. */
#define CFG_PARAM_TABLE(name, params_type, keys_array)                                                          \
    CFG_PARAM_TABLE_AFTER(name, params_type, keys_array, NULL)
#define CFG_PARAM_TABLE_AFTER(name, params_type, keys_array, after)                                             \
    const struct cfg_param_table name = { keys_array, sizeof keys_array / sizeof keys_array[0],                 \
                                          sizeof(params_type), after, NULL }
/* The same, for plug-ins that also read the keys of other tables named in `reads_array`
 * (a NULL-terminated array of "section.name"). */
#define CFG_PARAM_TABLE_READS(name, params_type, keys_array, reads_array)                                       \
    CFG_PARAM_TABLE_AFTER_READS(name, params_type, keys_array, NULL, reads_array)
#define CFG_PARAM_TABLE_AFTER_READS(name, params_type, keys_array, after, reads_array)                         \
    const struct cfg_param_table name = { keys_array, sizeof keys_array / sizeof keys_array[0],                 \
                                          sizeof(params_type), after, reads_array }

#endif
