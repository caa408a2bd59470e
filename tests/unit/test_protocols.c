/* Access protocols, queue disciplines and the node model against exact results:
 * polling theory for token passing, M/M/1 and the slot-wait limit for TDM, Conway's
 * shortest-job-first formula for length priorities, and flow conservation. */
#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../protocols/protocol.h"
#include "../../sim/run/replicate.h"
#include "../common/test.h"

/* One bus of N senders (a spanning-bus hypercube of dimension 1): every message is one
 * transmission of mean 1 on the shared channel, so the bus is a polling system. */
#define ONE_BUS(n) "network.topology=spanning-bus-hypercube", "network.dimension=1", "network.width=" #n

/* Symmetric exhaustive polling, deterministic switchovers of total r per cycle
 * (Takagi 1986): W = [N λ b2 + r (1 - λ b)] / (2 (1 - N λ b)).  N = 4, λ = 0.15,
 * b = 1, b2 = 2, r = 4 × 0.1: W = 1.925, delay 2.925. */
START_TEST(token_exhaustive_is_exact_polling)
{
    const char *set[] = { ONE_BUS(4), "workload.rate=0.15", "protocol.link=token", "protocol.token_time=0.1",
                          "protocol.max_per_capture=1000000000", "run.messages=100000", NULL };
    double N = 4, lambda = 0.15, b2 = 2, r = 0.4, rho = N * lambda;
    double exact = 1 + (N * lambda * b2 + r * (1 - lambda)) / (2 * (1 - rho));
    int covered = test_coverage(set, 10, exact);
    ck_assert_msg(covered >= 8, "exact %.4f inside the CI for %d of 10 seeds", exact, covered);
}
END_TEST

/* Symmetric 1-limited polling (Takagi 1986): W = [N λ b2 + r (1 + λ b)] / (2 (1 - N λ b - λ r)).
 * N = 4, λ = 0.1, r = 0.4: W = 1.1071, delay 2.1071. */
START_TEST(token_one_per_capture_is_exact_polling)
{
    const char *set[] = { ONE_BUS(4), "workload.rate=0.1", "protocol.link=token", "protocol.token_time=0.1",
                          "protocol.max_per_capture=1", "run.messages=100000", NULL };
    double N = 4, lambda = 0.1, b2 = 2, r = 0.4;
    double exact = 1 + (N * lambda * b2 + r * (1 + lambda)) / (2 * (1 - N * lambda - lambda * r));
    int covered = test_coverage(set, 10, exact);
    ck_assert_msg(covered >= 8, "exact %.4f inside the CI for %d of 10 seeds", exact, covered);
}
END_TEST

/* A channel with one sender owns every slot: TDM is M/M/1 under either rule
 * (1-cube, λ = 0.5: delay 1/(1 - 0.5) = 2). */
START_TEST(tdm_with_one_sender_is_mm1)
{
    const char *thesis[] = { "network.dimension=1", "workload.rate=0.5", "protocol.link=tdm", "protocol.slot=0.7",
                             "run.messages=100000", NULL };
    const char *strict[] = { "network.dimension=1", "workload.rate=0.5", "protocol.link=tdm", "protocol.slot=0.7",
                             "protocol.tdm_rule=strict", "run.messages=100000", NULL };
    ck_assert_int_ge(test_coverage(thesis, 10, 2.0), 8);
    ck_assert_int_ge(test_coverage(strict, 10, 2.0), 8);
}
END_TEST

/* Light load on a 4-sender TDM bus with constant lengths 1 and slots of 1.  Strict
 * rule: a message waits for its own slot, on average s (J-1)^2 / (2J) = 9/8, so the
 * delay tends to 2.125; the thesis rule sends it at once (delay 1).  At ρ = 0.002 the
 * queueing correction is O(ρ): allow 1%. */
