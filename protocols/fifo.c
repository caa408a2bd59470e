/* FIFO access (seed 004's idealised arbiter): one queue per channel for all its
 * senders, served in request order (or protocol.priority's order) with no overhead.
 * The hottest protocol: request and release touch one 16-byte channel record. */
#include <stdlib.h>

#include "protocol.h"

struct fifo_channel {
    struct msgq waiting;
    bool busy; /* granted and not yet released */
};

struct fifo {
    struct fifo_channel *chan;
    struct msg_pool *pool;
    access_grant_fn *grant;
    void *engine;
};

static void request(void *self, uint32_t ch, uint32_t m, uint32_t sender)
{
    (void)sender;
    struct fifo *f = self;
    struct fifo_channel *c = &f->chan[ch];
    if (!c->busy) {
        c->busy = true;
        f->grant(f->engine, ch, m);
    } else {
        msgq_push(f->pool, &c->waiting, m);
    }
}

static void release(void *self, uint32_t ch)
{
    struct fifo *f = self;
    struct fifo_channel *c = &f->chan[ch];
    uint32_t m = msgq_pop(f->pool, &c->waiting);
    if (m == MSG_NONE)
        c->busy = false;
    else
        f->grant(f->engine, ch, m); /* handed straight on: the channel stays busy */
}

/* Stage 0: the channel's record; 1: the first waiting message (release grants it). */
static void prefetch(const void *self, uint32_t ch, unsigned stage)
{
    const struct fifo *f = self;
    const struct fifo_channel *c = &f->chan[ch];
    if (stage == 0) {
        __builtin_prefetch(c, 1);
    } else if (stage == 1) {
        uint32_t m = c->waiting.head;
        if (m < f->pool->capacity)
            __builtin_prefetch(&f->pool->msgs[m], 1);
    }
}

static uint32_t queued(const void *self, uint32_t ch)
{
    const struct fifo *f = self;
    return f->chan[ch].waiting.length + f->chan[ch].busy;
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
        f->chan[ch] = (struct fifo_channel){ MSGQ_EMPTY, false };
    return f;
}

const struct proto_ops proto_fifo = {
    .name = "fifo",
    .help = "first come, first served at every channel",
    .traits = ACCESS_FIFO_CHANNEL,
    .create = create,
    .destroy = destroy,
    .request = request,
    .release = release,
    .prefetch = prefetch,
    .queued = queued,
};
