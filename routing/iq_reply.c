/* The input-queued router's bounded reply queue (workload.reply_queue; contract in
 * iq.h): the places per terminal, and the sources' line per message class that keeps a
 * reply from waiting behind a request at its own source when the classes have VC sets
 * of their own (the simple router's injection line per class). */
#include "iq_cycle.h"

#include <stdlib.h>

bool iq_reply_init(struct iq_engine *e)
{
    e->reply_held = calloc(e->N, sizeof *e->reply_held);
    e->replies_in = calloc(e->N, sizeof *e->replies_in);
    return e->reply_held && e->replies_in;
}

bool iq_take_reply_place(struct iq_engine *e, uint32_t iv, uint32_t ov)
{
    const struct iq_packet *p = &e->packets[iq_front_packet(e, iv)];
    if (!p->gated || !iq_ejects(e, ov / e->V))
        return true;
    if (e->reply_held[p->dst] >= e->reply_queue)
        return false;
    e->reply_held[p->dst]++;
    return true;
}

/* Each node with a backlog sends one flit on its injection channel: of the class that
 * did not send last if that line can, else of the other (round robin over the two). */
void iq_inject_by_class(struct iq_engine *e, int64_t c)
{
    for (uint32_t k = 0; k < e->n_sources;) {
        uint32_t node = e->sources[k], cls = e->line_last[node] ^ 1u;
        for (uint32_t tries = 0; tries < 2; tries++, cls ^= 1u) {
            uint32_t line = 2 * node + cls;
            if (e->src_head[line] != NONE && send_flit(e, node, line, c) != SENT_NONE) {
                e->line_last[node] = (uint8_t)cls;
                break;
            }
        }
        if (e->src_head[2 * node] == NONE && e->src_head[2 * node + 1] == NONE)
            remove_source(e, node); /* the last source moved to k: look at it next */
        else
            k++;
    }
}
