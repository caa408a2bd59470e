/* A rate in flits (workload.rate_unit = flits): the mean whole flits each length
 * distribution gives (length_ops.mean_flits, workloads/lengths.c), what the run's
 * loading sets from it (sim/run/run_config.c) and the refusal of a distribution that
 * cannot give it.  The flits the engines then offer: tests/common/checks.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../sim/core/message.h"
#include "../../workloads/workload.h"
#include "../common/test.h"

/* Writes text to /tmp/simtest-PID-name; the path goes to p (256 bytes). */
static const char *write_file(char *p, const char *name, const char *text)
{
    snprintf(p, 256, "/tmp/simtest-%d-%s", (int)getpid(), name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return p;
}

/* workload.rate_unit = flits: the mean whole flits of a message, E[max(1, ceil(L / b))],
 * against hand-worked closed forms (b = network.bandwidth): exact to 1e-12, set by the
 * loading as workload.mean_flits, the message rate the rate over it, and the mean of
 * msg_flits over 200,000 draws within 5 standard errors of it (a rule the draws do not
 * follow would be caught there even where the closed form were mistaken too). */
START_TEST(mean_flits_are_exact)
{
    const double e = exp(1);
    const struct {
        const char *set[5];
        double flits;
    } cases[] = {
        { { "workload.length=fixed", "workload.mean_length=2.5", NULL }, 3 },
        { { "workload.length=fixed", "workload.mean_length=0.3", NULL }, 1 }, /* at least one flit */
        { { "workload.length=fixed", "workload.mean_length=5", "network.bandwidth=2", NULL }, 3 },
        { { "workload.length=constant", "workload.mean_length=4", NULL }, 4 },
        { { "workload.length=fixed", "workload.mean_length=1e10", NULL }, 4e9 }, /* the engines' cap */
        /* X = L / b exponential with mean mu: sum_{k>=0} P(X > k) = 1 / (1 - e^(-1/mu)) */
        { { "workload.length=exponential", "workload.mean_length=1", NULL }, 1 / (1 - 1 / e) },
        { { "workload.length=exponential", "workload.mean_length=4", "network.bandwidth=2", NULL },
          1 / (1 - exp(-0.5)) },
        { { "workload.length=exponential", "workload.mean_length=0.001", NULL }, 1 }, /* X > 0: ceil X >= 1 */
        /* q = 2/3: P(L > n) = q^n, sum_k q^floor(k b) */
        { { "workload.length=geometric", "workload.mean_length=3", NULL }, 3 },
        { { "workload.length=geometric", "workload.mean_length=3", "network.bandwidth=2", NULL }, 9 / 5.0 },
        { { "workload.length=geometric", "workload.mean_length=3", "network.bandwidth=1.5", NULL }, 45 / 19.0 },
        { { "workload.length=geometric", "workload.mean_length=3", "network.bandwidth=0.5", NULL }, 6 },
        { { "workload.length=geometric", "workload.mean_length=1", "network.bandwidth=1.5", NULL }, 1 },
        { { "workload.length=bimodal", "workload.short_length=0.5", "workload.long_length=2.5",
            "workload.long_fraction=0.5" }, 2 },
        { { "workload.length=bimodal", NULL }, 0.9 * 1 + 0.1 * 16 },
        { { "workload.length=bimodal", "workload.short_length=0.5", "workload.long_length=2.5",
            "workload.long_fraction=0.5", "network.bandwidth=2" }, 1.5 },
        { { "workload.length=empirical", "workload.empirical_lengths=0.5, 1.2, 3", "workload.empirical_weights=1, 2, 1",
            NULL }, 2 },
        { { "workload.length=empirical", "workload.empirical_lengths=0.5, 7, 3", "workload.empirical_weights=1, 0, 1",
            NULL }, 2 },
    };
    enum { DRAWS = 200000 };
    struct config *cfg = malloc(sizeof *cfg);
    ck_assert_ptr_nonnull(cfg);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *set[9] = { "workload.rate_unit=flits", "workload.rate=0.2" };
        size_t n = 2;
        for (size_t j = 0; j < 5 && cases[i].set[j]; j++)
            set[n++] = cases[i].set[j];
        set[n] = NULL;
        test_config(cfg, set);
        double want = cases[i].flits, b = cfg->network.bandwidth;
        ck_assert_msg(fabs(cfg->workload.mean_flits - want) <= 1e-12 * want, "case %zu (%s): %.17g flits, not %.17g",
                      i, cases[i].set[0], cfg->workload.mean_flits, want);
        ck_assert_double_eq_tol(cfg_message_rate(cfg), 0.2 / want, 1e-12);
        struct lengths lengths;
        ck_assert(length_init(&lengths, cfg));
        ck_assert_double_eq(length_mean_flits(&lengths, b), cfg->workload.mean_flits);
        struct rng g;
        rng_seed_stream(&g, 17, RNG_TEST, (uint32_t)i);
        double sum = 0, sum2 = 0;
        for (unsigned d = 0; d < DRAWS; d++) {
            double f = msg_flits(length_draw(&lengths, &g), b);
            sum += f;
            sum2 += f * f;
        }
        length_free(&lengths);
        double mean = sum / DRAWS, se = sqrt(fmax(sum2 / DRAWS - mean * mean, 0) / DRAWS);
        ck_assert_msg(fabs(mean - want) <= 5 * se + 1e-9 * want, "case %zu (%s): draws give %.6f flits, not %.6f (se %.2g)",
                      i, cases[i].set[0], mean, want, se);
    }
    free(cfg);
}
END_TEST

