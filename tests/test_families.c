/* A store-and-forward FIFO simulation on every network family against the open
 * network of M/M/1 channel queues built from the routing's per-channel loads.  Lengths
 * are re-drawn per hop, so the model is exact (product form) and 3% is far outside
 * the statistical error of these runs; channel utilisations must match the flows. */
#include <math.h>
#include <stdio.h>

#include "../topo/topo.h"
#include "test.h"

static const char *const families[][8] = {
    { "network.topology=torus", "network.radix=8", "network.dimension=2", NULL },
    { "network.topology=torus", "network.radix=4", "network.dimension=3", "network.links=half-duplex", NULL },
    { "network.topology=kary-ncube", "network.radix=8", "network.dimension=2", "network.bidirectional=false", NULL },
    { "network.topology=kary-ncube", "network.radix=6", "network.dimension=2", "network.wrap=false", NULL },
    { "network.topology=bh-bh", "network.dimension=6", "network.cluster_dimension=3",
      "workload.destination=cluster-locality", "workload.locality=0.6", "network.level2_replication=2", NULL },
    { "network.topology=bh-br", "network.dimension=6", "network.cluster_dimension=3",
      "workload.destination=cluster-locality", NULL },
    { "network.topology=bh-cc", "network.dimension=6", "network.cluster_dimension=2", NULL },
    { "network.topology=bh-ccc", "network.dimension=8", "network.cluster_dimension=2",
      "workload.destination=cluster-locality", "workload.locality=0.9", NULL },
    { "network.topology=ccc", "network.dimension=4", NULL },
    { "network.topology=spanning-bus-hypercube", "network.width=4", "network.dimension=3", NULL },
    { "network.topology=dual-bus-hypercube", "network.width=4", "network.dimension=3", NULL },
    { "network.topology=spanning-bus-hypercube", "network.width=4", "network.dimension=3",
      "workload.destination=fixed-hops", "workload.hops=2", NULL },
    { "network.topology=hypercube", "network.dimension=5", "network.links=half-duplex", NULL },
};
enum { FAMILIES = sizeof families / sizeof families[0] };

START_TEST(family_matches_the_open_network_model)
{
    const char *const *set = families[_i];
    struct config cfg;
    test_config(&cfg, set);
    cfg.run.redraw_length_per_hop = true;
    cfg.run.messages = test_validating() ? 2000000 : 200000;
    cfg.run.warmup_messages = 20000;
    /* Scale the rate so that the busiest channel runs at utilisation 0.5. */
    struct topo t;
    struct cfg_error err;
    ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
    struct channel_loads l;
    struct model_in in;
    ck_assert_msg(model_input(&in, &cfg, &t, &l), "%s", l.why);
    cfg.workload.rate *= 0.5 / l.max_utilization;
    loads_free(&l);
    topo_free(&t);

    struct run_report r;
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert_msg(r.model.model && r.model.exact, "%s: %s", set[0], r.model.why);
    double diff = (r.delay.mean - r.model.delay_mean) / r.model.delay_mean;
    fprintf(stderr, "  %-40s %-28s sim %.5f [%.5f, %.5f] model %.5f (%+.2f%%)\n", set[0], set[1], r.delay.mean,
            r.delay.ci95[0], r.delay.ci95[1], r.model.delay_mean, 100 * diff);
    ck_assert_msg(fabs(diff) < 0.03, "%s: simulated %.5f vs model %.5f (%+.2f%%)", set[0], r.delay.mean,
                  r.model.delay_mean, 100 * diff);
    ck_assert_double_eq_tol(r.hops_mean, r.model.mean_hops, 0.01 * r.model.mean_hops);
    for (unsigned c = 0; c < r.classes; c++) {
        double a = r.cls[c].analytic_utilization;
        ck_assert_msg(fabs(r.cls[c].utilization_mean - a) <= 0.03 * a + 1e-3, "%s class %s: utilisation %.4f vs %.4f",
                      set[0], r.cls[c].name, r.cls[c].utilization_mean, a);
    }
}
END_TEST

Suite *families_suite(void)
{
    Suite *s = suite_create("families");
    TCase *tc = tcase_create("simulation");
    tcase_set_timeout(tc, test_validating() ? 1200 : 120);
    tcase_add_loop_test(tc, family_matches_the_open_network_model, 0, FAMILIES);
    suite_add_tcase(s, tc);
    return s;
}
