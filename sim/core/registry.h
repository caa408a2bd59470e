/* One macro per registry: given a static array of pointers to ops structs that
 * start with `name` and `help`, defines NAME_find(name) and the cfg_choices the
 * config loader and --list use.  Keeps every registry file to its list of modules. */
#ifndef SIM_REGISTRY_H
#define SIM_REGISTRY_H

#include <stddef.h>
#include <string.h>

/* A registry seen by the config: the i-th name and its one-line meaning, NULL past the end.
 * Here, not in sim/config, so a plug-in can define its registry without seeing the config. */
struct cfg_choices {
    const char *(*name)(size_t i);
    const char *(*help)(size_t i);
};

#define REGISTRY_DEFINE(ops_type, array, find_fn, choices_var)                                                  \
    const ops_type *find_fn(const char *name)                                                                   \
    {                                                                                                            \
        for (size_t i = 0; i < sizeof array / sizeof array[0]; i++)                                            \
            if (strcmp(array[i]->name, name) == 0)                                                              \
                return array[i];                                                                                 \
        return NULL;                                                                                             \
    }                                                                                                            \
    static const char *choices_var##_name(size_t i)                                                            \
    {                                                                                                            \
        return i < sizeof array / sizeof array[0] ? array[i]->name : NULL;                                     \
    }                                                                                                            \
    static const char *choices_var##_help(size_t i)                                                            \
    {                                                                                                            \
        return i < sizeof array / sizeof array[0] ? array[i]->help : NULL;                                     \
    }                                                                                                            \
    const struct cfg_choices choices_var = { choices_var##_name, choices_var##_help }

#endif
