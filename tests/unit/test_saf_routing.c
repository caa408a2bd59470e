/* Hop-by-hop routing under store-and-forward (routing/store_and_forward.c):
 * adaptive-minimal takes the minimal next hop with the shortest queue (the access
 * protocol's queued()), and Valiant goes through an intermediate node drawn from the
 * source's routing stream.  Checked from hand-made environments (the choice, the exact
 * hops of each message), against dimension order in whole runs (zero-load hops and
 * delay, transpose traffic, the mean path and saturation of Valiant), for determinism
 * and for the configurations they refuse. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../routing/engine.h"
#include "../common/test.h"

/* --- hand-made environments --- */

/* A protocol whose queue lengths the test sets: it never grants, and remembers the
 * channels asked for. */
struct fake_queues {
    uint32_t queued[64];
    uint32_t asked[256];
    unsigned requests;
};

static void *fake_create(const struct access_env *env) { return (void *)env->params; }
static void fake_destroy(void *self) { (void)self; }
static void fake_release(void *self, uint32_t ch) { (void)self, (void)ch; }
static void fake_request(void *self, uint32_t ch, uint32_t m, uint32_t sender)
{
    (void)m, (void)sender;
    struct fake_queues *f = self;
    ck_assert_uint_lt(f->requests, 256);
    f->asked[f->requests++] = ch;
}
static uint32_t fake_queued(const void *self, uint32_t ch) { return ((const struct fake_queues *)self)->queued[ch]; }

static const struct proto_ops fake_protocol = {
    .name = "fake", .create = fake_create, .destroy = fake_destroy, .request = fake_request,
    .release = fake_release, .queued = fake_queued,
};

/* One store-and-forward engine on a binary n-cube with the given algorithm and protocol. */
struct bench {
    struct config cfg;
    struct topo t;
    struct kernel k;
    struct msg_pool pool;
    uint32_t in_flight;
    uint64_t created;
    struct probe p;
    struct rng streams[64];
    struct path_selection paths;
    struct channel_state chan[512];
    struct engine_env env;
    const struct engine_ops *ops;
    void *engine;
};

static void bench_open(struct bench *b, const char *dimension, const char *algorithm, const struct proto_ops *access,
                       const void *access_params, uint64_t messages)
{
    const char *const settings[] = { dimension, algorithm, NULL };
    test_config(&b->cfg, settings);
    struct cfg_error err;
    ck_assert(topo_build(&b->t, &b->cfg, &err));
    ck_assert_uint_le(b->t.nodes, 64);
    ck_assert(kernel_init(&b->k));
    b->pool = msg_pool_empty(NULL, NULL, true);
    b->in_flight = 0;
    b->created = 0;
    const struct probe_spec spec = { .messages = messages, .batches = 1 };
    ck_assert(probe_init(&b->p, &b->k, &spec, &b->in_flight));
    for (uint32_t v = 0; v < b->t.nodes; v++)
        rng_seed_stream(&b->streams[v], 1, RNG_ROUTING, v);
    b->paths = (struct path_selection){ route_select(&b->cfg), NULL, &b->t, b->streams };
    for (uint32_t ch = 0; ch < b->t.channels; ch++)
        b->chan[ch] = (struct channel_state){ 0 };
    b->ops = switch_find("store-and-forward");
    b->env = (struct engine_env){
        .cfg = &b->cfg, .kernel = &b->k, .pool = &b->pool, .probe = &b->p, .in_flight = &b->in_flight,
        .created = &b->created, .topo = &b->t, .paths = &b->paths, .chan = b->chan, .access = access,
        .access_env = { .kernel = &b->k, .pool = &b->pool, .channels = { b->t.channels, 1, NULL, NULL, NULL },
                        .params = access_params },
        .rng_route = b->streams,
    };
    b->engine = b->ops->create(&b->env);
    ck_assert_ptr_nonnull(b->engine);
}

static void bench_inject(struct bench *b, uint32_t src, uint32_t dst)
{
    uint32_t m = msg_pool_take(&b->pool);
    ck_assert_uint_ne(m, MSG_NONE);
    b->pool.msgs[m] = (struct message){ .length = 1, .src = src, .dst = dst, .at = src, .next_node = MSG_NONE,
                                        .link = MSG_NONE };
    msg_set_id(&b->pool, m, b->created);
    b->in_flight++;
    probe_created(&b->p, b->created++, b->k.now);
    b->ops->inject(b->engine, m);
}

static void bench_close(struct bench *b)
{
    b->ops->destroy(b->engine);
    probe_free(&b->p);
    msg_pool_free(&b->pool);
    kernel_free(&b->k);
    topo_free(&b->t);
}

