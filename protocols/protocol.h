/* Channel access protocols: who gets a channel next.
 *
 * Promise of every protocol: after request(self, ch, msg, sender) the message is
 * eventually handed to the engine through grant(engine, ch, msg), and at most one
 * message holds a channel at a time; the engine calls release(self, ch) when the
 * holder is done.  So a protocol knows by itself whether a channel is busy (granted
 * and not yet released) and is told nothing else about the run.  Every queue a
 * protocol keeps is a msgq on the pool it was given, so protocol.priority orders it.
 * capacity() (NULL: 1) is the largest channel utilisation the protocol sustains under
 * symmetric load: the stability check uses it.  queued() (NULL: the protocol keeps no
 * such count) is what store-and-forward adaptive routing compares channels by.
 * Needs: sim/core only (kernel for its own timed events, the message pool and its
 * queues).  Registered by one line in protocols/registry.c.
 *
 * Queue disciplines (protocol.priority) are the other plug-in kind here: each is a
 * struct queue_discipline, registered by one line in protocols/priority.c, whose key
 * orders every node and channel queue of the run's pool (sim/core/msgq.h).
 */
#ifndef PROTOCOLS_PROTOCOL_H
#define PROTOCOLS_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../sim/core/config_value.h"
#include "../sim/core/kernel.h"
#include "../sim/core/msgq.h"
#include "../sim/core/registry.h"
#include "../sim/core/rng.h"
#include "../sim/core/traits.h"

/* The channels a protocol arbitrates, as the run describes them.  Queries, not
 * tables: only the protocols that serve senders in turn want sender lists, and
 * building them for every channel of a large network would cost FIFO memory it never
 * reads.  The queries stay valid for the protocol's whole life. */
struct access_channels {
    uint32_t count;
    uint32_t max_senders; /* no channel has more: the scratch size senders() needs */
    const void *ctx;
    /* The senders of ch in position order (the digit on a bus, the lower end first on
     * a half-duplex link), at most max of them into out; returns how many there are. */
    uint32_t (*senders)(const void *ctx, uint32_t ch, uint32_t *out, uint32_t max);
    /* Mean transmission time of a message on ch: the unit of slots and token times. */
    double (*mean_tx)(const void *ctx, uint32_t ch);
};

/* The engine's side: msg now holds ch (the engine starts transmitting it). */
typedef void access_grant_fn(void *engine, uint32_t ch, uint32_t msg);

/* Everything a protocol is given, once, at creation. */
struct access_env {
    struct kernel *kernel;   /* for the protocol's own timed events */
    struct msg_pool *pool;   /* the messages its queues hold */
    struct access_channels channels;
    const void *params; /* the protocol's own key values (its `params` table's struct); NULL without one */
    /* Per channel, the protocol's own random streams (RNG_PROTOCOL, from the run seed:
     * access_streams); NULL unless its traits have ACCESS_DRAWS_RANDOM. */
    struct rng *rng;
    access_grant_fn *grant;
    void *engine;            /* grant's first argument */
};

struct proto_ops {
    const char *name, *help;
    unsigned traits; /* enum access_traits (sim/core/traits.h): what the protocol guarantees */
    const struct cfg_param_table *params; /* its keys (sim/core/params.h); NULL: none */
    void *(*create)(const struct access_env *env); /* NULL when out of memory */
    void (*destroy)(void *self);
    /* msg, waiting at `sender`, asks for channel ch. */
    void (*request)(void *self, uint32_t ch, uint32_t msg, uint32_t sender);
    void (*release)(void *self, uint32_t ch);
    /* Optional: a hint that ch will be requested or released soon, at the kernel's
     * prefetch stage (sim/core/kernel.h: event_prefetch); reads, never changes. */
    void (*prefetch)(const void *self, uint32_t ch, unsigned stage);
    /* Optional: the messages waiting for ch plus the one holding it, now; reads, never
     * changes. */
    uint32_t (*queued)(const void *self, uint32_t ch);
    /* Fraction of a channel's bandwidth it can carry, given its key values. */
    double (*capacity)(const void *params);
    /* Optional: the parameters this protocol runs with, as the report's table shows
     * them after its name (" (slot 1, rule thesis)"); NULL when it has none. */
    void (*describe)(const void *params, char *buf, size_t size);
};

const struct proto_ops *proto_find(const char *name);

/* The random streams protocol p draws from on `channels` channels of a run seeded
 * run_seed, channel ch's stream being (run_seed, RNG_PROTOCOL, ch): into *out, NULL
 * when p does not ask for them (ACCESS_DRAWS_RANDOM); the caller frees *out.  False
 * when out of memory. */
bool access_streams(const struct proto_ops *p, uint32_t channels, uint64_t run_seed, struct rng **out);
extern const struct cfg_choices proto_choices, priority_choices, tdm_rule_choices;

/* A queue discipline: the order in which every node and channel queue serves its
 * waiting messages, non-preemptively. */
struct queue_discipline {
    const char *name, *help;
    unsigned traits; /* enum access_traits (sim/core/traits.h): what its order guarantees */
    const struct cfg_param_table *params; /* its keys (sim/core/params.h); NULL: none */
    /* A queued message's key, smaller served first, ties in arrival order (handed its
     * own key values); NULL: arrival order, FIFO, the queues' fast path. */
    msg_order_key_fn *key;
};

/* The queue discipline named by protocol.priority (FIFO for an unknown name). */
const struct queue_discipline *priority_discipline(const char *name);

/* An empty message pool whose queues keep cfg's protocol.priority (with its key
 * values), keeping creation numbers or not. */
struct msg_pool priority_pool(const struct config *cfg, bool keep_ids);

#endif
