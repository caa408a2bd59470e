/* A plain flit-by-flit reference model of wormhole and cut-through switching, for
 * the tests only.  It restates the rules of routing/flit.h as directly as possible:
 * every flit is an object with a position, every cycle looks at every message and
 * every flit.  It takes the messages the engine offered (source, offer cycle, flits,
 * path and classes) and returns, per message, the cycle its header got its first
 * channel and the cycle its tail reached the destination. */
#ifndef TESTS_FLIT_REFERENCE_H
#define TESTS_FLIT_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

enum { REF_MAX_HOPS = 16 };

struct ref_message {
    uint64_t id;
    uint32_t src, flits, hops;
    int64_t offered;
    uint32_t channel[REF_MAX_HOPS], cls[REF_MAX_HOPS];
    int64_t grant0, delivered; /* outputs; -1 when not reached by max_cycle */
};

struct ref_params {
    uint32_t nodes, channels;
    uint32_t vcs, buffers, router_delay, link_latency;
    bool wormhole, dateline;
};

/* Simulates messages[0..n-1] (in offer order) until all are delivered or max_cycle. */
void ref_simulate(const struct ref_params *p, struct ref_message *messages, uint32_t n, int64_t max_cycle);

#endif
