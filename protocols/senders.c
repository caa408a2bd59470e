#include "senders.h"

#include <stdlib.h>

bool sender_queues_init(struct sender_queues *sq, const struct access_channels *c)
{
    *sq = (struct sender_queues){ 0 };
    uint32_t *scratch = malloc((size_t)c->max_senders * sizeof *scratch);
    sq->first = malloc(((size_t)c->count + 1) * sizeof *sq->first);
    if (!scratch || !sq->first)
        goto fail;
    uint64_t total = 0;
    for (uint32_t ch = 0; ch < c->count; ch++) {
        sq->first[ch] = (uint32_t)total;
        total += c->senders(c->ctx, ch, scratch, c->max_senders);
        if (total >= UINT32_MAX)
            goto fail;
    }
    sq->first[c->count] = (uint32_t)total;
    sq->node = malloc(total * sizeof *sq->node);
    sq->queue = malloc(total * sizeof *sq->queue);
    if (!sq->node || !sq->queue)
        goto fail;
    for (uint32_t ch = 0; ch < c->count; ch++)
        c->senders(c->ctx, ch, sq->node + sq->first[ch], c->max_senders);
    for (uint64_t q = 0; q < total; q++)
        sq->queue[q] = MSGQ_EMPTY;
    free(scratch);
    return true;
fail:
    free(scratch);
    sender_queues_free(sq);
    return false;
}

void sender_queues_free(struct sender_queues *sq)
{
    free(sq->first);
    free(sq->node);
    free(sq->queue);
    *sq = (struct sender_queues){ 0 };
}
