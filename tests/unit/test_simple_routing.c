/* Valiant and per-hop routing with escape VCs on the simple flit router
 * (routing.router = simple): escape routes never deadlock at and past saturation (the
 * detector, run every 16 cycles, never fires; the engine's VC ownership and its
 * waiting headers stay consistent and every hop is minimal), the detector does find a
 * deadlock when the escapes are taken away, adaptive-minimal matches dimension order at
 * zero load, Valiant's hops are exactly d(s, m) + d(m, d) with each phase on its own
 * half of the VCs, and configurations without enough VCs or without a dimension order
 * are refused. */
#include <stdlib.h>
#include <string.h>

#include "../../routing/flit.h"
#include "../../routing/flit_setup.h"
#include "../common/checks.h"
#include "../common/test.h"

enum { MAX_SETTINGS = 24 };

/* settings + more, NULL-terminated, in out (at most MAX_SETTINGS). */
static void joined(const char **out, const char *const *settings, const char *const *more)
{
    size_t n = 0;
    for (size_t i = 0; settings[i]; i++)
        out[n++] = settings[i];
    for (size_t i = 0; more && more[i]; i++)
        out[n++] = more[i];
    ck_assert_uint_lt(n, MAX_SETTINGS);
    out[n] = NULL;
}

/* One run with the invariants checked at every delivery: it must complete, every
 * measured message delivered. */
static void run_checked(const char *const *settings)
{
    struct config cfg;
    static struct network net;
    test_network(&net, &cfg, settings);
    struct flit_engine *e = flit_engine_of(net.engine, net.engine_state);
    ck_assert_ptr_nonnull(e);
    struct flit_invariants k = { e, 0 };
    e->obs = (struct flit_observer){ &k, NULL, flit_check_invariants };
    enum kernel_stop stop = net_run(&net);
    ck_assert_msg(stop == KERNEL_DONE, "%s %s: %s", settings[0], settings[1], net.fatal);
    ck_assert_uint_eq(net.probe.delay.count, (uint64_t)cfg_int(&cfg, "run.messages"));
    ck_assert_uint_gt(k.checks, cfg_int(&cfg, "run.messages"));
    net_free(&net);
}

/* Short worms, small buffers, deadlock = stop searched every 16 cycles. */
#define STRESS                                                                                                     \
    "workload.mean_length=8", "workload.length=constant", "routing.flit_buffers=2", "run.allow_unstable=true",    \
        "routing.deadlock=stop", "routing.deadlock_interval=16", "run.warmup_messages=300", "run.messages=1500"

static const char *const torus4[] = { "network.topology=torus", "network.radix=4", "network.dimension=2", NULL };
static const char *const torus5[] = { "network.topology=torus", "network.radix=5", "network.dimension=2", NULL };
static const char *const cube4[] = { "network.topology=hypercube", "network.dimension=4", NULL };

/* Every algorithm with escape VCs (and Valiant), at saturation (0.08 messages of 8
 * flits a node and cycle) and far past it (0.3), wormhole on a 4x4 and a 5x5 torus and
 * a 4-cube, and cut-through on the 4x4 torus. */
START_TEST(escape_routes_never_deadlock)
{
    const char *const *networks[] = { torus4, torus5, cube4 };
    const char *const torus_algorithms[][4] = {
        { "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3", NULL },
        { "routing.algorithm=adaptive-minimal", "routing.virtual_channels=4", NULL },
        { "routing.algorithm=random-minimal", "routing.virtual_channels=4", "routing.escape_vcs=2", NULL },
        { "routing.algorithm=valiant", "routing.virtual_channels=4", NULL },
    };
    const char *const cube_algorithms[][4] = {
        { "routing.algorithm=adaptive-minimal", "routing.virtual_channels=2", NULL },
        { "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3", NULL },
        { "routing.algorithm=random-minimal", "routing.virtual_channels=2", "routing.escape_vcs=1", NULL },
        { "routing.algorithm=valiant", "routing.virtual_channels=2", NULL },
    };
    const char *const loads[] = { "workload.rate=0.08", "workload.rate=0.3" };
    for (size_t n = 0; n < 3; n++)
        for (size_t a = 0; a < 4; a++)
            for (size_t l = 0; l < 2; l++)
                for (int cut = 0; cut < (n == 0 ? 2 : 1); cut++) {
                    const char *first[MAX_SETTINGS], *all[MAX_SETTINGS];
                    joined(first, n == 2 ? cube_algorithms[a] : torus_algorithms[a], networks[n]);
                    const char *const more[] = { STRESS, loads[l],
                                                 cut ? "routing.switching=cut-through" : "routing.switching=wormhole",
                                                 NULL };
                    joined(all, first, more);
                    run_checked(all);
                }
}
END_TEST

