/* Channel access protocols: who gets a channel next.
 *
 * Promise of every protocol: after request(ch, msg) the message is eventually passed
 * to switch_ops.granted(ch, msg), and at most one message holds a channel at a
 * time; release(ch) is called by the switching module when the holder is done.
 * The sender of a request is net->pool.msgs[msg].at.  Every queue a protocol keeps is a
 * msgq, so protocol.priority orders it.  capacity() (NULL: 1) is the largest channel
 * utilisation the protocol sustains under symmetric load: the stability check uses it.
 * Registered by one line in protocols/registry.c.
 */
#ifndef PROTOCOLS_PROTOCOL_H
#define PROTOCOLS_PROTOCOL_H

#include <string.h>

#include "../sim/run/network.h"

struct proto_ops {
    const char *name, *help;
    bool (*init)(struct network *net);
    void (*free)(struct network *net);
    void (*request)(struct network *net, uint32_t ch, uint32_t msg);
    void (*release)(struct network *net, uint32_t ch);
    double (*capacity)(const struct config *cfg);
};

/* Whether cfg's channel access protocol is `name`. */
static inline bool proto_is(const struct config *cfg, const char *name) { return strcmp(cfg->protocol.link, name) == 0; }

/* The queue discipline named by protocol.priority. */
enum queue_discipline priority_discipline(const char *name);

const struct proto_ops *proto_find(const char *name);
extern const struct cfg_choices proto_choices, priority_choices, tdm_rule_choices;

#endif
