/* The simple router's VC classes on networks of routers (routing/flit_classes.h): the
 * class every hop of every canonical route takes (the dragonfly's raised at its global
 * link, Slim Fly's by router hop, a concentrated torus's at the dateline of the lattice
 * of routers, terminal links on every VC); each new combination proved by the static
 * deadlock check, too few VCs refused (one line naming the key, the count and for a
 * graph up-down), the classes themselves needed (a relation that ignores them is
 * refused); runs far past saturation, 3 seeds each, never stop with a deadlock, and
 * with too few VCs (the check off) they do.  tests/validate/test_deadlock_free.c runs
 * the same networks for 3 seeds x 50,000 cycles.  Per-hop routing's escape classes on
 * the same networks: test_router_escapes.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../routing/deadlock_check.h"
#include "../../routing/engine.h"
#include "../../routing/flit_classes.h"
#include "../../routing/routing.h"
#include "../../sim/run/deadlock_run.h"
#include "../common/test.h"

#define DRAGONFLY "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2", \
                  "network.concentration=2"
#define SLIM_FLY "network.topology=slim-fly", "network.q=5", "network.concentration=2"
#define CTORUS "network.topology=torus", "network.radix=4", "network.dimension=2", "network.concentration=2"
#define RING "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges"
#define WH "routing.switching=wormhole"

static void build(struct topo *t, struct config *cfg, const char *const *settings)
{
    test_config(cfg, settings);
    struct cfg_error err;
    ck_assert_msg(topo_build(t, cfg, &err), "%s", err.message);
}

/* Every terminal pair's canonical route, hop by hop, its classes stepped as the simple
 * router steps them: check(hop index, node, hop, class) on each. */
typedef void hop_check(const struct topo *t, unsigned i, uint32_t at, struct hop h, uint32_t cls, void *ctx);

static void walk_routes(const struct topo *t, const struct flit_classes *c, hop_check *check, void *ctx)
{
    for (uint32_t s = 0; s < t->terminals; s++)
        for (uint32_t d = 0; d < t->terminals; d++) {
            uint32_t at = s, state = 0;
            for (unsigned i = 0; at != d; i++) {
                ck_assert_uint_lt(i, t->diameter);
                struct hop h;
                t->ops->minimal_hops(t, at, d, &h, 1);
                check(t, i, at, h, flit_class_step(c, 0, &state, at, h), ctx);
                at = h.next;
            }
        }
}

static bool terminal_link(const struct topo *t, uint32_t at, struct hop h)
{
    return at < t->terminals || h.next < t->terminals;
}

struct count {
    uint32_t globals, last_src, classes_seen;
    const struct flit_classes *c;
};

static void dragonfly_hop(const struct topo *t, unsigned i, uint32_t at, struct hop h, uint32_t cls, void *ctx)
{
    struct count *k = ctx;
    if (i == 0)
        k->globals = 0;
    if (terminal_link(t, at, h)) {
        ck_assert_uint_eq(cls, k->c->classes); /* every VC */
        return;
    }
    k->globals += t->ops->raises_vc_class(t, h.channel);
    ck_assert_uint_eq(cls, k->globals); /* raised at the global link itself */
    k->classes_seen |= 1u << cls;
}

static void slim_fly_hop(const struct topo *t, unsigned i, uint32_t at, struct hop h, uint32_t cls, void *ctx)
{
    struct count *k = ctx;
    if (terminal_link(t, at, h)) {
        ck_assert_uint_eq(cls, k->c->classes);
        return;
    }
    ck_assert_uint_eq(cls, i - 1); /* after the injection link: router hop i - 1 */
    k->classes_seen |= 1u << cls;
}

/* The lattice of routers' dateline: a hop is of class 1 exactly when its dimension's
 * wrap-around link is behind it, the hop itself included (k = 4: digits 3 -> 0, 0 -> 3). */