/* Node 0 of a 3-cube sending to 7 has the three minimal channels 0, 1, 2 (dimension d is
 * channel 0*3 + d).  It takes the one with the shortest queue; between two equal ones
 * it draws, so over 200 messages both are taken and the longer queue never is. */
START_TEST(adaptive_takes_the_shortest_queue)
{
    struct fake_queues q = { .queued = { 2, 1, 3 } };
    struct bench *b = calloc(1, sizeof *b);
    bench_open(b, "network.dimension=3", "routing.algorithm=adaptive-minimal", &fake_protocol, &q, 1000);
    bench_inject(b, 0, 7);
    ck_assert_uint_eq(q.requests, 1);
    ck_assert_uint_eq(q.asked[0], 1);
    bench_inject(b, 0, 5); /* dimensions 0 and 2 only: 0 has the shorter queue */
    ck_assert_uint_eq(q.asked[1], 0);
    q.queued[1] = 2; /* channels 0 and 1 tie at 2 */
    unsigned taken[3] = { 0 };
    for (int i = 0; i < 200; i++) {
        bench_inject(b, 0, 7);
        taken[q.asked[q.requests - 1]]++;
    }
    ck_assert_uint_eq(taken[2], 0);
    ck_assert_msg(taken[0] > 60 && taken[1] > 60, "ties split %u / %u", taken[0], taken[1]);
    bench_close(b);
    free(b);
}
END_TEST

/* Each message on a 5-cube travels exactly d(src, mid) + d(mid, dst) hops, mid drawn from
 * its source's routing stream at injection (the same draws, replayed here): passing its
 * destination on the way to mid does not deliver it, and mid = src or mid = dst leaves
 * one phase empty.  Both cases occur among the 400 messages. */
START_TEST(valiant_hops_are_both_phases)
{
    struct bench *b = calloc(1, sizeof *b);
    enum { MESSAGES = 400 };
    bench_open(b, "network.dimension=5", "routing.algorithm=valiant", proto_find("fifo"), NULL, MESSAGES);
    struct rng replay[32];
    memcpy(replay, b->streams, sizeof replay);
    struct rng pairs;
    rng_seed_stream(&pairs, 7, RNG_DESTINATION, 0);
    uint64_t expected = 0;
    unsigned mid_is_src = 0, mid_is_dst = 0, passes_dst = 0;
    for (int i = 0; i < MESSAGES; i++) {
        uint32_t src = (uint32_t)rng_below(&pairs, 32), dst = (uint32_t)rng_below(&pairs, 31);
        dst += dst >= src;
        uint32_t mid = (uint32_t)rng_below(&replay[src], 32);
        unsigned to_mid = (unsigned)__builtin_popcount(src ^ mid), on = (unsigned)__builtin_popcount(mid ^ dst);
        expected += to_mid + on;
        mid_is_src += mid == src;
        mid_is_dst += mid == dst;
        /* e-cube from src to mid fixes bits lowest first: it passes dst when dst's bits
         * agree with mid's below some point and with src's above it. */
        for (unsigned j = 1; j < 5; j++)
            passes_dst += mid != dst && (((src ^ dst) >> j) == 0) && ((mid ^ dst) & ((1u << j) - 1)) == 0;
        bench_inject(b, src, dst);
    }
    ck_assert_int_eq(kernel_run(&b->k), KERNEL_DONE);
    ck_assert_uint_eq(b->p.delay.count, MESSAGES);
    ck_assert_uint_eq(b->p.hops_measured, expected);
    ck_assert_uint_eq(b->in_flight, 0);
    ck_assert_msg(mid_is_src > 0 && mid_is_dst > 0 && passes_dst > 0, "cases %u %u %u", mid_is_src, mid_is_dst,
                  passes_dst);
    bench_close(b);
    free(b);
}
END_TEST

/* --- whole runs against dimension order --- */

static void run_with(struct run_report *r, const char *const *settings, const char *algorithm)
{
    struct config cfg;
    test_config(&cfg, settings);
    struct cfg_error err;
    ck_assert_msg(cfg_set(&cfg, "routing", "algorithm", algorithm, "override", 1, &err), "%s", err.message);
    ck_assert_int_eq(test_run(&cfg, r), KERNEL_DONE);
}

/* Zero load on an 8x8 torus with constant lengths: adaptive-minimal takes minimal hops
 * only, so its mean hops are exactly dimension order's (the same destinations are
 * drawn), and with next to no queueing both delays are the hops times the length. */
