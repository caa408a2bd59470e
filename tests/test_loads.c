/* Channel loads by flow conservation, the M/M/1 network model and seed 004's M/D/1 +
 * M/M/1 model, against closed forms and the worked example of note 004 §4.6. */
#include <math.h>
#include <string.h>

#include "test.h"

/* A configuration with its topology, channel loads and model prediction. */
struct analysed {
    struct config cfg;
    struct topo t;
    struct channel_loads loads;
    struct model_result model;
};

static void analyse(struct analysed *a, const char *const *settings)
{
    struct cfg_error err;
    test_config(&a->cfg, settings);
    ck_assert_msg(topo_build(&a->t, &a->cfg, &err), "%s", err.message);
    struct model_in in;
    ck_assert(model_input(&in, &a->cfg, &a->t, &a->loads));
    model_predict(&in, &a->model);
}

static void release(struct analysed *a)
{
    loads_free(&a->loads);
    topo_free(&a->t);
}

/* Hypercube, e-cube, uniform destinations: every channel carries λ 2^(n-1) / (2^n - 1)
 * messages per time unit; the mean path is n 2^(n-1) / (2^n - 1) hops. */
START_TEST(hypercube_channel_load_matches_closed_form)
{
    for (int n = 1; n <= 12; n++) {
        char dim[32];
        snprintf(dim, sizeof dim, "network.dimension=%d", n);
        const char *set[] = { dim, "workload.rate=0.3", NULL };
        struct analysed a;
        analyse(&a, set);
        const struct channel_loads *l = &a.loads;
        double share = ldexp(1, n - 1) / (ldexp(1, n) - 1);
        ck_assert_uint_eq(l->n_groups, (unsigned)n);
        for (size_t g = 0; g < l->n_groups; g++)
            ck_assert_double_eq_tol(l->groups[g].rate, 0.3 * share, 1e-12);
        ck_assert_double_eq_tol(l->mean_hops, n * share, 1e-12);
        ck_assert_double_eq_tol(l->max_utilization, 0.3 * share, 1e-12);
        release(&a);
    }
}
END_TEST

/* The one-source class shortcut and the full pair enumeration agree channel by channel. */
START_TEST(class_shortcut_agrees_with_enumeration)
{
    const char *set[] = { "network.dimension=7", "workload.rate=0.7", NULL };
    struct analysed a;
    analyse(&a, set);
    const struct channel_loads *by_class = &a.loads;
    struct channel_loads by_pair;
    struct model_in in;
    model_input(&in, &a.cfg, &a.t, NULL);
    ck_assert(loads_compute_enumerated(&in, &by_pair));
    ck_assert_uint_eq(by_pair.n_groups, a.t.channels);
    for (size_t ch = 0; ch < by_pair.n_groups; ch++)
        ck_assert_double_eq_tol(by_pair.groups[ch].rate,
                                by_class->groups[a.t.ops->channel_class(&a.t, (uint32_t)ch)].rate, 1e-12);
    ck_assert_double_eq_tol(by_pair.mean_hops, by_class->mean_hops, 1e-12);
    ck_assert_double_eq_tol(by_pair.max_utilization, by_class->max_utilization, 1e-12);
    loads_free(&by_pair);
    release(&a);
}
END_TEST

/* Default config: T = h / (μ - λc) with h = 6·32/63, λc = 1.2·32/63, μ = 1. */
START_TEST(mm1_network_delay_matches_closed_form)
{
    const char *set[] = { "network.dimension=6", "workload.rate=1.2", NULL };
    struct analysed a;
    analyse(&a, set);
    ck_assert_str_eq(a.model.model, "mm1-network");
    ck_assert(!a.model.exact);
    double h = 6.0 * 32 / 63, lc = 1.2 * 32 / 63;
    ck_assert_double_eq_tol(a.model.delay_mean, h / (1 - lc), 1e-12);
    ck_assert_double_eq_tol(a.model.delay_mean, 7.804878049, 1e-9);
    release(&a);
    /* Bandwidth 2 and mean length 3: service 1.5 per hop. */
    const char *scaled[] = { "network.dimension=6", "workload.rate=0.5", "network.bandwidth=2",
                             "workload.mean_length=3", "run.redraw_length_per_hop=true", NULL };
    analyse(&a, scaled);
    ck_assert(a.model.exact);
    double rho = 0.5 * 32 / 63 * 1.5;
    ck_assert_double_eq_tol(a.model.delay_mean, h * 1.5 / (1 - rho), 1e-12);
    release(&a);
}
END_TEST

