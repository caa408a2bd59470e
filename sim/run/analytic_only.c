#include "analytic_only.h"

#include <math.h>
#include <time.h>

#include "../../routing/routing.h"
#include "model_input.h"
#include "run_config.h"

int run_analytic_only(const struct config *cfg, enum report_format fmt, bool omit_timing, FILE *out)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct topo t;
    struct cfg_error err;
    if (!topo_build(&t, cfg, &err) || !route_check(cfg, &t, &err)) { /* a route the run would refuse, too */
        cfg_error_print(&err, stderr);
        topo_free(&t);
        return 2;
    }
    struct channel_loads loads;
    struct model_in in;
    model_input(&in, cfg, &t, &loads);
    struct model_result m;
    model_predict(&in, &m);
    model_input_free(&in);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = omit_timing ? NAN : (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    struct cfg_echo echo;
    run_config_echo(cfg, &m, &echo);
    bool written = report_write_analytic(out, cfg, &echo, t.label, t.nodes, t.channels, &m, fmt, seconds);
    loads_free(&loads);
    topo_free(&t);
    return written ? 0 : 1;
}
