/* The protocols' window on the one struct config: the only protocol file that sees
 * it, so every protocol proper is handed a struct access_params instead.  Goes when
 * plug-ins get key tables of their own. */
#include "../sim/config/config.h"
#include "protocol.h"

struct access_params access_params_of(const struct config *cfg)
{
    return (struct access_params){
        .slot = cfg->protocol.slot,
        .tdm_rule = cfg->protocol.tdm_rule,
        .token_time = cfg->protocol.token_time,
        .max_per_capture = cfg->protocol.max_per_capture,
    };
}
