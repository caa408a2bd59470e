/* Configuration: the one struct every module reads, and its loader.
 *
 * Promise: cfg_load() fills a struct config from an .ini file (parsed with inih) and
 * `-s section.key=value` overrides, or returns a cfg_error naming the file, line and
 * key at fault: unknown section or key (with the nearest valid key), wrong type,
 * impossible value, key set twice, unreadable file.  Every key is declared once in
 * config_keys.c with its type, default, bounds and meaning; --list prints that table.
 * Checks a plug-in makes across its own keys are not the loader's: sim/run/run_config.h
 * runs them after loading.
 * Choice keys (topology, routing, ...) accept the names in the module registries.
 * Needs: inih, the module registries (names only).
 */
#ifndef SIM_CONFIG_H
#define SIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/registry.h" /* struct cfg_choices */

enum { CFG_TEXT_MAX = 512, CFG_LIST_MAX = 64 };

/* A list key's value: up to CFG_LIST_MAX numbers written "a, b, c" (empty: none). */
struct cfg_list {
    uint32_t count;
    double value[CFG_LIST_MAX];
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
    const char *file; /* points at config.path or a static string; NULL = default */
    int line;
};

enum cfg_key_id {
    KEY_NETWORK_TOPOLOGY, KEY_NETWORK_DIMENSION, KEY_NETWORK_BANDWIDTH, KEY_NETWORK_LINKS, KEY_NETWORK_RADIX,
    KEY_NETWORK_WRAP, KEY_NETWORK_BIDIRECTIONAL, KEY_NETWORK_WIDTH, KEY_NETWORK_CLUSTER_DIMENSION,
    KEY_NETWORK_LEVEL2_BANDWIDTH, KEY_NETWORK_LEVEL2_REPLICATION,
    KEY_ROUTING_ALGORITHM, KEY_ROUTING_SWITCHING, KEY_ROUTING_DIMENSION_ORDER, KEY_ROUTING_BUFFERS,
    KEY_ROUTING_FORCED_CHOICE, KEY_ROUTING_FLIT_BUFFERS, KEY_ROUTING_VIRTUAL_CHANNELS,
    KEY_ROUTING_ROUTER_DELAY, KEY_ROUTING_LINK_LATENCY, KEY_ROUTING_FINITE_BUFFER,
    KEY_NODE_SERVICE_RATE,
    KEY_PROTOCOL_LINK, KEY_PROTOCOL_PRIORITY, KEY_PROTOCOL_SLOT, KEY_PROTOCOL_TDM_RULE, KEY_PROTOCOL_TOKEN_TIME,
    KEY_PROTOCOL_MAX_PER_CAPTURE,
    KEY_WORKLOAD_ARRIVAL, KEY_WORKLOAD_RATE, KEY_WORKLOAD_DESTINATION, KEY_WORKLOAD_LENGTH,
    KEY_WORKLOAD_MEAN_LENGTH, KEY_WORKLOAD_LOCALITY, KEY_WORKLOAD_HOPS, KEY_WORKLOAD_FIRST_AT_ZERO,
    KEY_WORKLOAD_DISTANCE_WEIGHTS, KEY_WORKLOAD_LOCALITY_FRACTION, KEY_WORKLOAD_HOTSPOT_NODE,
    KEY_WORKLOAD_HOTSPOT_FRACTION, KEY_WORKLOAD_SHORT_LENGTH, KEY_WORKLOAD_LONG_LENGTH, KEY_WORKLOAD_LONG_FRACTION,
    KEY_WORKLOAD_EMPIRICAL_LENGTHS, KEY_WORKLOAD_EMPIRICAL_WEIGHTS, KEY_WORKLOAD_TRACE,
    KEY_RUN_SEED, KEY_RUN_WARMUP_MESSAGES, KEY_RUN_MESSAGES, KEY_RUN_WARMUP_TIME, KEY_RUN_DURATION,
    KEY_RUN_REPLICATIONS, KEY_RUN_BATCHES,
    KEY_RUN_REDRAW_LENGTH_PER_HOP, KEY_RUN_ALLOW_UNSTABLE, KEY_RUN_MAX_WALL_SECONDS,
    KEY_PHYSICAL_SWITCH_DELAY, KEY_PHYSICAL_WIRE_DELAY, KEY_PHYSICAL_CONSTRAINT, KEY_PHYSICAL_BISECTION_PER_NODE,
    KEY_PHYSICAL_NODE_PINS, KEY_PHYSICAL_NODES, KEY_PHYSICAL_DIMENSION, KEY_PHYSICAL_LOCALITY_FRACTION,
    KEY_PHYSICAL_INDIRECT_RADIX,
    CFG_KEY_COUNT
};