START_TEST(tdm_light_load_slot_wait)
{
    const char *strict[] = { ONE_BUS(4), "workload.rate=0.0005", "workload.length=constant", "protocol.link=tdm",
                             "protocol.tdm_rule=strict", "run.messages=100000", "run.warmup_messages=100", NULL };
    const char *thesis[] = { ONE_BUS(4), "workload.rate=0.0005", "workload.length=constant", "protocol.link=tdm",
                             "run.messages=100000", "run.warmup_messages=100", NULL };
    struct config cfg;
    struct run_report r;
    test_config(&cfg, strict);
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert_msg(fabs(r.delay.mean / 2.125 - 1) < 0.01, "strict: %.5f vs 2.125", r.delay.mean);
    test_config(&cfg, thesis);
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert_msg(fabs(r.delay.mean - 1) < 0.01, "thesis rule: %.5f vs 1", r.delay.mean);
    ck_assert_double_eq_tol(r.delay.min, 1.0, 1e-12);
}
END_TEST

/* Non-preemptive shortest-first on one M/M/1 channel (Conway, Maxwell and Miller):
 * a job of length x waits W0 / (1 - σ(x))², σ(x) = Λ ∫0^x t e^-t dt, W0 = Λ E[S²]/2.
 * Longest-first mirrors it with σ(x) = Λ ∫x^∞ t e^-t dt. */
static double load_below(double x, void *p) { return *(double *)p * (1 - exp(-x) * (1 + x)); }
static double load_above(double x, void *p) { return *(double *)p * exp(-x) * (1 + x); }
struct sjf {
    double lambda;
    double (*sigma)(double, void *);
};
static double sjf_integrand(double x, void *p)
{
    const struct sjf *s = p;
    double sigma = s->sigma(x, (void *)&s->lambda);
    return exp(-x) * s->lambda / ((1 - sigma) * (1 - sigma)); /* W0 = Λ for E[S²] = 2 */
}
static double sjf_delay(double lambda, double (*sigma)(double, void *))
{
    struct sjf s = { lambda, sigma };
    gsl_function f = { sjf_integrand, &s };
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(1000);
    double result, error;
    gsl_integration_qagiu(&f, 0, 1e-12, 1e-10, 1000, w, &result, &error);
    gsl_integration_workspace_free(w);
    return 1 + result;
}

START_TEST(length_priorities_match_conway)
{
    /* Two senders on one bus, 0.35 each: Λ = 0.7. */
    const char *shortest[] = { ONE_BUS(2), "workload.rate=0.35", "protocol.priority=shortest-first",
                               "run.messages=100000", "run.batches=10", NULL };
    const char *longest[] = { ONE_BUS(2), "workload.rate=0.35", "protocol.priority=longest-first",
                              "run.messages=100000", "run.batches=10", NULL };
    double spt = sjf_delay(0.7, load_below), lpt = sjf_delay(0.7, load_above);
    ck_assert_double_eq_tol(spt, 2.31220, 1e-4); /* cross-checked by Simpson's rule */
    ck_assert_double_eq_tol(lpt, 5.32256, 1e-4);
    ck_assert_int_ge(test_coverage(shortest, 10, spt), 8);
    ck_assert_int_ge(test_coverage(longest, 10, lpt), 8);
}
END_TEST

/* On a single queue creation order is arrival order: oldest-first is FIFO, exactly. */
START_TEST(oldest_first_on_one_queue_is_fifo)
{
    const char *fifo[] = { ONE_BUS(4), "workload.rate=0.2", "run.messages=20000", NULL };
    const char *oldest[] = { ONE_BUS(4), "workload.rate=0.2", "protocol.priority=oldest-first", "run.messages=20000",
                             NULL };
    struct config a, b;
    struct run_report ra, rb;
    test_config(&a, fifo);
    test_config(&b, oldest);
    test_run(&a, &ra);
    test_run(&b, &rb);
    ck_assert(ra.delay.mean == rb.delay.mean && ra.delay.variance == rb.delay.variance && ra.delay.max == rb.delay.max);
}
END_TEST

