/* The run's side of request-reply traffic (workload.classes = request-reply): replies
 * created from the engines' deliveries, and sources that wait at their cap.
 *
 * Promise: every message the arrival process creates is a request of
 * workload.request_length to the destination the distribution draws.  When a request
 * is delivered (at its destination, at time t as the engine stamps it), a reply of
 * workload.reply_length from that destination back to the request's source is created
 * at t + workload.reply_delay (or at the kernel's time then, if later: a flit router
 * stamps a cycle while the kernel runs it at its half), by an event of the run (never
 * inside the engine); a refused
 * request gets no reply.  With workload.max_outstanding = m > 0 a terminal holds at
 * most m requests whose reply has not been delivered (or that were refused): an arrival
 * at the cap is held, the source's arrival process stops, and at the delivery of one of
 * its replies the held request is created (at that time) and the process resumes (a
 * fresh gap from then).  The engines report deliveries through engine_env.loop
 * (net_reply->loop).  Figures (group "classes"), over the deliveries inside the
 * measurement window: request_delay and reply_delay (means), round_trip (request
 * creation to reply delivery: mean and its 95% interval by batch means over
 * consecutive round trips), requests_per_terminal (requests delivered per terminal per
 * time unit), held (arrivals that waited at the cap).  Every message, request or reply,
 * is one of the run's messages for the probe (delay, throughput, run.messages).
 * Needs: the network (network.h), workloads/workload.h.
 */
#ifndef SIM_RUN_REQUEST_REPLY_H
#define SIM_RUN_REQUEST_REPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "../../routing/engine.h"
#include "../../workloads/workload.h"
#include "../core/figures.h"
#include "../core/stats.h"

struct network;

enum { REPLY_BATCHES_MAX = 64 };

/* Batch means over a stream of unknown length: at most REPLY_BATCHES_MAX complete
 * batches of `size` samples; when they are all full, neighbours merge and size doubles. */
struct doubling_batches {
    double sum[REPLY_BATCHES_MAX];
    unsigned full;       /* complete batches */
    uint64_t size;       /* samples per batch */
    double open_sum;     /* the batch being filled */
    uint64_t open_count;
    struct moments all;
};

struct pending_reply {
    uint32_t src, dst; /* the reply's: the request's destination and source */
    double origin;     /* the request's creation */
    uint32_t next;     /* free list */
};

struct net_reply {
    struct network *net;
    const struct reply_params *p;
    uint32_t ev_reply, ev_resume;
    /* Per pool slot: the message's class (0 request, 1 reply) and its request's creation. */
    uint8_t *cls;
    double *origin;
    uint32_t slots;
    /* Per terminal: requests without their delivered reply, and whether an arrival waits. */
    uint32_t *outstanding;
    uint8_t *held;
    struct pending_reply *pend;
    uint32_t pend_cap, pend_free;
    uint8_t next_cls;   /* what the next creation is */
    double next_origin;
    struct engine_tap loop;
    struct engine_classes classes; /* handed to the engine (engine_env.classes) */
    struct moments request_delay, reply_delay;
    struct doubling_batches round_trip;
    uint64_t requests_in_window, held_count;
};

/* With workload.classes = request-reply: sets net->reply (the loop, the events); true
 * without doing anything otherwise.  False with *err when out of memory. */
bool net_reply_create(struct network *net, struct cfg_error *err);
/* Message m (a pool slot) is being created: records its class; false when out of memory. */
bool net_reply_tag(struct net_reply *r, uint32_t m);
/* An arrival at `node`: whether the source may create its request now (false: it is
 * held, and the arrival process must stop until net_reply resumes it). */
bool net_reply_admits(struct net_reply *r, uint32_t node);
void net_reply_figures(const struct net_reply *r, const struct figure_sink *sink);
void net_reply_free(struct net_reply *r);

#endif
