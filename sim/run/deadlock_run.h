/* sim --check-deadlock: the static deadlock check of a configuration alone, no run.
 *
 * Promise: net_check_deadlock() builds the configuration's topology, makes the checks a
 * run makes before it starts (the path selection's, the destinations', the engine's)
 * and then the static deadlock check (routing/deadlock_check.h) whatever its size and
 * whatever routing.deadlock_check says.  False with *err when the configuration is
 * refused before the check or memory runs out; a refusal by the check itself is
 * r->verdict == DL_REFUSED, its line in *err.
 * Needs: topo, routing (engines, the check), workloads (destinations), the run (network.h).
 */
#ifndef SIM_RUN_DEADLOCK_RUN_H
#define SIM_RUN_DEADLOCK_RUN_H

#include <stdbool.h>

#include "../../routing/deadlock_check.h"
#include "../config/config.h"

bool net_check_deadlock(const struct config *cfg, struct dl_result *r, struct cfg_error *err);
/* net_create()'s step: the check before a run of pipelined switching, its verdict kept in
 * net->deadlock (net_deadlock_refused(), network.h, says a refusal); false with *err
 * when memory runs out. */
struct network;
bool net_deadlock_verdict(struct network *net, const struct config *cfg, struct cfg_error *err);
/* For sim --describe: the verdict a run would print (dl_summary), on topology t built
 * from cfg; false (no line) when the switching is not pipelined, a run would refuse the
 * configuration before the check, or memory runs out. */
bool net_deadlock_line(const struct config *cfg, const struct topo *t, char *buf, size_t size);

#endif
