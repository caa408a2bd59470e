/* Building and describing the largest networks: a 2^20-node hypercube and a
 * 1024 x 1024 torus.  Target (topology issue): each under 2 s and under 1 GiB.
 * Times topology construction, the mean distance and the channel loads that
 * `sim --describe` computes; peak RSS is the whole process's (getrusage). */
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "../analytic/model.h"
#include "../sim/config/config.h"
#include "../sim/run/model_input.h"
#include "../sim/run/run_config.h"
#include "../topo/topo.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int describe_one(const char *label, const char *const *overrides, size_t n)
{
    struct config cfg;
    struct cfg_error err;
    run_config_defaults(&cfg);
    for (size_t i = 0; i < n; i += 3)
        if (!cfg_set(&cfg, overrides[i], overrides[i + 1], overrides[i + 2], "bench", 0, &err)) {
            cfg_error_print(&err, stderr);
            return 1;
        }
    double t0 = now();
    struct topo t;
    if (!topo_build(&t, &cfg, &err)) {
        cfg_error_print(&err, stderr);
        return 1;
    }
    double avg = topo_mean_distance(&t, 4096);
    struct channel_loads loads;
    struct model_in in;
    bool known = model_input(&in, &cfg, &t, &loads);
    double seconds = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%-26s %8u nodes %9u channels  avg distance %.6g  loads %s  %.3f s  peak RSS %.0f MB  (target < 2 s, "
           "< 1024 MB)\n",
           label, t.nodes, t.channels, avg, known ? "yes" : "no", seconds, ru.ru_maxrss / 1024.0);
    model_input_free(&in);
    loads_free(&loads);
    topo_free(&t);
    return 0;
}

int main(void)
{
    const char *cube[] = { "network", "topology", "hypercube", "network", "dimension", "20",
                           "workload", "rate", "0.1" };
    const char *torus[] = { "network", "topology", "torus", "network", "radix", "1024", "network", "dimension", "2",
                            "workload", "rate", "0.001" };
    return describe_one("hypercube, dimension 20", cube, 9) | describe_one("torus 1024 x 1024", torus, 12);
}
