/* The iq router on every network (routing/iq_nets.c, issue 34): the VC classes each
 * routing takes follow the router diameter (known values), every combination is proved
 * by the static deadlock check (Dally & Seitz, or Duato with escape VCs, the witness
 * agreeing with the exact extended graph) and refused once its classes are merged,
 * fewer VCs than it takes are refused, and each runs past saturation with the runtime
 * deadlock search on without stopping (briefly here; 3 seeds x 50,000 cycles in
 * tests/validate/test_deadlock_free.c). */
#include <stdio.h>
#include <string.h>

#include "../../routing/deadlock_check.h"
#include "../../routing/engine.h"
#include "../../sim/run/deadlock_run.h"
#include "../common/iq_nets_checks.h"
#include "../common/test.h"

static bool per_hop(size_t i)
{
    for (size_t j = 0; j < IQ_NET_CASE_SETTINGS && iq_net_cases[i].set[j]; j++)
        if (strstr(iq_net_cases[i].set[j], "-minimal") && strstr(iq_net_cases[i].set[j], "routing.algorithm="))
            return true;
    return false;
}

/* The check before a run of case i with `extra` appended: true when it runs (the
 * verdict in *r), false with *err when refused before the check. */
static bool checked(size_t i, const char *extra, const char *extra2, struct dl_result *r, struct cfg_error *err)
{
    const char *set[32];
    size_t n = iq_net_settings(i, set, 28);
    const char *extras[] = { extra, extra2 };
    for (size_t k = 0; k < 2; k++) { /* in place of the case's own value of that key */
        if (!extras[k])
            continue;
        size_t key = (size_t)(strchr(extras[k], '=') - extras[k]), j = 0;
        while (j < n && strncmp(set[j], extras[k], key + 1) != 0)
            j++;
        set[j] = extras[k];
        n += j == n;
    }
    set[n] = NULL;
    struct config cfg;
    test_config(&cfg, set);
    return net_check_deadlock(&cfg, r, err);
}

/* Known router diameters D (Slim Fly: 2 for every q, Besta & Hoefler; an 8-ring: 4; the
 * irregular graph of configs/graphs: 3; a 3-dimensional CCC: 6): minimal takes D classes
 * and Valiant and UGAL 2D, and one VC fewer is refused with one line saying how many. */
START_TEST(classes_follow_the_router_diameter)
{
    static const struct {
        const char *net[3];
        unsigned diameter;
    } nets[] = {
        { { "network.topology=slim-fly", "network.q=3" }, 2 },
        { { "network.topology=slim-fly", "network.q=5" }, 2 },
        { { "network.topology=slim-fly", "network.q=7" }, 2 },
        { { "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges" }, 4 },
        { { "network.topology=graph", "network.graph_file=configs/graphs/irregular-6.edges" }, 3 },
        { { "network.topology=ccc", "network.dimension=3" }, 6 },
    };
    static const char *const algorithms[] = { "routing.algorithm=minimal", "routing.algorithm=valiant",
                                              "routing.algorithm=ugal" };
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
        for (size_t a = 0; a < 3; a++) {
            unsigned need = a ? 2 * nets[i].diameter : nets[i].diameter;
            if (a == 2 && strstr(nets[i].net[0], "ccc")) /* UGAL runs on router networks only */
                continue;
            char too_few[48], enough[48], says[64];
            snprintf(too_few, sizeof too_few, "routing.virtual_channels=%u", need - 1);
            snprintf(enough, sizeof enough, "routing.virtual_channels=%u", need);
            snprintf(says, sizeof says, "needs %u virtual channels", need);
            const char *set[] = { nets[i].net[0], nets[i].net[1], algorithms[a], "routing.switching=wormhole",
                                  "routing.router=iq", too_few, NULL };
            struct config cfg;
            test_config(&cfg, set);
            struct dl_result r;
            struct cfg_error err;
            ck_assert_msg(!net_check_deadlock(&cfg, &r, &err), "%s %s: %s accepted", set[0], set[2], too_few);
            ck_assert_str_eq(err.key, "routing.virtual_channels");
            ck_assert_msg(strstr(err.message, says), "%s %s: %s", set[0], set[2], err.message);
            set[5] = enough;
            test_config(&cfg, set);
            ck_assert_msg(net_check_deadlock(&cfg, &r, &err), "%s %s: %s", set[0], set[2], err.message);
            ck_assert_msg(r.verdict == DL_PROVED, "%s %s: %s", set[0], set[2], r.note);
        }
}
END_TEST

