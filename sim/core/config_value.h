/* The configuration as a value: what every module reads, and how to read it.
 *
 * Promise: a struct config holds the framework's keys as typed fields and every
 * plug-in's key values in blocks laid out by the loader (sim/config) from the
 * plug-ins' own tables (sim/core/params.h), with where each key was set.  It is a
 * plain value: copying it copies every value.  A plug-in reads its own block
 * (cfg_params), any module any key by name (cfg_int, cfg_real, ...), and errors name
 * the file, line and key a value came from (cfg_blame).  Reading a key that is not in
 * the layout, or as the wrong type, is a programming error (abort with a message).
 * Needs: nothing but the parameter-table types; the loader fills it.
 */
#ifndef SIM_CORE_CONFIG_VALUE_H
#define SIM_CORE_CONFIG_VALUE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "params.h" /* struct cfg_key, cfg_param_table, cfg_list */

struct cfg_choices;

enum {
    CFG_KEYS_MAX = 128,   /* keys of a layout, framework and plug-ins */
    CFG_BLOCKS_MAX = 32,  /* plug-in key tables */
    CFG_ARENA_MAX = 8192, /* bytes of their values */
};

/* The keys a report echoes, as positions in a config's layout in listing order: the
 * framework's keys and those of the plug-ins and analytic models a run chose
 * (sim/run/run_config.h, run_config_echo).  Plain data, so the report needs no loader. */
struct cfg_echo {
    uint16_t n;
    uint16_t key[CFG_KEYS_MAX];
};

struct cfg_error {
    char file[CFG_TEXT_MAX]; /* config path, or "command line" */
    int line;                /* 0 when not tied to a line */
    char key[64];            /* section.key, or "" */
    char message[CFG_TEXT_MAX];
};

/* Where a key's value came from: so that later checks (e.g. unstable load) can blame
 * the right line. */
struct cfg_origin {
    bool set;         /* false: the key has its default */
    const char *file; /* where it was set: a string that outlives every config ("command line
                       * (-s)", "--sweep"), or NULL for the config's own file (its path), so
                       * that a copy of a config points into nothing of the original */
    int line;
};

/* One key of a config's layout: its row, its allowed names (CHOICE) and where its
 * value lives (an offset into struct config: a framework field or the arena). */
struct cfg_slot {
    const struct cfg_key *key;
    const struct cfg_choices *choices;
    size_t at;
};

struct config {
    char path[CFG_TEXT_MAX];
    /* The framework's keys (sim/config/config_keys.c). */
    struct {
        const char *topology; /* a name from topo/registry.c */
        int64_t dimension;
        double bandwidth;       /* length units per time unit (hierarchical: cluster links) */
        const char *links;      /* "full-duplex" or "half-duplex" */
        int64_t concentration;  /* terminals per router (1: every router is its own terminal) */
    } network;
    struct {
        const char *algorithm; /* path selection, routing/registry.c */
        const char *switching;
    } routing;
    struct {
        double service_rate; /* μ_N: deterministic service per visit; 0 = nodes cost nothing */
    } node;
    struct {
        const char *link;     /* channel access, protocols/registry.c */
        const char *priority; /* queue discipline of node and channel queues */
    } protocol;
    struct {
        const char *arrival;
        double rate;           /* as written: in rate_unit (use cfg_message_rate) */
        const char *rate_unit; /* "messages" or "flits" (per node per time unit) */
        const char *destination;
        const char *length;
        const char *classes;   /* "single" or "request-reply" (workloads/classes.c) */
        double mean_length;
        /* Not a key: the mean whole flits of a message, E[max(1, ceil(length /
         * network.bandwidth))], set by the run's loading (sim/run/run_config.c) from the
         * length distribution when rate_unit = flits; 0 otherwise. */
        double mean_flits;
        bool first_at_zero; /* every node's first message at t = 0 (SLAM's CREATE), not after a draw */
    } workload;
    struct {
        uint64_t seed;
        const char *warmup;       /* "fixed" (warmup_messages, warmup_time) or "auto" (MSER-5) */
        int64_t warmup_messages;
        int64_t messages;
        double warmup_time; /* time mode: measurement starts here */
        double duration;    /* > 0 selects time mode: measure deliveries in [warmup_time, +duration] */
        int64_t replications;
        int64_t batches; /* batch means for the confidence interval */
        bool redraw_length_per_hop;
        bool allow_unstable;
        double max_wall_seconds; /* 0 = no limit */
        double precision;        /* > 0: stop when the delay CI's relative half-width is at most this */
    } run;
    const char *write_trace; /* not a key (sim --write-trace): file receiving the run's messages as a trace */
    /* Not keys (sim --channels, --nodes, --histogram, --series, --series-interval): files
     * the run writes beside its report (sim/run/observe.h), NULL when not asked for. */
    struct run_files {
        const char *channels, *nodes, *histogram, *series;
        double series_interval; /* 0: the default (about a hundredth of the window) */
    } files;

