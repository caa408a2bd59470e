/* The zero-load delay (analytic/zero_load.c): each engine's closed form summed over the
 * routes of the destination distribution.  Exact values where the mean hops are known
 * in closed form; agreement with runs at a load low enough that messages rarely meet
 * (the model is a lower bound on their mean, within 1% of it there); and the reasons
 * it gives where it does not apply. */
#include <math.h>
#include <string.h>

#include "../common/test.h"

/* The zero-load model's figure in m, NaN when the model did not apply. */
static double zero_load_of(const struct model_result *m)
{
    for (unsigned i = 0; i < m->n_figures; i++)
        if (strcmp(m->figures[i].model, "zero-load") == 0 && strcmp(m->figures[i].name, "delay_mean") == 0)
            return m->figures[i].value;
    return NAN;
}

static double predicted(const char *const *settings)
{
    struct analysed a;
    analyse(&a, settings);
    double z = zero_load_of(&a.model);
    ck_assert_msg(!isnan(z), "%s: %s", settings[0], a.model.why);
    release(&a);
    return z;
}

/* iq router (tests/unit/test_iq.c): 2 + (h+1)(P-1) + h(d+1) + 2 + (S-1).  An 8-ary and a
 * 4-ary 2-cube torus with uniform-with-self destinations have mean hops 4 and 2 (each
 * ring 2 and 1, ties counted once); P = 4, d = 2, S = 4: 10 + 6h.  The simple router on
 * a 6-cube, uniform over the other 63 nodes (mean hops 192/63), router_delay 0, links of
 * one cycle, one flit: h + 1 (offered the cycle after its whole-time creation).
 * Store-and-forward on a 4-ary 3-cube torus: hops times the mean length over bandwidth 1
 * (mean hops 3 * 64/63 over the other nodes), whatever the arrival process. */
START_TEST(zero_load_matches_closed_forms)
{
    const char *const iq8[] = { "network.topology=torus", "network.radix=8", "network.dimension=2",
                                "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=2",
                                "routing.flit_buffers=8", "routing.link_latency=2", "workload.arrival=bernoulli",
                                "workload.rate=0.01", "workload.destination=uniform-with-self",
                                "workload.length=constant", "workload.mean_length=4", NULL };
    ck_assert_double_eq_tol(predicted(iq8), 34, 1e-12);
    const char *const iq4[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=2",
                                "routing.flit_buffers=8", "routing.link_latency=2", "workload.arrival=bernoulli",
                                "workload.rate=0.01", "workload.destination=uniform-with-self",
                                "workload.length=constant", "workload.mean_length=4", NULL };
    ck_assert_double_eq_tol(predicted(iq4), 22, 1e-12);
    const char *const cube[] = { "network.topology=hypercube", "network.dimension=6", "routing.switching=wormhole",
                                 "routing.router_delay=0", "routing.link_latency=1", "workload.arrival=bernoulli",
                                 "workload.rate=0.01", "workload.destination=uniform", "workload.length=constant",
                                 "workload.mean_length=1", NULL };
    ck_assert_double_eq_tol(predicted(cube), 192.0 / 63 + 1, 1e-12);
    const char *const saf[] = { "network.topology=torus", "network.radix=4", "network.dimension=3",
                                "workload.arrival=poisson", "workload.rate=0.01", "workload.destination=uniform",
                                "workload.length=exponential", "workload.mean_length=2.5", NULL };
    ck_assert_double_eq_tol(predicted(saf), 3 * 64.0 / 63 * 2.5, 1e-12);
}
END_TEST

/* Runs at a rate where messages rarely meet: the model bounds the mean from below
 * (inside the run's interval or under it) and lies within 1% of it. */
