/* The input-queued router (routing/iq.h): zero-load latency against the pipeline's
 * closed form on a torus, a mesh and a hypercube; flit conservation, buffer bounds,
 * credits, flit order and one flit per port per cycle, checked every cycle under random
 * traffic; deadlock detection and its absence with dateline classes; the figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../routing/iq.h"
#include "../common/checks.h"
#include "../common/test.h"

static double figure(const struct run_report *r, const char *name) { return test_figure(r, "switching", name); }

/* --- zero load: the closed form --- */

/* Per packet of S flits over h channels created at integer x (Bernoulli arrivals): the
 * injection channel (latency 1: 2 cycles), h + 1 routers of P - 1 cycles each (P the
 * stage delays), h channels of latency d (d + 1 cycles each: read the cycle after the
 * delay line), the ejection channel (2 cycles) and S - 1 flits behind the head, one
 * every `stream` cycles.  `link` is d, routing.link_latency. */
struct zero_load {
    int64_t per_router, link, stream; /* stream: cycles between a packet's flits (1 when the buffers suffice) */
    int64_t min_by_hops[64];
    uint64_t packets, below;
};

static int64_t closed_form(const struct zero_load *z, uint32_t hops, uint32_t flits)
{
    return 2 + (int64_t)(hops + 1) * z->per_router + (int64_t)hops * (z->link + 1) + 2 +
           ((int64_t)flits - 1) * z->stream;
}

struct zero_load_run {
    struct zero_load *z;
    struct iq_engine *e;
};

static void zl_delivered(void *ctx, const struct iq_packet *p, int64_t cycle)
{
    struct zero_load_run *r = ctx;
    struct zero_load *z = r->z;
    const struct message *msg = &r->e->env.pool->msgs[p->msg];
    ck_assert_double_eq(msg->created, (double)p->offered); /* Bernoulli: integer creation times */
    int64_t latency = cycle - p->offered, expect = closed_form(z, p->hops, p->flits);
    z->packets++;
    if (latency < expect)
        z->below++;
    if (p->hops < 64 && (z->min_by_hops[p->hops] < 0 || latency < z->min_by_hops[p->hops]))
        z->min_by_hops[p->hops] = latency;
}

/* exact: the latencies for 0..max_hops hops, written out (the closed form must give them). */
static void check_zero_load_streaming(const char *const *settings, int64_t per_router, int64_t link, int64_t stream,
                                      uint32_t flits, uint32_t max_hops, const int64_t *exact)
{
    struct config cfg;
    static struct network net;
    test_network(&net, &cfg, settings);
    struct iq_engine *e = iq_engine_of(net.engine, net.engine_state);
    ck_assert_ptr_nonnull(e);
    struct zero_load z = { .per_router = per_router, .link = link, .stream = stream };
    for (uint32_t h = 0; h <= max_hops; h++)
        ck_assert_msg(closed_form(&z, h, flits) == exact[h], "%u hops: closed form %lld, expected %lld", h,
                      (long long)closed_form(&z, h, flits), (long long)exact[h]);
    for (int i = 0; i < 64; i++)
        z.min_by_hops[i] = -1;
    struct zero_load_run run = { &z, e };
    e->obs = (struct iq_observer){ .ctx = &run, .delivered = zl_delivered };
    ck_assert_int_eq(net_run(&net), KERNEL_DONE);
    net_free(&net);
    ck_assert_uint_gt(z.packets, 1000);
    ck_assert_uint_eq(z.below, 0); /* nothing beats the pipeline */
    for (uint32_t h = 0; h <= max_hops; h++) /* and a packet alone meets it exactly */
        ck_assert_msg(z.min_by_hops[h] == closed_form(&z, h, flits), "%u hops: fastest %lld, closed form %lld", h,
                      (long long)z.min_by_hops[h], (long long)closed_form(&z, h, flits));
}

static void check_zero_load(const char *const *settings, int64_t per_router, int64_t link, uint32_t flits,
                            uint32_t max_hops, const int64_t *exact)
{
    check_zero_load_streaming(settings, per_router, link, 1, flits, max_hops, exact);
}

START_TEST(zero_load_torus)
{
    const char *const settings[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=2",
                                     "routing.flit_buffers=8", "routing.link_latency=2", "workload.arrival=bernoulli",
                                     "workload.rate=0.002", "workload.destination=uniform-with-self",
                                     "workload.length=constant", "workload.mean_length=4", "run.messages=4000",
                                     "run.warmup_messages=0", NULL };
    /* stages 1 + 1 + 1 + 1, channels of latency 2: 10 + 6h cycles; self-addressed, 10 */
    static const int64_t exact[] = { 10, 16, 22, 28, 34 };
    check_zero_load(settings, 3, 2, 4, 4, exact);
}
END_TEST

/* A ring (an 8-ary 1-cube) with the default pipeline and channels of latency 1: a
 * packet of 4 flits takes 2 + 3 + 2 + 3 = 10 cycles to itself and 5 more per hop. */
START_TEST(zero_load_ring)
{
    const char *const settings[] = { "network.topology=torus", "network.radix=8", "network.dimension=1",
                                     "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=2",
                                     "routing.flit_buffers=8", "routing.link_latency=1", "workload.arrival=bernoulli",
                                     "workload.rate=0.002", "workload.destination=uniform-with-self",
                                     "workload.length=constant", "workload.mean_length=4", "run.messages=4000",
                                     "run.warmup_messages=0", NULL };
    static const int64_t exact[] = { 10, 15, 20, 25, 30 };
    check_zero_load(settings, 3, 1, 4, 4, exact);
}
END_TEST