START_TEST(adaptive_zero_load_is_dimension_order)
{
    const char *settings[] = { "network.topology=torus", "network.radix=8", "network.dimension=2",
                               "workload.length=constant", "workload.rate=0.0005", "run.warmup_messages=0",
                               "run.messages=4000", NULL };
    struct run_report ecube, adaptive;
    run_with(&ecube, settings, "ecube");
    run_with(&adaptive, settings, "adaptive-minimal");
    ck_assert_double_eq(adaptive.hops_mean, ecube.hops_mean);
    ck_assert_msg(fabs(adaptive.delay.mean / adaptive.hops_mean - 1) < 2e-3, "adaptive %g over %g hops",
                  adaptive.delay.mean, adaptive.hops_mean);
    ck_assert_msg(fabs(ecube.delay.mean / ecube.hops_mean - 1) < 2e-3, "ecube %g over %g hops", ecube.delay.mean,
                  ecube.hops_mean);
    ck_assert_double_eq(adaptive.delay.min, 1);
}
END_TEST

/* Transpose on an 8x8 torus near dimension order's saturation: the shortest queue
 * spreads the diagonal's load over both minimal directions, so it is at least as good. */
START_TEST(adaptive_beats_dimension_order_on_transpose)
{
    const char *settings[] = { "network.topology=torus", "network.radix=8", "network.dimension=2",
                               "workload.destination=transpose", "workload.rate=0.2", "run.messages=30000", NULL };
    struct run_report ecube, adaptive;
    run_with(&ecube, settings, "ecube");
    run_with(&adaptive, settings, "adaptive-minimal");
    ck_assert_double_eq(adaptive.hops_mean, ecube.hops_mean);
    ck_assert_msg(adaptive.delay.ci95[1] < ecube.delay.ci95[0], "adaptive %g, ecube %g", adaptive.delay.mean,
                  ecube.delay.mean);
}
END_TEST

/* Valiant on a binary 6-cube under uniform traffic: the intermediate node is uniform
 * over all 64 nodes, so E[hops] = E d(src, mid) + E d(mid, dst) = 3 + 3 = 6 exactly
 * (dimension order: 6·32/63); on a 4x4 torus 2 + 2 = 4.  The per-message hops have a
 * standard deviation about sqrt(3), so 40,000 messages put the mean within 0.04. */
START_TEST(valiant_mean_hops_are_twice_the_mean_distance)
{
    const char *cube[] = { "network.dimension=6", "workload.rate=0.2", "run.messages=40000", NULL };
    struct run_report r;
    run_with(&r, cube, "valiant");
    ck_assert_msg(fabs(r.hops_mean - 6) < 0.04, "6-cube: %g hops", r.hops_mean);
    const char *torus[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                            "workload.rate=0.2", "run.messages=40000", NULL };
    run_with(&r, torus, "valiant");
    ck_assert_msg(fabs(r.hops_mean - 4) < 0.035, "4x4 torus: %g hops", r.hops_mean);
}
END_TEST

/* Saturation on a 6-cube: every channel carries λ·6·64/384 = λ under Valiant, against
 * λ·32/63 under dimension order, so Valiant saturates at λ = 1, about half of dimension
 * order's 63/32.  Below (λ = 0.7) it delivers what is offered, with Kleinrock's
 * 6/(1 − 0.7) = 20 time units of delay within 10%; above (λ = 1.3, for 150 time
 * units) it delivers at most what its channels carry, about 1, while dimension order
 * still delivers 1.3. */
START_TEST(valiant_saturates_at_about_half_the_load)
{
    const char *below[] = { "network.dimension=6", "workload.rate=0.7", "run.messages=30000", NULL };
    struct run_report valiant, ecube;
    run_with(&valiant, below, "valiant");
    ck_assert_msg(fabs(valiant.throughput / 0.7 - 1) < 0.03, "valiant delivered %g of 0.7", valiant.throughput);
    ck_assert_msg(fabs(valiant.delay.mean / 20 - 1) < 0.1, "valiant's delay %g", valiant.delay.mean);
    const char *above[] = { "network.dimension=6", "workload.rate=1.3", "run.warmup_time=50", "run.duration=150",
                            NULL };
    run_with(&ecube, above, "ecube");
    run_with(&valiant, above, "valiant");
    ck_assert_msg(ecube.throughput > 1.25, "ecube delivered %g of 1.3", ecube.throughput);
    ck_assert_msg(valiant.throughput < 1.05, "valiant delivered %g of 1.3", valiant.throughput);
    ck_assert_msg(valiant.utilization_mean > 0.9, "valiant's channels %g busy", valiant.utilization_mean);
}
END_TEST

/* --- determinism and refusals --- */

