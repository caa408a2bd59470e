/* Every configuration key: section, name, type, default, bounds, meaning.
 * Adding a key: a field in struct config, an id in enum cfg_key_id, a row here
 * (designated initializers keep rows and ids together; tests check no row is missing). */
#include <float.h>
#include <stddef.h>

#include "../analytic/kary_limits.h"
#include "../protocols/protocol.h"
#include "../routing/routing.h"
#include "../topo/topo.h"
#include "../workloads/workload.h"
#include "config.h"

#define AT(field) offsetof(struct config, field)

const struct cfg_key cfg_keys[CFG_KEY_COUNT] = {
    [KEY_NETWORK_TOPOLOGY] = { "network", "topology", CFG_CHOICE, AT(network.topology), "hypercube", 0, 0, false,
                               &topo_choices, "network family (see the list of topologies)" },
    [KEY_NETWORK_DIMENSION] = { "network", "dimension", CFG_INT, AT(network.dimension), "6", 1, 64, false, NULL,
                                "dimension: n of a hypercube, k-ary n-cube or CCC; D of a hierarchical or bus hypercube" },
    [KEY_NETWORK_BANDWIDTH] = { "network", "bandwidth", CFG_REAL, AT(network.bandwidth), "1.0", 0, DBL_MAX, true,
                                NULL, "length units a channel carries per time unit (hierarchical: cluster links)" },
    [KEY_NETWORK_LINKS] = { "network", "links", CFG_CHOICE, AT(network.links), "full-duplex", 0, 0, false,
                            &link_choices, "point-to-point links: two channels (full duplex) or one shared" },
    [KEY_NETWORK_RADIX] = { "network", "radix", CFG_INT, AT(network.radix), "8", 2, 1 << 30, false, NULL,
                            "k-ary n-cube, torus: k nodes per ring" },
    [KEY_NETWORK_WRAP] = { "network", "wrap", CFG_BOOL, AT(network.wrap), "true", 0, 0, false, NULL,
                           "k-ary n-cube: end-around links (torus) or none (mesh)" },
    [KEY_NETWORK_BIDIRECTIONAL] = { "network", "bidirectional", CFG_BOOL, AT(network.bidirectional), "true", 0, 0,
                                    false, NULL, "k-ary n-cube: links both ways round each ring, or one way" },
    [KEY_NETWORK_WIDTH] = { "network", "width", CFG_INT, AT(network.width), "4", 2, 1 << 30, false, NULL,
                            "bus hypercubes: W nodes on each bus (W^dimension nodes)" },
    [KEY_NETWORK_CLUSTER_DIMENSION] = { "network", "cluster_dimension", CFG_INT, AT(network.cluster_dimension), "3", 0,
                                        64, false, NULL,
                                        "d: clusters of 2^d nodes (hierarchical networks; hypercube clusters "
                                        "for cluster-locality)" },
    [KEY_NETWORK_LEVEL2_BANDWIDTH] = { "network", "level2_bandwidth", CFG_REAL, AT(network.level2_bandwidth), "0", 0,
                                       DBL_MAX, false, NULL,
                                       "hierarchical: bandwidth of one level-2 wire (0: same as bandwidth)" },
    [KEY_NETWORK_LEVEL2_REPLICATION] = { "network", "level2_replication", CFG_INT, AT(network.level2_replication),
                                         "1", 1, 1 << 20, false, NULL,
                                         "hierarchical: r parallel wires per level-2 link, one server r times "
                                         "as fast, counted r times in links" },
    [KEY_ROUTING_ALGORITHM] = { "routing", "algorithm", CFG_CHOICE, AT(routing.algorithm), "ecube", 0, 0, false,
                                &route_choices, "path selection" },
    [KEY_ROUTING_SWITCHING] = { "routing", "switching", CFG_CHOICE, AT(routing.switching), "store-and-forward", 0, 0,
                                false, &switch_choices, "switching technique" },
    [KEY_ROUTING_FLIT_BUFFERS] = { "routing", "flit_buffers", CFG_INT, AT(routing.flit_buffers), "4", 1, 1 << 20,
                                   false, NULL,
                                   "wormhole: flits one virtual channel's buffer holds at the far end of its link "
                                   "(flits on the wire included)" },
    [KEY_ROUTING_VIRTUAL_CHANNELS] = { "routing", "virtual_channels", CFG_INT, AT(routing.virtual_channels), "1", 1,
                                       64, false, NULL,
                                       "wormhole, cut-through: virtual channels per channel (torus, >= 2: dateline "
                                       "classes, lower half before the wrap-around link, upper half after)" },
    [KEY_ROUTING_ROUTER_DELAY] = { "routing", "router_delay", CFG_INT, AT(routing.router_delay), "0", 0, 1000,
                                   false, NULL,
                                   "wormhole, cut-through: cycles from a header's arrival at a node (or its offer "
                                   "at the source) to its request for the next channel" },
    [KEY_ROUTING_LINK_LATENCY] = { "routing", "link_latency", CFG_INT, AT(routing.link_latency), "1", 1, 256,
                                   false, NULL, "wormhole, cut-through: cycles a flit takes to cross a link" },
    [KEY_ROUTING_FINITE_BUFFER] = { "routing", "finite_buffer", CFG_BOOL, AT(routing.finite_buffer), "false", 0, 0,
                                    false, NULL,
                                    "wormhole, cut-through: seed 003's finite-buffer mode, a new message whose "
                                    "source is busy or whose first channel has no free VC is refused (lost)" },
    [KEY_NODE_SERVICE_RATE] = { "node", "service_rate", CFG_REAL, AT(node.service_rate), "0", 0, DBL_MAX, false,
                                NULL,
                                "μ_N: every visit (source, each relay, destination) queues for one deterministic "
                                "node service of 1/μ_N; 0 = nodes take no time" },
    [KEY_PROTOCOL_LINK] = { "protocol", "link", CFG_CHOICE, AT(protocol.link), "fifo", 0, 0, false, &proto_choices,
                            "channel access protocol" },
    [KEY_PROTOCOL_PRIORITY] = { "protocol", "priority", CFG_CHOICE, AT(protocol.priority), "fifo", 0, 0, false,
                                &priority_choices, "order of every node and channel queue (non-preemptive)" },
    [KEY_PROTOCOL_SLOT] = { "protocol", "slot", CFG_REAL, AT(protocol.slot), "1.0", 0, DBL_MAX, true, NULL,
                            "tdm: slot each sender owns in turn, in mean transmission times of the channel" },
    [KEY_PROTOCOL_TDM_RULE] = { "protocol", "tdm_rule", CFG_CHOICE, AT(protocol.tdm_rule), "thesis", 0, 0, false,
                                &tdm_rule_choices, "tdm: when a message may start on an idle channel" },
    [KEY_PROTOCOL_TOKEN_TIME] = { "protocol", "token_time", CFG_REAL, AT(protocol.token_time), "0.1", 0, DBL_MAX,
                                  true, NULL,
                                  "token: time to pass the token to the next sender, in mean transmission times" },
    [KEY_PROTOCOL_MAX_PER_CAPTURE] = { "protocol", "max_per_capture", CFG_INT, AT(protocol.max_per_capture), "3", 1,
                                       1 << 30, false, NULL, "token: messages a sender may send per token capture" },
    [KEY_WORKLOAD_ARRIVAL] = { "workload", "arrival", CFG_CHOICE, AT(workload.arrival), "poisson", 0, 0, false,
                               &arrival_choices, "arrival process at each node" },
    [KEY_WORKLOAD_RATE] = { "workload", "rate", CFG_REAL, AT(workload.rate), "1.0", 0, DBL_MAX, true, NULL,
                            "messages created per node per time unit" },
    [KEY_WORKLOAD_DESTINATION] = { "workload", "destination", CFG_CHOICE, AT(workload.destination), "uniform", 0, 0,
                                   false, &dest_choices, "destination distribution" },
    [KEY_WORKLOAD_LENGTH] = { "workload", "length", CFG_CHOICE, AT(workload.length), "exponential", 0, 0, false,
                              &length_choices, "message length distribution" },
    [KEY_WORKLOAD_MEAN_LENGTH] = { "workload", "mean_length", CFG_REAL, AT(workload.mean_length), "1.0", 0,
                                   DBL_MAX, true, NULL, "mean message length, in length units" },
    [KEY_WORKLOAD_LOCALITY] = { "workload", "locality", CFG_REAL, AT(workload.locality), "0.8", 0, 1, false, NULL,
                                "cluster-locality: probability α that the destination is in the source's cluster" },
    [KEY_WORKLOAD_HOPS] = { "workload", "hops", CFG_INT, AT(workload.hops), "2", 1, 1 << 20, false, NULL,
                            "fixed-hops: every destination exactly this many hops away" },
    [KEY_WORKLOAD_FIRST_AT_ZERO] = { "workload", "first_at_zero", CFG_BOOL, AT(workload.first_at_zero), "false", 0,
                                     0, false, NULL,
                                     "every node creates its first message at time 0 (as SLAM's CREATE does)" },
    [KEY_RUN_SEED] = { "run", "seed", CFG_UINT, AT(run.seed), "1", 0, 1.8446744073709552e19, false, NULL,
                       "seed of every random stream (--seed overrides)" },
    [KEY_RUN_WARMUP_MESSAGES] = { "run", "warmup_messages", CFG_INT, AT(run.warmup_messages), "20000", 0, 1e15,
                                  false, NULL, "messages created before measurement starts (discarded)" },
    [KEY_RUN_MESSAGES] = { "run", "messages", CFG_INT, AT(run.messages), "400000", 1, 1e15, false, NULL,
                           "messages measured after the warm-up; the run ends when all are delivered" },
    [KEY_RUN_WARMUP_TIME] = { "run", "warmup_time", CFG_REAL, AT(run.warmup_time), "0", 0, DBL_MAX, false, NULL,
                              "time mode: simulated time before measurement starts (needs run.duration)" },
    [KEY_RUN_DURATION] = { "run", "duration", CFG_REAL, AT(run.duration), "0", 0, DBL_MAX, false, NULL,
                           "time mode when > 0: measure every message delivered in [warmup_time, warmup_time + "
                           "duration], then stop (messages counts are then unused)" },
    [KEY_RUN_REPLICATIONS] = { "run", "replications", CFG_INT, AT(run.replications), "1", 1, 1000000, false, NULL,
                               "independent runs; above 1 the report gives the across-replication 95% CI of "
                               "the mean, standard deviation and maximum" },
    [KEY_RUN_BATCHES] = { "run", "batches", CFG_INT, AT(run.batches), "20", 2, 1000, false, NULL,
                          "batches for the batch-means interval (creation order; time mode: slices of the window)" },
    [KEY_RUN_REDRAW_LENGTH_PER_HOP] = { "run", "redraw_length_per_hop", CFG_BOOL, AT(run.redraw_length_per_hop),
                                        "false", 0, 0, false, NULL,
                                        "re-draw the length at every hop (Kleinrock's independence made exact)" },
    [KEY_RUN_ALLOW_UNSTABLE] = { "run", "allow_unstable", CFG_BOOL, AT(run.allow_unstable), "false", 0, 0, false,
                                 NULL, "run even when a node's or channel's offered load reaches its capacity" },
    [KEY_RUN_MAX_WALL_SECONDS] = { "run", "max_wall_seconds", CFG_REAL, AT(run.max_wall_seconds), "0", 0,
                                   DBL_MAX, false, NULL,
                                   "stop the run after this much wall-clock time (0: no limit)" },
    [KEY_PHYSICAL_SWITCH_DELAY] = { "physical", "switch_delay", CFG_REAL, AT(physical.switch_delay), "4", 0, 1e6,
                                    false, NULL,
                                    "s: switch delay over the wire delay of a 2-D mesh, T^s/T^w(2) (clock = s + "
                                    "longest wire)" },
    [KEY_PHYSICAL_WIRE_DELAY] = { "physical", "wire_delay", CFG_CHOICE, AT(physical.wire_delay), "planar", 0, 0,
                                  false, &kary_wire_choices, "longest-wire delay model (linear in length)" },
    [KEY_PHYSICAL_CONSTRAINT] = { "physical", "constraint", CFG_CHOICE, AT(physical.constraint), "fixed-width", 0,
                                  0, false, &kary_constraint_choices,
                                  "what sets the channel width W in bits (message in flits B = mean_length / W)" },
    [KEY_PHYSICAL_BISECTION_PER_NODE] = { "physical", "bisection_per_node", CFG_REAL,
                                          AT(physical.bisection_per_node), "1", 0, 1e9, true, NULL,
                                          "fixed-bisection: wires across the bisection per node (1: a binary "
                                          "n-cube with 1-bit channels, W = k/2)" },
    [KEY_PHYSICAL_NODE_PINS] = { "physical", "node_pins", CFG_REAL, AT(physical.node_pins), "128", 0, 1e9, true,
                                 NULL, "fixed-node-size: signal wires per node, 2nW one-way (128: W = 64/n)" },
    [KEY_PHYSICAL_NODES] = { "physical", "nodes", CFG_INT, AT(physical.nodes), "0", 0, 1e15, false, NULL,
                             "N of the physical analysis, k = N^(1/n) may be fractional (0: the network's k^n)" },
    [KEY_PHYSICAL_DIMENSION] = { "physical", "dimension", CFG_INT, AT(physical.dimension), "0", 0, 64, false,
                                 NULL, "n of the physical analysis (0: network.dimension)" },
    [KEY_PHYSICAL_LOCALITY_FRACTION] = { "physical", "locality_fraction", CFG_REAL, AT(physical.locality_fraction),
                                         "1", 0, 1, true, NULL,
                                         "l of the physical analysis: destinations in a subcube of l N nodes "
                                         "anchored at the source (1: uniform)" },
    [KEY_PHYSICAL_INDIRECT_RADIX] = { "physical", "indirect_radix", CFG_INT, AT(physical.indirect_radix), "0", 0,
                                      1 << 20, false, NULL,
                                      "compare with an indirect network of k x k switches, log_k N stages (0: "
                                      "none; 1 is refused)" },
};