/* One-way rings close only through the dateline: the escape VCs must switch class at
 * the wrap-around link, or dimension order's own hops wait on each other in a cycle
 * (a version without the switch deadlocked in 3 of these 4 runs per algorithm). */
START_TEST(one_way_rings_keep_their_dateline)
{
    static const char *const ring[] = { "network.topology=kary-ncube", "network.bidirectional=false",
                                        "network.radix=6", "network.dimension=1", NULL };
    static const char *const torus[] = { "network.topology=kary-ncube", "network.bidirectional=false",
                                         "network.radix=6", "network.dimension=2", NULL };
    const char *const *networks[] = { ring, torus };
    const char *const algorithms[][4] = {
        { "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3", NULL },
        { "routing.algorithm=random-minimal", "routing.virtual_channels=3", "routing.escape_vcs=2", NULL },
        { "routing.algorithm=valiant", "routing.virtual_channels=4", NULL },
    };
    const char *const seeds[] = { "run.seed=1", "run.seed=2" };
    for (size_t n = 0; n < 2; n++)
        for (size_t a = 0; a < 3; a++)
            for (size_t k = 0; k < 2; k++) {
                const char *first[MAX_SETTINGS], *all[MAX_SETTINGS];
                joined(first, algorithms[a], networks[n]);
                const char *const more[] = { "workload.mean_length=16", "workload.length=constant",
                                             "routing.flit_buffers=1", "run.allow_unstable=true",
                                             "routing.deadlock=stop", "routing.deadlock_interval=16",
                                             "run.warmup_messages=300", "run.messages=1500", "workload.rate=0.2",
                                             "routing.switching=wormhole", seeds[k], NULL };
                joined(all, first, more);
                run_checked(all);
            }
}
END_TEST

/* The tests above can fail: with the escape VCs taken away the same per-hop routing
 * deadlocks on a 4-cube (set up with 2 VCs, one escape, then run on the first VC alone
 * as an adaptive one: seed 003's random wormhole, chosen hop by hop), the search finds
 * it (stop), and recovery (recover) breaks it and completes the run. */
START_TEST(without_escapes_the_search_finds_deadlock)
{
    const char *const settings[] = { "network.topology=hypercube", "network.dimension=4",
                                     "routing.switching=wormhole", "routing.algorithm=random-minimal",
                                     "routing.virtual_channels=2", "routing.escape_vcs=1", "routing.flit_buffers=1",
                                     "workload.rate=0.04", "workload.mean_length=12", "workload.length=constant",
                                     "run.allow_unstable=true", "routing.deadlock_interval=16",
                                     "run.warmup_messages=500", "run.messages=20000", NULL };
    for (int recover = 0; recover < 2; recover++) {
        struct config cfg;
        test_config(&cfg, settings);
        struct cfg_error err;
        if (recover)
            ck_assert(cfg_set(&cfg, "routing", "deadlock", "recover", "override", 1, &err));
        static struct network net;
        ck_assert_msg(net_create(&net, &cfg, &err), "net_create: %s", err.message);
        struct flit_engine *e = flit_engine_of(net.engine, net.engine_state);
        ck_assert_ptr_nonnull(e);
        ck_assert_int_eq(e->routing, FLIT_PER_HOP);
        e->E = 0; /* no escape route, one adaptive VC (owner keeps its stride of 2: VC 1 unused) */
        e->V = 1;
        struct flit_invariants k = { e, 0 };
        e->obs = (struct flit_observer){ &k, NULL, flit_check_invariants };
        enum kernel_stop stop = net_run(&net);
        if (!recover) {
            ck_assert_int_eq(stop, KERNEL_FAILED);
            ck_assert_msg(strstr(net.fatal, "deadlock at cycle"), "fatal: %s", net.fatal);
        } else {
            ck_assert_int_eq(stop, KERNEL_DONE);
            ck_assert_uint_gt(e->recoveries, 0);
            ck_assert_uint_eq(net.probe.delay.count, 20000);
        }
        net_free(&net);
    }
}
END_TEST

/* Zero load (one message in the network at a time, in effect: 0.00002 messages a node
 * and cycle, nothing blocked): adaptive-minimal takes minimal hops only, so its hops
 * and delays are exactly dimension order's, message for message (the same messages). */
