/* Store-and-forward switching: a message is received whole at each node before it
 * asks for its next channel; a channel is held for length / bandwidth.  Every node
 * on the path (source, relays, destination) is visited once (the node model).
 * One event kind: a channel finishes transmitting its message. */
#include <stdlib.h>

#include "../protocols/protocol.h"
#include "routing.h"

struct saf_state {
    uint32_t ev_done;
};

/* Done at node msg->at: delivered there, or on to the next channel. */
static void visited(struct network *net, uint32_t m)
{
    struct message *msg = &net->pool.msgs[m];
    if (msg->at == msg->dst) {
        net_deliver(net, m);
        return;
    }
    struct hop h = net_route(net, m);
    msg->next_node = h.next;
    net_redraw_length(net, m);
    msg->stage_start = net->kernel.now;
    net->proto->request(net->proto_state, h.channel, m, msg->at);
}

static void inject(struct network *net, uint32_t m) { net_node_visit(net, m); }

static void granted(void *ctx, uint32_t ch, uint32_t m)
{
    struct network *net = ctx;
    struct saf_state *s = net->sw_state;
    net_channel_busy(net, ch, m);
    kernel_schedule(&net->kernel, net_transmission_time(net, m, ch), s->ev_done, ch);
}

static void on_transmission_done(struct kernel *k, void *ctx, uint32_t ch)
{
    struct network *net = ctx;
    uint32_t m = net->chan[ch].serving;
    net_channel_idle(net, ch);
    net->proto->release(net->proto_state, ch);
    struct message *msg = &net->pool.msgs[m];
    msg->link_time += k->now - msg->stage_start;
    msg->at = msg->next_node;
    msg->hops++;
    net_node_visit(net, m);
}

/* The flit-level keys mean nothing here: setting one is a mistake worth naming. */
static bool check(const struct config *cfg, const struct topo *t, struct cfg_error *err)
{
    (void)t;
    static const char *const flit_keys[] = { "routing.flit_buffers", "routing.virtual_channels",
                                             "routing.router_delay", "routing.link_latency", "routing.finite_buffer" };
    for (size_t i = 0; i < sizeof flit_keys / sizeof flit_keys[0]; i++)
        if (cfg_origin_of(cfg, flit_keys[i])->file) {
            cfg_blame(cfg, flit_keys[i], err, "applies to wormhole and cut-through switching only");
            return false;
        }
    return true;
}

static bool init(struct network *net)
{
    struct saf_state *s = calloc(1, sizeof *s);
    if (!s)
        return false;
    s->ev_done = kernel_register(&net->kernel, on_transmission_done, net);
    net->sw_state = s;
    return true;
}

static void release_state(struct network *net)
{
    free(net->sw_state);
    net->sw_state = NULL;
}

const struct switch_ops switch_store_and_forward = {
    .name = "store-and-forward",
    .help = "each node receives the whole message before forwarding it",
    .traits = SWITCH_WHOLE_MESSAGE,
    .check = check,
    .init = init,
    .free = release_state,
    .inject = inject,
    .granted = granted,
    .visited = visited,
};
