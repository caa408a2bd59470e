/* Channel loads by flow conservation and the M/M/1 network model, against closed forms. */
#include <math.h>
#include <string.h>

#include "test.h"

/* Hypercube, e-cube, uniform destinations: every channel carries λ 2^(n-1) / (2^n - 1)
 * messages per time unit; the mean path is n 2^(n-1) / (2^n - 1) hops. */
START_TEST(hypercube_channel_load_matches_closed_form)
{
    for (int n = 1; n <= 12; n++) {
        char dim[32];
        snprintf(dim, sizeof dim, "network.dimension=%d", n);
        const char *set[] = { dim, "workload.rate=0.3", NULL };
        struct config cfg;
        test_config(&cfg, set);
        struct topo t;
        struct cfg_error err;
        ck_assert(topo_build(&t, &cfg, &err));
        struct channel_loads l;
        ck_assert(loads_compute(&cfg, &t, &l));
        double share = ldexp(1, n - 1) / (ldexp(1, n) - 1);
        ck_assert_uint_eq(l.n_groups, (unsigned)n);
        for (size_t g = 0; g < l.n_groups; g++)
            ck_assert_double_eq_tol(l.groups[g].rate, 0.3 * share, 1e-12);
        ck_assert_double_eq_tol(l.mean_hops, n * share, 1e-12);
        ck_assert_double_eq_tol(l.max_utilization, 0.3 * share, 1e-12);
        loads_free(&l);
        topo_free(&t);
    }
}
END_TEST

/* The one-source class shortcut and the full pair enumeration agree channel by channel. */
START_TEST(class_shortcut_agrees_with_enumeration)
{
    const char *set[] = { "network.dimension=7", "workload.rate=0.7", NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct topo t;
    struct cfg_error err;
    ck_assert(topo_build(&t, &cfg, &err));
    struct channel_loads by_class, by_pair;
    ck_assert(loads_compute(&cfg, &t, &by_class));
    ck_assert(loads_compute_enumerated(&cfg, &t, &by_pair));
    ck_assert_uint_eq(by_pair.n_groups, t.channels);
    for (size_t ch = 0; ch < by_pair.n_groups; ch++)
        ck_assert_double_eq_tol(by_pair.groups[ch].rate, by_class.groups[t.ops->channel_class(&t, (uint32_t)ch)].rate,
                                1e-12);
    ck_assert_double_eq_tol(by_pair.mean_hops, by_class.mean_hops, 1e-12);
    ck_assert_double_eq_tol(by_pair.max_utilization, by_class.max_utilization, 1e-12);
    loads_free(&by_class);
    loads_free(&by_pair);
    topo_free(&t);
}
END_TEST

/* Default config: T = h / (μ - λc) with h = 6·32/63, λc = 1.2·32/63, μ = 1. */
START_TEST(mm1_network_delay_matches_closed_form)
{
    struct config cfg;
    const char *set[] = { "network.dimension=6", "workload.rate=1.2", NULL };
    test_config(&cfg, set);
    struct topo t;
    struct cfg_error err;
    ck_assert(topo_build(&t, &cfg, &err));
    struct channel_loads l;
    ck_assert(loads_compute(&cfg, &t, &l));
    struct model_result m;
    model_predict(&cfg, &l, &m);
    ck_assert_str_eq(m.model, "mm1-network");
    ck_assert(!m.exact);
    double h = 6.0 * 32 / 63, lc = 1.2 * 32 / 63;
    ck_assert_double_eq_tol(m.delay_mean, h / (1 - lc), 1e-12);
    ck_assert_double_eq_tol(m.delay_mean, 7.804878049, 1e-9);
    /* Bandwidth 2 and mean length 3: service 1.5 per hop. */
    const char *scaled[] = { "network.dimension=6", "workload.rate=0.5", "network.bandwidth=2",
                             "workload.mean_length=3", "run.redraw_length_per_hop=true", NULL };
    test_config(&cfg, scaled);
    loads_free(&l);
    topo_free(&t);
    ck_assert(topo_build(&t, &cfg, &err)); /* the topology carries the bandwidth */
    ck_assert(loads_compute(&cfg, &t, &l));
    model_predict(&cfg, &l, &m);
    ck_assert(m.exact);
    double rho = 0.5 * 32 / 63 * 1.5;
    ck_assert_double_eq_tol(m.delay_mean, h * 1.5 / (1 - rho), 1e-12);
    loads_free(&l);
    topo_free(&t);
}
END_TEST

START_TEST(mm1_network_declines_what_it_does_not_model)
{
    const char *constant[] = { "workload.length=constant", NULL };
    struct config cfg;
    test_config(&cfg, constant);
    struct topo t;
    struct cfg_error err;
    ck_assert(topo_build(&t, &cfg, &err));
    struct channel_loads l;
    ck_assert(loads_compute(&cfg, &t, &l));
    struct model_result m;
    model_predict(&cfg, &l, &m);
    ck_assert_ptr_null(m.model);
    ck_assert_msg(strstr(m.why, "exponential message lengths"), "%s", m.why);
    loads_free(&l);

    const char *unstable[] = { "workload.rate=2", NULL };
    test_config(&cfg, unstable);
    ck_assert(loads_compute(&cfg, &t, &l));
    model_predict(&cfg, &l, &m);
    ck_assert_str_eq(m.model, "mm1-network");
    ck_assert(m.unstable);
    ck_assert_double_eq_tol(m.max_utilization, 2.0 * 32 / 63, 1e-12);
    loads_free(&l);
    topo_free(&t);
}
END_TEST

Suite *loads_suite(void)
{
    Suite *s = suite_create("analytic");
    TCase *tc = tcase_create("loads");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, hypercube_channel_load_matches_closed_form);
    tcase_add_test(tc, class_shortcut_agrees_with_enumeration);
    tcase_add_test(tc, mm1_network_delay_matches_closed_form);
    tcase_add_test(tc, mm1_network_declines_what_it_does_not_model);
    suite_add_tcase(s, tc);
    return s;
}
