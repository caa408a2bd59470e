/* Seed 000's queueing model (hin) against exact channel loads and against the
 * simulation.  Three questions:
 *  - Does eq. 16 give the exact per-link rates of random shortest-path routing?  The
 *    exact rates come from splitting each destination's flow evenly over the minimal
 *    next hops (what random-minimal does), node by node from the farthest in; fed to
 *    Kleinrock's formula they must reproduce eqs. 15, 18-20 (and show eq. 21's gap).
 *  - On the flat hypercube with ecube, the existing mm1-network model (exact loads)
 *    must equal eq. 15.
 *  - Simulated R: with lengths re-drawn per hop the network has product form, so the
 *    model must lie in the simulation's 95% interval (statistical test); with lengths
 *    kept (the seed's own simulation) the seed claims only that the two "match
 *    closely", which we take as within 10 %. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "../../analytic/hin_formulas.h"
#include "../../workloads/workload.h"
#include "../common/checks.h"
#include "../common/test.h"

enum { HOPS_MAX = 64 };

/* Exact mean delay of Kleinrock's M/M/1 network under random shortest-path routing,
 * with the per-class mean rates in class_rate[] (per channel, messages per time unit).
 * Returns +inf when a channel saturates. */
static double random_routing_delay(const struct config *cfg, const struct topo *t, double *class_rate)
{
    struct destinations dest;
    struct cfg_error err;
    ck_assert_msg(dest_init(&dest, cfg, t, &err), "%s", err.message);
    double *rate = calloc(t->channels, sizeof *rate), *flow = malloc(t->nodes * sizeof *flow);
    uint32_t *order = malloc(t->nodes * sizeof *order), *dist = malloc(t->nodes * sizeof *dist);
    ck_assert(rate && flow && order && dist);
    double lambda = cfg->workload.rate;
    for (uint32_t dst = 0; dst < t->nodes; dst++) {
        uint32_t count = 0;
        for (unsigned level = t->diameter + 1; level-- > 0;) /* farthest first */
            for (uint32_t x = 0; x < t->nodes; x++) {
                if (level == t->diameter)
                    dist[x] = t->ops->distance(t, x, dst);
                if (dist[x] == level)
                    order[count++] = x;
            }
        for (uint32_t x = 0; x < t->nodes; x++)
            flow[x] = x == dst ? 0 : lambda * dest.ops->prob(&dest, x, dst);
        for (uint32_t i = 0; i < t->nodes; i++) {
            uint32_t x = order[i];
            if (x == dst || flow[x] == 0)
                continue;
            struct hop hops[HOPS_MAX];
            unsigned m = t->ops->minimal_hops(t, x, dst, hops, HOPS_MAX);
            for (unsigned k = 0; k < m; k++) {
                rate[hops[k].channel] += flow[x] / m;
                flow[hops[k].next] += flow[x] / m;
            }
        }
    }
    double sum = 0, per_class[TOPO_MAX_CLASSES] = { 0 };
    for (uint32_t ch = 0; ch < t->channels; ch++) {
        double mu = topo_channel_bandwidth(t, ch) / cfg->workload.mean_length;
        sum += rate[ch] < mu ? rate[ch] / (mu - rate[ch]) : INFINITY;
        per_class[t->ops->channel_class(t, ch)] += rate[ch];
    }
    for (unsigned c = 0; c < t->classes; c++)
        class_rate[c] = per_class[c] / (double)t->ops->channels_in_class(t, c);
    free(rate);
    free(flow);
    free(order);
    free(dist);
    dest_free(&dest);
    return sum / (lambda * t->nodes);
}

static void point_config(struct config *cfg, const struct point *p, const char *routing)
{
    char top[64], dim[64], cl[64], bw[64], bw2[64], loc[64], rt[64];
    snprintf(top, sizeof top, "network.topology=%s", p->topology);
    snprintf(dim, sizeof dim, "network.dimension=%d", p->D);
    snprintf(cl, sizeof cl, "network.cluster_dimension=%d", p->d);
    snprintf(bw, sizeof bw, "network.bandwidth=%g", p->mu_cl);
    snprintf(bw2, sizeof bw2, "network.level2_bandwidth=%g", p->mu_ncl);
    snprintf(loc, sizeof loc, "workload.locality=%g", p->alpha);
    snprintf(rt, sizeof rt, "routing.algorithm=%s", routing);
    const char *flat[] = { top, dim, cl, bw, loc, rt, "workload.destination=cluster-locality", NULL };
    const char *hier[] = { top, dim, cl, bw, bw2, loc, rt, "workload.destination=cluster-locality", NULL };
    test_config(cfg, p->topology[0] == 'h' && p->topology[1] == 'y' ? flat : hier);
}

