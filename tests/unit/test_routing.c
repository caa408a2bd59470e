/* Path selection: descending dimension order, the random-minimal channel loads
 * (flow split over the minimal-path DAG) against enumeration and simulation, and
 * least-count's defining property and its gain over random routing (seed 000,
 * Sec. IV-B: T14 15.2 → 6.3, T15 5.3 → 3.8). */
#include <math.h>
#include <string.h>

#include "../../routing/routing.h"
#include "../common/test.h"

/* --- descending dimension order --- */

static struct hop first_hop(const char *const *settings, uint32_t src, uint32_t dst)
{
    struct config cfg;
    test_config(&cfg, settings);
    struct topo t;
    struct cfg_error err;
    ck_assert_msg(topo_build(&t, &cfg, &err) && route_check(&cfg, &t, &err), "%s", err.message);
    struct hop h = route_select(&cfg)->next(&t, src, dst, NULL);
    topo_free(&t);
    return h;
}

START_TEST(descending_corrects_the_highest_dimension_first)
{
    const char *up[] = { "network.dimension=4", NULL };
    const char *down[] = { "network.dimension=4", "routing.dimension_order=descending", NULL };
    ck_assert_uint_eq(first_hop(up, 0, 13).next, 1);
    ck_assert_uint_eq(first_hop(down, 0, 13).next, 8);
    ck_assert_uint_eq(first_hop(down, 5, 4).next, 4);
    /* 4-ary 2-cube torus: node x = d0 + 4 d1; from 0 to (2, 1) = 6: dimension 1 first,
     * keeping the torus's own direction rule within the dimension. */
    const char *torus[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                            "routing.dimension_order=descending", NULL };
    ck_assert_uint_eq(first_hop(torus, 0, 6).next, 4);
    const char *torus_up[] = { "network.topology=torus", "network.radix=4", "network.dimension=2", NULL };
    ck_assert_uint_eq(first_hop(torus_up, 0, 6).next, first_hop(torus_up, 0, 2).next);
    const char *sbh[] = { "network.topology=spanning-bus-hypercube", "network.width=4", "network.dimension=3",
                          "routing.dimension_order=descending", NULL };
    ck_assert_uint_eq(first_hop(sbh, 0, 63).next, 48);
}
END_TEST

START_TEST(descending_keeps_loads_and_hops_on_symmetric_networks)
{
    const char *down[] = { "network.dimension=6", "routing.dimension_order=descending", "run.messages=100000", NULL };
    struct config cfg;
    test_config(&cfg, down);
    struct run_report r;
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert_double_eq_tol(r.model.mean_hops, 6.0 * 32 / 63, 1e-12);
    for (unsigned c = 0; c < r.classes; c++)
        ck_assert_double_eq_tol(r.cls[c].analytic_utilization, 0.5 * 64 / 63, 1e-12);
    ck_assert_msg(fabs(r.hops_mean / r.model.mean_hops - 1) < 0.01, "hops %g", r.hops_mean);
}
END_TEST

START_TEST(descending_is_refused_where_there_is_no_dimension_order)
{
    const char *settings[] = { "network.topology=ccc", "network.dimension=3", "routing.dimension_order=descending",
                               NULL };
    struct config cfg;
    test_config(&cfg, settings);
    static struct network net;
    struct cfg_error err;
    ck_assert(!net_create(&net, &cfg, &err));
    ck_assert_str_eq(err.key, "routing.dimension_order");
}
END_TEST

/* --- random-minimal channel loads --- */

static const char *const *const random_families[] = {
    (const char *const[]){ "network.dimension=4", NULL },
    (const char *const[]){ "network.topology=torus", "network.radix=4", "network.dimension=2", NULL },
    (const char *const[]){ "network.topology=torus", "network.radix=5", "network.dimension=2", NULL },
    (const char *const[]){ "network.topology=kary-ncube", "network.radix=4", "network.dimension=2",
                           "network.wrap=false", NULL },
    (const char *const[]){ "network.topology=ccc", "network.dimension=3", NULL },
    (const char *const[]){ "network.topology=bh-bh", "network.dimension=5", "network.cluster_dimension=2", NULL },
    (const char *const[]){ "network.topology=bh-br", "network.dimension=5", "network.cluster_dimension=2", NULL },
    (const char *const[]){ "network.topology=spanning-bus-hypercube", "network.width=3", "network.dimension=3",
                           NULL },
};