START_TEST(zero_load_mesh_slow_stages)
{
    const char *const settings[] = { "network.topology=kary-ncube", "network.radix=4", "network.dimension=2",
                                     "network.wrap=false", "routing.switching=wormhole", "routing.router=iq",
                                     "routing.virtual_channels=3", "routing.flit_buffers=16",
                                     "routing.routing_delay=2", "routing.vc_alloc_delay=1",
                                     "routing.sw_alloc_delay=2", "routing.st_delay=3", "routing.credit_delay=2",
                                     "routing.link_latency=3", "workload.arrival=bernoulli", "workload.rate=0.001",
                                     "workload.destination=uniform-with-self", "workload.length=constant",
                                     "workload.mean_length=6", "run.messages=3000", "run.warmup_messages=0", NULL };
    /* stages 2 + 1 + 2 + 3; 16 flits cover the credits' round trip, so no flit waits for one */
    static const int64_t exact[] = { 16, 27, 38, 49, 60, 71, 82 }; /* 2 + 7 + 2 + 5 + (7 + 3 + 1)h */
    check_zero_load(settings, 7, 3, 6, 6, exact);
}
END_TEST

START_TEST(zero_load_hypercube)
{
    const char *const settings[] = { "network.topology=hypercube", "network.dimension=5", "routing.switching=wormhole",
                                     "routing.router=iq", "routing.virtual_channels=1", "routing.flit_buffers=2",
                                     "routing.routing_delay=0", "workload.arrival=bernoulli", "workload.rate=0.001",
                                     "workload.destination=uniform-with-self", "workload.length=constant",
                                     "workload.mean_length=1", "run.messages=4000", "run.warmup_messages=0", NULL };
    /* stages 0 + 1 + 1 + 1, channels of latency 1: 6 + 4h cycles */
    static const int64_t exact[] = { 6, 10, 14, 18, 22, 26 };
    check_zero_load(settings, 2, 1, 1, 5, exact);
}
END_TEST

/* One flit of buffer per VC: each flit waits for the credit of the one before, so the
 * flits stream at one per credit round trip.  On a network channel of latency 1 at the
 * default pipeline: written 1 cycle after the grant, read 2 later, granted on at once,
 * its credit written then and read 2 later: 5 cycles (the ejection channel's too, the
 * injection channel's 4); with channels read d cycles after the write it was 3. */
START_TEST(zero_load_hypercube_credit_round_trip)
{
    const char *const settings[] = { "network.topology=hypercube", "network.dimension=4", "routing.switching=wormhole",
                                     "routing.router=iq", "routing.virtual_channels=1", "routing.flit_buffers=1",
                                     "workload.arrival=bernoulli", "workload.rate=0.0005",
                                     "workload.destination=uniform-with-self", "workload.length=constant",
                                     "workload.mean_length=3", "run.messages=4000", "run.warmup_messages=0", NULL };
    static const int64_t exact[] = { 17, 22, 27, 32, 37 }; /* 2 + 3 + 2 + 2 * 5 + 5h */
    check_zero_load_streaming(settings, 3, 1, 5, 3, 4, exact);
}
END_TEST

/* Adaptive routing takes minimal hops only: alone in the network, a packet is as fast as
 * in dimension order. */
START_TEST(zero_load_adaptive_equals_dimension_order)
{
    const char *const settings[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.router=iq",
                                     "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3",
                                     "routing.flit_buffers=8", "routing.link_latency=2", "workload.arrival=bernoulli",
                                     "workload.rate=0.002", "workload.destination=uniform-with-self",
                                     "workload.length=constant", "workload.mean_length=4", "run.messages=4000",
                                     "run.warmup_messages=0", NULL };
    static const int64_t exact[] = { 10, 16, 22, 28, 34 };
    check_zero_load(settings, 3, 2, 4, 4, exact);
}
END_TEST

/* Valiant crosses the intermediate node's router once more than its channels: the same
 * closed form in the channels crossed. */
START_TEST(zero_load_valiant)
{
    const char *const settings[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.router=iq", "routing.algorithm=valiant",
                                     "routing.virtual_channels=4", "routing.flit_buffers=8", "routing.link_latency=2",
                                     "workload.arrival=bernoulli", "workload.rate=0.002",
                                     "workload.destination=uniform-with-self", "workload.length=constant",
                                     "workload.mean_length=4", "run.messages=4000", "run.warmup_messages=0", NULL };
    static const int64_t exact[] = { 10, 16, 22, 28, 34, 40, 46 };
    check_zero_load(settings, 3, 2, 4, 6, exact);
}
END_TEST

/* --- invariants, every cycle --- */

struct invariants {
    struct iq_engine *e;
    uint64_t injected, ejected, delivered, switched;
    int64_t cycle;
    uint8_t *input_used, *output_used; /* per unit: sent this cycle */
    uint32_t *next_seq;                /* per packet slot: next flit expected at the sink */
    uint32_t slots;
};