START_TEST(mm1_network_declines_what_it_does_not_model)
{
    const char *constant[] = { "workload.length=constant", NULL };
    struct analysed a;
    analyse(&a, constant);
    ck_assert_ptr_null(a.model.model);
    ck_assert_msg(strstr(a.model.why, "exponential message lengths"), "%s", a.model.why);
    release(&a);

    const char *unstable[] = { "workload.rate=2", NULL };
    analyse(&a, unstable);
    ck_assert_str_eq(a.model.model, "mm1-network");
    ck_assert(a.model.unstable);
    ck_assert_double_eq_tol(a.model.max_utilization, 2.0 * 32 / 63, 1e-12);
    release(&a);
}
END_TEST

/* Note 004 §4.6: SBH 4^3, FIFO, λ_N = 1, μ_L = 10, μ_N = 20: ρ_N = 0.1643, ρ_L = 0.3048,
 * E[T_R] = 0.05491, E[T_LW] = 0.04384, E[T] = 0.5092, σ = 0.2992 by eqs. 4.21-4.25 and
 * 0.3187 with the covariances. */
START_TEST(seed004_model_matches_the_worked_example)
{
    const char *set[] = { "network.topology=spanning-bus-hypercube", "network.dimension=3", "network.bandwidth=10",
                          "node.service_rate=20", NULL };
    struct analysed a;
    analyse(&a, set);
    ck_assert_str_eq(a.model.model, "md1-mm1-network");
    /* The note rounds its intermediates to 4 digits: agree to 2e-4. */
    ck_assert_double_eq_tol(a.model.delay_mean, 0.5092, 2e-4);
    ck_assert_double_eq_tol(sqrt(a.model.delay_variance), 0.2992, 2e-4);
    ck_assert_double_eq_tol(sqrt(a.model.delay_variance_correlated), 0.3187, 2e-4);
    double hops = 144.0 / 63, tr = 0.05491, lw = 0.04384;
    ck_assert_double_eq_tol(a.model.node_mean, (1 + hops) * tr, 2e-4);
    ck_assert_double_eq_tol(a.model.link_mean, hops * (lw + 0.1), 2e-4);
    ck_assert_double_eq_tol(a.model.max_utilization, 0.3048, 2e-4);
    /* Closed form of the node part: M/D/1 with λ_NM = (1 + E[δ]) = 207/63, S = 1/20. */
    double rho = 207.0 / 63 / 20, w = rho / 20 / (2 * (1 - rho));
    ck_assert_double_eq_tol(a.model.node_mean, (1 + hops) * (w + 0.05), 1e-12);
    release(&a);
}
END_TEST

/* The dual-bus hypercube has two link groups (primary, and the secondary buses of both
 * dimensions): E[T] = (1 + E[δ]) E[T_R] + E[δ1] E[T_LW1] + E[δ2] E[T_LW2] + E[δ]/μ_L
 * (eq. 4.43), with λ_L1 = E[δ1] λ W, λ_L2 = E[δ2] λ W. */
START_TEST(seed004_model_dual_bus_uses_two_link_groups)
{
    const char *set[] = { "network.topology=dual-bus-hypercube", "network.dimension=3", "network.bandwidth=10",
                          "node.service_rate=20", NULL };
    struct analysed a;
    analyse(&a, set);
    ck_assert_str_eq(a.model.model, "md1-mm1-network");
    /* hops per message by group: class rate × channels / (λ N); 16 primary buses, 8 + 8 secondary */
    double d1 = a.loads.class_rate[0] * 16 / 64, d2 = (a.loads.class_rate[1] + a.loads.class_rate[2]) * 8 / 64;
    ck_assert_double_eq_tol(d1 + d2, 180.0 / 63, 1e-9); /* mean hops 2.857 */
    double mu = 10, r1 = d1 * 4 / mu, r2 = d2 * 4 / mu;
    double lw1 = r1 / (mu * (1 - r1)), lw2 = r2 / (mu * (1 - r2));
    double rho = (1 + d1 + d2) / 20, tr = rho / 20 / (2 * (1 - rho)) + 0.05;
    ck_assert_double_eq_tol(a.model.delay_mean, (1 + d1 + d2) * tr + d1 * lw1 + d2 * lw2 + (d1 + d2) / mu, 1e-12);
    ck_assert(a.model.delay_variance_correlated > a.model.delay_variance);
    release(&a);
    const char *tdm[] = { "network.topology=dual-bus-hypercube", "network.dimension=3", "network.bandwidth=10",
                          "node.service_rate=20", "protocol.link=tdm", NULL };
    analyse(&a, tdm);
    ck_assert_ptr_null(a.model.model);
    ck_assert_msg(strstr(a.model.why, "md1-mm1-network needs FIFO channels"), "%s", a.model.why);
    release(&a);
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
    tcase_add_test(tc, seed004_model_matches_the_worked_example);
    tcase_add_test(tc, seed004_model_dual_bus_uses_two_link_groups);
    suite_add_tcase(s, tc);
    return s;
}
