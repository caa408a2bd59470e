/* Valiant's channel loads (analytic/valiant_loads.c): closed forms on the hypercube and
 * the dragonfly, the class shortcut against the enumeration, and the simulated
 * utilisation of every class on store-and-forward (the flows are exact, so only the
 * run's sampling error separates them). */
#include <math.h>
#include <string.h>

#include "../common/test.h"

/* Binary n-cube, store-and-forward, uniform destinations: each phase goes to a node drawn
 * from all 2^n (self included), n/2 hops on average, so a message takes n hops and each
 * of the n 2^n channels carries λ messages per time unit. */
START_TEST(hypercube_loads_match_closed_form)
{
    for (int n = 1; n <= 8; n++) {
        char dim[32];
        snprintf(dim, sizeof dim, "network.dimension=%d", n);
        const char *set[] = { dim, "routing.algorithm=valiant", "workload.rate=0.05", NULL };
        struct analysed a;
        analyse(&a, set);
        ck_assert(a.loads.known && a.loads.by_class);
        for (size_t g = 0; g < a.loads.n_groups; g++)
            ck_assert_double_eq_tol(a.loads.groups[g].rate, 0.05, 1e-12);
        ck_assert_double_eq_tol(a.loads.mean_hops, n, 1e-12);
        release(&a);
    }
}
END_TEST

/* The one-source shortcut and the flows of every (source, intermediate, destination)
 * agree channel by channel, and node by node. */
START_TEST(class_shortcut_agrees_with_enumeration)
{
    const char *set[] = { "network.topology=torus", "network.radix=5", "network.dimension=2",
                          "routing.algorithm=valiant", "workload.rate=0.02", NULL };
    struct analysed a;
    analyse(&a, set);
    ck_assert(a.loads.by_class);
    struct channel_loads by_pair;
    struct model_in in;
    model_input(&in, &a.cfg, &a.t, NULL);
    ck_assert(loads_compute_enumerated(&in, &by_pair));
    for (size_t ch = 0; ch < by_pair.n_groups; ch++)
        ck_assert_double_eq_tol(by_pair.groups[ch].rate,
                                a.loads.groups[a.t.ops->channel_class(&a.t, (uint32_t)ch)].rate, 1e-12);
    ck_assert_double_eq_tol(by_pair.mean_hops, a.loads.mean_hops, 1e-12);
    ck_assert_double_eq_tol(by_pair.node_visit_rate_max, a.loads.node_visit_rate_max, 1e-12);
    loads_free(&by_pair);
    model_input_free(&in);
    release(&a);
}
END_TEST

/* Request-reply on a 4-cube: each reply takes Valiant's two phases back, so every channel
 * carries λ requests and λ replies, a utilisation of λ (1 + 3) with lengths 1 and 3; the
 * enumeration of every (source, intermediate, destination), replies reversed, agrees. */
START_TEST(replies_take_valiant_too)
{
    const char *set[] = { "network.dimension=4", "routing.algorithm=valiant", "workload.classes=request-reply",
                          "workload.request_length=1", "workload.reply_length=3", "workload.rate=0.05", NULL };
    struct analysed a;
    analyse(&a, set);
    ck_assert(a.loads.known && a.loads.by_class);
    for (unsigned c = 0; c < a.t.classes; c++) {
        ck_assert_double_eq_tol(a.loads.groups[c].rate, 2 * 0.05, 1e-12);
        ck_assert_double_eq_tol(a.loads.class_utilization[c], 0.05 * (1 + 3), 1e-12);
    }
    struct channel_loads by_pair;
    struct model_in in;
    model_input(&in, &a.cfg, &a.t, NULL);
    ck_assert(loads_compute_enumerated(&in, &by_pair));
    for (size_t ch = 0; ch < by_pair.n_groups; ch++)
        ck_assert_double_eq_tol(by_pair.groups[ch].rate, 2 * 0.05, 1e-12);
    ck_assert_double_eq_tol(by_pair.node_visit_rate_max, a.loads.node_visit_rate_max, 1e-12);
    loads_free(&by_pair);
    model_input_free(&in);
    release(&a);
}
END_TEST

/* The iq router on an 8-ary 2-cube torus, 4-flit packets at 0.025 messages per node:
 * each phase is uniform traffic with self (m is any node), so each way of a ring carries
 * λ k/8 messages per phase with ties drawn (tie = random), λ (k+2)/8 and λ (k-2)/8 on
 * the negative and positive ways under the topology's rule (tie = negative): utilisation
 * 2 λ L k/8 = 0.2, or 0.25 and 0.15, as the simulated router gives them (0.2000, 0.1989;
 * 0.2485, 0.1504 at 100,000 packets). */