static void torus_hop(const struct topo *t, unsigned i, uint32_t at, struct hop h, uint32_t cls, void *ctx)
{
    struct count *k = ctx;
    if (i == 0)
        k->globals = 0; /* dimensions crossed, a bit each */
    if (terminal_link(t, at, h)) {
        ck_assert_uint_eq(cls, k->c->classes);
        return;
    }
    uint32_t a = at - t->terminals, b = h.next - t->terminals, dim = a % 4 != b % 4 ? 0 : 1;
    uint32_t x = dim ? a / 4 : a % 4, y = dim ? b / 4 : b % 4;
    if ((x == 3 && y == 0) || (x == 0 && y == 3))
        k->globals |= 1u << dim;
    ck_assert_uint_eq(cls, k->globals >> dim & 1);
    k->classes_seen |= 1u << cls;
}

START_TEST(every_hop_takes_its_class)
{
    struct {
        const char *set[6];
        hop_check *check;
        uint32_t classes;
    } nets[] = {
        { { DRAGONFLY, NULL }, dragonfly_hop, 2 },
        { { SLIM_FLY, NULL }, slim_fly_hop, 2 },
        { { CTORUS, NULL }, torus_hop, 2 },
    };
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        struct config cfg;
        struct topo t;
        build(&t, &cfg, nets[i].set);
        struct flit_classes c;
        flit_classes_select(&t, route_find("minimal"), 2, &c);
        ck_assert_uint_eq(c.classes, nets[i].classes);
        struct count k = { .c = &c };
        walk_routes(&t, &c, nets[i].check, &k);
        ck_assert_uint_eq(k.classes_seen, 3); /* both classes in use */
        uint32_t lo, hi;
        flit_classes_range(&c, 5, 0, &lo, &hi); /* 5 VCs: 2 and 3 */
        ck_assert(lo == 0 && hi == 2);
        flit_classes_range(&c, 5, 1, &lo, &hi);
        ck_assert(lo == 2 && hi == 5);
        flit_classes_range(&c, 5, 2, &lo, &hi);
        ck_assert(lo == 0 && hi == 5);
        flit_classes_select(&t, route_find("minimal"), 1, &c); /* too few: one class */
        ck_assert_int_eq(c.rule, FLIT_CLASSES_NONE);
        topo_free(&t);
    }
}
END_TEST

/* Valiant on the dragonfly, every source, destination and intermediate group: at most two
 * global links, each hop's class the global links crossed (the crossing hop included),
 * never two local hops in a row in one class (what keeps 3 classes acyclic), and the
 * source's own group drawn: the minimal route. */
START_TEST(dragonfly_valiant_routes_take_three_classes)
{
    const char *set[] = { DRAGONFLY, NULL };
    struct config cfg;
    struct topo t;
    build(&t, &cfg, set);
    struct flit_classes c;
    flit_classes_select(&t, route_find("valiant"), 3, &c);
    ck_assert_int_eq(c.rule, FLIT_CLASSES_GLOBAL);
    ck_assert_uint_eq(c.classes, 3);
    ck_assert_uint_eq(c.picks, 9); /* groups */
    unsigned longest = 0;
    for (uint32_t s = 0; s < t.terminals; s++)
        for (uint32_t d = 0; d < t.terminals; d++)
            for (uint32_t pick = 0; pick < c.picks && s != d; pick++) {
                uint32_t at = s, state = 0, globals = 0, hops = 0, last_local_class = UINT32_MAX;
                unsigned phase = 0;
                for (;;) {
                    if (phase == 0 && flit_net_valiant_turns(&c, pick, at))
                        phase = 1;
                    if (phase == 1 && at == d)
                        break;
                    ck_assert_uint_lt(hops, 2 * t.diameter);
                    struct hop h = flit_net_valiant_hop(&c, pick, phase, at, d);
                    uint32_t cls = flit_class_step(&c, phase, &state, at, h);
                    if (terminal_link(&t, at, h)) {
                        ck_assert_uint_eq(cls, 3);
                    } else if (t.ops->raises_vc_class(&t, h.channel)) {
                        ck_assert_uint_eq(cls, ++globals);
                        last_local_class = UINT32_MAX;
                    } else {
                        ck_assert_uint_eq(cls, globals);
                        ck_assert_msg(last_local_class != cls, "%u -> %u, group %u: two local hops in class %u", s,
                                      d, pick, cls);
                        last_local_class = cls;
                    }
                    at = h.next;
                    hops++;
                }
                ck_assert_uint_le(globals, 2);
                uint32_t source_group = s / (t.group_terminals);
                if (pick == source_group)
                    ck_assert_uint_eq(hops, t.ops->distance(&t, s, d));
                longest = hops > longest ? hops : longest;
            }
    ck_assert_uint_eq(longest, 7); /* injection, local, global, local, global, local, ejection */
    topo_free(&t);
}
END_TEST