/* The queue itself: every registered discipline pops in the order it states, ties in
 * arrival order.  The expected keys are written out here, not taken from the
 * discipline, so a discipline that ordered by the wrong field fails. */
START_TEST(queue_disciplines_order_and_break_ties_by_arrival)
{
    static struct message msgs[512];
    static struct msg_order order[512];
    uint64_t arrival[512]; /* each message's arrival number into the queue */
    struct rng r;
    rng_seed_stream(&r, 7, RNG_TEST, 0);
    const struct {
        const char *name;
        int by; /* 0: arrival; 1: creation time; -2/2: length, longest/shortest first */
    } cases[] = { { "fifo", 0 }, { "oldest-first", 1 }, { "longest-first", -2 }, { "shortest-first", 2 } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const struct queue_discipline *d = priority_discipline(cases[c].name);
        ck_assert_str_eq(d->name, cases[c].name);
        ck_assert(cases[c].by == 0 ? d->key == NULL : d->key != NULL); /* FIFO keeps the ring */
        struct msg_pool pool = msg_pool_empty(d->key, NULL, false);
        pool.msgs = msgs;
        pool.order = order;
        struct msgq q = MSGQ_EMPTY;
        for (uint32_t m = 0; m < 512; m++) {
            /* few distinct keys, so ties are common */
            msgs[m].created = (double)rng_below(&r, 8);
            msgs[m].length = (double)rng_below(&r, 8);
            arrival[m] = m;
            msgq_push(&pool, &q, m);
            if (m % 3 == 2) { /* interleave pops with pushes */
                uint32_t out = msgq_pop(&pool, &q);
                ck_assert_uint_ne(out, NET_NONE);
            }
        }
        double last_key = -INFINITY;
        uint64_t last_seq = 0;
        uint32_t left = q.length, popped = 0;
        for (uint32_t m; (m = msgq_pop(&pool, &q)) != NET_NONE; popped++) {
            int by = cases[c].by;
            double key = by == 1 ? msgs[m].created : by == 2 ? msgs[m].length : by == -2 ? -msgs[m].length : 0;
            ck_assert(key > last_key || (key == last_key && arrival[m] > last_seq) || popped == 0);
            last_key = key;
            last_seq = arrival[m];
        }
        ck_assert_uint_eq(popped, left);
        ck_assert(msgq_empty(&q));
    }
}
END_TEST

/* A discipline is its key alone: one defined here, in the test, orders the core's
 * queues with no other code knowing it (most hops first, its key values handed back). */
struct by_hops_params {
    double sign;
};

static double by_hops(const struct message *m, const void *params)
{
    return ((const struct by_hops_params *)params)->sign * m->hops;
}

START_TEST(a_discipline_is_its_key)
{
    static struct message msgs[64];
    static struct msg_order order[64];
    const struct by_hops_params most_first = { -1 };
    struct msg_pool pool = msg_pool_empty(by_hops, &most_first, false);
    pool.msgs = msgs;
    pool.order = order;
    struct msgq q = MSGQ_EMPTY;
    for (uint32_t m = 0; m < 64; m++) {
        msgs[m].hops = (m * 37) % 11; /* 0..10, each several times */
        msgq_push(&pool, &q, m);
    }
    ck_assert_uint_eq(msgq_first(&pool, &q), 8); /* the first message with 10 hops: 8 * 37 = 296 = 10 mod 11 */
    uint32_t last_hops = UINT32_MAX, last = 0;
    for (uint32_t m; (m = msgq_pop(&pool, &q)) != NET_NONE;) {
        ck_assert(msgs[m].hops < last_hops || (msgs[m].hops == last_hops && m > last));
        last_hops = msgs[m].hops;
        last = m;
    }
}
END_TEST