/* A length distribution that cannot give its mean whole flits refuses a rate in flits
 * with one line naming the file, the line and workload.rate_unit (exit 2): one without
 * mean_flits says NaN, and a geometric mean of 10^9 over a bandwidth of 1.5 has too many
 * terms to sum.  In messages the same lengths load. */
static void *stub_create(const void *params, const struct config *cfg)
{
    (void)params, (void)cfg;
    return malloc(1);
}
static double stub_draw(const void *state, struct rng *r)
{
    (void)state, (void)r;
    return 1;
}

START_TEST(rate_in_flits_refused_without_mean_flits)
{
    const struct length_ops stub = { .name = "stub", .help = "", .create = stub_create, .draw = stub_draw,
                                     .free = free };
    struct lengths l = { .ops = &stub, .state = stub_create(NULL, NULL) };
    ck_assert(isnan(length_mean_flits(&l, 1)));
    length_free(&l);

    const char *text = "[network]\nbandwidth = 1.5\n[workload]\nrate = 0.1\nrate_unit = flits\n"
                       "length = geometric\nmean_length = 1e9\n";
    const char *message = "geometric lengths of mean 1e+09 do not give the mean whole flits of a message over "
                          "bandwidth 1.5, E[max(1, ceil(length / bandwidth))]: state workload.rate in messages";
    char path[256], line[1024];
    const char *ini = write_file(path, "flits.ini", text);
    struct config *cfg = malloc(sizeof *cfg);
    ck_assert_ptr_nonnull(cfg);
    struct cfg_error err;
    ck_assert(!run_config_load(cfg, ini, NULL, 0, &err));
    ck_assert_str_eq(err.file, ini);
    ck_assert_int_eq(err.line, 5);
    ck_assert_str_eq(err.key, "workload.rate_unit");
    ck_assert_str_eq(err.message, message);
    const char *in_messages[] = { "workload.rate_unit=messages" };
    ck_assert_msg(run_config_load(cfg, ini, in_messages, 1, &err), "%s", err.message);
    free(cfg);

    const char *argv[] = { test_binary(), "--no-progress", ini, NULL };
    char out[4096], errs[4096];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, errs, sizeof errs), 2);
    snprintf(line, sizeof line, "%s:5: workload.rate_unit: %s\n", ini, message);
    ck_assert_str_eq(errs, line);
    ck_assert_str_eq(out, "");
    unlink(ini);
}
END_TEST

/* The arrival's check reads the message rate the loading derives: a Bernoulli rate of
 * 1.5 flits is 0.6 messages per cycle with bimodal lengths (2.5 flits on average, their
 * mean length implied, not the key's default of 1), and 1.5 messages with one-flit
 * messages, which no Bernoulli process offers. */
START_TEST(arrival_check_reads_the_rate_in_messages)
{
    struct config *cfg = malloc(sizeof *cfg);
    ck_assert_ptr_nonnull(cfg);
    const char *bimodal[] = { "workload.arrival=bernoulli", "workload.rate=1.5", "workload.rate_unit=flits",
                              "workload.length=bimodal", NULL };
    test_config(cfg, bimodal);
    ck_assert_double_eq_tol(cfg_message_rate(cfg), 0.6, 1e-15);
    const char *one_flit[] = { "workload.arrival=bernoulli", "workload.rate=1.5", "workload.rate_unit=flits",
                               "workload.length=fixed", NULL };
    run_config_defaults(cfg);
    struct cfg_error err;
    for (size_t i = 0; one_flit[i]; i++) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", one_flit[i]);
        char *dot = strchr(buf, '.'), *eq = strchr(buf, '=');
        *dot = *eq = '\0';
        ck_assert(cfg_set(cfg, buf, dot + 1, eq + 1, "test", (int)i + 1, &err));
    }
    ck_assert(!run_config_workload(cfg, &err));
    ck_assert_str_eq(err.key, "workload.rate");
    free(cfg);
}
END_TEST

Suite *lengths_suite(void)
{
    Suite *s = suite_create("lengths");
    TCase *tc = tcase_create("flits");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, mean_flits_are_exact);
    tcase_add_test(tc, rate_in_flits_refused_without_mean_flits);
    tcase_add_test(tc, arrival_check_reads_the_rate_in_messages);
    suite_add_tcase(s, tc);
    return s;
}
