/* Dependency-driven replay of a Netrace v1 trace (workload.arrival = netrace): which
 * packet may be injected when.
 *
 * Promise: the Netrace rule.  A packet is injected at its trace cycle or once every
 * packet that names it as a dependent has been delivered, whichever is later.  The
 * trace is streamed (netrace_file.h): netrace_replay_read() reads the packets whose
 * cycle has come (all of a cycle before any of them is judged, so a packet may wait for
 * one later in the file at its own cycle) and hands those already free to `ready`, in
 * file order; netrace_replay_done() takes a delivered packet and hands the packets it
 * freed to `ready`, in the order it names them.  What is held is the packets read and
 * not yet delivered, and the ids named by them and not yet read: memory follows the
 * window of packets in flight, never the trace's length.  netrace_scan() reads the
 * whole file once before the run and refuses, besides what the reader refuses, a
 * packet naming a dependent that does not follow it in the file (missing, or read at
 * an earlier cycle: it could no longer wait), an id repeated within a cycle and a
 * dependency cycle (only packets of one cycle can wait on each other), so that a
 * replay never meets bad input half-way and always runs to its end; the replay itself
 * refuses only an id used again while its first packet is held.
 * Needs: the reader (netrace_file.h).
 */
#ifndef WORKLOADS_NETRACE_H
#define WORKLOADS_NETRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../sim/core/config_value.h"
#include "netrace_file.h"

/* What the scan learns of a whole trace. */
struct netrace_scan {
    struct netrace_header header;
    uint64_t packets, first_cycle, last_cycle;
    unsigned shortest; /* the smallest packet, in bytes */
    size_t most_held;  /* the most ids the scan held at once (named, not yet read) */
};

bool netrace_scan(const char *path, uint32_t terminals, struct netrace_scan *out, struct cfg_error *err);

/* A packet read, as the run creates it: its length is its size in bytes. */
struct netrace_record {
    double cycle, length;
    uint32_t id, src, dst;
    uint32_t ndeps, next_free;
    uint32_t *deps; /* the ids it frees when delivered */
};

struct netrace_replay;
typedef void netrace_ready_fn(void *ctx, uint32_t rec);

struct netrace_replay *netrace_replay_open(const char *path, uint32_t terminals, struct cfg_error *err);
/* The cycle of the next packet not yet read (+inf after the last). */
double netrace_replay_next_cycle(const struct netrace_replay *r);
/* Reads every packet of cycle <= now; false with *err on a read error or out of memory. */
bool netrace_replay_read(struct netrace_replay *r, double now, netrace_ready_fn *ready, void *ctx,
                         struct cfg_error *err);
/* Packet rec (as handed to ready) was delivered: its record is released. */
void netrace_replay_done(struct netrace_replay *r, uint32_t rec, netrace_ready_fn *ready, void *ctx);
const struct netrace_record *netrace_replay_record(const struct netrace_replay *r, uint32_t rec);
/* Packets and ids held now (read and undelivered, named and unread): the window. */
size_t netrace_replay_held(const struct netrace_replay *r);
size_t netrace_replay_most_held(const struct netrace_replay *r);
void netrace_replay_free(struct netrace_replay *r);

#endif