/* Flow conservation: every message crosses as many channels as its distance, so
 * the loads add up to λ·N·(mean distance), and the class shortcut agrees with the
 * pair-by-pair push. */
START_TEST(random_minimal_loads_conserve_flow_and_match_enumeration)
{
    for (size_t i = 0; i < sizeof random_families / sizeof random_families[0]; i++) {
        struct config cfg;
        test_config(&cfg, random_families[i]);
        struct cfg_error err;
        ck_assert(cfg_set(&cfg, "routing", "algorithm", "random-minimal", "test", 50, &err));
        struct topo t;
        ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
        struct channel_loads fast, full;
        struct model_in in;
        ck_assert_msg(model_input(&in, &cfg, &t, &fast), "%s", fast.why);
        ck_assert(loads_compute_enumerated(&in, &full));
        double total = 0;
        for (size_t g = 0; g < full.n_groups; g++)
            total += full.groups[g].rate * (double)full.groups[g].channels;
        double mean_distance = topo_mean_distance(&t, 4096);
        ck_assert_double_eq_tol(total, cfg.workload.rate * t.nodes * mean_distance, 1e-9 * total);
        ck_assert_double_eq_tol(fast.mean_hops, full.mean_hops, 1e-12);
        for (unsigned c = 0; c < t.classes; c++)
            ck_assert_msg(fabs(fast.class_utilization[c] - full.class_utilization[c]) < 1e-12, "family %zu class %u",
                          i, c);
        model_input_free(&in);
        loads_free(&fast);
        loads_free(&full);
        topo_free(&t);
    }
}
END_TEST

/* On a 4x4 mesh random routing spreads load differently from dimension order (the
 * centre links carry more): each channel's simulated utilisation matches the split
 * flow, and with lengths re-drawn per hop the network is product-form (BCMP: FIFO,
 * one exponential rate per channel), so the M/M/1-network mean is exact. */