/* Every case with the fewest VCs it takes is proved: by Dally & Seitz, or with escape
 * VCs by Duato's condition, whose linear-time witness agrees with the exact extended
 * graph; one VC fewer (or one escape VC fewer) is refused before the run. */
START_TEST(every_combination_is_proved_and_fewer_vcs_refused)
{
    for (size_t i = 0; i < iq_net_cases_count; i++) {
        char label[320];
        iq_net_label(i, label, sizeof label);
        struct dl_result r;
        struct cfg_error err;
        ck_assert_msg(checked(i, NULL, NULL, &r, &err), "%s: %s", label, err.message);
        ck_assert_msg(r.verdict == DL_PROVED, "%s: %s (%s)", label, dl_verdict_name(r.verdict), r.note);
        ck_assert_msg(r.duato == per_hop(i), "%s: duato %d", label, r.duato);
        if (per_hop(i)) { /* the witness and the exact extended graph */
            const char *set[32];
            size_t n = iq_net_settings(i, set, 30);
            set[n] = NULL;
            struct config cfg;
            test_config(&cfg, set);
            struct topo t;
            ck_assert(topo_build(&t, &cfg, &err));
            struct dl_relation rel;
            ck_assert(engine_select(&cfg)->relation(&cfg, &t, &rel));
            struct dl_result exact;
            ck_assert(dl_decide_within(&t, &rel, DL_EXACT_ONLY, &exact));
            ck_assert_msg(exact.verdict == DL_PROVED, "%s: exactly %s (%s)", label, dl_verdict_name(exact.verdict),
                          exact.note);
            rel.destroy(rel.self);
            topo_free(&t);
            ck_assert(!checked(i, "routing.escape_vcs=1", NULL, &r, &err)); /* every escape route here needs 2 or more */
            ck_assert_msg(strcmp(err.key, "routing.escape_vcs") == 0, "%s: %s: %s", label, err.key, err.message);
        }
        if (iq_net_cases[i].vcs > 1) {
            char fewer[48];
            snprintf(fewer, sizeof fewer, "routing.virtual_channels=%u", iq_net_cases[i].vcs - 1);
            ck_assert_msg(!checked(i, fewer, NULL, &r, &err), "%s: %s accepted", label, fewer);
            ck_assert_msg(strcmp(err.key, "routing.virtual_channels") == 0, "%s: %s: %s", label, err.key,
                          err.message);
        }
    }
}
END_TEST

/* The check sees the classes the router uses: with every step's VCs put in the lowest
 * class (escape steps: in the lowest escape class), the hop-indexed routes, Valiant's,
 * and the escape routes of Slim Fly and the dragonfly close cycles and are refused. */
struct merged {
    struct dl_relation inner;
    uint16_t width; /* the lowest class's VCs */
};

static unsigned merged_next(void *self, uint32_t key, const struct dl_step *at, struct dl_step *out, unsigned max)
{
    struct merged *m = self;
    unsigned n = m->inner.next(m->inner.self, key, at, out, max);
    for (unsigned i = 0; i < n; i++)
        if (out[i].channel != DL_NONE && (!m->inner.escape || out[i].hi <= m->inner.escape)) {
            out[i].lo = 0;
            out[i].hi = m->width;
        }
    return n;
}

static unsigned merged_seeds(void *self, uint32_t key, uint32_t source, struct dl_step *out, unsigned max)
{
    struct merged *m = self;
    return m->inner.seeds(m->inner.self, key, source, out, max);
}