/* A protocol that asks for random streams (ACCESS_DRAWS_RANDOM): it keeps what it is
 * handed and, on each request, records a draw from the requested channel's stream.
 * Defined here alone; its streams come from access_streams(), as the run hands them. */
struct drawing {
    struct rng *rng;
    uint64_t draws[4][3]; /* per channel, its first three draws */
    unsigned made[4];
};

static void *drawing_create(const struct access_env *env)
{
    struct drawing *d = calloc(1, sizeof *d);
    if (d)
        d->rng = env->rng;
    return d;
}

static void drawing_request(void *self, uint32_t ch, uint32_t msg, uint32_t sender)
{
    (void)msg;
    (void)sender;
    struct drawing *d = self;
    d->draws[ch][d->made[ch]++] = rng_next(&d->rng[ch]);
}

static const struct proto_ops drawing_ops = {
    .name = "drawing", .help = "test", .traits = ACCESS_DRAWS_RANDOM,
    .create = drawing_create, .destroy = free, .request = drawing_request,
};

/* The draws of a drawing protocol on 4 channels of a run seeded `seed`: three
 * requests per channel, interleaved across channels. */
static struct drawing *drawing_run(uint64_t seed)
{
    struct rng *streams;
    ck_assert(access_streams(&drawing_ops, 4, seed, &streams));
    ck_assert_ptr_nonnull(streams);
    const struct access_env env = { .channels = { .count = 4 }, .rng = streams };
    struct drawing *d = drawing_ops.create(&env);
    ck_assert_ptr_nonnull(d);
    for (unsigned i = 0; i < 3; i++)
        for (uint32_t ch = 0; ch < 4; ch++)
            drawing_ops.request(d, (ch * 3 + i) % 4, 0, 0); /* channel order varies per round */
    free(streams);
    return d;
}

/* Same run seed: the same draws, whatever order the channels drew in.  Different
 * channels, or another seed: different draws.  A protocol that does not ask gets no
 * streams, so every existing run draws exactly what it drew before. */
START_TEST(protocol_streams_are_per_channel_and_reproducible)
{
    struct drawing *a = drawing_run(2024), *b = drawing_run(2024), *c = drawing_run(2025);
    for (uint32_t ch = 0; ch < 4; ch++) {
        ck_assert_uint_eq(a->made[ch], 3);
        struct rng expect;
        rng_seed_stream(&expect, 2024, RNG_PROTOCOL, ch);
        for (unsigned i = 0; i < 3; i++) {
            ck_assert_uint_eq(a->draws[ch][i], b->draws[ch][i]);
            ck_assert_uint_eq(a->draws[ch][i], rng_next(&expect)); /* (run seed, RNG_PROTOCOL, channel) */
            ck_assert_uint_ne(a->draws[ch][i], c->draws[ch][i]);
            for (uint32_t other = 0; other < ch; other++)
                ck_assert_uint_ne(a->draws[ch][i], a->draws[other][i]);
        }
    }
    free(a);
    free(b);
    free(c);
    for (const char *const *name = (const char *const[]){ "fifo", "tdm", "token", NULL }; *name; name++) {
        struct rng sentinel, *none = &sentinel; /* not NULL: access_streams must clear it */
        ck_assert(access_streams(proto_find(*name), 4, 2024, &none));
        ck_assert_ptr_null(none);
    }
    const char *set[] = { "network.dimension=3", NULL };
    struct config cfg;
    test_config(&cfg, set);
    static struct network net;
    struct cfg_error err;
    ck_assert_msg(net_create(&net, &cfg, &err), "%s", err.message);
    ck_assert_ptr_null(net.rng_protocol);
    net_free(&net);
}
END_TEST

/* Seed 004's node model at light load: a message with h hops gets h + 1 node services
 * of 1/μ_N and h transmissions; with constant lengths and 2 hops, 3/20 + 2/10 = 0.35. */
