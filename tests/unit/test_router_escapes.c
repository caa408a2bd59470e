/* Per-hop routing on router networks on the simple router (adaptive-minimal, and
 * random-minimal with escape VCs; routing/flit_classes.h's flit_escape_classes): escape
 * VCs on the canonical minimal route with that network's classes, routing.escape_vcs
 * defaulting to them; each combination proved by Duato's condition, too few escape VCs
 * refused by the static check naming routing.escape_vcs, no adaptive VC (or classes
 * beyond what a channel's VCs can be) refused up front; on the dragonfly the proof rests
 * on counting adaptive hops in a head's escape class; runs far past saturation, 3 seeds
 * each, never stop with a deadlock.  tests/validate/test_deadlock_free.c runs them for
 * 3 seeds x 50,000 cycles.  The drawn paths' classes: test_router_classes.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../routing/deadlock_check.h"
#include "../../routing/engine.h"
#include "../../routing/routing.h"
#include "../../sim/run/deadlock_run.h"
#include "../common/test.h"

#define DRAGONFLY "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2", \
                  "network.concentration=2"
#define SLIM_FLY "network.topology=slim-fly", "network.q=5", "network.concentration=2"
#define CTORUS "network.topology=torus", "network.radix=4", "network.dimension=2", "network.concentration=2"
#define RING "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges"
#define WH "routing.switching=wormhole"
#define FAT_TREE "network.topology=fat-tree", "network.radix=2", "network.dimension=3"
#define HYPERX "network.topology=hyperx", "network.radix=3", "network.dimension=2", "network.concentration=2"
#define IRREGULAR "network.topology=graph", "network.graph_file=configs/graphs/irregular-6.edges"
#define ADAPTIVE "routing.algorithm=adaptive-minimal"


static void build(struct topo *t, struct config *cfg, const char *const *settings)
{
    test_config(cfg, settings);
    struct cfg_error err;
    ck_assert_msg(topo_build(t, cfg, &err), "%s", err.message);
}

static struct dl_result verdict(const char *const *settings, struct cfg_error *err)
{
    struct config cfg;
    test_config(&cfg, settings);
    struct dl_result r = { 0 };
    r.verdict = net_check_deadlock(&cfg, &r, err) ? r.verdict : DL_OFF; /* DL_OFF: refused before the check */
    return r;
}

/* A relation wrapped, its steps changed by the test. */
struct classless {
    struct dl_relation inner;
};

static unsigned classless_seeds(void *self, uint32_t key, uint32_t source, struct dl_step *out, unsigned max)
{
    struct classless *m = self;
    return m->inner.seeds(m->inner.self, key, source, out, max);
}

/* Per-hop routing on router networks (adaptive-minimal; random-minimal with escape VCs):
 * escape VCs on the canonical minimal route with flit_escape_classes()'s classes,
 * routing.escape_vcs defaulting to them (dragonfly 2, Slim Fly 2, the 8-ring 4, the
 * concentrated torus 2, HyperX and the fat tree 1), each proved by Duato's condition;
 * too few escape VCs refused by the check naming routing.escape_vcs and the count; no
 * adaptive VC beyond them refused up front, and a ring whose classes alone need more VCs
 * than a channel can have refused up front naming the algorithm. */
