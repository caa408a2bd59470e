/* Cost of drawing one message's destination and length, for every destination
 * pattern (each on a network it fits, with exponential lengths) and every length
 * distribution (with uniform destinations), through the same function pointers the
 * network calls.  Sources take turns over every node.  Target: < 50 ns per draw. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../sim/run/run_config.h"
#include "../workloads/workload.h"

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void set(struct config *cfg, const char *setting)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", setting);
    char *dot = strchr(buf, '.'), *eq = strchr(buf, '=');
    struct cfg_error err;
    *dot = *eq = '\0';
    if (!cfg_set(cfg, buf, dot + 1, eq + 1, "bench", 1, &err)) {
        fprintf(stderr, "bench: %s: %s\n", setting, err.message);
        exit(1);
    }
}

/* Returns ns per draw, or a negative value when the set-up is refused. */
static double measure(const char *const *settings, const char **label)
{
    static struct config cfg;
    run_config_defaults(&cfg);
    for (size_t i = 0; settings[i]; i++)
        set(&cfg, settings[i]);
    struct cfg_error err;
    struct topo t;
    struct destinations d;
    if (!run_config_workload(&cfg, &err) || !topo_build(&t, &cfg, &err)) {
        fprintf(stderr, "bench: %s\n", err.message);
        exit(1);
    }
    if (!dest_init(&d, &cfg, &t, &err)) {
        fprintf(stderr, "bench: %s\n", err.message);
        exit(1);
    }
    struct lengths length;
    if (!length_init(&length, &cfg)) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    struct rng r;
    rng_seed_stream(&r, 1, RNG_TEST, 0);
    enum { DRAWS = 10000000 };
    uint64_t sink = 0;
    double start = seconds();
    for (uint32_t i = 0, src = 0; i < DRAWS; i++) {
        sink += d.ops->pick(&d, src, &r);
        sink += (uint64_t)length_draw(&length, &r);
        if (++src == t.nodes)
            src = 0;
    }
    double ns = (seconds() - start) / DRAWS * 1e9;
    if (sink == 42)
        puts("");
    *label = t.label;
    static char buf[256];
    snprintf(buf, sizeof buf, "%s", t.label);
    *label = buf;
    dest_free(&d);
    length_free(&length);
    topo_free(&t);
    return ns;
}

int main(void)
{
    static const char *const torus[] = { "network.topology=torus", "network.radix=32", "network.dimension=2", NULL };
    static const char *const mesh[] = { "network.topology=kary-ncube", "network.wrap=false", "network.radix=32",
                                        "network.dimension=2", NULL };
    static const char *const cube[] = { "network.topology=hypercube", "network.dimension=10", NULL };
    const struct {
        const char *what;
        const char *const *net;
        const char *extra[4];
    } cases[] = {
        { "uniform", cube, { "workload.destination=uniform" } },
        { "uniform-with-self", cube, { "workload.destination=uniform-with-self" } },
        { "cluster-locality", cube, { "workload.destination=cluster-locality" } },
        { "fixed-hops", cube, { "workload.destination=fixed-hops", "workload.hops=3" } },
        { "spherical", cube, { "workload.destination=spherical" } },
        { "spherical", torus, { "workload.destination=spherical" } },
        { "spherical", mesh, { "workload.destination=spherical" } },
        { "distance-locality", mesh, { "workload.destination=distance-locality",
                                       "workload.locality_fraction=0.3" } },
        { "distance-locality", torus, { "workload.destination=distance-locality",
                                        "workload.locality_fraction=0.3" } },
        { "distance-locality", cube, { "workload.destination=distance-locality" } },
        { "hotspot", cube, { "workload.destination=hotspot", "workload.hotspot_node=3" } },
        { "bit-complement", cube, { "workload.destination=bit-complement" } },
        { "bit-reversal", cube, { "workload.destination=bit-reversal" } },
        { "transpose", cube, { "workload.destination=transpose" } },
        { "shuffle", cube, { "workload.destination=shuffle" } },
        { "tornado", torus, { "workload.destination=tornado" } },
        { "neighbor", torus, { "workload.destination=neighbor" } },
        { "length fixed", cube, { "workload.length=fixed" } },
        { "length geometric", cube, { "workload.length=geometric", "workload.mean_length=8" } },
        { "length bimodal", cube, { "workload.length=bimodal" } },
        { "length empirical", cube, { "workload.length=empirical",
                                      "workload.empirical_lengths=1,2,4,8,16,32,64,128",
                                      "workload.empirical_weights=8,7,6,5,4,3,2,1" } },
    };
    printf("%-20s %-34s %s\n", "pattern", "network", "ns per destination + length (target < 50)");
    int over = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *settings[10];
        size_t n = 0;
        for (size_t i = 0; cases[c].net[i]; i++)
            settings[n++] = cases[c].net[i];
        for (size_t i = 0; i < 4 && cases[c].extra[i]; i++)
            settings[n++] = cases[c].extra[i];
        settings[n] = NULL;
        const char *label;
        double ns = measure(settings, &label);
        over += ns >= 50;
        printf("%-20s %-34s %6.1f%s\n", cases[c].what, label, ns, ns >= 50 ? "  OVER TARGET" : "");
    }
    printf("%s\n", over ? "some patterns exceed 50 ns" : "every pattern under 50 ns");
    return 0;
}
