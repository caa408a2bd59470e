/* Dimension-order paths walked on the digits (routing/flit_dor.c), byte for byte the
 * paths the path selection draws on a k-ary n-cube.
 *
 * Promise: flit_dor_setup() builds the table of every node's outgoing channel by
 * dimension and direction when the routing is drawn dimension order on a k-ary n-cube of
 * radix > 2 (else leaves e->dor_chan NULL; false when out of memory); with the table,
 * flit_dor_path() draws x's path from msg->src to msg->dst with its dateline classes
 * (false when it has no room: the run then stops).
 * Called by: flit_setup.c (the table), flit_source.c (paths), tests.
 * Calls no other flit file.  Needs: the topology's neighbours and channel dimensions.
 */
#ifndef ROUTING_FLIT_DOR_H
#define ROUTING_FLIT_DOR_H

#include <stdbool.h>

#include "../sim/core/config_value.h"
#include "../sim/core/message.h"
#include "../topo/topo.h"

struct flit_engine;
struct worm;

bool flit_dor_setup(struct flit_engine *e, const struct config *cfg, const struct topo *t);
bool flit_dor_path(struct flit_engine *e, struct worm *x, struct message *msg);

#endif
