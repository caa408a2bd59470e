/* Valiant's intermediate node as an engine draws it, for the analytic side: the
 * engine draws pick uniformly from [0, picks) (from the source's routing stream) and
 * routes the message to mid(t, src, pick), then to its destination, both phases along
 * the topology's canonical minimal route.  What the engines declare
 * (routing/engine.h, engine_ops.valiant_mids) and analytic/valiant_loads.c pushes.
 * Needs: topo (only as an opaque pointer).
 */
#ifndef SIM_CORE_VALIANT_MIDS_H
#define SIM_CORE_VALIANT_MIDS_H

#include <stdbool.h>
#include <stdint.h>

struct topo;

struct valiant_mids {
    uint32_t picks;
    /* mid(t, src, pick) depends on src (the dragonfly: the router where src's route
     * enters the drawn group); false: mid(t, any, pick) is the same node. */
    bool by_source;
    uint32_t (*mid)(const struct topo *t, uint32_t src, uint32_t pick);
};

#endif