START_TEST(merged_classes_are_refused)
{
    static const size_t cases[] = { 0, 1, 4, 7, 12, 13, 14 }; /* minimal, valiant, escapes; graphs; dragonfly */
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t i = cases[k];
        char label[320];
        iq_net_label(i, label, sizeof label);
        const char *set[32];
        size_t n = iq_net_settings(i, set, 30);
        set[n] = NULL;
        struct config cfg;
        test_config(&cfg, set);
        struct topo t;
        struct cfg_error err;
        ck_assert(topo_build(&t, &cfg, &err));
        struct merged m = { .width = 1 };
        ck_assert(engine_select(&cfg)->relation(&cfg, &t, &m.inner));
        struct dl_result r;
        ck_assert(dl_decide(&t, &m.inner, &r));
        ck_assert_msg(r.verdict == DL_PROVED, "%s: %s", label, r.note);
        struct dl_relation use = m.inner;
        use.self = &m;
        use.next = merged_next;
        use.seeds = merged_seeds;
        ck_assert(dl_decide(&t, &use, &r));
        ck_assert_msg(r.verdict == DL_REFUSED, "%s, classes merged: %s", label, dl_verdict_name(r.verdict));
        m.inner.destroy(m.inner.self);
        topo_free(&t);
    }
}
END_TEST

/* Past saturation with the deadlock search on, a short run of every case completes. */
START_TEST(every_combination_runs_past_saturation)
{
    for (size_t i = 0; i < iq_net_cases_count; i++)
        check_iq_net_never_deadlocks(i, 1, 10000);
}
END_TEST

/* VC classes cost no cycle: at zero load on a Slim Fly (q = 3, a router per terminal)
 * the fastest 4-flit packet crosses one link in 2 + 2 x 3 + 2 + 2 + 3 = 15 cycles (iq.h's
 * zero-load form: the injection channel, h + 1 routers of 3 cycles, h links of 2, the
 * ejection channel, 3 flits behind the head), with minimal's 2 hop classes, up-down's one
 * and adaptive-minimal's escape classes alike. */
START_TEST(hop_classes_keep_the_zero_load_latency)
{
    static const char *const routes[][2] = { { "routing.algorithm=minimal", "routing.virtual_channels=2" },
                                             { "routing.algorithm=up-down", "routing.virtual_channels=1" },
                                             { "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3" } };
    for (size_t i = 0; i < 3; i++) {
        const char *set[] = { "network.topology=slim-fly", "network.q=3", routes[i][0], routes[i][1],
                              "routing.switching=wormhole", "routing.router=iq", "workload.arrival=bernoulli",
                              "workload.rate=0.002", "workload.rate_unit=flits", "workload.length=constant",
                              "workload.mean_length=4", "run.messages=2000", "run.warmup_messages=100", NULL };
        struct config cfg;
        test_config(&cfg, set);
        struct run_report rep;
        ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
        ck_assert_double_eq(rep.delay.min, 15);
    }
}
END_TEST

/* The example, as a user types it: one line naming the key and the classes. */
START_TEST(too_few_vcs_refused_in_one_line)
{
    const char *argv[] = { test_binary(), "-s", "network.topology=slim-fly", "-s", "network.q=5", "-s",
                           "routing.router=iq", "-s", "routing.switching=wormhole", "-s", "routing.algorithm=minimal",
                           "configs/default.ini", NULL };
    char out[4096], err[4096];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "configs/default.ini: routing.virtual_channels: minimal on slim-fly needs 2 virtual channels "
                          "(a class per router-to-router hop of the diameter) to be deadlock-free (got 1)\n");
}
END_TEST

Suite *iq_nets_suite(void)
{
    Suite *s = suite_create("iq_nets");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, classes_follow_the_router_diameter);
    tcase_add_test(tc, every_combination_is_proved_and_fewer_vcs_refused);
    tcase_add_test(tc, merged_classes_are_refused);
    tcase_add_test(tc, every_combination_runs_past_saturation);
    tcase_add_test(tc, hop_classes_keep_the_zero_load_latency);
    tcase_add_test(tc, too_few_vcs_refused_in_one_line);
    suite_add_tcase(s, tc);
    return s;
}