START_TEST(adaptive_zero_load_equals_dimension_order)
{
    const char *const *networks[] = { torus5, cube4 };
    for (size_t n = 0; n < 2; n++) {
        const char *const more[] = { "routing.switching=wormhole", "routing.virtual_channels=3",
                                     "workload.rate=0.00002", "workload.mean_length=8", "workload.length=constant",
                                     "run.warmup_messages=100", "run.messages=3000", NULL };
        const char *base[MAX_SETTINGS];
        joined(base, networks[n], more);
        struct config a, b;
        test_config(&a, base);
        test_config(&b, base);
        struct cfg_error err;
        ck_assert(cfg_set(&b, "routing", "algorithm", "adaptive-minimal", "override", 1, &err));
        struct run_report ecube, adaptive;
        ck_assert_int_eq(test_run(&a, &ecube), KERNEL_DONE);
        ck_assert_int_eq(test_run(&b, &adaptive), KERNEL_DONE);
        ck_assert_double_eq(test_figure(&ecube, "switching", "blocked_cycles_mean"), 0);
        ck_assert_double_eq(test_figure(&adaptive, "switching", "blocked_cycles_mean"), 0);
        ck_assert_double_eq(adaptive.hops_mean, ecube.hops_mean);
        ck_assert_double_eq(adaptive.delay.mean, ecube.delay.mean);
        ck_assert_double_eq(adaptive.delay.max, ecube.delay.max);
    }
}
END_TEST

struct valiant_replay {
    const struct flit_engine *e;
    struct rng *streams; /* the routing streams as they were before the run */
    uint64_t messages, mid_is_src, mid_is_dst;
};

/* At its offer (in creation order, as the draws were made): the intermediate node drawn
 * again; the path's length is d(src, mid) + d(mid, dst), its first d(src, mid) hops on
 * the lower half of the VCs' classes and the rest on the upper half. */
static void check_valiant(void *ctx, const struct worm *x)
{
    struct valiant_replay *k = ctx;
    const struct flit_engine *e = k->e;
    const struct topo *t = e->env.topo;
    uint32_t src = x->src, dst = e->env.pool->msgs[x->msg].dst;
    uint32_t mid = (uint32_t)rng_below(&k->streams[src], t->nodes);
    uint32_t first = src == mid ? 0 : t->ops->distance(t, src, mid), second = mid == dst ? 0 : t->ops->distance(t, mid, dst);
    ck_assert_uint_eq(x->hops, first + second);
    for (uint32_t j = 0; j < x->hops; j++) {
        uint32_t lo = e->class_lo[x->hop[j].cls], hi = e->class_hi[x->hop[j].cls];
        ck_assert_msg(j < first ? hi <= e->V / 2 : lo >= e->V / 2, "hop %u of %u+%u: VCs [%u, %u)", j, first, second,
                      lo, hi);
    }
    ck_assert_uint_eq(x->hops ? x->to[x->hops - 1] : src, dst);
    k->messages++;
    k->mid_is_src += mid == src;
    k->mid_is_dst += mid == dst;
}

START_TEST(valiant_hops_are_both_phases)
{
    const char *const *networks[] = { torus5, cube4 };
    const char *const vcs[] = { "routing.virtual_channels=4", "routing.virtual_channels=2" };
    for (size_t n = 0; n < 2; n++) {
        const char *const more[] = { "routing.switching=wormhole", "routing.algorithm=valiant", vcs[n],
                                     "workload.rate=0.02", "run.warmup_messages=200", "run.messages=3000", NULL };
        const char *settings[MAX_SETTINGS];
        joined(settings, networks[n], more);
        struct config cfg;
        static struct network net;
        test_network(&net, &cfg, settings);
        struct flit_engine *e = flit_engine_of(net.engine, net.engine_state);
        ck_assert_int_eq(e->routing, FLIT_VALIANT);
        uint32_t nodes = net.topo.nodes;
        struct valiant_replay k = { e, malloc(nodes * sizeof *k.streams), 0, 0, 0 };
        memcpy(k.streams, e->env.rng_route, nodes * sizeof *k.streams);
        e->obs = (struct flit_observer){ &k, check_valiant, NULL };
        ck_assert_int_eq(net_run(&net), KERNEL_DONE);
        ck_assert_uint_gt(k.messages, 3000);
        ck_assert_msg(k.mid_is_src > 0 && k.mid_is_dst > 0, "cases %llu %llu", (unsigned long long)k.mid_is_src,
                      (unsigned long long)k.mid_is_dst);
        free(k.streams);
        net_free(&net);
    }
}
END_TEST

/* Exit status 2, one line naming the file, line and key, no output; and `fix` in it. */
static void refused_with(const char *const *settings, const char *where, const char *fix)
{
    const char *argv[MAX_SETTINGS * 2 + 4];
    size_t n = 0;
    argv[n++] = test_binary();
    argv[n++] = "configs/iq/torus-8x8.ini";
    argv[n++] = "--no-progress";
    for (size_t i = 0; settings[i]; i++) {
        argv[n++] = "-s";
        argv[n++] = settings[i];
    }
    argv[n] = NULL;
    char out[4096], err[4096];
    int status = test_exec(argv, out, sizeof out, err, sizeof err);
    ck_assert_msg(status == 2, "%s: exit status %d, stderr: %s", settings[1], status, err);
    ck_assert_msg(strncmp(err, where, strlen(where)) == 0, "%s: stderr does not start %s: %s", settings[1], where,
                  err);
    ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "not one line: %s", err);
    ck_assert_msg(strstr(err, fix), "%s: stderr lacks \"%s\": %s", settings[1], fix, err);
    ck_assert_str_eq(out, "");
}