/* Eqs. 15, 16, 18-20 are exact for random routing on BH, BH/BH, BH/BR and BH/CC:
 * the exact per-level rates and Kleinrock's delay from them agree to rounding. */
START_TEST(seed_rates_are_exact_for_random_routing)
{
    static const struct point points[] = {
        { "hypercube", 6, 3, 0.5, 0.75, 0.75 }, { "bh-bh", 6, 3, 0.5, 1.5, 3 }, { "bh-bh", 6, 3, 0.8, 1.5, 3 },
        { "bh-bh", 8, 3, 0.8, 1.2, 1.5 },       { "bh-br", 7, 3, 0.9, 3, 3 },   { "bh-cc", 7, 3, 0.7, 3, 3 },
        { "bh-bh", 7, 2, 0.6, 1.2, 1.2 },
    };
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        const struct point *p = &points[i];
        struct config cfg;
        point_config(&cfg, p, "random-minimal");
        struct topo t;
        struct cfg_error err;
        ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
        double rate[TOPO_MAX_CLASSES];
        double exact = random_routing_delay(&cfg, &t, rate);
        struct hin_net h = point_net(p);
        struct hin_queue q;
        hin_queue(&h, p->alpha, 1, p->mu_cl, h.kind == HIN_FLAT_BH ? p->mu_cl : p->mu_ncl, &q);
        ck_assert_msg(fabs(exact - q.delay) < 1e-9 * exact, "%s D=%d: exact %.12g, eq. %.12g", p->topology, p->D,
                      exact, q.delay);
        if (h.kind != HIN_FLAT_BH) {
            ck_assert_double_eq_tol(rate[0], q.level2_rate, 1e-12);
            for (int j = 1; j <= p->d; j++)
                ck_assert_double_eq_tol(rate[j], q.cluster_rate[j], 1e-12);
        }
        topo_free(&t);
    }
}
END_TEST

/* Eq. 21 (BH/CCC) is an approximation (A6): with BFS shortest paths and random choice
 * among them, the level-2 load and the delay differ.  The gap measured here is the one
 * the README reports: at Fig. 6's point α = 0.9 the exact delay is 2.6 % higher (uneven cube
 * and cycle link loads outweigh the shorter BFS paths). */
START_TEST(ccc_equation_21_gap)
{
    struct point p = { "bh-ccc", 9, 3, 0.9, 3, 3 };
    struct config cfg;
    point_config(&cfg, &p, "random-minimal");
    struct topo t;
    struct cfg_error err;
    ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
    double rate[TOPO_MAX_CLASSES];
    double exact = random_routing_delay(&cfg, &t, rate);
    struct hin_net h = hin_net_ccc(3, 4);
    struct hin_queue q;
    hin_queue(&h, 0.9, 1, 3, 3, &q);
    fprintf(stderr, "bh-ccc D=9 d=3 alpha=0.9: exact random-routing R %.6f, eq. 21 %.6f (%+.2f %%)\n", exact,
            q.delay, 100 * (exact - q.delay) / q.delay);
    for (int j = 1; j <= 3; j++) /* the cluster side is exact */
        ck_assert_double_eq_tol(rate[j], q.cluster_rate[j], 1e-12);
    ck_assert(fabs(exact - q.delay) / q.delay > 0.001);
    topo_free(&t);
}
END_TEST

/* Fig. 10's BH/CCC (D_c = 8, α = 0.8, level-2 links of 4 wires, μ_NCL = 12): eq. 21
 * puts the mean level-2 utilisation at 0.984, below 1, but with true shortest paths
 * the level-2 traffic (each interface node sends n λ (1-α) = 3.2 messages per time
 * unit, uniform over the other clusters) loads the cube links more than the cycle
 * links, and the cube links saturate: the simulation's backlog grows there. */