START_TEST(same_seed_same_bytes)
{
    const char *algorithms[] = { "routing.algorithm=adaptive-minimal", "routing.algorithm=valiant" };
    for (int i = 0; i < 2; i++) {
        const char *argv[] = { test_binary(), "-s", algorithms[i], "-s", "run.messages=5000", "-s",
                               "network.topology=torus", "-s", "network.radix=4", "-s", "workload.rate=0.3",
                               "-f", "csv", "--no-timing", "--no-progress", "configs/default.ini", NULL };
        static char out[2][16384], err[1024];
        for (int k = 0; k < 2; k++)
            ck_assert_int_eq(test_exec(argv, out[k], sizeof out[k], err, sizeof err), 0);
        ck_assert_str_eq(out[0], out[1]);
        ck_assert_ptr_nonnull(strstr(out[0], i ? ",valiant," : ",adaptive-minimal,"));
    }
}
END_TEST

static void refused(const char *const *settings, const char *key, const char *words)
{
    struct config cfg;
    test_config(&cfg, settings);
    static struct network net;
    struct cfg_error err;
    ck_assert(!net_create(&net, &cfg, &err));
    ck_assert_str_eq(err.key, key);
    ck_assert_msg(strstr(err.message, words), "%s", err.message);
}

/* Valiant needs a dimension order; on the simple flit router both need virtual channels
 * for their classes (one VC is too few); both run on every other network (hierarchical,
 * CCC, buses) where their hops exist. */
START_TEST(refusals_and_networks)
{
    const char *ccc[] = { "network.topology=ccc", "routing.algorithm=valiant", NULL };
    refused(ccc, "routing.algorithm", "dimension order");
    const char *bh[] = { "network.topology=bh-bh", "network.cluster_dimension=3", "routing.algorithm=valiant", NULL };
    refused(bh, "routing.algorithm", "dimension order");
    const char *wormhole[] = { "routing.switching=wormhole", "routing.algorithm=adaptive-minimal", NULL };
    refused(wormhole, "routing.virtual_channels", "an adaptive VC beyond the 1 escape VCs");
    const char *cut[] = { "routing.switching=cut-through", "routing.algorithm=valiant", NULL };
    refused(cut, "routing.virtual_channels", "valiant needs 2 virtual channels");
    const char *runs[][6] = {
        { "network.topology=bh-bh", "network.cluster_dimension=3", "routing.algorithm=adaptive-minimal", NULL },
        { "network.topology=ccc", "routing.algorithm=adaptive-minimal", NULL },
        { "network.topology=dual-bus-hypercube", "network.width=4", "network.dimension=3",
          "routing.algorithm=adaptive-minimal", NULL },
        { "network.topology=spanning-bus-hypercube", "routing.algorithm=valiant", NULL },
        { "network.topology=kary-ncube", "network.radix=4", "network.dimension=2", "network.wrap=false",
          "routing.algorithm=valiant", NULL },
        { "network.links=half-duplex", "protocol.link=token", "routing.algorithm=adaptive-minimal", NULL },
        { "network.topology=spanning-bus-hypercube", "protocol.link=tdm", "routing.algorithm=adaptive-minimal",
          NULL },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        struct config cfg;
        test_config(&cfg, runs[i]);
        struct cfg_error err;
        ck_assert(cfg_set(&cfg, "workload", "rate", "0.05", "override", 1, &err));
        ck_assert(cfg_set(&cfg, "run", "messages", "3000", "override", 1, &err));
        ck_assert(cfg_set(&cfg, "run", "warmup_messages", "1000", "override", 1, &err));
        struct run_report r;
        ck_assert_msg(test_run(&cfg, &r) == KERNEL_DONE, "%s", runs[i][0]);
        ck_assert_msg(r.hops_mean > 0, "%s", runs[i][0]);
    }
}
END_TEST

Suite *saf_routing_suite(void)
{
    Suite *s = suite_create("saf_routing");
    TCase *tc = tcase_create("hop_by_hop");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, adaptive_takes_the_shortest_queue);
    tcase_add_test(tc, valiant_hops_are_both_phases);
    tcase_add_test(tc, adaptive_zero_load_is_dimension_order);
    tcase_add_test(tc, adaptive_beats_dimension_order_on_transpose);
    tcase_add_test(tc, valiant_mean_hops_are_twice_the_mean_distance);
    tcase_add_test(tc, valiant_saturates_at_about_half_the_load);
    tcase_add_test(tc, same_seed_same_bytes);
    tcase_add_test(tc, refusals_and_networks);
    suite_add_tcase(s, tc);
    return s;
}
