/* Time-division multiplexing (seed 004, §2.3.2): a global clock divides time into
 * slots of `protocol.slot` mean transmission times; slot k belongs to the sender at
 * position k mod J of every channel (J attached senders), synchronised on all
 * channels.  Each sender has its own queue.  When the channel falls free, or a slot
 * begins while it is idle, the current owner's queue is served; a transmission is
 * never cut at a slot boundary, and an owner may send several messages in a row.
 *
 * tdm_rule decides a message that finds the channel idle:
 *   strict: it starts only if its sender owns the current slot (the thesis's text);
 *   thesis: it starts at once if its sender's queue is empty, whoever owns the slot
 *           (what the thesis's SLAM II model does: an entity reaching an empty QUEUE
 *           node with a free server bypasses the selection rule; see note 004 §2.2).
 *
 * Slot boundaries cost no events: an idle channel with waiting messages schedules one
 * wake-up at the next slot whose owner has a message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <float.h>
#include <stddef.h>

#include "../sim/core/params.h"
#include "../sim/core/registry.h"
#include "protocol.h"
#include "senders.h"

struct tdm_rule {
    const char *name, *help;
    bool strict;
};

static const struct tdm_rule rule_thesis = {
    "thesis", "a message finding the channel idle and its own queue empty starts at once (SLAM II semantics)", false
};
static const struct tdm_rule rule_strict = { "strict", "a message starts only in a slot its sender owns", true };
static const struct tdm_rule *const tdm_rules[] = { &rule_thesis, &rule_strict };

REGISTRY_DEFINE(struct tdm_rule, tdm_rules, tdm_rule_find, tdm_rule_choices);

struct tdm_params {
    double slot;
    const char *tdm_rule;
};

struct tdm_channel {
    double wake_at;     /* time of the pending wake-up, INFINITY when none */
    uint64_t wake_slot; /* its slot number */
    bool busy;          /* granted and not yet released */
};

struct tdm_state {
    struct access_env env;
    struct tdm_params params;
    struct sender_queues sq;
    struct tdm_channel *chan;
    uint32_t ev_wake;
    bool strict;
};

static double slot_length(const struct tdm_state *s, uint32_t ch)
{
    return s->params.slot * s->env.channels.mean_tx(s->env.channels.ctx, ch);
}

static void grant(struct tdm_state *s, uint32_t ch, uint32_t m)
{
    s->chan[ch].busy = true;
    s->env.grant(s->env.engine, ch, m);
}

/* Serves the owner of slot k if the channel is idle; otherwise, if messages wait,
 * makes sure a wake-up is pending at the next slot whose owner has one. */
static void try_start(struct tdm_state *s, uint32_t ch, uint64_t k)
{
    struct tdm_channel *c = &s->chan[ch];
    if (c->busy)
        return;
    unsigned J = senders_on(&s->sq, ch);
    struct msgq *owner = position_queue(&s->sq, ch, (unsigned)(k % J));
    if (!msgq_empty(owner)) {
        grant(s, ch, msgq_pop(s->env.pool, owner));
        return;
    }
    struct kernel *kernel = s->env.kernel;
    for (unsigned j = 1; j < J; j++) {
        if (msgq_empty(position_queue(&s->sq, ch, (unsigned)((k + j) % J))))
            continue;
        uint64_t target = k + j;
        double at = (double)target * slot_length(s, ch);
        if (at < c->wake_at) {
            double delay = at > kernel->now ? at - kernel->now : 0;
            kernel_schedule(kernel, delay, s->ev_wake, ch);
            c->wake_at = kernel->now + delay; /* exactly the event's time */
            c->wake_slot = target;
        }
        return;
    }
}

static uint64_t current_slot(const struct tdm_state *s, uint32_t ch)
{
    return (uint64_t)floor(s->env.kernel->now / slot_length(s, ch));
}

static void on_wake(struct kernel *k, void *ctx, uint32_t ch)
{
    struct tdm_state *s = ctx;
    struct tdm_channel *c = &s->chan[ch];
    if (c->wake_at != k->now)
        return; /* superseded by an earlier wake-up, which did the work */
    c->wake_at = INFINITY;
    try_start(s, ch, c->wake_slot);
}

static void request(void *self, uint32_t ch, uint32_t m, uint32_t sender)
{
    struct tdm_state *s = self;
    struct msgq *own = sender_queue(&s->sq, ch, sender);
    if (!s->strict && !s->chan[ch].busy && msgq_empty(own)) {
        grant(s, ch, m);
        return;
    }
    msgq_push(s->env.pool, own, m);
    try_start(s, ch, current_slot(s, ch));
}

static void release(void *self, uint32_t ch)
{
    struct tdm_state *s = self;
    s->chan[ch].busy = false;
    try_start(s, ch, current_slot(s, ch));
}

static uint32_t queued(const void *self, uint32_t ch)
{
    const struct tdm_state *s = self;
    return senders_waiting(&s->sq, ch) + s->chan[ch].busy;
}

static void destroy(void *self)
{
    struct tdm_state *s = self;
    if (!s)
        return;
    sender_queues_free(&s->sq);
    free(s->chan);
    free(s);
}

static void *create(const struct access_env *env)
{
    struct tdm_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->env = *env;
    s->params = *(const struct tdm_params *)env->params;
    uint32_t channels = env->channels.count;
    s->chan = malloc(((size_t)channels + 1) * sizeof *s->chan); /* + 1: never malloc(0) */
    if (!s->chan || !sender_queues_init(&s->sq, &env->channels)) {
        destroy(s);
        return NULL;
    }
    for (uint32_t ch = 0; ch < channels; ch++)
        s->chan[ch] = (struct tdm_channel){ INFINITY, 0, false };
    const struct tdm_rule *rule = tdm_rule_find(s->params.tdm_rule);
    s->strict = rule && rule->strict;
    s->ev_wake = kernel_register(env->kernel, on_wake, s);
    return s;
}

static void describe(const void *params, char *buf, size_t size)
{
    const struct tdm_params *p = params;
    snprintf(buf, size, " (slot %g, rule %s)", p->slot, p->tdm_rule);
}

static const struct cfg_key tdm_keys[] = {
    { "protocol", "slot", CFG_REAL, offsetof(struct tdm_params, slot), "1.0", 0, DBL_MAX, true, NULL,
      "tdm: slot each sender owns in turn, in mean transmission times of the channel" },
    { "protocol", "tdm_rule", CFG_CHOICE, offsetof(struct tdm_params, tdm_rule), "thesis", 0, 0, false, &tdm_rule_choices,
      "tdm: when a message may start on an idle channel" },
};
static CFG_PARAM_TABLE(tdm_param_table, struct tdm_params, tdm_keys);

const struct proto_ops proto_tdm = {
    .name = "tdm",
    .help = "time-division multiplexing: slots of protocol.slot owned by the senders in turn (protocol.tdm_rule)",
    .params = &tdm_param_table,
    /* Slots and turns are clock times and positions, never lengths; a channel may idle
     * with messages waiting (not their owner's slot), and serves by owner, not arrival. */
    .traits = ACCESS_ORDER_BLIND_TO_LENGTH,
    .create = create,
    .destroy = destroy,
    .request = request,
    .release = release,
    .queued = queued,
    .describe = describe,
};