START_TEST(per_hop_escape_classes_proved_too_few_refused)
{
    static const struct {
        const char *set[10];
        uint32_t escape;
    } proved[] = {
        { { DRAGONFLY, WH, ADAPTIVE, "routing.virtual_channels=3" }, 2 },
        { { DRAGONFLY, WH, ADAPTIVE, "routing.virtual_channels=4", "network.groups=5" }, 2 },
        { { DRAGONFLY, WH, "routing.algorithm=random-minimal", "routing.virtual_channels=3", "routing.escape_vcs=2" },
          2 },
        { { SLIM_FLY, WH, ADAPTIVE, "routing.virtual_channels=3" }, 2 },
        { { "network.topology=slim-fly", "network.q=3", WH, "routing.algorithm=random-minimal",
            "routing.virtual_channels=4", "routing.escape_vcs=3" }, 3 },
        { { RING, WH, ADAPTIVE, "routing.virtual_channels=5" }, 4 },
        { { IRREGULAR, WH, ADAPTIVE, "routing.virtual_channels=5" }, 0 },
        { { CTORUS, WH, ADAPTIVE, "routing.virtual_channels=3" }, 2 },
        { { FAT_TREE, WH, ADAPTIVE, "routing.virtual_channels=2" }, 1 },
        { { HYPERX, WH, ADAPTIVE, "routing.virtual_channels=2" }, 1 },
        { { HYPERX, WH, "routing.algorithm=random-minimal", "routing.virtual_channels=2", "routing.escape_vcs=1" }, 1 },
    };
    for (size_t i = 0; i < sizeof proved / sizeof proved[0]; i++) {
        struct cfg_error err;
        struct dl_result r = verdict(proved[i].set, &err);
        ck_assert_msg(r.verdict == DL_PROVED && r.duato, "case %zu (%s): %s %s", i, proved[i].set[0],
                      dl_verdict_name(r.verdict), r.verdict == DL_OFF ? err.message : r.note);
        struct config cfg;
        struct topo t;
        build(&t, &cfg, proved[i].set);
        struct dl_relation rel;
        ck_assert(engine_select(&cfg)->relation(&cfg, &t, &rel));
        if (proved[i].escape) /* the default, or the one set */
            ck_assert_uint_eq(rel.escape, proved[i].escape);
        else /* a graph: its router diameter */
            ck_assert_uint_eq(rel.escape, t.router_diameter);
        rel.destroy(rel.self);
        topo_free(&t);
    }
    static const struct {
        const char *set[10];
        const char *fix;
    } refused[] = {
        { { DRAGONFLY, WH, ADAPTIVE, "routing.virtual_channels=3", "routing.escape_vcs=1" },
          "the fix: routing.escape_vcs = 2 (a class raised at each global link: Kim et al. 2008" },
        { { SLIM_FLY, WH, "routing.algorithm=random-minimal", "routing.virtual_channels=3", "routing.escape_vcs=1" },
          "the fix: routing.escape_vcs = 2 (a class per router hop of the diameter" },
        { { RING, WH, ADAPTIVE, "routing.virtual_channels=4", "routing.escape_vcs=3" },
          "the fix: routing.escape_vcs = 4 with routing.virtual_channels = 5" },
        { { CTORUS, WH, ADAPTIVE, "routing.virtual_channels=3", "routing.escape_vcs=1" },
          "the fix: routing.escape_vcs = 2 (two dateline classes" },
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        struct cfg_error err;
        struct dl_result r = verdict(refused[i].set, &err);
        ck_assert_msg(r.verdict == DL_REFUSED && strstr(r.note, refused[i].fix), "case %zu: %s %s", i,
                      dl_verdict_name(r.verdict), r.verdict == DL_OFF ? err.message : r.note);
        ck_assert_str_eq(r.key, "routing.escape_vcs");
    }
    static const struct {
        const char *set[10];
        const char *says;
    } up_front[] = {
        { { DRAGONFLY, WH, ADAPTIVE, "routing.virtual_channels=2" }, "virtual_channels must be at least 3 (got 2)" },
        { { SLIM_FLY, WH, ADAPTIVE }, "virtual_channels must be at least 3 (got 1)" },
        { { FAT_TREE, WH, ADAPTIVE }, "virtual_channels must be at least 2 (got 1)" },
    };
    for (size_t i = 0; i < sizeof up_front / sizeof up_front[0]; i++) {
        struct cfg_error err;
        struct dl_result r = verdict(up_front[i].set, &err);
        ck_assert_msg(r.verdict == DL_OFF && strstr(err.message, up_front[i].says), "case %zu: %s", i,
                      r.verdict == DL_OFF ? err.message : r.note);
        ck_assert_str_eq(err.key, "routing.virtual_channels");
    }
    /* the 8-node ring's file has terminals only on routers: a ring of 140 needs 70 escape classes */
    char path[] = "/tmp/sim-ring-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "routers 140\n");
    for (int i = 0; i < 140; i++)
        fprintf(f, "%d %d\n", i, (i + 1) % 140);
    fclose(f);
    char file[64];
    snprintf(file, sizeof file, "network.graph_file=%s", path);
    const char *big[] = { "network.topology=graph", file, WH, ADAPTIVE, "routing.virtual_channels=64", NULL };
    struct cfg_error err;
    struct dl_result r = verdict(big, &err);
    ck_assert_msg(r.verdict == DL_OFF && strstr(err.message, "would need 70 escape VCs") &&
                  strcmp(err.key, "routing.algorithm") == 0, "%s: %s", err.key, err.message);
    unlink(path);
}
END_TEST

/* The dragonfly's relation with adaptive hops left uncounted (a head's escape state only
 * stepped on escape hops): a head that crossed its global link adaptively then asks for
 * a class-0 local escape VC, which the escape route takes only before its global link,
 * and Duato's condition fails: counting every hop is what the proof rests on there.
 * (Hop-indexed classes, Slim Fly's and graphs', rise with every escape hop whether or
 * not the adaptive ones are counted: there counting only keeps the class within the
 * diameter.) */
static unsigned uncounted_next(void *self, uint32_t key, const struct dl_step *at, struct dl_step *out, unsigned max)
{
    struct classless *m = self;
    unsigned n = m->inner.next(m->inner.self, key, at, out, max);
    for (unsigned i = 0; i < n; i++)
        if (out[i].channel != DL_NONE && out[i].lo >= m->inner.escape)
            out[i].aux = at->aux;
    return n;
}

