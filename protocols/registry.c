/* Access protocol registry: adding one is one file and one line here. */
#include "../sim/core/registry.h"
#include "protocol.h"

extern const struct proto_ops proto_fifo, proto_tdm, proto_token;

static const struct proto_ops *const protocols[] = {
    &proto_fifo,
    &proto_tdm,
    &proto_token,
};

REGISTRY_DEFINE_PLUGINS(struct proto_ops, protocols, proto_find, proto_choices);
