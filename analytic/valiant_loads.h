/* Channel loads of Valiant's routing (analytic/channel_loads.c calls these): every
 * message goes from its source s to an intermediate node m, drawn as the engine draws it
 * (model_in.mids), then from m to its destination d, each phase along the topology's
 * canonical minimal route as the engine follows it (model_in.phase_next, phase_split).  Both phases are flows with known probabilities, so their
 * loads are exact: phase one pushes, towards every m, each source's messages times the
 * chance it draws m; phase two pushes, towards every d, what each m relays to d.
 * Self-addressed messages travel only on engines that take them.
 * Needs: analytic/flow_push.h, model.h.
 */
#ifndef ANALYTIC_VALIANT_LOADS_H
#define ANALYTIC_VALIANT_LOADS_H

#include "flow_push.h"
#include "model.h"

/* Whether the class shortcut applies: every node a terminal and m any node uniformly,
 * so each phase is uniform traffic (self included) whatever the destinations. */
bool valiant_by_class(const struct model_in *in);
/* Per message: the hops on each class (both phases) and the nodes visited (source,
 * relays, intermediate and destination once each; 0 for a message delivered at once). */
bool valiant_class_hops(const struct model_in *in, struct flow_tree *tr, double *class_hops, double *visits);
/* Messages per time unit added through every channel (rate[t->channels]) and visits per
 * time unit at every node (visits[t->nodes]), each terminal creating lambda messages per
 * time unit (with replies: the replies to them, from each destination back to its
 * source).  False when out of memory or a phase's route is not minimal (why says). */
bool valiant_channel_rates(const struct model_in *in, double lambda, bool replies, struct flow_tree *tr,
                           double *rate, double *visits, char *why, size_t why_size);

#endif
