/* Topologies: the structure of a network as pure functions.
 *
 * Promise: after build(), nodes are 0..nodes-1 and channels 0..channels-1.  A channel
 * is one server (a link direction, later a half-duplex link or a bus); a hop names the
 * channel taken and the node it leads to, since a shared channel reaches several
 * nodes.  minimal_hops() lists the first hops of shortest paths from cur to dst
 * (cur != dst) in the topology's canonical dimension order, at most `max` of them;
 * routing algorithms choose among them.  Channels fall into classes (hypercube:
 * one per dimension) used for per-class figures and load factors.
 * Registered by one line in topo/registry.c.
 */
#ifndef TOPO_TOPO_H
#define TOPO_TOPO_H

#include <stdbool.h>
#include <stdint.h>

#include "../sim/config.h"

enum { TOPO_MAX_CLASSES = 64 };

struct hop {
    uint32_t channel;
    uint32_t next; /* node reached over that channel */
};

struct topo_ops;

struct topo {
    const struct topo_ops *ops;
    uint32_t nodes;
    uint32_t channels;
    unsigned dimension;
    unsigned classes;    /* channel classes, <= TOPO_MAX_CLASSES */
    double bandwidth;    /* length units per time unit, every channel */
    void *impl;          /* topology-specific tables, if any */
};

struct topo_ops {
    const char *name, *help;
    /* Under a translation-invariant workload and deterministic minimal routing every
     * channel of a class carries the same load, so loads follow from one source. */
    bool uniform_class_loads;
    bool (*build)(struct topo *t, const struct config *cfg, struct cfg_error *err);
    void (*free)(struct topo *t);
    unsigned (*minimal_hops)(const struct topo *t, uint32_t cur, uint32_t dst, struct hop *out, unsigned max);
    unsigned (*distance)(const struct topo *t, uint32_t a, uint32_t b);
    unsigned (*channel_class)(const struct topo *t, uint32_t channel);
    uint64_t (*channels_in_class)(const struct topo *t, unsigned cls);
    /* Writes the class's name (e.g. "dim3") into buf. */
    void (*class_name)(const struct topo *t, unsigned cls, char *buf, unsigned size);
};

const struct topo_ops *topo_find(const char *name);
extern const struct cfg_choices topo_choices;

/* Builds the topology named in cfg; false with *err set on impossible parameters. */
bool topo_build(struct topo *t, const struct config *cfg, struct cfg_error *err);
void topo_free(struct topo *t);

#endif