static void inv_switched(void *ctx, uint32_t iv, uint32_t ov, int64_t c)
{
    struct invariants *t = ctx;
    uint32_t V = t->e->V;
    if (c != t->cycle) {
        memset(t->input_used, 0, t->e->C + t->e->N);
        memset(t->output_used, 0, t->e->C + 2 * t->e->N);
        t->cycle = c;
    }
    ck_assert_msg(!t->input_used[iv / V], "input unit %u sent twice in cycle %lld", iv / V, (long long)c);
    ck_assert_msg(!t->output_used[ov / V], "output unit %u took two flits in cycle %lld", ov / V, (long long)c);
    t->input_used[iv / V] = t->output_used[ov / V] = 1;
    ck_assert_uint_eq(t->e->ovc[ov].owner, iv); /* a flit goes only into the output VC its input VC holds */
    t->switched++;
}

static void inv_injected(void *ctx, uint32_t node, uint32_t packet, uint32_t seq, int64_t c)
{
    (void)node, (void)packet, (void)seq, (void)c;
    struct invariants *t = ctx;
    t->injected++;
}

static void inv_ejected(void *ctx, uint32_t packet, uint32_t seq, int64_t c)
{
    (void)c;
    struct invariants *t = ctx;
    if (packet >= t->slots) {
        t->next_seq = realloc(t->next_seq, (size_t)(packet + 1) * sizeof *t->next_seq);
        memset(t->next_seq + t->slots, 0, (size_t)(packet + 1 - t->slots) * sizeof *t->next_seq);
        t->slots = packet + 1;
    }
    ck_assert_uint_eq(seq, t->next_seq[packet]); /* in order, none lost, none twice */
    t->next_seq[packet] = seq + 1 == t->e->packets[packet].flits ? 0 : seq + 1;
    t->ejected++;
}

static void inv_delivered(void *ctx, const struct iq_packet *p, int64_t c)
{
    (void)p, (void)c;
    struct invariants *t = ctx;
    t->delivered++;
}

/* Per output VC of a channel or an injection port: credits + flits on the wire + flits
 * held downstream + credits on the way back = B.  Flits injected - ejected = flits held
 * + flits on the wire. */
static void inv_cycle_end(void *ctx, int64_t c)
{
    struct invariants *t = ctx;
    const struct iq_engine *e = t->e;
    uint32_t V = e->V, inputs = (e->C + e->N) * V, outputs = (e->C + 2 * e->N) * V;
    int64_t *account = calloc(outputs, sizeof *account);
    uint64_t held = 0, wire = 0;
    for (uint32_t iv = 0; iv < inputs; iv++) {
        ck_assert_uint_le(e->in[iv].count, e->B);
        held += e->in[iv].count;
        account[iv < e->C * V ? iv : iv + e->N * V] += e->in[iv].count;
    }
    for (uint32_t s = 0; s < e->slots; s++) {
        const struct iq_flight *f = e->flits_due[s].v;
        for (uint32_t k = 0; k < e->flits_due[s].n; k++) {
            uint32_t target = f[k].target;
            wire++;
            if (!(target & IQ_SINK))
                account[target < e->C * V ? target : target + e->N * V]++;
            else
                account[target & ~IQ_SINK]++;
        }
        const uint32_t *cr = e->credits_due[s].v;
        for (uint32_t k = 0; k < e->credits_due[s].n; k++)
            account[cr[k]]++;
    }
    for (uint32_t ov = 0; ov < outputs; ov++) {
        ck_assert_int_ge(e->ovc[ov].credits, 0);
        ck_assert_msg(account[ov] + e->ovc[ov].credits == (int64_t)e->B, "output VC %u at cycle %lld: credits %d + "
                      "flits and credits on their way %lld != %u", ov, (long long)c, e->ovc[ov].credits,
                      (long long)account[ov], e->B);
    }
    ck_assert_uint_eq(t->injected - t->ejected, held + wire);
    free(account);
}

static void check_invariants(const char *const *settings)
{
    struct config cfg;
    static struct network net;
    test_network(&net, &cfg, settings);
    struct iq_engine *e = iq_engine_of(net.engine, net.engine_state);
    ck_assert_ptr_nonnull(e);
    struct invariants t = { .e = e, .cycle = -1 };
    t.input_used = calloc(e->C + e->N, 1);
    t.output_used = calloc(e->C + 2 * e->N, 1);
    e->obs = (struct iq_observer){ &t, inv_switched, inv_injected, inv_ejected, inv_delivered, inv_cycle_end };
    ck_assert_int_eq(net_run(&net), KERNEL_DONE);
    ck_assert_uint_gt(t.delivered, 1000);
    ck_assert_uint_gt(t.switched, t.ejected); /* most flits crossed channels too */
    net_free(&net);
    free(t.input_used);
    free(t.output_used);
    free(t.next_seq);
}

START_TEST(invariants_torus_past_saturation)
{
    const char *const settings[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=4",
                                     "routing.flit_buffers=3", "routing.link_latency=2", "workload.arrival=bernoulli",
                                     "workload.rate=0.2", "workload.destination=uniform-with-self",
                                     "workload.length=constant", "workload.mean_length=5", "run.allow_unstable=true",
                                     "run.messages=3000", "run.warmup_messages=0", NULL };
    check_invariants(settings);
}
END_TEST

