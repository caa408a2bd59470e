/* Channel access protocols: who gets a channel next.
 *
 * Promise of every protocol: after request(ch, msg) the message is eventually passed
 * to switch_ops.granted(ch, msg), and at most one message holds a channel at a
 * time; release(ch) is called by the switching module when the holder is done.
 * Registered by one line in protocols/registry.c.
 */
#ifndef PROTOCOLS_PROTOCOL_H
#define PROTOCOLS_PROTOCOL_H

#include "../sim/network.h"

struct proto_ops {
    const char *name, *help;
    bool (*init)(struct network *net);
    void (*free)(struct network *net);
    void (*request)(struct network *net, uint32_t ch, uint32_t msg);
    void (*release)(struct network *net, uint32_t ch);
};

const struct proto_ops *proto_find(const char *name);
extern const struct cfg_choices proto_choices;

#endif
