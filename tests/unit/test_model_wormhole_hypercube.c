/* Seed 003 (Kim & Das 1994): the wormhole-hypercube model (analytic/wormhole_hypercube.c),
 * the wrapper that reads a config and runs the formulas of analytic/kim_das.c (tested in
 * test_kim_das.c): what it reads and declines, `sim --analytic` on the reproduction's
 * configs, and the seed's 5% claim against the simulation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analytic/kim_das.h"
#include "../common/checks.h"
#include "../common/test.h"

extern const struct model_ops model_wormhole_hypercube;

/* The config wrapper. */
struct predicted {
    struct config cfg;
    struct topo t;
    struct channel_loads loads;
    struct model_result m;
};

static void predict(struct predicted *a, const char *const *settings)
{
    struct cfg_error err;
    test_config(&a->cfg, settings);
    ck_assert_msg(topo_build(&a->t, &a->cfg, &err), "%s", err.message);
    struct model_in in;
    model_input(&in, &a->cfg, &a->t, &a->loads); /* not known under random routing: the model does not need them */
    model_predict(&in, &a->m);
    model_input_free(&in);
    loads_free(&a->loads);
    topo_free(&a->t);
}

static double figure(const struct model_result *m, const char *name)
{
    for (unsigned i = 0; i < m->n_figures; i++)
        if (strcmp(m->figures[i].name, name) == 0 && strcmp(m->figures[i].model, "wormhole-hypercube") == 0)
            return m->figures[i].value;
    ck_abort_msg("no figure %s", name);
    return NAN;
}

static bool has_figure(const struct model_result *m, const char *name)
{
    for (unsigned i = 0; i < m->n_figures; i++)
        if (strcmp(m->figures[i].name, name) == 0)
            return true;
    return false;
}

#define PAPER_CUBE "network.dimension=10", "workload.rate=0.001"

