/* Queueing priorities (seed 004, §2.4): the order in which every node queue and
 * channel queue serves its waiting messages.  Non-preemptive: a message in service
 * is never interrupted. */
#include "../sim/core/registry.h"
#include "protocol.h"

struct priority {
    const char *name, *help;
    enum queue_discipline discipline;
};

static const struct priority fifo = { "fifo", "first come, first served", QUEUE_FIFO };
static const struct priority oldest = { "oldest-first", "earliest creation time first", QUEUE_OLDEST_FIRST };
static const struct priority longest = { "longest-first", "longest message first", QUEUE_LONGEST_FIRST };
static const struct priority shortest = { "shortest-first", "shortest message first", QUEUE_SHORTEST_FIRST };
static const struct priority *const priorities[] = { &fifo, &oldest, &longest, &shortest };

REGISTRY_DEFINE(struct priority, priorities, priority_find, priority_choices);

enum queue_discipline priority_discipline(const char *name)
{
    const struct priority *p = priority_find(name);
    return p ? p->discipline : QUEUE_FIFO;
}