START_TEST(node_model_light_load_is_deterministic)
{
    const char *set[] = { "network.topology=spanning-bus-hypercube", "network.dimension=3", "network.bandwidth=10",
                          "node.service_rate=20", "workload.rate=0.001", "workload.destination=fixed-hops",
                          "workload.hops=2", "workload.length=constant", "run.messages=20000",
                          "run.warmup_messages=100", NULL };
    struct config cfg;
    struct run_report r;
    test_config(&cfg, set);
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert_double_eq_tol(r.delay.min, 0.35, 1e-9); /* sums of 1/20 and 1/10: rounding only */
    ck_assert_msg(fabs(r.delay.mean / 0.35 - 1) < 0.005, "mean %.6f vs 0.35", r.delay.mean);
    ck_assert_double_eq_tol(r.node_mean + r.link_mean, r.delay.mean, 1e-12);
    ck_assert_double_eq_tol(r.node_mean, 0.15, 0.002);
}
END_TEST

/* Flow conservation at load (thesis worked example, SBH 4^3, μ_L = 10, μ_N = 20):
 * every node serves (1 + E[δ]) λ visits, ρ_N = 0.1643; buses carry ρ_L = 0.3048; the
 * two parts of the delay add up to the delay. */
START_TEST(node_model_conserves_flow)
{
    const char *set[] = { "network.topology=spanning-bus-hypercube", "network.dimension=3", "network.bandwidth=10",
                          "node.service_rate=20", "workload.rate=1", "run.messages=200000", NULL };
    struct config cfg;
    struct run_report r;
    test_config(&cfg, set);
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    double hops = 144.0 / 63; /* E[δ] = Σ n C(3,n) 3^n / 63 */
    ck_assert_double_eq_tol(r.stability.node_load, (1 + hops) / 20, 1e-12);
    ck_assert_msg(fabs(r.node_utilization_mean / ((1 + hops) / 20) - 1) < 0.02, "node busy %.4f",
                  r.node_utilization_mean);
    ck_assert_msg(fabs(r.utilization_mean / (hops * 4 / 3 / 10) - 1) < 0.02, "bus busy %.4f", r.utilization_mean);
    ck_assert_double_eq_tol(r.node_mean + r.link_mean, r.delay.mean, 1e-9 * r.delay.mean);
    ck_assert(r.node_variance > 0 && r.link_variance > r.node_variance);
}
END_TEST

/* Time mode: every delivery in [warmup_time, warmup_time + duration] counts (about
 * λ N duration of them) and the run stops at the window's end. */
START_TEST(time_window_measures_deliveries_inside_it)
{
    const char *set[] = { "network.dimension=4", "workload.rate=0.5", "run.warmup_time=20", "run.duration=200",
                          "workload.first_at_zero=true", NULL };
    struct config cfg;
    struct run_report r;
    test_config(&cfg, set);
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    double expected = 0.5 * 16 * 200;
    ck_assert_msg(fabs((double)r.delay.count - expected) < 5 * sqrt(expected), "count %llu",
                  (unsigned long long)r.delay.count);
    ck_assert_double_eq(r.simulated_time, 220);
    ck_assert_double_eq(r.warmup_time, 20);
    ck_assert_double_eq(r.window, 200);
    ck_assert_double_eq_tol(r.throughput, 0.5, 0.05);
}
END_TEST

