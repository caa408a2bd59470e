/* FIFO access (seed 004's idealised arbiter): one queue per channel for all its
 * senders, served in request order (or protocol.priority's order) with no overhead.
 * The hottest protocol: request and release touch one 8-byte channel record, its
 * waiting line, whose flag says the channel is held. */
#include <stdlib.h>

#include "protocol.h"

struct fifo {
    struct msgq *chan; /* per channel: its waiting line; flag: granted and not yet released */
    struct msg_pool *pool;
    access_grant_fn *grant;
    void *engine;
};

static void request(void *self, uint32_t ch, uint32_t m, uint32_t sender)
{
    (void)sender;
    struct fifo *f = self;
    struct msgq *c = &f->chan[ch];
    if (!c->flag) {
        c->flag = 1;
        f->grant(f->engine, ch, m);
    } else {
        msgq_push(f->pool, c, m);
    }
}

static void release(void *self, uint32_t ch)
{
    struct fifo *f = self;
    struct msgq *c = &f->chan[ch];
    uint32_t m = msgq_pop(f->pool, c);
    if (m == MSG_NONE)
        c->flag = 0;
    else
        f->grant(f->engine, ch, m); /* handed straight on: the channel stays busy */
}

/* Stage 0: the channel's record; 1: the newest waiting message, whose link names the
 * first; 2: the first (release grants it). */
static void prefetch(const void *self, uint32_t ch, unsigned stage)
{
    const struct fifo *f = self;
    const struct msgq *c = &f->chan[ch];
    if (stage == 0) {
        __builtin_prefetch(c, 1);
        return;
    }
    uint32_t m = stage == 1 || f->pool->key ? c->entry : msgq_first(f->pool, c);
    if (m < f->pool->capacity)
        __builtin_prefetch(&f->pool->msgs[m], 1);
}

static uint32_t queued(const void *self, uint32_t ch)
{
    const struct fifo *f = self;
    return f->chan[ch].length + f->chan[ch].flag;
}

static void destroy(void *self)
{
    struct fifo *f = self;
    if (f)
        free(f->chan);
    free(f);
}

static void *create(const struct access_env *env)
{
    struct fifo *f = malloc(sizeof *f);
    if (!f)
        return NULL;
    *f = (struct fifo){ NULL, env->pool, env->grant, env->engine };
    f->chan = malloc(((size_t)env->channels.count + 1) * sizeof *f->chan); /* + 1: never malloc(0) */
    if (!f->chan) {
        destroy(f);
        return NULL;
    }
    for (uint32_t ch = 0; ch < env->channels.count; ch++)
        f->chan[ch] = MSGQ_EMPTY;
    return f;
}

const struct proto_ops proto_fifo = {
    .name = "fifo",
    .help = "first come, first served at every channel",
    /* no slots, no token; the order is its one queue's, read by nobody else */
    .traits = ACCESS_WORK_CONSERVING | ACCESS_FIFO_ORDER | ACCESS_ORDER_BLIND_TO_LENGTH,
    .create = create,
    .destroy = destroy,
    .request = request,
    .release = release,
    .prefetch = prefetch,
    .queued = queued,
};
