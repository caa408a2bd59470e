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
    struct message *msg = &net->pool.msgs[m];
    msg->node_time += k->now - msg->stage_start;
    net->engine->visited(net->engine_state, m);
}

void net_node_visit(void *ctx, uint32_t m)
{
    struct network *net = ctx;
    struct message *msg = &net->pool.msgs[m];
    msg->stage_start = net->kernel.now;
    if (net->node[msg->at].serving == NET_NONE)
        start_service(net, msg->at, m);
    else
        msgq_push(&net->pool, &net->node[msg->at].queue, m);
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