/* Replications: number 0 is the plain run; the others differ; intervals bracket. */
START_TEST(replications_fold_into_intervals)
{
    const char *set[] = { "network.topology=spanning-bus-hypercube", "network.dimension=3", "network.bandwidth=10",
                          "node.service_rate=20", "run.warmup_time=75", "run.duration=75", NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct run_report single, many, again;
    ck_assert_int_eq(test_run(&cfg, &single), KERNEL_DONE);
    cfg.run.replications = 8;
    enum kernel_stop why;
    struct cfg_error err;
    ck_assert_int_eq(run_replications(&cfg, 0, &many, &why, &err), 0);
    ck_assert_int_eq(why, KERNEL_DONE);
    ck_assert_int_eq(run_replications(&cfg, 0, &again, &why, &err), 0);
    ck_assert_uint_eq(many.replications, 8);
    ck_assert(many.delay.mean == again.delay.mean && many.rep_max.sd == again.rep_max.sd);
    ck_assert(many.delay.count > 7 * single.delay.count);
    ck_assert(many.rep_mean.sd > 0 && many.rep_stddev.sd > 0 && many.rep_max.sd > 0);
    const struct replication_spread *s[] = { &many.rep_mean, &many.rep_stddev, &many.rep_max };
    for (int i = 0; i < 3; i++)
        ck_assert(s[i]->ci95[0] < s[i]->mean && s[i]->mean < s[i]->ci95[1]);
    ck_assert_double_eq(many.delay.ci95[0], many.rep_mean.ci95[0]);
    ck_assert_double_eq_tol(many.delay.mean, many.rep_mean.mean, 1e-12);
    cfg.run.replications = 1;
    struct run_report one;
    ck_assert_int_eq(run_replications(&cfg, 0, &one, &why, &err), 0);
    ck_assert(one.delay.mean == single.delay.mean && one.delay.max == single.delay.max);
}
END_TEST

/* Saturation: token passing sustains max/(max + token time) of a channel, so a bus at
 * 0.92 of its time saturates under tokens of 1/3 (capacity 0.9) but not under FIFO. */
START_TEST(stability_uses_protocol_capacity_and_nodes)
{
    const char *set[] = { ONE_BUS(4), "workload.rate=0.23", NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct cfg_error err;
    struct stability s;
    test_stability(&cfg, &s);
    ck_assert(!s.saturated);
    ck_assert_double_eq_tol(s.channel_load, 0.92, 1e-12);
    cfg_set(&cfg, "protocol", "link", "token", "test", 1, &err);
    cfg_set(&cfg, "protocol", "token_time", "0.3333333333333333", "test", 1, &err);
    test_stability(&cfg, &s);
    ck_assert(s.saturated);
    ck_assert_double_eq_tol(s.channel_load, 0.92 / 0.9, 1e-9);
    cfg_set(&cfg, "protocol", "link", "fifo", "test", 1, &err);
    cfg_set(&cfg, "node", "service_rate", "0.45", "test", 1, &err); /* 2 visits × 0.23 = 0.46 */
    test_stability(&cfg, &s);
    ck_assert(s.saturated);
    ck_assert_str_eq(s.blame, "node.service_rate");
    ck_assert_double_eq_tol(s.node_load, 0.46 / 0.45, 1e-12);
}
END_TEST

Suite *protocols_suite(void)
{
    Suite *s = suite_create("protocols");
    TCase *tc = tcase_create("exact");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, token_exhaustive_is_exact_polling);
    tcase_add_test(tc, token_one_per_capture_is_exact_polling);
    tcase_add_test(tc, tdm_with_one_sender_is_mm1);
    tcase_add_test(tc, tdm_light_load_slot_wait);
    tcase_add_test(tc, length_priorities_match_conway);
    tcase_add_test(tc, oldest_first_on_one_queue_is_fifo);
    tcase_add_test(tc, queue_disciplines_order_and_break_ties_by_arrival);
    tcase_add_test(tc, a_discipline_is_its_key);
    tcase_add_test(tc, protocol_streams_are_per_channel_and_reproducible);
    tcase_add_test(tc, node_model_light_load_is_deterministic);
    tcase_add_test(tc, node_model_conserves_flow);
    tcase_add_test(tc, time_window_measures_deliveries_inside_it);
    tcase_add_test(tc, replications_fold_into_intervals);
    tcase_add_test(tc, stability_uses_protocol_capacity_and_nodes);
    suite_add_tcase(s, tc);
    return s;
}