static struct dl_result verdict(const char *const *settings, struct cfg_error *err)
{
    struct config cfg;
    test_config(&cfg, settings);
    struct dl_result r = { 0 };
    r.verdict = net_check_deadlock(&cfg, &r, err) ? r.verdict : DL_OFF; /* DL_OFF: refused before the check */
    return r;
}

START_TEST(new_combinations_proved_too_few_vcs_refused)
{
    static const struct {
        const char *set[10];
    } proved[] = {
        { { DRAGONFLY, WH, "routing.algorithm=minimal", "routing.virtual_channels=2" } },
        { { DRAGONFLY, WH, "routing.algorithm=random-minimal", "routing.virtual_channels=2", "network.groups=5" } },
        { { DRAGONFLY, WH, "routing.algorithm=valiant", "routing.virtual_channels=3" } },
        { { DRAGONFLY, WH, "routing.algorithm=valiant", "routing.virtual_channels=4", "network.groups=5" } },
        { { SLIM_FLY, WH, "routing.algorithm=minimal", "routing.virtual_channels=2" } },
        { { SLIM_FLY, WH, "routing.algorithm=random-minimal", "routing.virtual_channels=3" } },
        { { "network.topology=slim-fly", "network.q=3", WH, "routing.algorithm=valiant",
            "routing.virtual_channels=4" } },
        { { RING, WH, "routing.algorithm=minimal", "routing.virtual_channels=4" } },
        { { RING, WH, "routing.algorithm=valiant", "routing.virtual_channels=8" } },
        { { "network.topology=graph", "network.graph_file=configs/graphs/irregular-6.edges", WH,
            "routing.algorithm=random-minimal", "routing.virtual_channels=3" } },
        { { CTORUS, WH, "routing.algorithm=minimal", "routing.virtual_channels=2" } },
        { { CTORUS, WH, "routing.algorithm=valiant", "routing.virtual_channels=4" } },
        { { "network.topology=fat-tree", "network.radix=2", "network.dimension=3", WH, "routing.algorithm=valiant",
            "routing.virtual_channels=2" } },
    };
    for (size_t i = 0; i < sizeof proved / sizeof proved[0]; i++) {
        struct cfg_error err;
        struct dl_result r = verdict(proved[i].set, &err);
        ck_assert_msg(r.verdict == DL_PROVED, "case %zu (%s %s %s): %s %s", i, proved[i].set[0], proved[i].set[5],
                      proved[i].set[6], dl_verdict_name(r.verdict), r.verdict == DL_OFF ? err.message : r.note);
    }
    /* Paths drawn at creation with too few VCs: one class, the check refuses, naming the fix. */
    static const struct {
        const char *set[10];
        const char *fix;
    } refused[] = {
        { { DRAGONFLY, WH, "routing.algorithm=minimal" },
          "the fix: routing.virtual_channels = 2 (a class raised at each global link: Kim et al. 2008)" },
        { { SLIM_FLY, WH, "routing.algorithm=minimal" }, "routing.virtual_channels = 2 (a class per router hop" },
        { { RING, WH, "routing.algorithm=minimal", "routing.virtual_channels=3" },
          "routing.virtual_channels = 4 (a class per router hop of the diameter: Besta & Hoefler 2014), or "
          "routing.algorithm = up-down" },
        { { CTORUS, WH, "routing.algorithm=minimal" }, "routing.virtual_channels = 2 (two dateline classes" },
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        struct cfg_error err;
        struct dl_result r = verdict(refused[i].set, &err);
        ck_assert_msg(r.verdict == DL_REFUSED && strstr(r.note, refused[i].fix), "case %zu: %s %s", i,
                      dl_verdict_name(r.verdict), r.note);
        ck_assert_str_eq(r.key, "routing.virtual_channels");
    }
    /* Valiant with too few VCs: the engine's own check, before the static one. */
    static const struct {
        const char *set[10];
        const char *says;
    } valiant[] = {
        { { DRAGONFLY, WH, "routing.algorithm=valiant", "routing.virtual_channels=2" }, "needs 3 virtual channels" },
        { { SLIM_FLY, WH, "routing.algorithm=valiant", "routing.virtual_channels=3" }, "needs 4 virtual channels" },
        { { RING, WH, "routing.algorithm=valiant", "routing.virtual_channels=7" }, "needs 8 virtual channels" },
        { { CTORUS, WH, "routing.algorithm=valiant", "routing.virtual_channels=3" }, "needs 4 virtual channels" },
    };
    for (size_t i = 0; i < sizeof valiant / sizeof valiant[0]; i++) {
        struct cfg_error err;
        struct dl_result r = verdict(valiant[i].set, &err);
        ck_assert_msg(r.verdict == DL_OFF && strstr(err.message, valiant[i].says), "case %zu: %s", i,
                      r.verdict == DL_OFF ? err.message : r.note);
        ck_assert_str_eq(err.key, "routing.virtual_channels");
    }
}
END_TEST

