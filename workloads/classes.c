/* workload.classes: one kind of message (single), or requests that each produce a
 * reply (request-reply: the run closes the loop, sim/run/request_reply.h).  The
 * request-reply keys belong to that choice, so a run echoes them only with it. */
#include <stddef.h>

#include "../sim/core/params.h"
#include "../sim/core/registry.h"
#include "workload.h"

static const struct cfg_key reply_keys[] = {
    { "workload", "request_length", CFG_REAL, offsetof(struct reply_params, request_length), "1", 0, 1e300, true,
      NULL, "request-reply: every request's length (length units)" },
    { "workload", "reply_length", CFG_REAL, offsetof(struct reply_params, reply_length), "1", 0, 1e300, true, NULL,
      "request-reply: every reply's length (length units)" },
    { "workload", "reply_delay", CFG_REAL, offsetof(struct reply_params, reply_delay), "0", 0, 1e300, false, NULL,
      "request-reply: time from a request's delivery to its reply's creation at the destination" },
    { "workload", "max_outstanding", CFG_INT, offsetof(struct reply_params, max_outstanding), "0", 0, 1000000, false,
      NULL, "request-reply: requests a terminal may have without their reply; a source at the cap waits (closed "
      "loop); 0: no cap" },
    { "workload", "reply_queue", CFG_INT, offsetof(struct reply_params, reply_queue), "0", 0, 1000000, false, NULL,
      "request-reply, wormhole and cut-through (either router): replies a terminal holds (from its ejection of "
      "their request until their header takes the first channel); while it is full the terminal stops ejecting "
      "requests (protocol deadlock, docs/models.md); 0: unbounded" },
};
static CFG_PARAM_TABLE_AFTER(reply_param_table, struct reply_params, reply_keys, "workload.classes");

static const struct class_choice single = { "single", "one kind of message (open loop)", NULL };
static const struct class_choice request_reply = {
    "request-reply", "each request produces a reply from its destination back to its source", &reply_param_table };
static const struct class_choice *const classes[] = { &single, &request_reply };
REGISTRY_DEFINE_PLUGINS(struct class_choice, classes, class_find, class_choices);

const struct reply_params *reply_params_of(const struct config *cfg)
{
    const struct class_choice *c = class_find(cfg->workload.classes);
    return c && c->params ? cfg_params(cfg, c->params) : NULL;
}