START_TEST(random_minimal_mesh_utilisation_and_exact_delay)
{
    const char *settings[] = { "network.topology=kary-ncube", "network.radix=4", "network.dimension=2",
                               "network.wrap=false", "routing.algorithm=random-minimal", "workload.rate=0.25",
                               "run.redraw_length_per_hop=true", "run.messages=200000", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    static struct network net;
    struct cfg_error err;
    ck_assert(net_create(&net, &cfg, &err));
    struct channel_loads loads;
    struct model_in in;
    model_input(&in, &cfg, &net.topo, NULL);
    ck_assert(loads_compute_enumerated(&in, &loads));
    in.loads = &loads;
    struct model_result model;
    model_predict(&in, &model);
    model_input_free(&in);
    ck_assert_str_eq(model.model, "mm1-network");
    ck_assert(model.exact);
    ck_assert_int_eq(net_run(&net), KERNEL_DONE);
    double window = net.probe.window_end - net.probe.window_start, worst = 0;
    for (uint32_t ch = 0; ch < net.topo.channels; ch++) {
        double gap = fabs(net.chan[ch].busy_time / window - loads.groups[ch].rate);
        worst = gap > worst ? gap : worst;
    }
    ck_assert_msg(worst < 0.015, "largest utilisation gap %g", worst);
    net_free(&net);
    loads_free(&loads);
    const char *cover[] = { "network.topology=kary-ncube", "network.radix=4", "network.dimension=2",
                            "network.wrap=false", "routing.algorithm=random-minimal", "workload.rate=0.25",
                            "run.redraw_length_per_hop=true", "run.messages=50000", NULL };
    ck_assert_int_ge(test_coverage(cover, 10, model.delay_mean), 8);
}
END_TEST

/* --- least-count --- */

/* Node 0 of a 3-cube: the chosen link always has the lowest count among the
 * message's minimal links, whatever the tie-breaks drew. */
START_TEST(least_count_takes_the_least_used_link)
{
    const char *settings[] = { "network.dimension=3", "routing.algorithm=least-count", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    static struct network net;
    struct cfg_error err;
    ck_assert(net_create(&net, &cfg, &err));
    struct message *m = &net.pool.msgs[0];
    m->at = 0;
    const uint32_t dsts[] = { 7, 7, 7, 1, 7, 7, 3, 7, 7 };
    bool taken[3] = { false };
    for (size_t i = 0; i < sizeof dsts / sizeof dsts[0]; i++) {
        m->dst = dsts[i];
        uint64_t before[3];
        for (unsigned d = 0; d < 3; d++)
            before[d] = least_count_of(net.paths.state, d); /* channel 0*3 + d */
        struct hop h = path_next(&net.paths, m->at, m->dst);
        unsigned dim = h.channel;
        ck_assert_msg((dsts[i] >> dim) & 1, "not a minimal hop");
        for (unsigned d = 0; d < 3; d++)
            if ((dsts[i] >> d) & 1)
                ck_assert_msg(before[dim] <= before[d], "step %zu took a count of %llu over %llu", i,
                              (unsigned long long)before[dim], (unsigned long long)before[d]);
        ck_assert_uint_eq(least_count_of(net.paths.state, dim), before[dim] + 1);
        if (i < 3)
            taken[dim] = true;
    }
    ck_assert(taken[0] && taken[1] && taken[2]); /* three ties in a row: each link once */
    /* Nine sends, each to a least-used link: (3, 3, 3). */
    for (unsigned d = 0; d < 3; d++)
        ck_assert_uint_eq(least_count_of(net.paths.state, d), 3);
    net_free(&net);
}
END_TEST

START_TEST(least_count_needs_link_directions)
{
    const char *settings[] = { "network.links=half-duplex", "routing.algorithm=least-count", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    static struct network net;
    struct cfg_error err;
    ck_assert(!net_create(&net, &cfg, &err));
    ck_assert_str_eq(err.key, "network.links");
}
END_TEST

/* Seed 000 Fig. 12 / T15: BH/BH, D = 6, d = 3, λ = 1, μ_CL = 1.5, μ_NCL = 3, α = 0.6.
 * Random routing: the paper's 5.3 (its model; ours gives 5.2695 from the split
 * loads); improved routing: the paper's simulation 3.8.  Least-count must be
 * minimal, far below random routing, and within 10% of the paper's 3.8. */
START_TEST(least_count_beats_random_routing_on_bh_bh)
{
    const char *lc[] = { "network.topology=bh-bh", "network.cluster_dimension=3", "network.bandwidth=1.5",
                         "network.level2_bandwidth=3", "workload.destination=cluster-locality",
                         "workload.locality=0.6", "routing.algorithm=least-count", "run.messages=200000", NULL };
    struct config cfg;
    test_config(&cfg, lc);
    struct run_report least;
    ck_assert_int_eq(test_run(&cfg, &least), KERNEL_DONE);
    struct cfg_error err;
    ck_assert(cfg_set(&cfg, "routing", "algorithm", "random-minimal", "override", 60, &err));
    struct run_report random;
    ck_assert_int_eq(test_run(&cfg, &random), KERNEL_DONE);
    ck_assert_msg(fabs(random.model.delay_mean - 5.2695) < 1e-3, "model %g", random.model.delay_mean);
    ck_assert_msg(least.delay.ci95[1] < 0.8 * random.delay.ci95[0], "least-count %g, random %g", least.delay.mean,
                  random.delay.mean);
    ck_assert_msg(fabs(least.delay.mean / 3.8 - 1) < 0.10, "least-count %g against the paper's 3.8",
                  least.delay.mean);
    ck_assert_msg(fabs(least.hops_mean / random.hops_mean - 1) < 0.01, "hops %g vs %g", least.hops_mean,
                  random.hops_mean);
}
END_TEST

Suite *routing_suite(void)
{
    Suite *s = suite_create("routing");
    TCase *tc = tcase_create("paths");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, descending_corrects_the_highest_dimension_first);
    tcase_add_test(tc, descending_keeps_loads_and_hops_on_symmetric_networks);
    tcase_add_test(tc, descending_is_refused_where_there_is_no_dimension_order);
    tcase_add_test(tc, random_minimal_loads_conserve_flow_and_match_enumeration);
    tcase_add_test(tc, random_minimal_mesh_utilisation_and_exact_delay);
    tcase_add_test(tc, least_count_takes_the_least_used_link);
    tcase_add_test(tc, least_count_needs_link_directions);
    tcase_add_test(tc, least_count_beats_random_routing_on_bh_bh);
    suite_add_tcase(s, tc);
    return s;
}