/* A ring of 140 routers: its diameter, 70 classes, is more than routing.virtual_channels
 * can be (64): minimal's refusal points to up-down, Valiant's names the algorithm. */
START_TEST(more_classes_than_vcs_can_be_point_to_up_down)
{
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
    const char *minimal[] = { "network.topology=graph", file, WH, "routing.algorithm=minimal", NULL };
    const char *valiant[] = { "network.topology=graph", file, WH, "routing.algorithm=valiant",
                              "routing.virtual_channels=64", NULL };
    struct cfg_error err;
    struct dl_result r = verdict(minimal, &err);
    ck_assert_msg(r.verdict == DL_REFUSED && strstr(r.note, "the fix: routing.algorithm = up-down (its routes need "
                  "no classes, where these would need 70 virtual channels"), "%s", r.note);
    ck_assert_str_eq(r.key, "routing.algorithm");
    r = verdict(valiant, &err);
    ck_assert_msg(r.verdict == DL_OFF && strstr(err.message, "would need 140 virtual channels") &&
                  strcmp(err.key, "routing.algorithm") == 0, "%s: %s", err.key, err.message);
    unlink(path);
}
END_TEST

/* The same relation with every hop on every VC: the classes are what the proof rests on. */
struct classless {
    struct dl_relation inner;
};

static unsigned classless_next(void *self, uint32_t key, const struct dl_step *at, struct dl_step *out, unsigned max)
{
    struct classless *m = self;
    unsigned n = m->inner.next(m->inner.self, key, at, out, max);
    for (unsigned i = 0; i < n; i++)
        if (out[i].channel != DL_NONE) {
            out[i].lo = 0;
            out[i].hi = (uint16_t)m->inner.vcs;
        }
    return n;
}

static unsigned classless_seeds(void *self, uint32_t key, uint32_t source, struct dl_step *out, unsigned max)
{
    struct classless *m = self;
    return m->inner.seeds(m->inner.self, key, source, out, max);
}

