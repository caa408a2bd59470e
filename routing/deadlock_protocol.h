/* The static deadlock check with request-reply's two message classes and a bounded
 * reply queue (workload.reply_queue; routing/deadlock_protocol.c).
 *
 * Promise: dl_check_classes() is dl_check() (deadlock_check.h) when the reply queue is
 * unbounded (0: a request is ejected on arrival, no dependency leaves its ejection).
 * With a bounded queue, once one class's relation is proved, it walks one graph of both
 * classes: the engine's relation twice, requests and replies, with the VCs of
 * routing.class_vcs (separate: replies on a copy of each VC; shared: the same VCs),
 * where a request's ejection at terminal d is not an end but a dependency of the
 * (channel, VC) it holds on the first (channel, VC) of every reply d sends back to the
 * request's source, and the reply's path onward (a full queue stops the ejection until
 * a reply takes its first channel).  A reply's ejection is an end.  Shared VCs close a
 * cycle (a request's reply retraces the channels requests take the other way), which
 * refuses the run naming it and the fix (routing.class_vcs = separate); separate VCs
 * prove it for both classes.  The combined walk has a walk per (request walk, request
 * source, reply walk's pick): above DL_WORK_LIMIT it is skipped as dl_check skips.
 * Relies on the relation's keys being destination * picks + pick, picks = keys /
 * sources (routing/flit_relation.c, routing/iq_relation.c); else skipped with a note.
 * Needs: deadlock_check.h, engine.h, flit_params.h.
 */
#ifndef ROUTING_DEADLOCK_PROTOCOL_H
#define ROUTING_DEADLOCK_PROTOCOL_H

#include <stdbool.h>
#include <stdint.h>

#include "../sim/core/config_value.h"
#include "../topo/topo.h"
#include "deadlock_check.h"

struct engine_ops;

/* reply_queue: request-reply's workload.reply_queue (0 with one class of message).
 * False only when out of memory. */
bool dl_check_classes(const struct config *cfg, const struct topo *t, const struct engine_ops *engine, bool force,
                      uint32_t reply_queue, struct dl_result *r);

#endif
