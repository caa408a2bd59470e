/* The framework's own keys: the choice keys (their names come from the registries in
 * the schema the loader is handed), run.*, and the few every plug-in of a kind reads.
 * A plug-in's own keys are in its own file (sim/core/params.h).
 * Adding a framework key: a field in struct config and a row here. */
#include <float.h>
#include <stddef.h>

#include "config.h"

#define AT(field) offsetof(struct config, field)

static const struct cfg_key main_keys[] = {
    { "network", "topology", CFG_CHOICE, AT(network.topology), "hypercube", 0, 0, false, NULL,
      "network family (see the list of topologies)" },
    { "network", "dimension", CFG_INT, AT(network.dimension), "6", 1, 64, false, NULL,
      "dimension: n of a hypercube, k-ary n-cube or CCC; D of a hierarchical or bus hypercube" },
    { "network", "bandwidth", CFG_REAL, AT(network.bandwidth), "1.0", 0, DBL_MAX, true, NULL,
      "length units a channel carries per time unit (hierarchical: cluster links)" },
    { "network", "links", CFG_CHOICE, AT(network.links), "full-duplex", 0, 0, false, NULL,
      "point-to-point links: two channels (full duplex) or one shared" },
    { "network", "concentration", CFG_INT, AT(network.concentration), "1", 1, 256, false, NULL,
      "terminals per router, on links of their own (1: every router is its own terminal, no terminal links); "
      "the dragonfly's p" },
    { "routing", "algorithm", CFG_CHOICE, AT(routing.algorithm), "ecube", 0, 0, false, NULL,
      "path selection" },
    { "routing", "switching", CFG_CHOICE, AT(routing.switching), "store-and-forward", 0, 0, false, NULL,
      "switching technique" },
    { "node", "service_rate", CFG_REAL, AT(node.service_rate), "0", 0, DBL_MAX, false, NULL,
      "μ_N: every visit (source, each relay, destination) queues for one deterministic node service of "
      "1/μ_N; 0 = nodes take no time" },
    { "protocol", "link", CFG_CHOICE, AT(protocol.link), "fifo", 0, 0, false, NULL,
      "channel access protocol" },
    { "protocol", "priority", CFG_CHOICE, AT(protocol.priority), "fifo", 0, 0, false, NULL,
      "order of every node and channel queue (non-preemptive)" },
    { "workload", "arrival", CFG_CHOICE, AT(workload.arrival), "poisson", 0, 0, false, NULL,
      "arrival process at each node" },
    { "workload", "rate", CFG_REAL, AT(workload.rate), "1.0", 0, DBL_MAX, true, NULL,
      "offered load per node per time unit, in workload.rate_unit" },
    { "workload", "rate_unit", CFG_CHOICE, AT(workload.rate_unit), "messages", 0, 0, false, NULL,
      "unit of workload.rate: messages, or flits (a message is max(1, ceil(length / bandwidth)) whole flits)" },
    { "workload", "destination", CFG_CHOICE, AT(workload.destination), "uniform", 0, 0, false, NULL,
      "destination distribution" },
    { "workload", "classes", CFG_CHOICE, AT(workload.classes), "single", 0, 0, false, NULL,
      "message classes: one kind, or requests that each produce a reply (closed loop)" },
    { "workload", "length", CFG_CHOICE, AT(workload.length), "exponential", 0, 0, false, NULL,
      "message length distribution" },
    { "workload", "mean_length", CFG_REAL, AT(workload.mean_length), "1.0", 0, DBL_MAX, true, NULL,
      "mean message length, in length units" },
    { "run", "seed", CFG_UINT, AT(run.seed), "1", 0, 1.8446744073709552e19, false, NULL,
      "seed of every random stream (--seed overrides)" },
    { "run", "warmup", CFG_CHOICE, AT(run.warmup), "fixed", 0, 0, false, NULL,
      "warm-up rule: fixed counts (warmup_messages or warmup_time), or auto (MSER-5 from message 0)" },
    { "run", "warmup_messages", CFG_INT, AT(run.warmup_messages), "20000", 0, 1e15, false, NULL,
      "messages created before measurement starts (discarded; run.warmup = fixed)" },
    { "run", "messages", CFG_INT, AT(run.messages), "400000", 1, 1e15, false, NULL,
      "messages measured after the warm-up (auto: from message 0); the run ends when all are delivered "
      "(with run.precision: at most this many)" },
    { "run", "precision", CFG_REAL, AT(run.precision), "0", 0, 1, false, NULL,
      "0: off; else run until the delay mean's 95% CI has a relative half-width at most this (sequential "
      "batch means; message mode)" },
    { "run", "warmup_time", CFG_REAL, AT(run.warmup_time), "0", 0, DBL_MAX, false, NULL,
      "time mode: simulated time before measurement starts (needs run.duration)" },
    { "run", "duration", CFG_REAL, AT(run.duration), "0", 0, DBL_MAX, false, NULL,
      "time mode when > 0: measure every message delivered in [warmup_time, warmup_time + duration], then "
      "stop (messages counts are then unused)" },
    { "run", "replications", CFG_INT, AT(run.replications), "1", 1, 1000000, false, NULL,
      "independent runs; above 1 the report gives the across-replication 95% CI of the mean, standard "
      "deviation and maximum" },
    { "run", "batches", CFG_INT, AT(run.batches), "20", 2, 1000, false, NULL,
      "batches for the batch-means interval (creation order; time mode: slices of the window)" },
    { "run", "redraw_length_per_hop", CFG_BOOL, AT(run.redraw_length_per_hop), "false", 0, 0, false, NULL,
      "re-draw the length at every hop (Kleinrock's independence made exact)" },
    { "run", "allow_unstable", CFG_BOOL, AT(run.allow_unstable), "false", 0, 0, false, NULL,
      "run even when a node's or channel's offered load reaches its capacity" },
    { "run", "max_wall_seconds", CFG_REAL, AT(run.max_wall_seconds), "0", 0, DBL_MAX, false, NULL,
      "stop the run after this much wall-clock time (0: no limit)" },
};
/* Listed after workload.hops, where --list and the config echo have always shown it. */
static const struct cfg_key late_keys[] = {
    { "workload", "first_at_zero", CFG_BOOL, AT(workload.first_at_zero), "false", 0, 0, false, NULL,
      "every node creates its first message at time 0 (as SLAM's CREATE does)" },
};

const struct cfg_param_table cfg_framework_tables[] = {
    { main_keys, sizeof main_keys / sizeof main_keys[0], 0, NULL, NULL },
    { late_keys, sizeof late_keys / sizeof late_keys[0], 0, "workload.hops", NULL },
};
const size_t cfg_framework_table_count = sizeof cfg_framework_tables / sizeof cfg_framework_tables[0];