START_TEST(invariants_hypercube_tail_credit)
{
    const char *const settings[] = { "network.topology=hypercube", "network.dimension=4", "routing.switching=wormhole",
                                     "routing.router=iq", "routing.virtual_channels=2", "routing.flit_buffers=2",
                                     "routing.vc_release=tail-credit", "routing.credit_delay=1",
                                     "routing.sw_alloc_delay=2", "workload.arrival=poisson", "workload.rate=0.08",
                                     "workload.destination=uniform", "workload.length=exponential",
                                     "workload.mean_length=3", "run.allow_unstable=true", "run.messages=3000",
                                     "run.warmup_messages=0", NULL };
    check_invariants(settings);
}
END_TEST

START_TEST(invariants_adaptive_mesh)
{
    const char *const settings[] = { "network.topology=kary-ncube", "network.radix=4", "network.dimension=2",
                                     "network.wrap=false", "routing.switching=wormhole", "routing.router=iq",
                                     "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3",
                                     "routing.flit_buffers=4", "workload.arrival=bernoulli", "workload.rate=0.15",
                                     "workload.destination=uniform-with-self", "workload.length=constant",
                                     "workload.mean_length=4", "run.allow_unstable=true", "run.messages=3000",
                                     "run.warmup_messages=0", NULL };
    check_invariants(settings);
}
END_TEST

/* --- deadlock --- */

/* Escape VCs in dimension order (Duato): adaptive-minimal and random-minimal, and
 * Valiant's two phases on their own VCs, never
 * deadlock, at or past saturation, on a torus, a mesh and a hypercube, under uniform
 * and permutation traffic; the detector runs every 1,024 cycles throughout. */
START_TEST(adaptive_with_escape_vcs_never_deadlocks)
{
    const char *const networks[][5] = {
        { "network.topology=torus", "network.radix=4", "network.dimension=2", "routing.virtual_channels=4", "" },
        { "network.topology=kary-ncube", "network.radix=5", "network.dimension=2", "network.wrap=false",
          "routing.virtual_channels=2" },
        { "network.topology=hypercube", "network.dimension=6", "routing.virtual_channels=2", "", "" },
    };
    const char *const algorithms[] = { "routing.algorithm=adaptive-minimal", "routing.algorithm=random-minimal",
                                       "routing.algorithm=valiant" };
    const char *const traffic[] = { "workload.destination=uniform", "workload.destination=transpose" };
    for (size_t n = 0; n < 3; n++)
        for (size_t a = 0; a < 3; a++)
            for (size_t d = 0; d < 2; d++) {
                if (d == 1 && n == 1) /* transpose needs a square number of nodes that is a power of 2 */
                    continue;
                const char *settings[20];
                size_t k = 0;
                for (size_t i = 0; i < 5; i++)
                    if (networks[n][i][0])
                        settings[k++] = networks[n][i];
                const char *const rest[] = { "routing.switching=wormhole", "routing.router=iq", "routing.flit_buffers=2",
                                             "workload.arrival=bernoulli", "workload.rate=0.2",
                                             "workload.length=constant", "workload.mean_length=8",
                                             "run.allow_unstable=true", "run.messages=6000", "run.warmup_messages=0" };
                for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++)
                    settings[k++] = rest[i];
                settings[k++] = algorithms[a];
                settings[k++] = traffic[d];
                settings[k] = NULL;
                struct config cfg;
                test_config(&cfg, settings);
                struct run_report rep;
                ck_assert_msg(test_run(&cfg, &rep) == KERNEL_DONE, "%s %s %s: did not complete", networks[n][0],
                              algorithms[a], traffic[d]);
                ck_assert_uint_eq(rep.delay.count, 6000);
            }
    /* One-way rings (a 5-ary 2-cube without the negative links): paths cover up to 4 of
     * a ring's 5 links, so the dateline class switches at the wrap link; with the
     * two-way rings' rule (one class per dimension) this deadlocked within 1,024 cycles. */
    const char *const one_way[] = { "network.topology=kary-ncube", "network.radix=5", "network.dimension=2",
                                    "network.bidirectional=false", "routing.switching=wormhole", "routing.router=iq",
                                    "routing.virtual_channels=2", "routing.flit_buffers=8", "workload.arrival=bernoulli",
                                    "workload.rate=0.3", "workload.length=constant", "workload.mean_length=4",
                                    "run.allow_unstable=true", "run.messages=6000", "run.warmup_messages=0", NULL };
    struct config ring;
    test_config(&ring, one_way);
    struct run_report ring_rep;
    ck_assert_int_eq(test_run(&ring, &ring_rep), KERNEL_DONE);
    /* An 8x8 torus at 1 flit/node/cycle: with VCs reallocated before they are empty
     * (a head queued behind another packet's tail, unable to take its escape VC) this
     * deadlocked within 5,000 packets; VCs are taken only when empty. */
    const char *const overload[] = { "network.topology=torus", "network.radix=8", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.router=iq",
                                     "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3",
                                     "routing.flit_buffers=8", "routing.link_latency=2", "workload.arrival=bernoulli",
                                     "workload.rate=1", "workload.rate_unit=flits",
                                     "workload.destination=uniform-with-self", "workload.length=constant",
                                     "workload.mean_length=4", "run.allow_unstable=true", "run.messages=20000",
                                     "run.warmup_messages=0", NULL };
    struct config cfg;
    test_config(&cfg, overload);
    struct run_report rep;
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    ck_assert(figure(&rep, "saturated") == 1);
}
END_TEST

