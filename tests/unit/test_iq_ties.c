/* The input-queued router's torus ties against the loads the models are handed
 * (routing/iq_setup.c's follows(), routing/ecube.c's random-ties path): what the router
 * does and what the analytic side walks must not disagree.  Short runs of
 * configs/iq/torus-8x8.ini's network: the simulated utilisation of every class, and
 * under transpose traffic of every channel, lies within a stated tolerance of the
 * analytic loads under tie = random and tie = negative, and the two rules' loads are
 * further apart than that tolerance. */
#include <math.h>
#include <stdlib.h>

#include "../common/test.h"

/* configs/iq/torus-8x8.ini, `packets` measured after 5 000 (64 nodes at 0.025 packets
 * per cycle: 40 000 packets is a window of 25 000 cycles). */
static void settings(struct config *cfg, const char *tie, const char *destination, const char *packets)
{
    const char *set[] = { "network.topology=torus", "network.radix=8", "network.dimension=2",
                          "routing.switching=wormhole", "routing.router=iq", "routing.virtual_channels=2",
                          "routing.flit_buffers=8", "routing.link_latency=2", tie, "workload.arrival=bernoulli",
                          "workload.rate=0.025", destination, "workload.length=constant", "workload.mean_length=4",
                          packets, "run.warmup_messages=5000", NULL };
    test_config(cfg, set);
}

/* A class's mean utilisation over its 64 channels varies by about 0.001 from seed to
 * seed at this length (0.0984 to 0.1018 over six seeds at 0.1): 0.005 is five of those,
 * and half the gap the negative way's rule leaves (0.025). */
START_TEST(class_utilisation_follows_the_tie_rule)
{
    const char *ties[] = { "routing.tie=random", "routing.tie=negative" };
    for (size_t i = 0; i < 2; i++) {
        struct config cfg;
        settings(&cfg, ties[i], "workload.destination=uniform-with-self", "run.messages=40000");
        struct run_report r;
        ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
        ck_assert_uint_eq(r.classes, 4);
        for (unsigned c = 0; c < r.classes; c++) {
            bool negative = r.cls[c].name[4] == '-';
            double want = i == 0 ? 0.1 : negative ? 0.125 : 0.075;
            ck_assert_double_eq_tol(r.cls[c].analytic_utilization, want, 1e-12);
            ck_assert_msg(fabs(r.cls[c].utilization_mean - want) < 0.005, "%s %s: simulated %g, analytic %g", ties[i],
                          r.cls[c].name, r.cls[c].utilization_mean, want);
        }
    }
}
END_TEST

/* Transpose: channels carry from 0 to about 0.35, and a source whose digits tie
 * (|i - j| = 4) sends half its 0.1 flits per cycle the positive way under tie = random,
 * none under tie = negative, so the two rules' loads differ by 0.05 on some channels.
 * Over 100 000 packets (a window of about 62 000 cycles) the channel furthest from its
 * analytic load was 0.007 to 0.016 off over seeds 1 to 6 under either rule (0.012 to
 * 0.024 over 40 000 packets): 0.025 holds every channel and fails on a channel that
 * followed the other rule. */
START_TEST(channel_utilisation_follows_the_tie_rule)
{
    const char *ties[] = { "routing.tie=random", "routing.tie=negative" };
    double *analytic[2] = { NULL, NULL };
    uint32_t channels = 0;
    for (size_t i = 0; i < 2; i++) {
        struct config cfg;
        settings(&cfg, ties[i], "workload.destination=transpose", "run.messages=100000");
        static struct network net;
        struct cfg_error err;
        ck_assert_msg(net_create(&net, &cfg, &err), "%s", err.message);
        struct channel_loads loads;
        struct model_in in;
        ck_assert(model_input(&in, &cfg, &net.topo, &loads));
        model_input_free(&in);
        channels = net.topo.channels;
        ck_assert_uint_eq(loads.n_groups, channels);
        analytic[i] = malloc(channels * sizeof *analytic[i]);
        for (uint32_t ch = 0; ch < channels; ch++)
            analytic[i][ch] = loads.groups[ch].rate * cfg.workload.mean_length / loads.groups[ch].bandwidth;
        loads_free(&loads);
        ck_assert_int_eq(net_run(&net), KERNEL_DONE);
        double window = net.probe.window_end - net.probe.window_start, worst = 0;
        uint32_t at = 0;
        for (uint32_t ch = 0; ch < channels; ch++) {
            double gap = fabs(net.chan[ch].busy_time / window - analytic[i][ch]);
            if (gap > worst) {
                worst = gap;
                at = ch;
            }
        }
        ck_assert_msg(worst < 0.025, "%s: channel %u simulated %g, analytic %g", ties[i], at,
                      net.chan[at].busy_time / window, analytic[i][at]);
        net_free(&net);
    }
    double apart = 0;
    for (uint32_t ch = 0; ch < channels; ch++)
        apart = fmax(apart, fabs(analytic[0][ch] - analytic[1][ch]));
    ck_assert_double_ge(apart, 0.05 - 1e-12);
    free(analytic[0]);
    free(analytic[1]);
}
END_TEST

Suite *iq_ties_suite(void)
{
    Suite *s = suite_create("iq_ties");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, class_utilisation_follows_the_tie_rule);
    tcase_add_test(tc, channel_utilisation_follows_the_tie_rule);
    suite_add_tcase(s, tc);
    return s;
}