START_TEST(ccc_fig10_cube_links_saturate)
{
    const char *set[] = { "network.topology=ccc", "network.dimension=8", "network.bandwidth=12",
                          "workload.rate=3.2", "workload.destination=uniform", NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct topo t;
    struct cfg_error err;
    ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
    double rate[TOPO_MAX_CLASSES];
    random_routing_delay(&cfg, &t, rate);
    double busiest = 0, mean = 0;
    for (unsigned c = 0; c < t.classes; c++) {
        char name[24];
        t.ops->class_name(&t, c, name, sizeof name);
        fprintf(stderr, "ccc(8), Fig. 10 level-2 traffic: %s links at utilisation %.4f\n", name, rate[c] / 12);
        busiest = rate[c] > busiest ? rate[c] : busiest;
        mean += rate[c] * (double)t.ops->channels_in_class(&t, c) / t.channels;
    }
    struct hin_net h = hin_net_ccc(4, 8);
    struct hin_queue q;
    hin_queue(&h, 0.8, 1, 3, 12, &q);
    ck_assert(q.level2_utilization < 1);
    ck_assert(busiest / 12 >= 1);
    ck_assert(mean < q.level2_rate); /* BFS paths are shorter than Wittie's mean */
    topo_free(&t);
}
END_TEST

/* The same through the registry: with random-minimal routing the channel loads split
 * each node's flow over its minimal next hops, so mm1-network is the delay model and
 * its R equals hin's eqs. 18-20 on BH/BH, BH/BR, BH/CC, but not eq. 21 on BH/CCC. */
START_TEST(mm1_network_on_random_loads_equals_seed)
{
    static const struct point points[] = {
        { "bh-bh", 6, 3, 0.5, 1.5, 3 }, { "bh-br", 7, 3, 0.9, 3, 3 }, { "bh-cc", 7, 3, 0.7, 3, 3 },
        { "bh-ccc", 9, 3, 0.9, 3, 3 },
    };
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        struct config cfg;
        point_config(&cfg, &points[i], "random-minimal");
        struct topo t;
        struct cfg_error err;
        ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
        struct channel_loads l;
        struct model_in in;
        ck_assert_msg(model_input(&in, &cfg, &t, &l), "%s", l.why);
        static struct model_result m;
        model_predict(&in, &m);
        model_input_free(&in);
        ck_assert_str_eq(m.model, "mm1-network");
        double hin_r = NAN;
        for (unsigned k = 0; k < m.n_figures; k++)
            if (strcmp(m.figures[k].model, "hin") == 0 && strcmp(m.figures[k].name, "delay.mean") == 0)
                hin_r = m.figures[k].value;
        if (strcmp(points[i].topology, "bh-ccc") == 0)
            ck_assert(fabs(m.delay_mean - hin_r) > 0.02 * hin_r);
        else
            ck_assert_double_eq_tol(m.delay_mean, hin_r, 1e-9 * hin_r);
        loads_free(&l);
        topo_free(&t);
    }
}
END_TEST

/* Flat hypercube with ecube: mm1-network (exact loads) is the delay model and equals
 * eq. 15, which the hin model reports as its delay.mean and delay.bh figures. */
START_TEST(flat_hypercube_equals_mm1_network)
{
    for (int d = 1; d <= 4; d++)
        for (double a = 0; a <= 1.0001; a += 0.25) {
            struct point p = { "hypercube", 7, d, a, 1.0, 1.0 };
            struct config cfg;
            point_config(&cfg, &p, "ecube");
            struct topo t;
            struct cfg_error err;
            ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
            struct channel_loads l;
            struct model_in in;
            ck_assert(model_input(&in, &cfg, &t, &l));
            static struct model_result m;
            model_predict(&in, &m);
            model_input_free(&in);
            ck_assert_str_eq(m.model, "mm1-network");
            double hin_r = NAN, hin_bh = NAN;
            for (unsigned i = 0; i < m.n_figures; i++) {
                if (strcmp(m.figures[i].model, "hin") == 0 && strcmp(m.figures[i].name, "delay.mean") == 0)
                    hin_r = m.figures[i].value;
                if (strcmp(m.figures[i].model, "hin") == 0 && strcmp(m.figures[i].name, "delay.bh") == 0)
                    hin_bh = m.figures[i].value;
            }
            ck_assert_double_eq_tol(hin_r, m.delay_mean, 1e-12 * m.delay_mean);
            ck_assert_double_eq_tol(hin_bh, m.delay_mean, 1e-12 * m.delay_mean);
            loads_free(&l);
            topo_free(&t);
        }
}
END_TEST