START_TEST(torus_one_vc_deadlocks_dateline_does_not)
{
    const char *const one_vc[] = { test_binary(), "configs/iq/torus-8x8.ini", "--no-progress", "-s",
                                   "routing.virtual_channels=1", "-s", "routing.flit_buffers=2", "-s",
                                   "workload.rate=1", "-s", "workload.mean_length=16", "-s",
                                   "run.allow_unstable=true", "-s", "run.messages=1000000", "-s",
                                   "run.max_wall_seconds=60", "-s", "routing.deadlock_check=off", NULL };
    char out[4096], err[4096];
    int status = test_exec(one_vc, out, sizeof out, err, sizeof err);
    ck_assert_msg(status == 3, "exit status %d, stderr: %s", status, err);
    ck_assert_msg(strstr(err, "deadlock at cycle") && strstr(err, "can never move; cycle: "), "stderr: %s", err);
    ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "not one line: %s", err);
    ck_assert_str_eq(out, "");
    /* The same load past saturation with two dateline classes: the detector never fires. */
    const char *const settings[] = { "network.topology=torus", "network.radix=8", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=2",
                                     "routing.flit_buffers=2", "routing.link_latency=2", "workload.arrival=bernoulli",
                                     "workload.rate=0.2", "workload.destination=uniform-with-self",
                                     "workload.length=constant", "workload.mean_length=16",
                                     "run.allow_unstable=true", "run.messages=20000", "run.warmup_messages=0", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    struct run_report rep;
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    ck_assert_uint_eq(rep.delay.count, 20000);
    ck_assert(figure(&rep, "saturated") == 1);
}
END_TEST

/* --- figures and refusals --- */

