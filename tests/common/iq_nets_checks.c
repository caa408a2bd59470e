/* The iq router's routings on router networks and graphs (issue 34): hop-indexed VC
 * classes on Slim Fly, graphs, a concentrated torus and CCC (minimal, Valiant, UGAL),
 * up-down on every family, adaptive-minimal and random-minimal with escape VCs on the
 * dragonfly, Slim Fly and graphs.  tests/unit/test_iq_nets.c proves each with the
 * static check and runs it briefly; tests/validate/test_deadlock_free.c runs each 3
 * seeds x 50,000 cycles. */
#include "iq_nets_checks.h"

#include <stdio.h>
#include <string.h>

#include "test.h"

#define SF3 "network.topology=slim-fly", "network.q=3"
#define IRREGULAR "network.topology=graph", "network.graph_file=configs/graphs/irregular-6.edges"
#define RING "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges"
#define DRAGONFLY "network.topology=dragonfly", "network.group_routers=3", "network.global_links=1", \
                  "network.concentration=2"

/* Each with the fewest VCs it takes: the router diameter D (Slim Fly 2, the irregular
 * graph 3, the ring 4, the 4 x 4 torus 4, the 3-dimensional CCC 6) for minimal, 2D for
 * Valiant and UGAL, D escape VCs plus one adaptive VC for the per-hop routings (2 + 1 on
 * the dragonfly: the minimal route's class raised at its global link), 1 for up-down. */
const struct iq_net_case iq_net_cases[] = {
    { { SF3, "routing.algorithm=minimal", "routing.virtual_channels=2" }, 2 },
    { { SF3, "routing.algorithm=valiant", "routing.virtual_channels=4" }, 4 },
    { { SF3, "routing.algorithm=ugal", "routing.virtual_channels=4", "network.concentration=2" }, 4 },
    { { SF3, "routing.algorithm=up-down", "routing.virtual_channels=1" }, 1 },
    { { SF3, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3" }, 3 },
    { { SF3, "routing.algorithm=random-minimal", "routing.virtual_channels=3", "network.concentration=2" }, 3 },
    { { IRREGULAR, "routing.algorithm=minimal", "routing.virtual_channels=3" }, 3 },
    { { IRREGULAR, "routing.algorithm=valiant", "routing.virtual_channels=6" }, 6 },
    { { IRREGULAR, "routing.algorithm=ugal", "routing.virtual_channels=6" }, 6 },
    { { IRREGULAR, "routing.algorithm=up-down", "routing.virtual_channels=1" }, 1 },
    { { IRREGULAR, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=4" }, 4 },
    { { IRREGULAR, "routing.algorithm=random-minimal", "routing.virtual_channels=4" }, 4 },
    { { RING, "routing.algorithm=minimal", "routing.virtual_channels=4" }, 4 },
    { { RING, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=5" }, 5 },
    { { DRAGONFLY, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3" }, 3 },
    { { DRAGONFLY, "routing.algorithm=random-minimal", "routing.virtual_channels=3" }, 3 },
    { { DRAGONFLY, "routing.algorithm=up-down", "routing.virtual_channels=1" }, 1 },
    { { "network.topology=torus", "network.radix=4", "network.dimension=2", "network.concentration=2",
        "routing.algorithm=minimal", "routing.virtual_channels=4" }, 4 },
    { { "network.topology=ccc", "network.dimension=3", "routing.algorithm=minimal", "routing.virtual_channels=6" }, 6 },
    { { "network.topology=torus", "network.radix=4", "network.dimension=2", "routing.algorithm=up-down" }, 1 },
    { { "network.topology=hypercube", "network.dimension=4", "routing.algorithm=up-down" }, 1 },
    { { "network.topology=fat-tree", "network.radix=2", "network.dimension=3", "routing.algorithm=up-down" }, 1 },
    { { "network.topology=hyperx", "network.radix=3", "network.dimension=2", "network.concentration=2",
        "routing.algorithm=up-down" }, 1 },
};
const size_t iq_net_cases_count = sizeof iq_net_cases / sizeof iq_net_cases[0];

size_t iq_net_settings(size_t i, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t j = 0; j < IQ_NET_CASE_SETTINGS && iq_net_cases[i].set[j] && n < max; j++)
        out[n++] = iq_net_cases[i].set[j];
    static const char *const router[] = { "routing.switching=wormhole", "routing.router=iq", NULL };
    for (size_t j = 0; router[j] && n < max; j++)
        out[n++] = router[j];
    out[n < max ? n : max - 1] = NULL;
    return n;
}

const char *iq_net_label(size_t i, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < IQ_NET_CASE_SETTINGS && iq_net_cases[i].set[j] && used + 1 < size; j++) {
        int w = snprintf(buf + used, size - used, "%s%s", j ? " " : "", iq_net_cases[i].set[j]);
        used += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

void check_iq_net_never_deadlocks(size_t i, int seed, long cycles)
{
    const char *set[40];
    size_t n = iq_net_settings(i, set, 20);
    char seed_set[32], duration[48];
    snprintf(seed_set, sizeof seed_set, "run.seed=%d", seed);
    snprintf(duration, sizeof duration, "run.duration=%ld", cycles - cycles / 10);
    char warmup[48];
    snprintf(warmup, sizeof warmup, "run.warmup_time=%ld", cycles / 10);
    /* 2 flits per terminal per cycle offered: at least twice the saturation of every one
     * of these networks (a source injects one flit per cycle at most, so its queue
     * grows and the network runs as loaded as its sources can make it). */
    const char *const load[] = { "routing.flit_buffers=4", "routing.deadlock_interval=500", "routing.deadlock=stop",
                                 "workload.arrival=bernoulli", "workload.rate=2", "workload.rate_unit=flits",
                                 "workload.length=constant", "workload.mean_length=4", "run.allow_unstable=true",
                                 warmup, duration, seed_set, NULL };
    for (size_t j = 0; load[j]; j++)
        set[n++] = load[j];
    set[n] = NULL;
    struct config cfg;
    test_config(&cfg, set);
    struct run_report rep;
    enum kernel_stop why = test_run(&cfg, &rep);
    double accepted = test_figure(&rep, "switching", "throughput_flits");
    char label[320];
    iq_net_label(i, label, sizeof label);
    ck_assert_msg(why == KERNEL_DONE, "%s, seed %d: stopped", label, seed);
    ck_assert_msg(rep.stability.saturated, "%s, seed %d: not past saturation", label, seed);
    ck_assert_msg(accepted > 0.05, "%s, seed %d: accepted %g flits per terminal per cycle", label, seed, accepted);
}