START_TEST(iq_torus_loads_follow_the_tie_rule)
{
    static const char *const ties[] = { "routing.tie=random", "routing.tie=negative" };
    for (size_t i = 0; i < 2; i++) {
        const char *set[] = { "network.topology=torus", "network.radix=8", "network.dimension=2",
                              "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=4",
                              "routing.algorithm=valiant", ties[i], "workload.length=constant",
                              "workload.mean_length=4", "workload.rate=0.025", NULL };
        struct analysed a;
        analyse(&a, set);
        ck_assert(a.loads.known);
        for (unsigned c = 0; c < a.t.classes; c++) {
            char name[24];
            a.t.ops->class_name(&a.t, c, name, sizeof name);
            bool negative = name[strlen(name) - 1] == '-';
            double expected = i == 0 ? 0.2 : negative ? 0.25 : 0.15;
            ck_assert_double_eq_tol(a.loads.class_utilization[c], expected, 1e-12);
        }
        release(&a);
    }
}
END_TEST

/* Dragonfly on the iq router, group-shift (every terminal of group i to group i + 1):
 * the intermediate group is any of g; the source's own group keeps the minimal route.
 * Link i -> i+1 carries the messages of group i that draw group i + 1 or group i, every
 * other link i -> j those of group i drawing j and those of group j - 1 drawing i: each
 * global channel 2 a p λ / g messages per time unit, whatever a, h and p. */
START_TEST(dragonfly_group_shift_global_loads_match_closed_form)
{
    static const int shapes[][3] = { { 4, 2, 2 }, { 2, 1, 1 }, { 4, 2, 1 }, { 6, 3, 3 } }; /* a, h, p */
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        int a_ = shapes[i][0], h = shapes[i][1], p = shapes[i][2], g = a_ * h + 1;
        char sa[48], sh[48], sp[48];
        snprintf(sa, sizeof sa, "network.group_routers=%d", a_);
        snprintf(sh, sizeof sh, "network.global_links=%d", h);
        snprintf(sp, sizeof sp, "network.concentration=%d", p);
        const char *set[] = { "network.topology=dragonfly", sa, sh, sp, "routing.algorithm=valiant",
                              "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=6",
                              "workload.destination=group-shift", "workload.rate=0.01", NULL };
        struct analysed a;
        analyse(&a, set);
        ck_assert_msg(a.loads.known, "%s", a.loads.why);
        unsigned global = UINT32_MAX;
        for (unsigned c = 0; c < a.t.classes; c++) {
            char name[32];
            a.t.ops->class_name(&a.t, c, name, sizeof name);
            if (strcmp(name, "global") == 0)
                global = c;
        }
        ck_assert_uint_ne(global, UINT32_MAX);
        double expected = 2.0 * a_ * p * 0.01 / g;
        for (size_t k = 0; k < a.loads.n_groups; k++)
            if (a.loads.groups[k].cls == global)
                ck_assert_double_eq_tol(a.loads.groups[k].rate, expected, 1e-12);
        ck_assert_double_eq_tol(a.loads.class_rate_max[global], expected, 1e-12);
        release(&a);
    }
}
END_TEST

/* Store-and-forward, uniform destinations, 200,000 messages: every class's simulated
 * utilisation within 3% of the analytic one, on a fat tree (intermediate nodes include
 * the switches) and a dragonfly. */
START_TEST(simulated_utilisation_matches_the_loads)
{
    static const char *const nets[][4] = {
        { "network.topology=fat-tree", "network.radix=4", "network.dimension=3", NULL },
        { "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2", "network.concentration=2" },
    };
    for (size_t i = 0; i < 2; i++) {
        const char *set[] = { nets[i][0], nets[i][1], nets[i][2], nets[i][3] ? nets[i][3] : "run.seed=1",
                              "routing.algorithm=valiant", "routing.switching=store-and-forward",
                              "workload.rate=0.01", "run.messages=200000", "run.warmup_messages=10000", NULL };
        struct config cfg;
        test_config(&cfg, set);
        struct run_report r;
        ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
        ck_assert_uint_gt(r.classes, 0);
        for (unsigned c = 0; c < r.classes; c++) {
            const struct class_report *k = &r.cls[c];
            ck_assert_msg(isfinite(k->analytic_utilization), "class %s: no analytic utilisation", k->name);
            ck_assert_msg(fabs(k->utilization_mean / k->analytic_utilization - 1) < 0.03, "class %s: %g against %g",
                          k->name, k->utilization_mean, k->analytic_utilization);
        }
    }
}
END_TEST

Suite *valiant_loads_suite(void)
{
    Suite *s = suite_create("valiant_loads");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, hypercube_loads_match_closed_form);
    tcase_add_test(tc, class_shortcut_agrees_with_enumeration);
    tcase_add_test(tc, replies_take_valiant_too);
    tcase_add_test(tc, iq_torus_loads_follow_the_tie_rule);
    tcase_add_test(tc, dragonfly_group_shift_global_loads_match_closed_form);
    tcase_add_test(tc, simulated_utilisation_matches_the_loads);
    suite_add_tcase(s, tc);
    return s;
}
