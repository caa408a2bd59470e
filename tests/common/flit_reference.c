/* The reference model: deliberately naive (see flit_reference.h). */
#include "flit_reference.h"

#include <stdlib.h>

#define NONE (-1)

struct ref_state {
    int32_t *pos;       /* per flit: hops crossed (0: still at the source) */
    int64_t *arrive;    /* per flit: cycle it reaches node pos (on the wire before) */
    uint32_t granted;   /* hops whose VC the header got */
    uint32_t vc[REF_MAX_HOPS];
    int64_t ready;      /* when the header may ask for hop `granted`; -1: not yet known */
    bool queued, started, done;
    int64_t tail_arrival;
};

static bool in_class(const struct ref_params *p, uint32_t cls, uint32_t v)
{
    if (!p->dateline)
        return true;
    return cls ? v >= p->vcs / 2 : v < p->vcs / 2;
}

void ref_simulate(const struct ref_params *p, struct ref_message *msgs, uint32_t n, int64_t max_cycle)
{
    struct ref_state *st = calloc(n, sizeof *st);
    int32_t *owner = malloc((size_t)p->channels * p->vcs * sizeof *owner);
    int32_t **queue = calloc(p->channels, sizeof *queue); /* per channel: message numbers in order */
    uint32_t *qlen = calloc(p->channels, sizeof *qlen);
    uint32_t *rr = malloc(p->channels * sizeof *rr);
    int32_t *busy = malloc(p->nodes * sizeof *busy); /* message injecting at each source */
    int32_t *cand = malloc((size_t)p->channels * p->vcs * sizeof *cand);
    int32_t *cand_msg = malloc((size_t)p->channels * p->vcs * sizeof *cand_msg);
    for (uint32_t i = 0; i < p->channels * p->vcs; i++)
        owner[i] = NONE;
    for (uint32_t i = 0; i < p->channels; i++) {
        queue[i] = malloc(n * sizeof **queue);
        rr[i] = p->vcs - 1;
    }
    for (uint32_t i = 0; i < p->nodes; i++)
        busy[i] = NONE;
    for (uint32_t m = 0; m < n; m++) {
        st[m].pos = calloc(msgs[m].flits, sizeof *st[m].pos);
        st[m].arrive = calloc(msgs[m].flits, sizeof *st[m].arrive);
        st[m].ready = -1;
        msgs[m].grant0 = msgs[m].delivered = -1;
    }
    uint32_t left = n;
    for (int64_t c = n ? msgs[0].offered : 0; left && c <= max_cycle; c++) {
        /* Offers: the first waiting message of an idle source gets the injection line. */
        for (uint32_t m = 0; m < n; m++)
            if (msgs[m].offered == c && busy[msgs[m].src] == NONE) {
                busy[msgs[m].src] = (int32_t)m;
                st[m].ready = c + p->router_delay;
            }
        /* Headers ready now join their channel's queue, in creation order. */
        for (uint32_t m = 0; m < n; m++) {
            if (st[m].ready == c && !st[m].queued && st[m].granted < msgs[m].hops) {
                uint32_t ch = msgs[m].channel[st[m].granted];
                queue[ch][qlen[ch]++] = (int32_t)m;
                st[m].queued = true;
            }
        }
        /* Channels grant free VCs to their queues in order. */
        for (uint32_t ch = 0; ch < p->channels; ch++) {
            uint32_t kept = 0;
            for (uint32_t q = 0; q < qlen[ch]; q++) {
                int32_t m = queue[ch][q];
                uint32_t hop = st[m].granted, v;
                for (v = 0; v < p->vcs; v++)
                    if (in_class(p, msgs[m].cls[hop], v) && owner[ch * p->vcs + v] == NONE)
                        break;
                if (v == p->vcs) {
                    queue[ch][kept++] = m;
                    continue;
                }
                owner[ch * p->vcs + v] = m;
                st[m].vc[hop] = v;
                st[m].granted++;
                st[m].queued = false;
                st[m].ready = -1;
                if (hop == 0) {
                    msgs[m].grant0 = c;
                    st[m].started = true;
                }
            }
            qlen[ch] = kept;
        }
        /* Every VC holding a message offers its next flit if it may go; start-of-cycle state. */
        for (uint32_t i = 0; i < p->channels * p->vcs; i++)
            cand[i] = NONE;
        for (uint32_t ch = 0; ch < p->channels; ch++) {
            for (uint32_t v = 0; v < p->vcs; v++) {
                int32_t m = owner[ch * p->vcs + v];
                if (m == NONE)
                    continue;
                uint32_t hop = 0;
                while (msgs[m].channel[hop] != ch || st[m].vc[hop] != v || hop >= st[m].granted)
                    hop++;
                int32_t f = NONE;
                for (uint32_t k = 0; k < msgs[m].flits && f == NONE; k++)
                    if (st[m].pos[k] == (int32_t)hop)
                        f = (int32_t)k;
                if (f == NONE || st[m].arrive[f] > c)
                    continue;
                if (f > 0 && st[m].pos[f - 1] <= (int32_t)hop)
                    continue; /* order: the flit ahead has not gone yet */
                if (p->wormhole && hop + 1 < msgs[m].hops) {
                    uint32_t held = 0;
                    for (uint32_t k = 0; k < msgs[m].flits; k++)
                        held += st[m].pos[k] == (int32_t)hop + 1;
                    if (held >= p->buffers)
                        continue;
                }
                cand[ch * p->vcs + v] = f;
                cand_msg[ch * p->vcs + v] = m;
            }
        }
        /* One flit per channel, round robin over its VCs; then apply. */
        for (uint32_t ch = 0; ch < p->channels; ch++) {
            for (uint32_t d = 1; d <= p->vcs; d++) {
                uint32_t v = (rr[ch] + d) % p->vcs;
                int32_t f = cand[ch * p->vcs + v];
                if (f == NONE)
                    continue;
                rr[ch] = v;
                int32_t m = cand_msg[ch * p->vcs + v];
                uint32_t hop = (uint32_t)st[m].pos[f];
                st[m].pos[f]++;
                st[m].arrive[f] = c + p->link_latency;
                if (f == 0 && hop + 1 < msgs[m].hops)
                    st[m].ready = c + p->link_latency + p->router_delay;
                if ((uint32_t)f + 1 == msgs[m].flits) {
                    if (!p->wormhole)
                        owner[ch * p->vcs + v] = NONE;
                    else if (hop > 0)
                        owner[msgs[m].channel[hop - 1] * p->vcs + st[m].vc[hop - 1]] = NONE;
                    if (hop == 0) { /* the source's next message, in offer order */
                        busy[msgs[m].src] = NONE;
                        for (uint32_t k = 0; k < n; k++)
                            if (msgs[k].src == msgs[m].src && !st[k].started && st[k].ready < 0 &&
                                msgs[k].offered <= c && (uint32_t)k != (uint32_t)m) {
                                busy[msgs[k].src] = (int32_t)k;
                                st[k].ready = c + 1 + p->router_delay;
                                break;
                            }
                    }
                    if (hop + 1 == msgs[m].hops)
                        st[m].tail_arrival = c + p->link_latency;
                }
                break;
            }
        }
        /* Tails reaching their destination this cycle: delivered; the last VC frees. */
        for (uint32_t m = 0; m < n; m++) {
            if (st[m].done || !st[m].started || st[m].pos[msgs[m].flits - 1] != (int32_t)msgs[m].hops ||
                st[m].tail_arrival != c)
                continue;
            st[m].done = true;
            msgs[m].delivered = c;
            left--;
            if (p->wormhole) {
                uint32_t last = msgs[m].hops - 1;
                owner[msgs[m].channel[last] * p->vcs + st[m].vc[last]] = NONE;
            }
        }
    }
    for (uint32_t m = 0; m < n; m++) {
        free(st[m].pos);
        free(st[m].arrive);
    }
    for (uint32_t i = 0; i < p->channels; i++)
        free(queue[i]);
    free(st);
    free(owner);
    free(queue);
    free(qlen);
    free(rr);
    free(busy);
    free(cand);
    free(cand_msg);
}
