/* The static deadlock check with request-reply's two message classes and a bounded
 * reply queue (workload.reply_queue; routing/deadlock_protocol.c).
 *
 * Promise: dl_protocol() amends the verdict dl_check() gave on one class's routing
 * relation.  A bounded reply queue adds, at every terminal t, a dependency from the
 * request class's ejection at t to the reply class's injection at t (a full queue
 * stops the ejection until a reply takes its first channel), and from there the
 * reply's path onward.  With routing.class_vcs = separate the reply class has its own
 * copy of the VCs and its own injection line, its relation is the proved one, and no
 * dependency leads from a reply back to a request: the union is acyclic and the proof
 * stands (the note says it covers both classes).  With shared VCs a request from u to
 * t holds channels and t's injection line ahead of t's replies, t's replies wait for
 * that line, and so round (two terminals suffice): the verdict becomes refused, the
 * note naming that cycle and the fix.  An unbounded queue adds no dependency: nothing
 * changes.  Only a proved verdict is amended (a refusal stays the routing's own).
 * Needs: deadlock_check.h, flit_params.h.
 */
#ifndef ROUTING_DEADLOCK_PROTOCOL_H
#define ROUTING_DEADLOCK_PROTOCOL_H

#include <stdbool.h>
#include <stdint.h>

#include "../sim/core/config_value.h"
#include "deadlock_check.h"

/* reply_queue: request-reply's workload.reply_queue (0 with one class of message). */
void dl_protocol(const struct config *cfg, uint32_t reply_queue, struct dl_result *r);

#endif
