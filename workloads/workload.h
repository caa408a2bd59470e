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
    double (*interarrival)(const struct config *cfg, struct rng *r);
};

struct dest_ops {
    const char *name, *help;
    /* prob(src, dst) = prob(src ^ x, dst ^ x) in the topology's own symmetry */
    bool translation_invariant;
    uint32_t (*pick)(const struct topo *t, uint32_t src, struct rng *r);
    double (*prob)(const struct topo *t, uint32_t src, uint32_t dst);
};

struct length_ops {
    const char *name, *help;
    bool exponential;
    double (*draw)(double mean, struct rng *r);
};

const struct arrival_ops *arrival_find(const char *name);
const struct dest_ops *dest_find(const char *name);
const struct length_ops *length_find(const char *name);
extern const struct cfg_choices arrival_choices, dest_choices, length_choices;

#endif