START_TEST(per_hop_uncounted_adaptive_hops_refused)
{
    static const struct {
        const char *set[10];
    } cases[] = {
        { { DRAGONFLY, WH, ADAPTIVE, "routing.virtual_channels=3" } },
        { { DRAGONFLY, WH, ADAPTIVE, "routing.virtual_channels=3", "network.groups=5" } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct config cfg;
        struct topo t;
        build(&t, &cfg, cases[i].set);
        struct classless m;
        ck_assert(engine_select(&cfg)->relation(&cfg, &t, &m.inner));
        struct dl_relation rel = m.inner;
        rel.self = &m;
        rel.next = uncounted_next;
        rel.seeds = classless_seeds;
        struct dl_result with, without;
        ck_assert(dl_decide(&t, &m.inner, &with));
        ck_assert(dl_decide(&t, &rel, &without));
        ck_assert_msg(with.verdict == DL_PROVED && without.verdict == DL_REFUSED, "case %zu: %s, then %s", i,
                      dl_verdict_name(with.verdict), dl_verdict_name(without.verdict));
        /* The exact extended graph agrees: its cycle runs through adaptive VCs only (the
         * direct escape graph has none), and it walks every key (it once walked none). */
        struct dl_result exact_with, exact_without;
        ck_assert(dl_decide_within(&t, &m.inner, DL_EXACT_ONLY, &exact_with));
        ck_assert(dl_decide_within(&t, &rel, DL_EXACT_ONLY, &exact_without));
        ck_assert_msg(exact_with.verdict == DL_PROVED && exact_with.edges > 0 && exact_without.verdict == DL_REFUSED,
                      "case %zu, exact: %s (%llu dependencies), then %s", i, dl_verdict_name(exact_with.verdict),
                      (unsigned long long)exact_with.edges, dl_verdict_name(exact_without.verdict));
        ck_assert_msg(strstr(exact_without.note, "extended"), "case %zu: %s", i, exact_without.note);
        m.inner.destroy(m.inner.self);
        topo_free(&t);
    }
}
END_TEST

/* Offered 1.25 flits per terminal per cycle, 8-flit packets, 2-flit buffers (1.7 to 2.1
 * times what these accept: docs/validation.md), 2,500 cycles, the runtime search every 64
 * cycles: every run completes, past saturation. */
START_TEST(per_hop_past_saturation_never_deadlocks)
{
    static const struct {
        const char *set[9];
    } nets[] = {
        { { DRAGONFLY, ADAPTIVE, "routing.virtual_channels=3" } },
        { { "network.topology=slim-fly", "network.q=3", "network.concentration=2", ADAPTIVE,
            "routing.virtual_channels=3" } },
        { { RING, ADAPTIVE, "routing.virtual_channels=5" } },
        { { CTORUS, "routing.algorithm=random-minimal", "routing.virtual_channels=3", "routing.escape_vcs=2" } },
        { { FAT_TREE, ADAPTIVE, "routing.virtual_channels=2" } },
        { { HYPERX, ADAPTIVE, "routing.virtual_channels=2" } },
    };
    struct run_report *rep = calloc(1, sizeof *rep);
    ck_assert(rep);
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
        for (int seed = 1; seed <= 3; seed++) {
            char s[32];
            snprintf(s, sizeof s, "run.seed=%d", seed);
            const char *set[32];
            size_t n = 0;
            for (size_t k = 0; nets[i].set[k]; k++)
                set[n++] = nets[i].set[k];
            const char *const load[] = { WH, "workload.arrival=bernoulli", "workload.rate=1.25",
                                         "workload.rate_unit=flits", "workload.length=constant",
                                         "workload.mean_length=8", "routing.flit_buffers=2",
                                         "routing.deadlock_interval=64", "run.allow_unstable=true",
                                         "run.warmup_time=500", "run.duration=2500", s, NULL };
            for (size_t k = 0; load[k]; k++)
                set[n++] = load[k];
            set[n] = NULL;
            struct config cfg;
            test_config(&cfg, set);
            ck_assert_msg(test_run(&cfg, rep) == KERNEL_DONE, "case %zu seed %d stopped", i, seed);
            ck_assert_msg(rep->stability.saturated, "case %zu seed %d: not past saturation", i, seed);
        }
    free(rep);
}
END_TEST

Suite *router_escapes_suite(void)
{
    Suite *s = suite_create("router_escapes");
    TCase *tc = tcase_create("escapes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, per_hop_escape_classes_proved_too_few_refused);
    tcase_add_test(tc, per_hop_uncounted_adaptive_hops_refused);
    tcase_add_test(tc, per_hop_past_saturation_never_deadlocks);
    suite_add_tcase(s, tc);
    return s;
}
