/* The node model (seed 004): every node has one queue and one server of
 * deterministic service time 1/μ_N, visited by a message at its source, at every
 * relay and at its destination.  Off (node.service_rate = 0), a visit costs nothing
 * and passes straight to the engine (which then does not call net_node_visit). */
#include <stdlib.h>

#include "network.h"

static void start_service(struct network *net, uint32_t v, uint32_t m)
{
    struct node_state *n = &net->node[v];
    n->serving = m;
    n->busy_since = net->kernel.now;
    kernel_schedule(&net->kernel, net->node_service, net->ev_node_done, v);
}

static void on_node_done(struct kernel *k, void *ctx, uint32_t v)
{
    struct network *net = ctx;
    struct node_state *n = &net->node[v];
    uint32_t m = n->serving;
    if (net->probe.window_open)
        n->busy_time += k->now - n->busy_since;
    n->serving = NET_NONE;
    uint32_t next = msgq_pop(&net->pool, &n->queue);
    if (next != NET_NONE)
        start_service(net, v, next);
    net->clock[m].node_time += k->now - net->clock[m].visit_start;
    net->engine->visited(net->engine_state, m);
}

void net_node_visit(void *ctx, uint32_t m)
{
    struct network *net = ctx;
    const struct message *msg = &net->pool.msgs[m];
    net->clock[m].visit_start = net->kernel.now;
    if (net->node[msg->at].serving == NET_NONE)
        start_service(net, msg->at, m);
    else
        msgq_push(&net->pool, &net->node[msg->at].queue, m);
}

double net_node_time(const void *ctx, uint32_t m)
{
    const struct network *net = ctx;
    return net->clock[m].node_time;
}

/* The clocks follow the pool, which may have grown since the last message. */
bool net_node_clock_start(struct network *net, uint32_t m)
{
    if (m >= net->clock_size) {
        uint32_t size = net->pool.capacity;
        struct node_clock *grown = realloc(net->clock, (size_t)size * sizeof *grown);
        if (!grown)
            return false;
        net->clock = grown;
        net->clock_size = size;
    }
    net->clock[m].node_time = 0;
    return true;
}

bool net_nodes_init(struct network *net)
{
    if (net->cfg->node.service_rate <= 0)
        return true;
    net->node_service = 1 / net->cfg->node.service_rate;
    net->node = malloc((size_t)net->topo.nodes * sizeof *net->node);
    if (!net->node)
        return false;
    for (uint32_t v = 0; v < net->topo.nodes; v++)
        net->node[v] = (struct node_state){ MSGQ_EMPTY, NET_NONE, 0, 0 };
    net->ev_node_done = kernel_register(&net->kernel, on_node_done, net);
    return true;
}
