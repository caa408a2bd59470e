/* The per-channel output against the analytic channel loads (issue 19), run short by
 * tests/unit/test_observe.c and long by tests/validate/test_network.c. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../sim/run/replicate.h"
#include "checks.h"
#include "test.h"

/* Column `name` of each row of a --channels file (numbers only). */
static int read_column(const char *path, const char *name, double *out, int max)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f, "%s: not written", path);
    char line[1024];
    ck_assert(fgets(line, sizeof line, f));
    int want = -1, c = 0;
    for (char *tok = strtok(line, ",\n"); tok; tok = strtok(NULL, ",\n"), c++)
        if (strcmp(tok, name) == 0)
            want = c;
    ck_assert_int_ge(want, 0);
    int rows = 0;
    while (fgets(line, sizeof line, f) && rows < max) {
        const char *p = line;
        for (int k = 0; k < want; k++)
            p = strchr(p, ',') + 1;
        out[rows++] = strtod(p, NULL);
    }
    fclose(f);
    return rows;
}

void check_channel_loads(int dimension, int seeds, long messages, double min_coverage)
{
    char dim[64], msgs[64], warm[64], path[64];
    snprintf(dim, sizeof dim, "network.dimension=%d", dimension);
    snprintf(msgs, sizeof msgs, "run.messages=%ld", messages);
    snprintf(warm, sizeof warm, "run.warmup_messages=%ld", messages / 5);
    snprintf(path, sizeof path, "build/channel-loads-%d.csv", (int)getpid());
    const char *set[] = { dim, "workload.rate=1", msgs, warm, NULL };
    int channels = dimension << dimension;
    double *u = calloc((size_t)seeds * (size_t)channels, sizeof *u), *d = calloc((size_t)channels, sizeof *d);
    ck_assert(u && d);
    double analytic[64];
    for (int s = 0; s < seeds; s++) {
        struct config cfg;
        test_config(&cfg, set);
        cfg.run.seed = (uint64_t)s + 1;
        cfg.files.channels = path;
        struct run_report r;
        enum kernel_stop why;
        struct cfg_error err;
        ck_assert_int_eq(run_replications(&cfg, 0, &r, &why, &err), 0);
        ck_assert_int_eq((int)r.classes, dimension);
        for (int c = 0; c < dimension; c++)
            analytic[c] = r.cls[c].analytic_utilization;
        ck_assert_int_eq(read_column(path, "utilization", u + (size_t)s * channels, channels), channels);
        ck_assert_int_eq(read_column(path, "dimension", d, channels), channels);
        unlink(path);
    }
    /* Each channel's interval from the seeds' utilisations: at 95% (how often it
     * covers the analytic load), and at 99.9% for all channels at once (Bonferroni),
     * which every channel must meet. */
    double t95 = gsl_cdf_tdist_Pinv(0.975, seeds - 1), tall = gsl_cdf_tdist_Pinv(1 - 0.0005 / channels, seeds - 1);
    int covered = 0;
    for (int ch = 0; ch < channels; ch++) {
        double mean = 0, m2 = 0;
        for (int s = 0; s < seeds; s++)
            mean += u[(size_t)s * channels + ch] / seeds;
        for (int s = 0; s < seeds; s++)
            m2 += pow(u[(size_t)s * channels + ch] - mean, 2);
        double se = sqrt(m2 / (seeds - 1) / seeds), exact = analytic[(int)d[ch]];
        covered += fabs(mean - exact) <= t95 * se;
        ck_assert_msg(fabs(mean - exact) <= tall * se, "channel %d: utilisation %.5f +- %.5f, analytic %.5f", ch, mean,
                      tall * se, exact);
    }
    fprintf(stderr, "channel loads: %d of %d channels' 95%% intervals cover the analytic load\n", covered, channels);
    ck_assert_msg(covered >= min_coverage * channels, "%d of %d channels covered", covered, channels);
    free(u);
    free(d);
}