START_TEST(zero_load_agrees_with_runs_at_low_load)
{
    static const char *const runs[][12] = {
        { "network.topology=dragonfly", "network.concentration=2", "network.group_routers=4",
          "network.global_links=2", "network.global_latency=5", "routing.switching=wormhole", "routing.router=iq",
          "routing.algorithm=minimal", "routing.virtual_channels=2", "routing.flit_buffers=16",
          "workload.mean_length=4", NULL },
        { "network.topology=fat-tree", "network.radix=4", "network.dimension=3", "routing.switching=wormhole",
          "routing.router=iq", "routing.algorithm=minimal", "routing.flit_buffers=8", "workload.arrival=poisson",
          "workload.mean_length=4", NULL },
        { "network.topology=hyperx", "network.dimension=2", "network.radix=4", "network.concentration=2",
          "routing.switching=wormhole", "routing.algorithm=minimal", "routing.flit_buffers=2",
          "workload.mean_length=4", NULL },
        { "network.topology=fat-tree", "network.radix=4", "network.dimension=2", "routing.switching=cut-through",
          "routing.algorithm=minimal", "workload.length=exponential", "workload.mean_length=5", NULL },
        { "network.topology=hypercube", "network.dimension=5", "workload.arrival=poisson",
          "workload.length=exponential", NULL },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        const char *settings[24];
        size_t n = 0;
        for (; runs[i][n]; n++)
            settings[n] = runs[i][n];
        const char *const common[] = { "workload.rate=0.0005", "run.messages=20000", "run.warmup_messages=1000",
                                       NULL };
        for (size_t k = 0; common[k]; k++)
            settings[n++] = common[k];
        int has_arrival = 0, has_length = 0;
        for (size_t k = 0; k < n; k++) {
            has_arrival |= strncmp(settings[k], "workload.arrival=", 17) == 0;
            has_length |= strncmp(settings[k], "workload.length=", 16) == 0;
        }
        if (!has_arrival)
            settings[n++] = "workload.arrival=bernoulli";
        if (!has_length)
            settings[n++] = "workload.length=constant";
        settings[n] = NULL;
        struct config cfg;
        test_config(&cfg, settings);
        struct run_report rep;
        ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
        double z = zero_load_of(&rep.model);
        ck_assert_msg(!isnan(z), "%s: %s", runs[i][0], rep.model.why);
        ck_assert_msg(z <= rep.delay.ci95[1] && rep.delay.mean - z <= 0.01 * z,
                      "%s: zero-load %.6g, simulated %.6g [%.6g, %.6g]", runs[i][0], z, rep.delay.mean,
                      rep.delay.ci95[0], rep.delay.ci95[1]);
    }
}
END_TEST

/* Where it does not apply, the report says why (when no other model's note takes the
 * place: the node model's configuration has seed 004's). */
START_TEST(zero_load_says_why_not)
{
    static const struct {
        const char *set[8];
        const char *says;
    } cases[] = {
        { { "network.topology=torus", "network.radix=4", "network.dimension=2", "protocol.link=tdm", NULL },
          "never idle" },
        { { "network.topology=torus", "network.radix=4", "network.dimension=2", "routing.switching=wormhole",
            "routing.router=iq", "routing.virtual_channels=2", "workload.length=exponential", NULL },
          "credits' round trip" },
        { { "network.topology=torus", "network.radix=4", "network.dimension=2", "node.service_rate=5", NULL },
          NULL },
        { { "network.topology=torus", "network.radix=4", "network.dimension=2", "routing.switching=wormhole",
            "workload.arrival=deterministic", NULL },
          "whole time units" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct analysed a;
        analyse(&a, cases[i].set);
        ck_assert_msg(isnan(zero_load_of(&a.model)), "case %zu applied", i);
        ck_assert_msg(!cases[i].says || (strstr(a.model.why, "zero-load") && strstr(a.model.why, cases[i].says)),
                      "case %zu: %s", i, a.model.why);
        release(&a);
    }
}
END_TEST

Suite *zero_load_suite(void)
{
    Suite *s = suite_create("zero_load");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, zero_load_matches_closed_forms);
    tcase_add_test(tc, zero_load_agrees_with_runs_at_low_load);
    tcase_add_test(tc, zero_load_says_why_not);
    suite_add_tcase(s, tc);
    return s;
}