/* BH/BH with ecube (dimension order inside clusters) is not the seed's routing: the
 * mm1-network model from its exact loads predicts a larger delay than eq. 18, since
 * ecube sends the intercluster traffic through fewer of the j-level links. */
START_TEST(ecube_hierarchical_differs)
{
    struct point p = { "bh-bh", 6, 3, 0.8, 1.5, 3 };
    struct config cfg;
    point_config(&cfg, &p, "ecube");
    struct topo t;
    struct cfg_error err;
    ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
    struct channel_loads l;
    struct model_in in;
    ck_assert(model_input(&in, &cfg, &t, &l));
    static struct model_result m;
    model_predict(&in, &m);
    model_input_free(&in);
    ck_assert_str_eq(m.model, "mm1-network");
    struct hin_net h = point_net(&p);
    struct hin_queue q;
    hin_queue(&h, 0.8, 1, 1.5, 3, &q);
    fprintf(stderr, "bh-bh D=6 d=3 alpha=0.8 ecube: mm1-network %.6f, eq. 18 (random routing) %.6f\n", m.delay_mean,
            q.delay);
    ck_assert(m.delay_mean > q.delay * 1.02);
    ck_assert(l.max_utilization > q.max_utilization);
    loads_free(&l);
    topo_free(&t);
}
END_TEST

/* Lengths re-drawn per hop: the model inside the 95% interval of at least 3 of 4 seeds
 * (100,000 messages; tests/common/checks.c). */
START_TEST(simulation_redrawn_lengths_cover_model)
{
    check_hin_redrawn_lengths_cover_model(4, 100000);
}
END_TEST

/* Lengths kept along the path: within 10 % of the model (200,000 messages). */
START_TEST(simulation_kept_lengths_close_to_model)
{
    check_hin_kept_lengths_close_to_model(200000);
}
END_TEST

/* The reproduction script reads these columns of `sim --analytic -f csv`. */
START_TEST(analytic_csv_columns)
{
    const char *argv[] = { test_binary(), "--analytic", "-f", "csv", "-s", "workload.locality=0.5",
                           "configs/000/fig12.ini", NULL };
    static char out[16384], err[4096];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
    const char *want[] = { "hin.links", "hin.distance.mean", "hin.lp_ratio", "hin.delay.mean", "hin.lr_ratio",
                           "hin.utilization.cluster_j1", "hin.utilization.level2", "hin.replication.below_80",
                           ",15.19300699", ",0.9444444444" };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(out, want[i]), "%s missing from %s", want[i], out);
}
END_TEST

Suite *model_hin_sim_suite(void)
{
    Suite *s = suite_create("model_hin_sim");
    TCase *tc = tcase_create("loads");
    tcase_set_timeout(tc, 120); /* Check's default of 4 s is too short under the sanitizers */
    tcase_add_test(tc, seed_rates_are_exact_for_random_routing);
    tcase_add_test(tc, ccc_equation_21_gap);
    tcase_add_test(tc, mm1_network_on_random_loads_equals_seed);
    tcase_add_test(tc, ccc_fig10_cube_links_saturate);
    tcase_add_test(tc, flat_hypercube_equals_mm1_network);
    tcase_add_test(tc, ecube_hierarchical_differs);
    tcase_add_test(tc, analytic_csv_columns);
    suite_add_tcase(s, tc);
    TCase *sim = tcase_create("simulation");
    tcase_set_timeout(sim, 120);
    tcase_add_test(sim, simulation_redrawn_lengths_cover_model);
    tcase_add_test(sim, simulation_kept_lengths_close_to_model);
    suite_add_tcase(s, sim);
    return s;
}
