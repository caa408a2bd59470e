/* FIFO access (seed 004's idealised arbiter): one queue per channel for all its
 * senders, served in request order (or protocol.priority's order) with no overhead. */
#include "protocol.h"
#include "../routing/routing.h"

static void request(struct network *net, uint32_t ch, uint32_t m)
{
    if (net->chan[ch].serving == NET_NONE)
        net->sw->granted(net, ch, m);
    else
        net_queue_push(net, ch, m);
}

static void release(struct network *net, uint32_t ch)
{
    uint32_t m = net_queue_pop(net, ch);
    if (m != NET_NONE)
        net->sw->granted(net, ch, m);
}

const struct proto_ops proto_fifo = {
    .name = "fifo",
    .help = "first come, first served at every channel",
    .request = request,
    .release = release,
};
