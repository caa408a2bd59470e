/* Token passing (seed 004, §2.3.3): each channel's J senders form a logical ring in
 * position order.  The holder of the token sends from its own queue, at most
 * protocol.max_per_capture messages per capture, then passes the token to the next
 * position; a pass takes protocol.token_time mean transmission times and occupies
 * the channel.  The token circulates even when every queue is empty, so a message
 * at a sender without the token waits for it to come round.
 *
 * Idle circulation costs no events: while every queue is empty the token's place is
 * a function of time (it left `holder` at `idle_since`, one pass per token time), so
 * the next message recovers it and only then are passes simulated one by one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <float.h>
#include <stddef.h>

#include "../sim/core/params.h"
#include "protocol.h"
#include "senders.h"

struct token_channel {
    uint32_t holder;  /* position holding the token, or the one it is leaving */
    uint32_t sent;    /* messages sent in the current capture */
    bool passing;     /* the token is on its way to holder + 1 */
    bool circulating; /* every queue empty: passes are implicit since idle_since */
    double idle_since;
};

struct token_params {
    double token_time;
    int64_t max_per_capture;
};

struct token_state {
    struct access_env env;
    struct token_params params;
    struct sender_queues sq;
    struct token_channel *tok;
    uint32_t ev_pass_done;
};

static double token_time(const struct token_state *s, uint32_t ch)
{
    return s->params.token_time * s->env.channels.mean_tx(s->env.channels.ctx, ch);
}

static bool all_empty(const struct token_state *s, uint32_t ch)
{
    for (uint32_t q = s->sq.first[ch]; q < s->sq.first[ch + 1]; q++)
        if (!msgq_empty(&s->sq.queue[q]))
            return false;
    return true;
}

/* The channel is free (no message, no pass): the holder sends or the token moves on. */
static void serve(struct token_state *s, uint32_t ch)
{
    struct token_channel *t = &s->tok[ch];
    struct msgq *own = position_queue(&s->sq, ch, t->holder);
    if (!msgq_empty(own) && t->sent < (uint64_t)s->params.max_per_capture) {
        t->sent++;
        s->env.grant(s->env.engine, ch, msgq_pop(s->env.pool, own));
    } else if (all_empty(s, ch)) {
        t->circulating = true;
        t->idle_since = s->env.kernel->now;
    } else {
        t->passing = true;
        kernel_schedule(s->env.kernel, token_time(s, ch), s->ev_pass_done, ch);
    }
}

static void on_pass_done(struct kernel *k, void *ctx, uint32_t ch)
{
    (void)k;
    struct token_state *s = ctx;
    struct token_channel *t = &s->tok[ch];
    t->passing = false;
    t->holder = (t->holder + 1) % senders_on(&s->sq, ch);
    t->sent = 0;
    serve(s, ch);
}

static void request(void *self, uint32_t ch, uint32_t m, uint32_t sender)
{
    struct token_state *s = self;
    struct token_channel *t = &s->tok[ch];
    struct kernel *k = s->env.kernel;
    msgq_push(s->env.pool, sender_queue(&s->sq, ch, sender), m);
    if (!t->circulating)
        return; /* the token is busy: a message, a pass, or a holder about to send */
    /* Recover the implicit pass in progress: it left holder + n, arrives at holder + n + 1. */
    double tau = token_time(s, ch), since = k->now - t->idle_since;
    double passes = floor(since / tau);
    unsigned J = senders_on(&s->sq, ch);
    t->holder = (t->holder + (uint32_t)fmod(passes, J)) % J;
    double arrival = t->idle_since + (passes + 1) * tau;
    t->circulating = false;
    t->passing = true;
    kernel_schedule(k, arrival > k->now ? arrival - k->now : 0, s->ev_pass_done, ch);
}

static void release(void *self, uint32_t ch) { serve(self, ch); }

/* A message holds the channel exactly when the token is neither passing nor idle. */
static uint32_t queued(const void *self, uint32_t ch)
{
    const struct token_state *s = self;
    const struct token_channel *t = &s->tok[ch];
    return senders_waiting(&s->sq, ch) + (!t->passing && !t->circulating);
}

static void destroy(void *self)
{
    struct token_state *s = self;
    if (!s)
        return;
    sender_queues_free(&s->sq);
    free(s->tok);
    free(s);
}

static void *create(const struct access_env *env)
{
    struct token_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->env = *env;
    s->params = *(const struct token_params *)env->params;
    s->tok = calloc((size_t)env->channels.count + 1, sizeof *s->tok); /* + 1: never calloc(0) */
    if (!s->tok || !sender_queues_init(&s->sq, &env->channels)) {
        destroy(s);
        return NULL;
    }
    for (uint32_t ch = 0; ch < env->channels.count; ch++) /* holder 0 at t = 0, queues empty */
        s->tok[ch] = (struct token_channel){ .circulating = true, .idle_since = 0 };
    s->ev_pass_done = kernel_register(env->kernel, on_pass_done, s);
    return s;
}

static double capacity(const void *params)
{
    const struct token_params *p = params;
    /* Saturated, every sender sends its quota per capture: per cycle J·quota mean
     * transmissions against J passes. */
    double quota = (double)p->max_per_capture;
    return quota / (quota + p->token_time);
}

static void describe(const void *params, char *buf, size_t size)
{
    const struct token_params *p = params;
    snprintf(buf, size, " (token time %g, %lld per capture)", p->token_time, (long long)p->max_per_capture);
}

static const struct cfg_key token_keys[] = {
    { "protocol", "token_time", CFG_REAL, offsetof(struct token_params, token_time), "0.1", 0, DBL_MAX, true, NULL,
      "token: time to pass the token to the next sender, in mean transmission times" },
    { "protocol", "max_per_capture", CFG_INT, offsetof(struct token_params, max_per_capture), "3", 1, 1 << 30, false, NULL,
      "token: messages a sender may send per token capture" },
};
static CFG_PARAM_TABLE(token_param_table, struct token_params, token_keys);

const struct proto_ops proto_token = {
    .name = "token",
    .help = "token passing round the senders of each channel (protocol.token_time, protocol.max_per_capture)",
    .params = &token_param_table,
    /* The token's turns count messages and token times, never lengths; a channel idles
     * while the token travels, and serves by holder, not arrival. */
    .traits = ACCESS_ORDER_BLIND_TO_LENGTH,
    .create = create,
    .destroy = destroy,
    .request = request,
    .release = release,
    .queued = queued,
    .capacity = capacity,
    .describe = describe,
};