START_TEST(wrapper_reads_the_config)
{
    /* mean length 400 at bandwidth 2 = 200 flits of one cycle each */
    const char *set[] = { PAPER_CUBE, "routing.switching=wormhole", "workload.mean_length=400", "network.bandwidth=2", NULL };
    static struct predicted a;
    predict(&a, set);
    ck_assert_str_eq(a.m.model, "wormhole-hypercube");
    ck_assert(!a.m.exact && !a.m.unstable);
    ck_assert_double_eq_tol(a.m.delay_mean, 263.82, 0.005);
    ck_assert_double_eq_tol(figure(&a.m, "switching.network_delay_mean"), 263.82, 0.005);
    ck_assert_double_eq_tol(figure(&a.m, "delay.simple_average"), 233.92, 0.005);
    ck_assert_double_eq_tol(figure(&a.m, "switching.blocking_dim0"), 0.1355, 0.5e-4);
    ck_assert_double_eq_tol(figure(&a.m, "switching.blocking_dim9"), 0.1001, 0.5e-4);
    ck_assert_double_eq_tol(figure(&a.m, "throughput"), 0.001, 1e-15);
    ck_assert_double_eq_tol(figure(&a.m, "hops_mean"), 10 * 512.0 / 1023, 1e-12);
    ck_assert_double_eq_tol(figure(&a.m, "traffic.channel"), 0.001 * 512.0 / 1023, 1e-15);
    ck_assert_double_eq_tol(figure(&a.m, "traffic.new.0"), 0.001 * 512 / 1023, 1e-15);
    ck_assert_double_eq_tol(figure(&a.m, "traffic.transit.0"), 0, 1e-15);
    ck_assert(!has_figure(&a.m, "switching.acceptance_probability"));
    double finite_pb0 = figure(&a.m, "finite.blocking.0"), finite_acceptance = figure(&a.m, "finite.acceptance");
    ck_assert(finite_pb0 < 0.1355);
    ck_assert(a.m.n_figures <= 60);

    /* the finite-buffer mode: its figures under the simulator's names, the infinite one's prefixed */
    const char *finite[] = { PAPER_CUBE, "routing.switching=wormhole", "workload.mean_length=200", "routing.finite_buffer=true", NULL };
    predict(&a, finite);
    ck_assert_double_eq_tol(figure(&a.m, "switching.blocking_dim0"), finite_pb0, 1e-15);
    ck_assert_double_eq_tol(figure(&a.m, "switching.acceptance_probability"), finite_acceptance, 1e-15);
    ck_assert_double_eq_tol(figure(&a.m, "throughput"), 0.001 * finite_acceptance, 1e-15);
    ck_assert_double_eq_tol(figure(&a.m, "infinite.delay.mean"), 263.82, 0.005);
    ck_assert_double_eq_tol(figure(&a.m, "infinite.blocking.0"), 0.1355, 0.5e-4);
    ck_assert(a.m.delay_mean < 263.82);

    const char *random[] = { PAPER_CUBE, "routing.switching=wormhole", "workload.mean_length=200",
                             "routing.algorithm=random-minimal", NULL };
    predict(&a, random);
    ck_assert_double_eq_tol(a.m.delay_mean, 285.96, 0.005);
    ck_assert_double_eq_tol(figure(&a.m, "switching.blocking_probability"), 0.1431, 0.5e-4);
    ck_assert_double_eq_tol(figure(&a.m, "switching.blocking_dim4"), 0.1431, 0.5e-4);
    ck_assert(!has_figure(&a.m, "finite.blocking.0"));

    const char *vct[] = { PAPER_CUBE, "workload.mean_length=200", "routing.switching=cut-through", NULL };
    predict(&a, vct);
    ck_assert_str_eq(a.m.model, "wormhole-hypercube");
    ck_assert_double_eq_tol(figure(&a.m, "switching.blocking_probability"), 0.2 * 5120.0 / 10230, 1e-12);

    /* fixed-hops: P_k = 1 at k = h; the mean path is h hops */
    const char *fixed[] = { "network.dimension=8", "routing.switching=wormhole", "workload.rate=0.001",
                            "workload.mean_length=50", "workload.destination=fixed-hops", "workload.hops=3", NULL };
    predict(&a, fixed);
    ck_assert_double_eq_tol(a.m.mean_hops, 3, 1e-12);
    ck_assert_double_eq_tol(figure(&a.m, "traffic.channel"), 0.001 * 3 / 8, 1e-15);

    const char *sphere[] = { PAPER_CUBE, "routing.switching=wormhole", "workload.mean_length=200",
                             "workload.destination=spherical",
                             "routing.finite_buffer=true", NULL };
    predict(&a, sphere);
    ck_assert_double_eq_tol(a.m.mean_hops, 5.5, 1e-12);
    ck_assert_double_eq_tol(figure(&a.m, "traffic.channel"), 0.001 * 0.55, 1e-15);
    double p[KD_DIM_MAX + 1] = { 0 };
    for (unsigned k = 1; k <= 10; k++)
        p[k] = 0.1;
    static struct kd_traffic ts;
    ck_assert(kd_traffic_init(&ts, 10, p));
    struct kd_result expect;
    kd_wormhole_lr(&ts, 200, 0.001, true, &expect);
    ck_assert_double_eq_tol(a.m.delay_mean, expect.delay_mean, 1e-9);
    ck_assert_double_eq_tol(figure(&a.m, "switching.blocking_dim4"), expect.blocking[4], 1e-12);

    /* weighted spherical: P_k from distance_weights (here all mass on k = 3, as fixed-hops 3) */
    const char *weighted[] = { "network.dimension=8", "workload.rate=0.001", "routing.switching=wormhole",
                               "workload.mean_length=50", "workload.destination=spherical",
                               "workload.distance_weights=0,0,2", NULL };
    predict(&a, weighted);
    double weighted_delay = a.m.delay_mean;
    ck_assert_double_eq_tol(a.m.mean_hops, 3, 1e-12);
    predict(&a, fixed);
    ck_assert_double_eq_tol(weighted_delay, a.m.delay_mean, 1e-12);

    /* saturated infinite buffers: unstable, the finite-buffer figures remain */
    const char *heavy[] = { "network.dimension=10", "routing.switching=wormhole", "workload.rate=0.01",
                            "workload.mean_length=200", NULL };
    predict(&a, heavy);
    ck_assert(a.m.unstable);
    ck_assert(!has_figure(&a.m, "switching.network_delay_mean"));
    ck_assert_double_eq(figure(&a.m, "finite.saturated"), 0);
    ck_assert(figure(&a.m, "finite.acceptance") < 1);
}
END_TEST

