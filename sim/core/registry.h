/* One macro per registry: given a static array of pointers to ops structs that
 * start with `name` and `help`, defines NAME_find(name) and the cfg_choices the
 * config loader and --list use.  Keeps every registry file to its list of modules.
 * REGISTRY_DEFINE_PLUGINS is for ops structs that also have a `params` member (a
 * const struct cfg_param_table *, NULL when the module has no keys): the loader
 * reaches every plug-in's keys through the choices' params(). */
#ifndef SIM_REGISTRY_H
#define SIM_REGISTRY_H

#include <stddef.h>
#include <string.h>

/* A registry seen by the config: the i-th name and its one-line meaning, NULL past the end.
 * Here, not in sim/config, so a plug-in can define its registry without seeing the config. */
struct cfg_param_table;
struct cfg_choices {
    const char *(*name)(size_t i);
    const char *(*help)(size_t i);
    /* The i-th module's key table (NULL: none); the member itself is NULL for a list
     * of plain names (a choice key's values that are not plug-ins). */
    const struct cfg_param_table *(*params)(size_t i);
};

#define REGISTRY_FIND(ops_type, array, find_fn)                                                                 \
    const ops_type *find_fn(const char *name)                                                                   \
    {                                                                                                            \
        for (size_t i = 0; i < sizeof array / sizeof array[0]; i++)                                            \
            if (strcmp(array[i]->name, name) == 0)                                                              \
                return array[i];                                                                                 \
        return NULL;                                                                                             \
    }

#define REGISTRY_NAMES(array, choices_var)                                                                     \
    static const char *choices_var##_name(size_t i)                                                            \
    {                                                                                                            \
        return i < sizeof array / sizeof array[0] ? array[i]->name : NULL;                                     \
    }                                                                                                            \
    static const char *choices_var##_help(size_t i)                                                            \
    {                                                                                                            \
        return i < sizeof array / sizeof array[0] ? array[i]->help : NULL;                                     \
    }

#define REGISTRY_DEFINE(ops_type, array, find_fn, choices_var)                                                  \
    REGISTRY_FIND(ops_type, array, find_fn)                                                                     \
    REGISTRY_NAMES(array, choices_var)                                                                         \
    const struct cfg_choices choices_var = { choices_var##_name, choices_var##_help, NULL }

#define REGISTRY_DEFINE_PLUGINS(ops_type, array, find_fn, choices_var)                                          \
    REGISTRY_FIND(ops_type, array, find_fn)                                                                     \
    REGISTRY_PLUGIN_CHOICES(array, choices_var)

/* The choices (with params) of a plug-in registry that needs no find function. */
#define REGISTRY_PLUGIN_CHOICES(array, choices_var)                                                            \
    REGISTRY_NAMES(array, choices_var)                                                                         \
    static const struct cfg_param_table *choices_var##_params(size_t i)                                        \
    {                                                                                                            \
        return i < sizeof array / sizeof array[0] ? array[i]->params : NULL;                                   \
    }                                                                                                            \
    const struct cfg_choices choices_var = { choices_var##_name, choices_var##_help, choices_var##_params }

#endif