struct config {
    char path[CFG_TEXT_MAX];
    struct {
        const char *topology; /* a name from topo/registry.c */
        int64_t dimension;
        double bandwidth;       /* length units per time unit (hierarchical: cluster links) */
        const char *links;      /* "full-duplex" or "half-duplex" */
        int64_t radix;          /* k of a k-ary n-cube */
        bool wrap;              /* k-ary n-cube: torus (true) or mesh */
        bool bidirectional;     /* k-ary n-cube: channels both ways round each ring */
        int64_t width;          /* W: members of a bus (bus hypercubes) */
        int64_t cluster_dimension; /* d: clusters of 2^d nodes */
        double level2_bandwidth;   /* 0: same as bandwidth */
        int64_t level2_replication; /* r parallel wires per level-2 link */
    } network;
    struct {
        const char *algorithm; /* path selection, routing/registry.c */
        const char *switching;
        const char *dimension_order; /* ecube: "ascending" or "descending" */
        int64_t buffers;             /* backtracking: M message buffers shared per node */
        const char *forced_choice;   /* backtracking: which messages phase 2 forces out */
        /* wormhole and cut-through (routing/flit.h) */
        int64_t flit_buffers;     /* wormhole: flits a VC's buffer holds (credits) */
        int64_t virtual_channels; /* per channel; >= 2 on a torus: dateline classes */
        int64_t router_delay;     /* cycles from a header's arrival to its request */
        int64_t link_latency;     /* cycles a flit spends on a link */
        bool finite_buffer;       /* seed 003: refuse a new message whose first channel is busy */
    } routing;
    struct {
        double service_rate; /* μ_N: deterministic service per visit; 0 = nodes cost nothing */
    } node;
    struct {
        const char *link;     /* channel access, protocols/registry.c */
        const char *priority; /* queue discipline of node and channel queues */
        double slot;          /* TDM: slot per sender, in mean transmission times */
        const char *tdm_rule; /* TDM: "thesis" or "strict" */
        double token_time;    /* token passing: one pass, in mean transmission times */
        int64_t max_per_capture; /* token passing: messages sent per token capture */
    } protocol;
    struct {
        const char *arrival;
        double rate; /* messages per node per time unit */
        const char *destination;
        const char *length;
        double mean_length;
        double locality; /* α of cluster-locality */
        int64_t hops;    /* h of fixed-hops */
        bool first_at_zero; /* every node's first message at t = 0 (SLAM's CREATE), not after a draw */
        struct cfg_list distance_weights; /* spherical: weight of distance 1, 2, ...; empty = all equal */
        double locality_fraction;         /* distance-locality: l, the fraction of nodes in the region */
        int64_t hotspot_node;
        double hotspot_fraction;
        double short_length, long_length, long_fraction; /* bimodal */
        struct cfg_list empirical_lengths, empirical_weights;
        char trace[CFG_TEXT_MAX]; /* trace arrivals: the file replayed */
        /* Derived by workload_check() (not keys): empirical lengths' cumulative probabilities. */
        double empirical_cdf[CFG_LIST_MAX];
    } workload;
    struct {
        uint64_t seed;
        int64_t warmup_messages;
        int64_t messages;
        double warmup_time; /* time mode: measurement starts here */
        double duration;    /* > 0 selects time mode: measure deliveries in [warmup_time, +duration] */
        int64_t replications;
        int64_t batches; /* batch means for the confidence interval */
        bool redraw_length_per_hop;
        bool allow_unstable;
        double max_wall_seconds; /* 0 = no limit */
    } run;
    struct { /* seed 002's physical analysis (analytic/kary_physical.c); the simulation ignores it */
        double switch_delay;      /* s = T^s / T^w(2) */
        const char *wire_delay;   /* longest-wire model: planar, unit, 3d */
        const char *constraint;   /* fixed-width, fixed-bisection, fixed-node-size */
        double bisection_per_node; /* fixed-bisection: wires across the bisection per node */
        double node_pins;         /* fixed-node-size: signal wires per node */
        int64_t nodes;            /* N evaluated (0: the network's k^n) */
        int64_t dimension;        /* n evaluated (0: the network's) */
        double locality_fraction; /* l of the locality model (1: uniform) */
        int64_t indirect_radix;   /* k of the k x k switches of an indirect network compared (0: none) */
    } physical;
    struct cfg_origin origin[CFG_KEY_COUNT];
    const char *write_trace; /* not a key (sim --write-trace): file receiving the run's messages as a trace */
};

enum cfg_type { CFG_INT, CFG_UINT, CFG_REAL, CFG_BOOL, CFG_CHOICE, CFG_LIST, CFG_TEXT };

struct cfg_key {
    const char *section, *name;
    enum cfg_type type;
    size_t offset;         /* into struct config */
    const char *fallback;  /* default, as it would be written in the file */
    double min, max;       /* inclusive bounds for numbers (every element of a list) */
    bool min_exclusive;    /* e.g. rate > 0 */
    const struct cfg_choices *choices;
    const char *help;
};

extern const struct cfg_key cfg_keys[CFG_KEY_COUNT];

/* Loads defaults, then the file, then each override ("section.key=value").
 * Returns false and fills *err on the first problem. */
bool cfg_load(struct config *cfg, const char *path, const char *const *overrides, size_t n_overrides,
              struct cfg_error *err);
/* Defaults only (tests build configs this way). */
void cfg_defaults(struct config *cfg);
/* Sets one key as if from `file`:`line`; used by cfg_load and by tests. */
bool cfg_set(struct config *cfg, const char *section, const char *name, const char *value, const char *file,
             int line, struct cfg_error *err);

/* Fills *err blaming the place key `id` was set (or the config file if defaulted). */
void cfg_blame(const struct config *cfg, enum cfg_key_id id, struct cfg_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Prints "file:line: key: message" on stderr (one line). */
void cfg_error_print(const struct cfg_error *err, FILE *out);
/* Prints every key, grouped by section, with type, default and meaning (for --list). */
void cfg_print_keys(FILE *out);

#endif