START_TEST(wrapper_declines_what_it_does_not_model)
{
    static struct predicted a;
    static const struct {
        const char *settings[4];
        const char *reason;
    } cases[] = {
        { { "network.topology=torus", "network.dimension=2", "routing.switching=wormhole" }, "a binary hypercube" },
        { { "workload.length=constant", "routing.switching=wormhole" }, "exponential message lengths" },
        { { "network.links=half-duplex", "routing.switching=wormhole" }, "full-duplex links" },
        { { "workload.destination=cluster-locality", "routing.switching=wormhole" }, "needs destinations" },
        { { "routing.algorithm=random-minimal", "routing.switching=cut-through" }, "ecube routing with cut-through" },
        { { "routing.virtual_channels=2", "routing.switching=wormhole" }, "one virtual channel" },
        { { "routing.router_delay=1", "routing.switching=wormhole" }, "t_u = 1 cycle per hop" },
        { { "routing.link_latency=2", "routing.switching=cut-through" }, "t_u = 1 cycle per hop" },
        { { "routing.flit_buffers=1", "routing.switching=wormhole" }, "flit_buffers >= 2" },
        { { NULL }, "wormhole or cut-through switching" },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        predict(&a, cases[i].settings);
        ck_assert_msg(!has_figure(&a.m, "traffic.channel"), "case %u applied", i);
        struct model_result one;
        memset(&one, 0, sizeof one);
        struct cfg_error err;
        struct model_in in;
        ck_assert(topo_build(&a.t, &a.cfg, &err) && model_input(&in, &a.cfg, &a.t, NULL));
        ck_assert(!model_wormhole_hypercube.predict(&in, &one));
        model_input_free(&in);
        topo_free(&a.t);
        ck_assert_msg(strstr(one.why, "wormhole-hypercube ") && strstr(one.why, cases[i].reason), "case %u: %s", i,
                      one.why);
    }
}
END_TEST

/* sim --analytic on the reproduction's configs: the figures (each in under 50 ms in the
 * release build: make bench measures it).  On a 20-cube only channels 0 and 19 get
 * per-channel figures. */
static double analytic_alone(const char *const *argv, char *out, size_t size)
{
    static char err[4096];
    ck_assert_int_eq(test_exec(argv, out, size, err, sizeof err), 0);
    ck_assert_msg(strstr(out, "\"wormhole-hypercube\": {"), "%s", out);
    ck_assert_msg(strstr(out, "\"switching.network_delay_mean\": "), "%s", out);
    const char *wall = strstr(out, "\"wall_seconds\": ");
    ck_assert_msg(wall, "%s", out);
    return strtod(wall + strlen("\"wall_seconds\": "), NULL);
}

START_TEST(analytic_alone_on_the_reproduction_configs)
{
    static const char *const configs[] = { "configs/003/fig2-4-uniform-wormhole-infinite.ini",
                                           "configs/003/fig3-5-spherical-wormhole-finite.ini",
                                           "configs/003/fig4-uniform-random-infinite.ini",
                                           "configs/003/fig2-uniform-cut-through.ini" };
    static char out[65536];
    for (unsigned i = 0; i < 4; i++) {
        const char *argv[] = { test_binary(), "--analytic", "-f", "json", configs[i], NULL };
        analytic_alone(argv, out, sizeof out); /* its speed (< 50 ms): make bench */
    }
    const char *big[] = { test_binary(), "--analytic", "-f", "json", "-s", "network.dimension=20", configs[1], NULL };
    analytic_alone(big, out, sizeof out);
    ck_assert(strstr(out, "\"switching.blocking_dim19\": ") && !strstr(out, "\"switching.blocking_dim10\": "));
}
END_TEST

/* The seed's claim (Sec. IV): analysis and simulation within 5%, at ρ = 0.1 with 20000
 * messages (tests/common/checks.c; tests/validate covers the range where it holds). */
START_TEST(simulation_within_the_seeds_five_percent)
{
    within_seed_claim(0.1, false, 20000);
    within_seed_claim(0.1, true, 20000);
}
END_TEST

Suite *model_wormhole_hypercube_suite(void)
{
    Suite *s = suite_create("model_wormhole_hypercube");
    TCase *tc = tcase_create("wrapper");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, wrapper_reads_the_config);
    tcase_add_test(tc, wrapper_declines_what_it_does_not_model);
    tcase_add_test(tc, analytic_alone_on_the_reproduction_configs);
    tcase_add_test(tc, simulation_within_the_seeds_five_percent);
    suite_add_tcase(s, tc);
    return s;
}
