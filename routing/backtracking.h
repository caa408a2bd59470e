/* Seed 001's deadlock-free backtracking routing with finite buffers (Horng and
 * Kleinrock), as a slotted engine on the binary n-cube.  See backtracking.c for
 * the cycle and the rules; note 001 §1 is the specification.
 *
 * Promise: every cycle, from the state at its start, each node makes the two-phase
 * decision (phase 1: each message picks one of its header's 1-bits at random, the
 * oldest message wins each channel; phase 2: the youngest leftovers are forced out
 * on random free channels, possibly backtracking, until the node keeps at most
 * M - n messages); then all nodes exchange messages (a message whose header becomes
 * 0 is delivered), then each node admits min(G, M - occupancy) of the G messages its
 * processor generated and rejects (loses) the rest.  Accepted messages are never
 * lost and never exceed M at a node (asserted every cycle).  Delay = delivery cycle
 * - admission cycle.  Time is the cycle index (kernel time), one kernel event per
 * cycle.
 */
#ifndef ROUTING_BACKTRACKING_H
#define ROUTING_BACKTRACKING_H

#include <stdbool.h>
#include <stdint.h>

struct engine_ops;

/* Counts over a stretch of cycles (the measurement window, or the whole run). */
struct backtracking_counts {
    uint64_t cycles;
    uint64_t generated, accepted, rejected; /* input messages; generated = accepted + rejected */
    uint64_t delivered;
    uint64_t sends;        /* channel transmissions (one message over one channel in one cycle) */
    uint64_t forced_sends; /* of which phase 2 assigned */
    uint64_t backtracks;   /* of which moved away from the destination */
    uint64_t occupancy;    /* Σ over nodes and cycles of the messages held at the cycle's start */
    uint64_t full;         /* node-cycle starts with all M buffers taken */
};

struct backtracking_figures {
    unsigned dimension;
    uint32_t nodes, buffers;
    struct backtracking_counts window, run;
    uint64_t in_network;   /* messages held in buffers now */
    uint32_t max_occupancy; /* the most messages any node ever held (after arrivals, before admission ends) */
};

/* For tests (the run reads these as named figures): the books of an engine instance;
 * false when the engine is not the backtracking one (ENGINE_BACKTRACKS). */
bool backtracking_figures(const struct engine_ops *ops, const void *self, struct backtracking_figures *out);

#endif
