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
#include <stdlib.h>
#include <string.h>

#include "../routing/routing.h"
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

struct tdm_state {
    struct sender_queues sq;
    double *wake_at;      /* per channel: time of the pending wake-up, INFINITY when none */
    uint64_t *wake_slot;  /* its slot number */
    uint32_t ev_wake;
    bool strict;
};

static double slot_length(const struct network *net, uint32_t ch)
{
    return net->cfg->protocol.slot * mean_transmission_time(net, ch);
}

/* Serves the owner of slot k if the channel is idle; otherwise, if messages wait,
 * makes sure a wake-up is pending at the next slot whose owner has one. */
static void try_start(struct network *net, uint32_t ch, uint64_t k)
{
    struct tdm_state *s = net->proto_state;
    if (net->chan[ch].serving != NET_NONE)
        return;
    unsigned J = senders_on(&s->sq, ch);
    struct msgq *owner = position_queue(&s->sq, ch, (unsigned)(k % J));
    if (!msgq_empty(owner)) {
        net->sw->granted(net, ch, msgq_pop(&net->pool, owner));
        return;
    }
    for (unsigned j = 1; j < J; j++) {
        if (msgq_empty(position_queue(&s->sq, ch, (unsigned)((k + j) % J))))
            continue;
        uint64_t target = k + j;
        double at = (double)target * slot_length(net, ch);
        if (at < s->wake_at[ch]) {
            double delay = at > net->kernel.now ? at - net->kernel.now : 0;
            kernel_schedule(&net->kernel, delay, s->ev_wake, ch);
            s->wake_at[ch] = net->kernel.now + delay; /* exactly the event's time */
            s->wake_slot[ch] = target;
        }
        return;
    }
}

static uint64_t current_slot(const struct network *net, uint32_t ch)
{
    return (uint64_t)floor(net->kernel.now / slot_length(net, ch));
}

static void on_wake(struct kernel *k, void *ctx, uint32_t ch)
{
    struct network *net = ctx;
    struct tdm_state *s = net->proto_state;
    if (s->wake_at[ch] != k->now)
        return; /* superseded by an earlier wake-up, which did the work */
    s->wake_at[ch] = INFINITY;
    try_start(net, ch, s->wake_slot[ch]);
}

static void request(struct network *net, uint32_t ch, uint32_t m)
{
    struct tdm_state *s = net->proto_state;
    struct msgq *own = sender_queue(&s->sq, ch, net->pool.msgs[m].at);
    if (!s->strict && net->chan[ch].serving == NET_NONE && msgq_empty(own)) {
        net->sw->granted(net, ch, m);
        return;
    }
    msgq_push(&net->pool, own, m);
    try_start(net, ch, current_slot(net, ch));
}

static void release(struct network *net, uint32_t ch) { try_start(net, ch, current_slot(net, ch)); }

static bool init(struct network *net)
{
    struct tdm_state *s = calloc(1, sizeof *s);
    if (!s)
        return false;
    net->proto_state = s;
    uint32_t channels = net->topo.channels;
    s->wake_at = malloc((size_t)channels * sizeof *s->wake_at);
    s->wake_slot = malloc((size_t)channels * sizeof *s->wake_slot);
    if (!s->wake_at || !s->wake_slot || !sender_queues_init(&s->sq, &net->topo))
        return false;
    for (uint32_t ch = 0; ch < channels; ch++)
        s->wake_at[ch] = INFINITY;
    s->strict = tdm_rule_find(net->cfg->protocol.tdm_rule)->strict;
    s->ev_wake = kernel_register(&net->kernel, on_wake, net);
    return true;
}

static void release_state(struct network *net)
{
    struct tdm_state *s = net->proto_state;
    sender_queues_free(&s->sq);
    free(s->wake_at);
    free(s->wake_slot);
    free(s);
    net->proto_state = NULL;
}

const struct proto_ops proto_tdm = {
    .name = "tdm",
    .help = "time-division multiplexing: slots of protocol.slot owned by the senders in turn (protocol.tdm_rule)",
    .init = init,
    .free = release_state,
    .request = request,
    .release = release,
};
