/* Access protocol registry: adding one is one file and one line here.  Also what a
 * protocol is handed besides its own keys: its random streams. */
#include <stdlib.h>

#include "../sim/core/registry.h"
#include "protocol.h"

extern const struct proto_ops proto_fifo, proto_tdm, proto_token;

static const struct proto_ops *const protocols[] = {
    &proto_fifo,
    &proto_tdm,
    &proto_token,
};

REGISTRY_DEFINE_PLUGINS(struct proto_ops, protocols, proto_find, proto_choices);

bool access_streams(const struct proto_ops *p, uint32_t channels, uint64_t run_seed, struct rng **out)
{
    *out = NULL;
    if (!(p->traits & ACCESS_DRAWS_RANDOM))
        return true;
    *out = malloc(((size_t)channels + 1) * sizeof **out); /* + 1: never malloc(0) */
    if (!*out)
        return false;
    for (uint32_t ch = 0; ch < channels; ch++)
        rng_seed_stream(&(*out)[ch], run_seed, RNG_PROTOCOL, ch);
    return true;
}