static void refused(const char *const *settings, const char *where)
{
    refused_with(settings, where, "");
}

START_TEST(refusals)
{
    /* configs/iq/torus-8x8.ini sets virtual_channels = 2 on its line 15 */
    /* too few VCs to be deadlock-free: the static check refuses, naming the cycle and the fix */
    const char *const valiant_torus[] = { "routing.router=simple", "routing.algorithm=valiant", NULL };
    refused_with(valiant_torus, "configs/iq/torus-8x8.ini:15: routing.virtual_channels: the routing can deadlock: "
                 "channel dependency cycle: dim", "; the fix: routing.virtual_channels = 4 (Valiant needs two phases "
                 "of dateline classes)");
    /* too few to run at all (phase 0 would have no VC): refused up front, the check off or not */
    const char *const valiant_cube[] = { "routing.router=simple", "routing.algorithm=valiant", "network.topology=hypercube",
                                         "network.dimension=4", "routing.virtual_channels=1",
                                         "routing.deadlock_check=off", NULL };
    refused(valiant_cube, "command line (-s): routing.virtual_channels: valiant needs 2");
    const char *const adaptive_two[] = { "routing.router=simple", "routing.algorithm=adaptive-minimal", NULL };
    refused(adaptive_two, "configs/iq/torus-8x8.ini:15: routing.virtual_channels: adaptive-minimal needs an adaptive");
    const char *const escapes[] = { "routing.router=simple", "routing.algorithm=adaptive-minimal",
                                    "routing.virtual_channels=3", "routing.escape_vcs=1", NULL };
    refused_with(escapes, "command line (-s): routing.escape_vcs: the routing can deadlock: escape VCs' extended "
                 "dependency cycle: dim", "; the fix: routing.escape_vcs = 2 (two dateline classes on a torus: Duato's "
                 "condition)");
    const char *const random_escapes[] = { "routing.router=simple", "routing.algorithm=random-minimal",
                                           "routing.escape_vcs=2", NULL };
    refused(random_escapes, "configs/iq/torus-8x8.ini:15: routing.virtual_channels: random-minimal needs an adaptive");
    const char *const ccc_valiant[] = { "routing.router=simple", "routing.algorithm=valiant", "network.topology=ccc",
                                        "network.dimension=3", NULL };
    refused(ccc_valiant, "command line (-s): routing.algorithm: valiant routes both phases by dimension order");
    const char *const ccc_adaptive[] = { "routing.router=simple", "routing.algorithm=adaptive-minimal",
                                         "network.topology=ccc", "network.dimension=3", "routing.virtual_channels=3",
                                         NULL };
    refused(ccc_adaptive, "command line (-s): network.topology: adaptive-minimal on the simple router");
    const char *const radix2[] = { "routing.router=simple", "routing.algorithm=valiant", "network.radix=2",
                                   "routing.virtual_channels=4", NULL };
    refused(radix2, "command line (-s): network.radix: valiant on the simple router needs a radix of 3");
    const char *const finite[] = { "routing.router=simple", "routing.algorithm=adaptive-minimal",
                                   "routing.virtual_channels=3", "routing.finite_buffer=true", NULL };
    refused(finite, "command line (-s): routing.finite_buffer:");
    const char *const half_adaptive[] = { "routing.router=simple", "routing.algorithm=adaptive-minimal",
                                          "routing.virtual_channels=3", "network.links=half-duplex", NULL };
    refused(half_adaptive, "command line (-s): network.links: adaptive-minimal on the simple router needs full-duplex");
    const char *const half_valiant[] = { "routing.router=simple", "routing.algorithm=valiant", "network.topology=kary-ncube",
                                         "network.wrap=false", "routing.virtual_channels=2", "network.links=half-duplex",
                                         NULL };
    refused(half_valiant, "command line (-s): network.links: valiant on the simple router needs full-duplex");
}
END_TEST

Suite *simple_routing_suite(void)
{
    Suite *s = suite_create("simple_routing");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, escape_routes_never_deadlock);
    tcase_add_test(tc, without_escapes_the_search_finds_deadlock);
    tcase_add_test(tc, adaptive_zero_load_equals_dimension_order);
    tcase_add_test(tc, valiant_hops_are_both_phases);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, one_way_rings_keep_their_dateline);
    suite_add_tcase(s, tc);
    return s;
}