    /* The layout: every key in listing order, where it was set, and the plug-ins'
     * blocks of values in the arena (a config is a plain value: copying it copies
     * every value). */
    size_t n_keys, n_blocks;
    struct cfg_slot slot[CFG_KEYS_MAX];
    struct cfg_origin origin[CFG_KEYS_MAX];
    struct {
        const struct cfg_param_table *table;
        size_t at; /* offset into struct config */
    } block[CFG_BLOCKS_MAX];
    _Alignas(16) unsigned char arena[CFG_ARENA_MAX];
};

/* Whether workload.rate is in flits (workload.rate_unit = flits) rather than messages. */
static inline bool cfg_rate_in_flits(const struct config *cfg)
{
    return cfg->workload.rate_unit && cfg->workload.rate_unit[0] == 'f';
}

/* Messages created per node per time unit: workload.rate, or with workload.rate_unit =
 * flits, the rate in flits over the mean whole flits of a message (workload.mean_flits,
 * which the run's loading sets), so that the flits offered are the rate whatever the
 * length distribution.  The same for every engine. */
static inline double cfg_message_rate(const struct config *cfg)
{
    double rate = cfg->workload.rate;
    if (!cfg_rate_in_flits(cfg))
        return rate;
    return cfg->workload.mean_flits > 0 ? rate / cfg->workload.mean_flits : NAN; /* not set: no rate */
}

/* The layout, in listing order. */
static inline size_t cfg_key_count(const struct config *cfg) { return cfg->n_keys; }
static inline const struct cfg_key *cfg_key_at(const struct config *cfg, size_t i) { return cfg->slot[i].key; }
static inline const void *cfg_value_at(const struct config *cfg, size_t i)
{
    return (const char *)cfg + cfg->slot[i].at;
}
/* The position of "section.name" in the layout, or -1. */
int cfg_key_index(const struct config *cfg, const char *key);

/* A plug-in's block of values, laid out from its table (a struct of the type the
 * table was declared with); NULL for a NULL table (a plug-in without keys).  A table
 * not in the layout is a programming error (abort).  Read-only: after loading, nothing
 * writes a plug-in's block (the loader sets values through cfg_set). */
const void *cfg_params(const struct config *cfg, const struct cfg_param_table *table);

/* Any key's value by name ("routing.router_delay"), for code that reads a key
 * another module owns (the models, the report).  An unknown name or a read of the
 * wrong type is a programming error (abort). */
int64_t cfg_int(const struct config *cfg, const char *key);
uint64_t cfg_uint(const struct config *cfg, const char *key);
double cfg_real(const struct config *cfg, const char *key);
bool cfg_bool(const struct config *cfg, const char *key);
const char *cfg_text(const struct config *cfg, const char *key); /* CHOICE or TEXT */
const struct cfg_list *cfg_list_of(const struct config *cfg, const char *key);
/* Whether the key was set (by the file or an override) rather than defaulted. */
bool cfg_is_set(const struct config *cfg, const char *key);
/* Where the key was set (see struct cfg_origin). */
const struct cfg_origin *cfg_origin_of(const struct config *cfg, const char *key);

/* The file a TEXT key names, as a path to open, into buf: a relative path set in the
 * config file itself is taken relative to that file's folder, so a config and the
 * files it names move together; one set on the command line (or absolute) is taken
 * as written, relative to the working directory.  Returns buf. */
const char *cfg_file_path(const struct config *cfg, const char *key, char *buf, size_t size);

/* Fills *err blaming the place `key` was set (or the config file if defaulted). */
void cfg_blame(const struct config *cfg, const char *key, struct cfg_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Prints "file:line: key: message" (one line: control characters escaped). */
void cfg_error_print(const struct cfg_error *err, FILE *out);
/* Prints s with its control characters as \n, \r, \t or \xHH, so that a value echoed
 * in a message cannot break it over several lines; bytes that are no valid UTF-8, and
 * characters that print as nothing or as a plain space (a no-break space, a zero-width
 * space, a byte order mark...), are \xHH too, so that `ecube\xc2\xa0` does not read as
 * `ecube `.  Other UTF-8 text (a path in another script) is printed as it is. */
void cfg_put_escaped(const char *s, FILE *out);
/* For the loader: a broken table or default is a programming error, said loudly. */
_Noreturn void cfg_internal_error(const char *fmt, const char *what);

#endif
