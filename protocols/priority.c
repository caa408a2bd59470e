/* Queueing priorities (seed 004, §2.4): the order in which every node queue and
 * channel queue serves its waiting messages.  Non-preemptive: a message in service
 * is never interrupted.  A discipline is a key of the queued message (smaller first,
 * ties in arrival order, sim/core/msgq.h); adding one is its key function and entry
 * (or its own file) and one line in the list below. */
#include "../sim/core/registry.h"
#include "protocol.h"

/* Keys read only what stays fixed while the message waits: its creation time, and its
 * length (re-drawn, when it is, before the message asks for its next channel). */
static double by_creation(const struct message *m, const void *params)
{
    (void)params;
    return m->created;
}

static double longest(const struct message *m, const void *params)
{
    (void)params;
    return -m->length;
}

static double shortest(const struct message *m, const void *params)
{
    (void)params;
    return m->length;
}

/* Traits (sim/core/traits.h): every one serves whenever a message waits; arrival
 * order reads no length; creation time reads none either, but a length kept along the
 * path made an older message longer, so oldest-first is blind to fresh lengths only. */
static const struct queue_discipline priority_fifo = {
    .name = "fifo", .help = "first come, first served",
    .traits = ACCESS_WORK_CONSERVING | ACCESS_FIFO_ORDER | ACCESS_ORDER_BLIND_TO_LENGTH,
};
static const struct queue_discipline priority_oldest = {
    .name = "oldest-first", .help = "earliest creation time first", .key = by_creation,
    .traits = ACCESS_WORK_CONSERVING | ACCESS_ORDER_BLIND_TO_FRESH_LENGTH,
};
static const struct queue_discipline priority_longest = {
    .name = "longest-first", .help = "longest message first", .key = longest, .traits = ACCESS_WORK_CONSERVING,
};
static const struct queue_discipline priority_shortest = {
    .name = "shortest-first", .help = "shortest message first", .key = shortest, .traits = ACCESS_WORK_CONSERVING,
};

static const struct queue_discipline *const priorities[] = {
    &priority_fifo, &priority_oldest, &priority_longest, &priority_shortest,
};

REGISTRY_DEFINE_PLUGINS(struct queue_discipline, priorities, priority_find, priority_choices);

const struct queue_discipline *priority_discipline(const char *name)
{
    const struct queue_discipline *d = priority_find(name);
    return d ? d : &priority_fifo;
}

struct msg_pool priority_pool(const struct config *cfg, bool keep_ids)
{
    const struct queue_discipline *d = priority_discipline(cfg->protocol.priority);
    return msg_pool_empty(d->key, cfg_params(cfg, d->params), keep_ids);
}
