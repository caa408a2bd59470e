/* The run's side of a dependency-driven trace (workload.arrival = netrace): the loop
 * from the engines' deliveries back to the trace.
 *
 * Promise: net_netrace_scan() checks the whole trace before anything runs (every
 * refusal of workloads/netrace.h is bad input, exit 2) and learns its packet count,
 * which the probe measures (every packet, no warm-up: the run ends at the last
 * delivery).  net_netrace_start() opens the replay and schedules the first read at
 * the first packet's cycle; from then a packet is created at its trace cycle when it
 * is free then, else at the delivery (or refusal) of the last packet it waits for (the
 * kernel's time then: a router that stamps deliveries with a cycle before the kernel's
 * half-cycle creates at that half-cycle).  The engines report deliveries through
 * engine_env.loop (net_netrace_loop()), a callback the run hands them; the run then
 * creates what was freed by events of its own, never inside the engine.  A read error
 * past the scan (the file changed under the run) stops the run as a fatal finding.
 * Figures (group "trace"): completion (the time of the last delivery), packets,
 * trace_cycles (the header's), refused, most_held (the largest dependency window).
 * Needs: the network (network.h), workloads/netrace.h.
 */
#ifndef SIM_RUN_NETRACE_RUN_H
#define SIM_RUN_NETRACE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "../../routing/engine.h"
#include "../../workloads/netrace.h"
#include "../core/figures.h"

struct network;

/* A test's look at every packet: created (at now; its trace cycle is `cycle`) and
 * delivered or refused (at now), by trace id. */
struct net_netrace_watch {
    void (*created)(void *ctx, uint32_t id, double cycle, double now);
    void (*delivered)(void *ctx, uint32_t id, double now);
    void *ctx;
};

struct net_netrace {
    struct network *net;
    struct netrace_replay *replay;
    struct netrace_scan scan;
    uint32_t ev_read, ev_release;
    uint32_t *tag; /* per pool slot: the record of the packet it holds */
    uint32_t tag_size;
    struct engine_tap loop;
    uint64_t refused, delivered;
    double last_delivery;
    const struct net_netrace_watch *watch; /* NULL unless a test watches */
};

/* When cfg replays a Netrace trace: scans it and sets net->netrace; true without doing
 * anything otherwise.  False with *err (net->netrace then NULL). */
bool net_netrace_scan(struct network *net, struct cfg_error *err);
bool net_netrace_start(struct network *net, struct cfg_error *err);
/* Message m (a pool slot) holds packet record rec: false when out of memory. */
bool net_netrace_tag(struct net_netrace *n, uint32_t m, uint32_t rec);
void net_netrace_figures(const struct net_netrace *n, const struct figure_sink *sink);
void net_netrace_free(struct net_netrace *n);

#endif