START_TEST(figures_follow_the_load)
{
    const char *const settings[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=2",
                                     "routing.flit_buffers=8", "workload.arrival=bernoulli", "workload.rate=0.05",
                                     "workload.destination=uniform-with-self", "workload.length=constant",
                                     "workload.mean_length=4", "run.messages=40000", "run.warmup_messages=2000", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    struct run_report rep;
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    /* 0.05 packets of 4 flits per node per cycle: 0.2 flits offered and accepted, within sampling noise */
    ck_assert_double_eq_tol(figure(&rep, "offered_flits"), 0.2, 0.006);
    ck_assert_double_eq_tol(figure(&rep, "throughput_flits"), 0.2, 0.006);
    ck_assert(figure(&rep, "throughput_flits_min") <= figure(&rep, "throughput_flits"));
    ck_assert(figure(&rep, "throughput_flits_max") >= figure(&rep, "throughput_flits"));
    ck_assert(figure(&rep, "saturated") == 0);
    /* the delay is the source wait plus the network part */
    ck_assert_double_eq_tol(figure(&rep, "source_wait_mean") + figure(&rep, "network_delay_mean"), rep.delay.mean,
                            1e-9 * rep.delay.mean);
    /* self-addressed packets cross the router: nothing is delivered in under 2 + 3 + 2 + 3 cycles */
    ck_assert_double_ge(rep.delay.min, 10);
}
END_TEST

/* workload.rate_unit = flits: the flits offered are the rate for every length
 * distribution (tests/common/checks.c). */
START_TEST(rate_in_flits_offers_its_flits)
{
    const char *const engine[] = { "routing.switching=wormhole", "routing.router=iq", NULL };
    check_rate_in_flits_is_offered(engine, "offered_flits", 200000);
}
END_TEST

/* workload.rate_unit = flits: the same arrivals as the rate in messages it stands for. */
START_TEST(rate_in_flits_is_rate_in_messages)
{
    const char *const flits[] = { "network.topology=hypercube", "network.dimension=4", "routing.switching=wormhole",
                                  "routing.router=iq", "workload.arrival=bernoulli", "workload.rate=0.2",
                                  "workload.rate_unit=flits", "workload.length=constant", "workload.mean_length=4",
                                  "run.messages=5000", "run.warmup_messages=500", NULL };
    const char *const messages[] = { "network.topology=hypercube", "network.dimension=4", "routing.switching=wormhole",
                                     "routing.router=iq", "workload.arrival=bernoulli", "workload.rate=0.05",
                                     "workload.length=constant", "workload.mean_length=4", "run.messages=5000",
                                     "run.warmup_messages=500", NULL };
    struct config a, b;
    test_config(&a, flits);
    test_config(&b, messages);
    ck_assert_double_eq(cfg_message_rate(&a), 0.05);
    struct run_report ra, rb;
    ck_assert_int_eq(test_run(&a, &ra), KERNEL_DONE);
    ck_assert_int_eq(test_run(&b, &rb), KERNEL_DONE);
    ck_assert_double_eq(ra.delay.mean, rb.delay.mean);
    ck_assert_double_eq(figure(&ra, "offered_flits"), figure(&rb, "offered_flits"));
}
END_TEST

/* --- allocators --- */

/* Records each head that takes an output VC of unit `unit` (cycle, input VC), in order. */
struct grants_seen {
    struct iq_engine *e;
    uint32_t unit;
    uint8_t *was_active;
    int64_t cycle[16];
    uint32_t iv[16], n;
};

static void gs_cycle_end(void *ctx, int64_t c)
{
    struct grants_seen *g = ctx;
    const struct iq_engine *e = g->e;
    for (uint32_t iv = 0; iv < (e->C + e->N) * e->V; iv++) {
        bool active = e->in[iv].state == IQ_ACTIVE;
        if (active && !g->was_active[iv] && e->in[iv].out_unit == g->unit && g->n < 16) {
            g->cycle[g->n] = c;
            g->iv[g->n++] = iv;
        }
        g->was_active[iv] = active;
    }
}

static void write_trace(char *path, const char *text)
{
    strcpy(path, "/tmp/test_iq_trace_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Two nodes; at node 0's router two one-flit heads (one from the channel, one from node
 * 0's own source), both in VC 0 of their input ports, ask for the ejection port's two
 * free VCs in the same cycle, twice (between the rounds node 0 sends a packet to node 1,
 * so that its source's next packet is in injection VC 0 again).  In the first round both
 * output VCs grant the same head (the pointers start together: one iSLIP iteration
 * matches one pair), the other head takes the remaining VC a cycle later; those accepts
 * move the two output VCs' pointers apart, so in the second round each grants a different
 * head and both take a VC in the same cycle.  lowest-free: both heads ask for VC 0 both
 * times, one waits a cycle each time. */
static void two_heads(const char *allocator, struct grants_seen *g)
{
    char trace[64], arg[96];
    write_trace(trace, "0,1,0,1\n5,0,0,1\n50,0,1,1\n100,1,0,1\n105,0,0,1\n");
    snprintf(arg, sizeof arg, "workload.trace=%s", trace);
    char alloc[64];
    snprintf(alloc, sizeof alloc, "routing.vc_allocator=%s", allocator);
    const char *const settings[] = { "network.topology=hypercube", "network.dimension=1", "routing.switching=wormhole",
                                     "routing.router=iq", "routing.virtual_channels=2", alloc,
                                     "workload.arrival=trace", arg, "run.messages=5", "run.warmup_messages=0", NULL };
    struct config cfg;
    static struct network net;
    test_network(&net, &cfg, settings);
    struct iq_engine *e = iq_engine_of(net.engine, net.engine_state);
    ck_assert_ptr_nonnull(e);
    *g = (struct grants_seen){ .e = e, .unit = e->C + 0 }; /* node 0's ejection port */
    g->was_active = calloc((e->C + e->N) * e->V, 1);
    e->obs = (struct iq_observer){ .ctx = g, .cycle_end = gs_cycle_end };
    ck_assert_int_eq(net_run(&net), KERNEL_DONE);
    free(g->was_active);
    g->was_active = NULL;
    uint32_t channel = e->chan_to[0] == 0 ? 0 : 1; /* the channel that leads to node 0 */
    ck_assert_uint_eq(e->chan_to[channel], 0);
    uint32_t channel_vc = channel * e->V, source_vc = (e->C + 0) * e->V;
    net_free(&net);
    remove(trace);
    ck_assert_uint_eq(g->n, 4);
    ck_assert_uint_eq(g->iv[2] + g->iv[3], channel_vc + source_vc); /* the same two input VCs in round 2 */
    /* round 1: the channel's head (the lower input VC) first, the source's a cycle later */
    ck_assert_uint_eq(g->iv[0], channel_vc);
    ck_assert_uint_eq(g->iv[1], source_vc);
    ck_assert_int_eq(g->cycle[1], g->cycle[0] + 1);
}

START_TEST(vc_islip_two_heads_two_vcs_one_cycle)
{
    struct grants_seen g;
    two_heads("islip", &g);
    ck_assert_int_eq(g.cycle[2], g.cycle[3]); /* round 2: both in the same cycle */
    two_heads("lowest-free", &g);
    ck_assert_int_eq(g.cycle[3], g.cycle[2] + 1); /* round 2: one after the other, as before */
}
END_TEST

/* Counts, at node 0's router, the ejection VCs and the ejection port's flits each input
 * unit is granted. */
struct shares {
    struct iq_engine *e;
    uint64_t vc_grants[8], flits[8];
    uint8_t *was_active;
};

static uint32_t node0_input(const struct iq_engine *e, uint32_t iv)
{
    uint32_t u = iv / e->V;
    if (u == e->C)
        return 0;
    for (uint32_t c = 0, k = 1; c < e->C; c++)
        if (e->chan_to[c] == 0) {
            if (c == u)
                return k;
            k++;
        }
    return 7;
}

static void sh_switched(void *ctx, uint32_t iv, uint32_t ov, int64_t c)
{
    (void)c;
    struct shares *s = ctx;
    if (ov / s->e->V == s->e->C + 0 && s->flits[0] + s->flits[1] + s->flits[2] < 18000)
        s->flits[node0_input(s->e, iv)]++;
}

static void sh_cycle_end(void *ctx, int64_t c)
{
    (void)c;
    struct shares *s = ctx;
    const struct iq_engine *e = s->e;
    for (uint32_t iv = 0; iv < (e->C + e->N) * e->V; iv++) {
        bool active = e->in[iv].state == IQ_ACTIVE;
        if (active && !s->was_active[iv] && e->in[iv].out_unit == e->C + 0 &&
            s->vc_grants[0] + s->vc_grants[1] + s->vc_grants[2] < 4500)
            s->vc_grants[node0_input(e, iv)]++;
        s->was_active[iv] = active;
    }
}

/* Every node of a 4-node hypercube sends a 4-flit packet to node 0 every cycle: node 0's
 * ejection port is saturated by its three input ports (two channels and its source).  The
 * round-robin pointers share its VCs and its flits equally among them. */
static void check_hotspot_fair(const char *vc_allocator, const char *sw_allocator)
{
    static char text[200000];
    size_t len = 0;
    for (int t = 0; t < 3000; t++)
        for (int src = 0; src < 4; src++)
            len += (size_t)snprintf(text + len, sizeof text - len, "%d,%d,0,4\n", t, src);
    char trace[64], arg[96], va[64], sa[64];
    write_trace(trace, text);
    snprintf(arg, sizeof arg, "workload.trace=%s", trace);
    snprintf(va, sizeof va, "routing.vc_allocator=%s", vc_allocator);
    snprintf(sa, sizeof sa, "routing.sw_allocator=%s", sw_allocator);
    const char *const settings[] = { "network.topology=hypercube", "network.dimension=2", "routing.switching=wormhole",
                                     "routing.router=iq", "routing.virtual_channels=2", "routing.flit_buffers=4", va, sa,
                                     "workload.arrival=trace", arg, "run.messages=12000", "run.warmup_messages=0",
                                     "run.allow_unstable=true", NULL };
    struct config cfg;
    static struct network net;
    test_network(&net, &cfg, settings);
    struct iq_engine *e = iq_engine_of(net.engine, net.engine_state);
    ck_assert_ptr_nonnull(e);
    struct shares s = { .e = e };
    s.was_active = calloc((e->C + e->N) * e->V, 1);
    e->obs = (struct iq_observer){ .ctx = &s, .switched = sh_switched, .cycle_end = sh_cycle_end };
    ck_assert_int_eq(net_run(&net), KERNEL_DONE);
    net_free(&net);
    free(s.was_active);
    remove(trace);
    uint64_t vcs = s.vc_grants[0] + s.vc_grants[1] + s.vc_grants[2];
    uint64_t flits = s.flits[0] + s.flits[1] + s.flits[2];
    ck_assert_uint_eq(vcs, 4500);
    ck_assert_uint_eq(flits, 18000);
    for (int k = 0; k < 3; k++) { /* the first 4500 packets and 18000 flits, while all three are backlogged: a
                                   * third each (each input's backlog is at least 3000 packets) */
        ck_assert_msg(s.vc_grants[k] * 100 > vcs * 30 && s.vc_grants[k] * 100 < vcs * 37,
                      "%s/%s: input %d got %llu of %llu ejection VCs", vc_allocator, sw_allocator, k,
                      (unsigned long long)s.vc_grants[k], (unsigned long long)vcs);
        ck_assert_msg(s.flits[k] * 100 > flits * 30 && s.flits[k] * 100 < flits * 37,
                      "%s/%s: input %d sent %llu of %llu ejected flits", vc_allocator, sw_allocator, k,
                      (unsigned long long)s.flits[k], (unsigned long long)flits);
    }
}

START_TEST(islip_pointers_fair_at_a_hotspot)
{
    check_hotspot_fair("islip", "islip");
    check_hotspot_fair("lowest-free", "input-first");
}
END_TEST

/* Without contention the allocators do not matter: the closed form holds under the
 * rules before routing.vc_allocator and routing.sw_allocator as under islip (the other
 * zero-load tests run with the defaults). */
START_TEST(zero_load_torus_old_allocators)
{
    const char *const settings[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=2",
                                     "routing.flit_buffers=8", "routing.link_latency=2", "workload.arrival=bernoulli",
                                     "workload.rate=0.002", "workload.destination=uniform-with-self",
                                     "workload.length=constant", "workload.mean_length=4", "run.messages=4000",
                                     "run.warmup_messages=0", "routing.vc_allocator=lowest-free",
                                     "routing.sw_allocator=input-first", NULL };
    static const int64_t exact[] = { 10, 16, 22, 28, 34 };
    check_zero_load(settings, 3, 2, 4, 4, exact);
}
END_TEST

START_TEST(invariants_torus_old_allocators)
{
    const char *const settings[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=4",
                                     "routing.flit_buffers=3", "routing.link_latency=2", "workload.arrival=bernoulli",
                                     "workload.rate=0.2", "workload.destination=uniform-with-self",
                                     "workload.length=constant", "workload.mean_length=5", "run.allow_unstable=true",
                                     "run.messages=3000", "run.warmup_messages=0", "routing.vc_allocator=lowest-free",
                                     "routing.sw_allocator=input-first", NULL };
    check_invariants(settings);
}
END_TEST

/* The keys of the router that is not selected are ignored: one file sweeps across both. */
START_TEST(other_router_keys_ignored)
{
    const char *const plain[] = { "network.topology=hypercube", "network.dimension=4", "routing.switching=wormhole",
                                  "routing.virtual_channels=2", "workload.rate=0.05", "run.messages=3000",
                                  "run.warmup_messages=300", NULL };
    const char *const with_iq_keys[] = { "network.topology=hypercube", "network.dimension=4",
                                         "routing.switching=wormhole", "routing.virtual_channels=2",
                                         "routing.routing_delay=5", "routing.tie=negative",
                                         "routing.vc_release=tail-credit", "workload.rate=0.05", "run.messages=3000",
                                         "run.warmup_messages=300", NULL };
    struct config a, b;
    test_config(&a, plain);
    test_config(&b, with_iq_keys);
    struct run_report ra, rb;
    ck_assert_int_eq(test_run(&a, &ra), KERNEL_DONE);
    ck_assert_int_eq(test_run(&b, &rb), KERNEL_DONE);
    ck_assert_double_eq(ra.delay.mean, rb.delay.mean);
}
END_TEST

START_TEST(impossible_combinations_refused)
{
    /* a setting, another, and the key the error must name */
    const char *const cases[][3] = {
        { "routing.switching=cut-through", "network.radix=8", "routing.router" },
        { "routing.algorithm=least-count", "network.radix=8", "routing.algorithm" },
        { "routing.algorithm=random-minimal", "network.radix=8", "routing.virtual_channels" },
        { "network.topology=ccc", "network.dimension=3", "routing.virtual_channels" }, /* 6 hop classes */
        { "network.topology=spanning-bus-hypercube", "network.dimension=2", "network.topology" }, /* buses */
        { "network.links=half-duplex", "network.radix=8", "network.topology" },
        { "routing.flit_buffers=5000", "network.radix=8", "routing.flit_buffers" },
        { "routing.finite_buffer=true", "network.radix=8", "routing.finite_buffer" },
        { "routing.vc_release=never", "network.radix=8", "routing.vc_release" },
        { "routing.st_delay=0", "network.radix=8", "routing.st_delay" },
        { "routing.algorithm=adaptive-minimal", "routing.virtual_channels=2", "routing.virtual_channels" },
        { "routing.algorithm=adaptive-minimal", "routing.escape_vcs=1", "routing.escape_vcs" },
        { "routing.algorithm=adaptive-minimal", "routing.vc_release=tail", "routing.vc_release" },
        { "routing.algorithm=adaptive-minimal", "routing.router=simple", "routing.virtual_channels" },
        { "routing.algorithm=valiant", "routing.virtual_channels=3", "routing.virtual_channels" },
        { "routing.algorithm=valiant", "routing.router=simple", "routing.virtual_channels" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *const argv[] = { test_binary(), "configs/iq/torus-8x8.ini", "--no-progress", "-s", cases[i][0],
                                     "-s", cases[i][1], NULL };
        char out[4096], err[4096];
        int status = test_exec(argv, out, sizeof out, err, sizeof err);
        ck_assert_msg(status == 2, "%s: exit status %d, stderr: %s", cases[i][0], status, err);
        ck_assert_msg(strstr(err, cases[i][2]) != NULL, "%s: stderr does not name %s: %s", cases[i][0], cases[i][2],
                      err);
        ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "not one line: %s", err);
        ck_assert_str_eq(out, "");
    }
}
END_TEST

/* Its buffers count in the memory check: 2^20 nodes with 4,000-flit VCs (about 660 GiB)
 * are refused before anything is allocated. */
START_TEST(too_large_refused)
{
    const char *const argv[] = { test_binary(), "configs/iq/hypercube-6.ini", "--no-progress", "-s",
                                 "network.dimension=20", "-s", "routing.flit_buffers=4000", NULL };
    char out[4096], err[4096];
    int status = test_exec(argv, out, sizeof out, err, sizeof err);
    ck_assert_msg(status == 2, "exit status %d, stderr: %s", status, err);
    ck_assert_msg(strstr(err, "network.dimension") && strstr(err, "GiB"), "stderr: %s", err);
    ck_assert_str_eq(out, "");
}
END_TEST

Suite *iq_suite(void)
{
    Suite *s = suite_create("iq");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, zero_load_torus);
    tcase_add_test(tc, zero_load_ring);
    tcase_add_test(tc, zero_load_hypercube_credit_round_trip);
    tcase_add_test(tc, zero_load_mesh_slow_stages);
    tcase_add_test(tc, zero_load_hypercube);
    tcase_add_test(tc, invariants_torus_past_saturation);
    tcase_add_test(tc, invariants_hypercube_tail_credit);
    tcase_add_test(tc, zero_load_adaptive_equals_dimension_order);
    tcase_add_test(tc, zero_load_valiant);
    tcase_add_test(tc, invariants_adaptive_mesh);
    tcase_add_test(tc, adaptive_with_escape_vcs_never_deadlocks);
    tcase_add_test(tc, torus_one_vc_deadlocks_dateline_does_not);
    tcase_add_test(tc, figures_follow_the_load);
    tcase_add_test(tc, rate_in_flits_is_rate_in_messages);
    tcase_add_test(tc, rate_in_flits_offers_its_flits);
    tcase_add_test(tc, other_router_keys_ignored);
    tcase_add_test(tc, impossible_combinations_refused);
    tcase_add_test(tc, too_large_refused);
    tcase_add_test(tc, vc_islip_two_heads_two_vcs_one_cycle);
    tcase_add_test(tc, islip_pointers_fair_at_a_hotspot);
    tcase_add_test(tc, zero_load_torus_old_allocators);
    tcase_add_test(tc, invariants_torus_old_allocators);
    suite_add_tcase(s, tc);
    return s;
}
