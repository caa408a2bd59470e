/* Workloads: when messages are created, where they go, how long they are.
 *
 * Promise: every function draws only from the stream it is handed, so workloads are
 * reproducible per node and independent of the rest of the run.  prob() gives the
 * exact destination distribution to the analytic models.  Registered by one line
 * each in workloads/registry.c.
 */
#ifndef WORKLOADS_WORKLOAD_H
#define WORKLOADS_WORKLOAD_H

#include "../sim/config.h"
#include "../sim/rng.h"
#include "../topo/topo.h"

struct arrival_ops {
    const char *name, *help;
    bool poisson; /* exponential inter-arrival times */
    /* Event-driven engines: the time to a node's next message; NULL when the process
     * only exists in slotted time (a batch per cycle). */
    double (*interarrival)(const struct config *cfg, struct rng *r);
    /* Slotted engines (one step per cycle): how many messages a node creates in one
     * cycle, independent across cycles and nodes. */
    uint32_t (*per_cycle)(const struct config *cfg, struct rng *r);
};

/* A destination distribution set up for one topology: its parameters and tables. */
struct destinations {
    const struct dest_ops *ops;
    const struct topo *topo;
    double locality;   /* cluster-locality: α */
    uint32_t hops;     /* fixed-hops: h */
    uint32_t *table;   /* fixed-hops: the nodes h hops away, from node 0 or per source */
    uint32_t *start;   /* per source: its slice of table; NULL when translated from node 0 */
    uint32_t count;    /* from node 0: length of table */
};

struct dest_ops {
    const char *name, *help;
    /* prob(src, dst) is unchanged when the topology's translate() moves both ends */
    bool translation_invariant;
    /* Optional: checks the parameters against the topology and builds tables. */
    bool (*init)(struct destinations *d, const struct config *cfg, struct cfg_error *err);
    uint32_t (*pick)(const struct destinations *d, uint32_t src, struct rng *r);
    double (*prob)(const struct destinations *d, uint32_t src, uint32_t dst);
};

struct length_ops {
    const char *name, *help;
    bool exponential;
    double (*draw)(double mean, struct rng *r);
};

/* Sets up cfg's destination distribution on topology t; false with *err on
 * parameters the topology cannot honour. */
bool dest_init(struct destinations *d, const struct config *cfg, const struct topo *t, struct cfg_error *err);
void dest_free(struct destinations *d);

const struct arrival_ops *arrival_find(const char *name);
const struct dest_ops *dest_find(const char *name);
const struct length_ops *length_find(const char *name);
extern const struct cfg_choices arrival_choices, dest_choices, length_choices;

#endif