START_TEST(without_the_classes_refused)
{
    static const struct {
        const char *set[10];
    } cases[] = {
        { { DRAGONFLY, WH, "routing.algorithm=minimal", "routing.virtual_channels=2" } },
        { { DRAGONFLY, WH, "routing.algorithm=valiant", "routing.virtual_channels=3" } },
        { { SLIM_FLY, WH, "routing.algorithm=minimal", "routing.virtual_channels=2" } },
        { { RING, WH, "routing.algorithm=minimal", "routing.virtual_channels=4" } },
        { { CTORUS, WH, "routing.algorithm=minimal", "routing.virtual_channels=2" } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct config cfg;
        struct topo t;
        build(&t, &cfg, cases[i].set);
        struct classless m;
        ck_assert(engine_select(&cfg)->relation(&cfg, &t, &m.inner));
        struct dl_relation rel = m.inner;
        rel.self = &m;
        rel.next = classless_next;
        rel.seeds = classless_seeds;
        struct dl_result with, without;
        ck_assert(dl_decide(&t, &m.inner, &with));
        ck_assert(dl_decide(&t, &rel, &without));
        ck_assert_msg(with.verdict == DL_PROVED && without.verdict == DL_REFUSED, "case %zu: %s, then %s", i,
                      dl_verdict_name(with.verdict), dl_verdict_name(without.verdict));
        m.inner.destroy(m.inner.self);
        topo_free(&t);
    }
}
END_TEST

/* Offered 1.25 flits per terminal per cycle (8-flit packets, 2-flit buffers): more than twice
 * what each of these saturates at (docs/models.md); the runtime search every 64 cycles
 * stops a deadlocked run. */
static enum kernel_stop loaded_run(const char *const *net, int seed, const char *duration, bool check,
                                   struct run_report *rep)
{
    char s[32];
    snprintf(s, sizeof s, "run.seed=%d", seed);
    const char *set[32];
    size_t n = 0;
    for (size_t i = 0; net[i]; i++)
        set[n++] = net[i];
    const char *const load[] = { WH, "workload.arrival=bernoulli", "workload.rate=1.25", "workload.rate_unit=flits",
                                 "workload.length=constant", "workload.mean_length=8", "routing.flit_buffers=2",
                                 "routing.deadlock_interval=64", "run.allow_unstable=true", "run.warmup_time=500",
                                 duration, s, check ? "routing.deadlock_check=on" : "routing.deadlock_check=off",
                                 NULL };
    for (size_t i = 0; load[i]; i++)
        set[n++] = load[i];
    set[n] = NULL;
    struct config cfg;
    test_config(&cfg, set);
    return test_run(&cfg, rep);
}

START_TEST(past_saturation_never_deadlocks_too_few_vcs_do)
{
    static const struct {
        const char *set[9];
    } nets[] = {
        { { DRAGONFLY, "routing.algorithm=minimal", "routing.virtual_channels=2" } },
        { { DRAGONFLY, "routing.algorithm=valiant", "routing.virtual_channels=3" } },
        { { "network.topology=slim-fly", "network.q=3", "network.concentration=2", "routing.algorithm=minimal",
            "routing.virtual_channels=2" } },
        { { "network.topology=slim-fly", "network.q=3", "routing.algorithm=valiant", "routing.virtual_channels=4" } },
        { { RING, "routing.algorithm=minimal", "routing.virtual_channels=4" } },
        { { CTORUS, "routing.algorithm=minimal", "routing.virtual_channels=2" } },
    };
    struct run_report *rep = calloc(1, sizeof *rep);
    ck_assert(rep);
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
        for (int seed = 1; seed <= 3; seed++) {
            ck_assert_msg(loaded_run(nets[i].set, seed, "run.duration=2500", true, rep) == KERNEL_DONE,
                          "case %zu seed %d stopped", i, seed);
            ck_assert_msg(rep->stability.saturated, "case %zu seed %d: not past saturation", i, seed);
        }
    static const struct {
        const char *set[9];
    } few[] = {
        { { DRAGONFLY, "routing.algorithm=minimal", "routing.virtual_channels=1" } },
        { { "network.topology=slim-fly", "network.q=3", "network.concentration=2", "routing.algorithm=minimal" } },
        { { CTORUS, "routing.algorithm=minimal" } },
    };
    for (size_t i = 0; i < sizeof few / sizeof few[0]; i++)
        ck_assert_msg(loaded_run(few[i].set, 1, "run.duration=200000", false, rep) != KERNEL_DONE,
                      "case %zu: one VC class, yet no deadlock", i);
    free(rep);
}
END_TEST

Suite *router_classes_suite(void)
{
    Suite *s = suite_create("router_classes");
    TCase *tc = tcase_create("classes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_hop_takes_its_class);
    tcase_add_test(tc, dragonfly_valiant_routes_take_three_classes);
    tcase_add_test(tc, new_combinations_proved_too_few_vcs_refused);
    tcase_add_test(tc, more_classes_than_vcs_can_be_point_to_up_down);
    tcase_add_test(tc, without_the_classes_refused);
    tcase_add_test(tc, past_saturation_never_deadlocks_too_few_vcs_do);
    suite_add_tcase(s, tc);
    return s;
}
