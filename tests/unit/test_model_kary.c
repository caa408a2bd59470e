/* Seed 002 (Agarwal 1991): the k-ary n-cube models (analytic/kary_*.c) against every
 * number the paper prints (configs/002/published.csv, each row at its printed precision;
 * rows the paper's own formulas do not give are checked to stay out of it, as the
 * reports say), the note's worked examples, the paper's plotted claims that are
 * orderings rather than numbers, and the limiting cases (no load: base latency). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analytic/kary_limits.h"
#include "../common/test.h"

#define PUBLISHED "configs/002/published.csv"

/* The figure `name` ("model.figure") of the configuration at path with overrides. */
static double figure_of(const char *path, const char *const *overrides, size_t n_overrides, const char *name)
{
    struct config cfg;
    struct cfg_error err;
    ck_assert_msg(run_config_load(&cfg, path, overrides, n_overrides, &err), "%s: %s: %s", path, err.key, err.message);
    struct topo t;
    ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
    struct channel_loads l;
    struct model_in in;
    model_input(&in, &cfg, &t, &l);
    static struct model_result m;
    model_predict(&in, &m);
    model_input_free(&in);
    double v = NAN;
    bool found = false;
    for (unsigned i = 0; i < m.n_figures; i++) {
        char full[128];
        snprintf(full, sizeof full, "%s.%s", m.figures[i].model, m.figures[i].name);
        if (strcmp(full, name) == 0) {
            v = m.figures[i].value;
            found = true;
        }
    }
    loads_free(&l);
    topo_free(&t);
    ck_assert_msg(found, "%s: no figure %s", path, name);
    return v;
}

START_TEST(every_published_number)
{
    FILE *f = fopen(PUBLISHED, "r");
    ck_assert_msg(f != NULL, "cannot read %s", PUBLISHED);
    char line[1024];
    int rows = 0, agree = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, "id,", 3) == 0)
            continue;
        char *field[8];
        int k = 0;
        for (char *p = line, *end; k < 8 && p; p = end ? end + 1 : NULL) {
            end = k < 7 ? strchr(p, ',') : NULL;
            if (end)
                *end = '\0';
            field[k++] = p;
        }
        ck_assert_msg(k == 8, "short line in %s", PUBLISHED);
        char path[256];
        snprintf(path, sizeof path, "configs/002/%s", field[1]);
        const char *overrides[16];
        size_t n = 0;
        for (char *o = strtok(field[2], " "); o && n < 16; o = strtok(NULL, " "))
            overrides[n++] = o;
        double value = figure_of(path, overrides, n, field[3]);
        double published = atof(field[4]), tolerance = atof(field[5]);
        bool close = fabs(value - published) <= tolerance + 1e-12;
        if (strcmp(field[6], "agree") == 0) {
            ck_assert_msg(close, "%s: %s = %.6g, published %s ± %s", field[0], field[3], value, field[4], field[5]);
            agree++;
        } else {
            ck_assert_str_eq(field[6], "disagree");
            ck_assert_msg(!close, "%s: now agrees (%.6g); update published.csv and the reports", field[0], value);
        }
        rows++;
    }
    fclose(f);
    ck_assert_int_eq(rows, 44);
    ck_assert_int_eq(agree, 37);
}
END_TEST

START_TEST(worked_examples)
{
    /* note §3.10: eq. (10) at k = 10, n = 3, B = 4, ρ = 0.4 */
    double m = 0.4 / (4 * 4.5);
    ck_assert_double_eq_tol(kary_utilization(KARY_ONE_WAY_TORUS, m, 4, 4.5), 0.4, 1e-12);
    ck_assert_double_eq_tol(kary_contention(0.4, 4, 4.5, 3), 0.614540, 5e-7);
    ck_assert_double_eq_tol(kary_latency_cycles(KARY_ONE_WAY_TORUS, m, 4, 4.5, 3, 1, false), 25.796, 5e-4);
    /* base latency, fixed node size, N = 1024, n = 3, s = 4, L = 128 */
    struct kary_physical p = { .variant = KARY_ONE_WAY_TORUS, .wire = KARY_WIRE_PLANAR,
                               .constraint = KARY_FIXED_NODE_SIZE, .switch_delay = 4, .message_bits = 128,
                               .pins = 128, .locality = 1, .rate = 0.01 };
    struct kary_point pt;
    kary_physical_eval(&p, 1024, 3, &pt);
    ck_assert_double_eq_tol(pt.k, 10.0794, 5e-5);
    ck_assert_double_eq_tol(pt.kd, 4.5397, 5e-5);
    ck_assert_double_eq_tol(pt.W, 21.333, 5e-4);
    ck_assert_double_eq_tol(pt.B, 6, 1e-12);
    ck_assert_double_eq_tol(pt.clock, 7.1748, 5e-5);
    ck_assert_double_eq_tol(pt.base, 140.76, 5e-3);
    /* indirect: 4 x 4 switches, 5 stages, W = 16, s = 4, wire factor 8, m = 0.04 */
    ck_assert_double_eq_tol(kary_wire_factor(KARY_WIRE_PLANAR, 1024, 5), 8, 1e-12);
    ck_assert_double_eq_tol(kary_indirect_contention(0.32, 8, 4), 1.41176, 5e-6);
    ck_assert_double_eq_tol(kary_indirect_latency(0.04, 12, 5, 4, 8), 240.7, 0.05);
}
END_TEST

START_TEST(distances_widths_and_wires)
{
    ck_assert_double_eq(kary_kd(KARY_ONE_WAY_TORUS, 10), 4.5);
    ck_assert_double_eq(kary_kd(KARY_TWO_WAY_TORUS, 8), 2);
    ck_assert_double_eq_tol(kary_kd(KARY_TWO_WAY_TORUS, 5), (5 - 0.2) / 4, 1e-15);
    ck_assert_double_eq_tol(kary_kd(KARY_MESH, 4), (4 - 0.25) / 3, 1e-15);
    /* Sec. V-A: k_dl = (l^(1/n) k - 1)/2; l = 1 is uniform */
    ck_assert_double_eq_tol(kary_kd_local(KARY_ONE_WAY_TORUS, 32, 2, 0.81), 13.9, 1e-12);
    ck_assert_double_eq(kary_kd_local(KARY_ONE_WAY_TORUS, 32, 2, 1), 15.5);
    ck_assert_double_eq(kary_kd_local(KARY_ONE_WAY_TORUS, 32, 2, 1e-4), 0); /* a region of the source alone */
    ck_assert_double_eq(kary_latency_cycles(KARY_ONE_WAY_TORUS, 0.1, 4, 0, 2, 1, false), 4);
    /* Sec. IV-A: n -> n+1 at fixed N lengthens the longest wire by N^(1/(n(n+1))); with a
     * fixed bisection the message in flits grows by the same factor (Sec. IV-B) */
    double N = 65536;
    for (int n = 2; n < 8; n++) {
        double growth = pow(N, 1.0 / (n * (n + 1)));
        ck_assert_double_eq_tol(kary_wire_factor(KARY_WIRE_PLANAR, N, n + 1) / kary_wire_factor(KARY_WIRE_PLANAR, N, n),
                                growth, 1e-12 * growth);
        double Wn = kary_channel_width(KARY_FIXED_BISECTION, KARY_ONE_WAY_TORUS, pow(N, 1.0 / n), n, 0, 1, 0);
        double Wn1 = kary_channel_width(KARY_FIXED_BISECTION, KARY_ONE_WAY_TORUS, pow(N, 1.0 / (n + 1)), n + 1, 0, 1, 0);
        ck_assert_double_eq_tol(Wn / Wn1, growth, 1e-12 * growth);
    }
    /* the planar wire of a 3-D network is sqrt(k) (Sec. II-B); the 2-D wire is T^w(2) */
    ck_assert_double_eq_tol(kary_wire_factor(KARY_WIRE_PLANAR, 1000, 3), sqrt(10), 1e-12);
    ck_assert_double_eq(kary_wire_factor(KARY_WIRE_PLANAR, 1000, 2), 1);
    ck_assert_double_eq_tol(kary_wire_factor(KARY_WIRE_3D, 1000, 3), 1, 1e-12);
    /* Sec. IV-B: a binary n-cube (k = 2) with W-bit channels has bisection N W: W = b */
    ck_assert_double_eq(kary_channel_width(KARY_FIXED_BISECTION, KARY_ONE_WAY_TORUS, 2, 8, 0, 1, 0), 1);
    /* Sec. IV-C: 2 n W = 128 signal wires */
    ck_assert_double_eq(kary_channel_width(KARY_FIXED_NODE_SIZE, KARY_ONE_WAY_TORUS, 32, 2, 0, 0, 128), 32);
    ck_assert_double_eq(kary_channel_width(KARY_FIXED_NODE_SIZE, KARY_TWO_WAY_TORUS, 32, 2, 0, 0, 128), 16);
}
END_TEST

/* Eq. (5): E and V of the three-Bernoulli distribution p(v), summed term by term, give
 * eq. (3)'s w as the closed form with the exact variance. */
START_TEST(exact_variance_is_the_distribution_of_v)
{
    const double n = 3, kd = 4.5;
    for (double rho = 0.1; rho < 0.95; rho += 0.2) {
        double ri = rho / (n * kd), rs = (rho - ri) / kd, rc = (rho - ri) * (kd - 1) / kd;
        double p[4] = { (1 - rs) * (1 - rc) * (1 - ri),
                        rc * (1 - rs) * (1 - ri) + rs * (1 - rc) * (1 - ri) + ri * (1 - rc) * (1 - rs),
                        rc * rs * (1 - ri) + rs * ri * (1 - rc) + ri * rc * (1 - rs), rc * rs * ri };
        double total = 0, E = 0, E2 = 0;
        for (int v = 0; v < 4; v++) {
            total += p[v];
            E += v * p[v];
            E2 += v * v * p[v];
        }
        double V = E2 - E * E, w = V / (2 * E * (1 - E)) - 0.5; /* eq. (3) */
        ck_assert_double_eq_tol(total, 1, 1e-12);
        ck_assert_double_eq_tol(E, rho, 1e-12);
        ck_assert_double_eq_tol(kary_contention_exact(rho, 1, kd, n), w, 1e-12);
    }
    /* k = 3 (k_d = 1): eq. (8) is exactly 0, the exact variance is not */
    ck_assert_double_eq(kary_contention(0.5, 4, 1, 2), 0);
    ck_assert_double_gt(kary_contention_exact(0.5, 4, 1, 2), 0);
}
END_TEST

/* Sec. III-C: "the complete expression for V in (5) yields virtually the same curves"
 * for k = 4, n = 2, 3, 4, B = 4 (Fig. 4): within 5% up to ρ = 0.9. */
START_TEST(exact_variance_virtually_the_same_at_k4)
{
    for (int n = 2; n <= 4; n++)
        for (double rho = 0.1; rho <= 0.9 + 1e-9; rho += 0.1) {
            double m = rho / (4 * 1.5);
            double a = kary_latency_cycles(KARY_ONE_WAY_TORUS, m, 4, 1.5, n, 1, false);
            double b = kary_latency_cycles(KARY_ONE_WAY_TORUS, m, 4, 1.5, n, 1, true);
            ck_assert_msg(fabs(b - a) / a < 0.05, "n = %d, rho = %.1f: %g vs %g", n, rho, a, b);
        }
}
END_TEST

START_TEST(limiting_cases)
{
    /* no load: eq. (10) is the base latency n k_d + B, eq. (12) is eq. (2) */
    ck_assert_double_eq(kary_latency_cycles(KARY_ONE_WAY_TORUS, 0, 4, 4.5, 3, 1, false), 3 * 4.5 + 4);
    ck_assert_double_eq(kary_latency_cycles(KARY_ONE_WAY_TORUS, 0, 4, 4.5, 3, 1, true), 3 * 4.5 + 4);
    struct kary_physical p = { .variant = KARY_ONE_WAY_TORUS, .wire = KARY_WIRE_PLANAR,
                               .constraint = KARY_FIXED_WIDTH, .switch_delay = 4, .message_bits = 160, .width = 8,
                               .locality = 1, .rate = 0 };
    struct kary_point pt;
    kary_physical_eval(&p, 16384, 2, &pt);
    ck_assert_double_eq(pt.latency, pt.base);
    ck_assert_double_eq_tol(pt.base, (4 + 1) * (2 * 127 / 2.0 + 20), 1e-9); /* eq. (2) at n = 2: clock s + 1 */
    /* saturation at ρ = 1, and not before */
    double sat = kary_saturation_rate(KARY_ONE_WAY_TORUS, 4, 15.5);
    ck_assert(isinf(kary_latency_cycles(KARY_ONE_WAY_TORUS, sat, 4, 15.5, 2, 1, false)));
    ck_assert(isfinite(kary_latency_cycles(KARY_ONE_WAY_TORUS, 0.999 * sat, 4, 15.5, 2, 1, false)));
    ck_assert_double_eq_tol(kary_saturation_rate(KARY_TWO_WAY_TORUS, 4, 15.5), 2 * sat, 1e-15);
    /* k_d < 1 under load (k = 2): the model does not apply */
    ck_assert(isnan(kary_latency_cycles(KARY_ONE_WAY_TORUS, 0.1, 1, 0.5, 4, 1, false)));
    /* Fig. 5: at fixed ρ the latency grows linearly in B (eq. 10 with m = ρ/(B k_d)) */
    double t[4];
    for (int b = 0; b < 4; b++)
        t[b] = kary_latency_cycles(KARY_ONE_WAY_TORUS, 0.4 / ((b + 2) * 4.5), b + 2, 4.5, 3, 1, false);
    ck_assert_double_eq_tol(t[2] - t[1], t[1] - t[0], 1e-9);
    ck_assert_double_eq_tol(t[3] - t[2], t[1] - t[0], 1e-9);
}
END_TEST

static double contention(int n, double m, enum kary_constraint c, enum kary_wire w, double l)
{
    struct kary_physical p = { .variant = KARY_ONE_WAY_TORUS, .wire = w, .constraint = c, .switch_delay = 4,
                               .message_bits = 128, .width = 32, .bisection_per_node = 2, .pins = 128,
                               .locality = l, .rate = m };
    struct kary_point pt;
    kary_physical_eval(&p, 1024, n, &pt);
    return pt.latency;
}

/* Fig. 11 (N = 1K, L = 128, s = 4): the orderings the text states. */
START_TEST(figure_11_orderings)
{
    for (double m = 0.001; m < 0.0155; m += 0.002) {
        /* (a) unit wire, W = 32: higher n, lower latency */
        for (int n = 2; n < 5; n++)
            ck_assert_double_gt(contention(n, m, KARY_FIXED_WIDTH, KARY_WIRE_UNIT, 1),
                                contention(n + 1, m, KARY_FIXED_WIDTH, KARY_WIRE_UNIT, 1));
        /* (c) fixed bisection, W = k: 2-D outperforms the rest */
        for (int n = 3; n <= 5; n++)
            ck_assert_double_lt(contention(2, m, KARY_FIXED_BISECTION, KARY_WIRE_PLANAR, 1),
                                contention(n, m, KARY_FIXED_BISECTION, KARY_WIRE_PLANAR, 1));
        /* (d) fixed node size: 3-D best at low load (Sec. VI) */
        for (int n = 2; n <= 5; n++)
            if (n != 3)
                ck_assert_double_lt(contention(3, m, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 1),
                                    contention(n, m, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 1));
    }
    /* (b) with wire delay: at low load n = 3, 4, 5 are clearly better than 2-D, and wire
     * delay hurts the high dimensions */
    for (int n = 3; n <= 5; n++) {
        ck_assert_double_lt(contention(n, 0.001, KARY_FIXED_WIDTH, KARY_WIRE_PLANAR, 1),
                            0.85 * contention(2, 0.001, KARY_FIXED_WIDTH, KARY_WIRE_PLANAR, 1));
        ck_assert_double_gt(contention(n, 0.001, KARY_FIXED_WIDTH, KARY_WIRE_PLANAR, 1),
                            1.4 * contention(n, 0.001, KARY_FIXED_WIDTH, KARY_WIRE_UNIT, 1));
    }
    /* (b) and Sec. I: with wire delay the only constraint, 4-D is slightly better than the rest
     * (from m = 0.005 to 0.015; at m = 0.001 3-D is lower by 1%, beyond 0.02 5-D) */
    for (double m = 0.005; m < 0.0155; m += 0.005)
        for (int n = 2; n <= 5; n++)
            if (n != 4)
                ck_assert_double_lt(contention(4, m, KARY_FIXED_WIDTH, KARY_WIRE_PLANAR, 1),
                                    contention(n, m, KARY_FIXED_WIDTH, KARY_WIRE_PLANAR, 1));
    /* (d) 2-D poor above m = 0.01 (worst of all), 4-D best in a band of higher loads */
    for (int n = 3; n <= 5; n++)
        ck_assert_double_gt(contention(2, 0.015, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 1),
                            contention(n, 0.015, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 1));
    for (int n = 2; n <= 5; n++)
        if (n != 4)
            ck_assert_double_lt(contention(4, 0.02, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 1),
                                contention(n, 0.02, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 1));
    /* beyond the plotted n = 2..5 the best dimension at that load is higher still */
    struct kary_physical p = { .variant = KARY_ONE_WAY_TORUS, .wire = KARY_WIRE_PLANAR,
                               .constraint = KARY_FIXED_NODE_SIZE, .switch_delay = 4, .message_bits = 128,
                               .pins = 128, .locality = 1, .rate = 0.02 };
    ck_assert_int_eq(kary_best_dimension(&p, 1024, false, NULL), 6);
    p.rate = 0.001;
    ck_assert_int_eq(kary_best_dimension(&p, 1024, false, NULL), 3);
}
END_TEST

/* Fig. 12 (N = 1K, n = 2, B = 4, l^(1/2) = 0.9): at light load locality helps through the
 * hops, by about their 10%; at m = 0.012 the hop reduction accounts for under 6% of the
 * latency and the reduced bandwidth for the rest.  Fig. 13: locality (l = 0.3) helps 2-D
 * the most. */
START_TEST(locality_claims)
{
    double kd = 15.5, kdl = kary_kd_local(KARY_ONE_WAY_TORUS, 32, 2, 0.81);
    double light0 = kary_latency_cycles(KARY_ONE_WAY_TORUS, 0.001, 4, kd, 2, 1, false);
    double light1 = kary_latency_cycles(KARY_ONE_WAY_TORUS, 0.001, 4, kdl, 2, 1, false);
    ck_assert_double_eq_tol((light0 - light1) / light0, 0.10, 0.01);
    double heavy0 = kary_latency_cycles(KARY_ONE_WAY_TORUS, 0.012, 4, kd, 2, 1, false);
    double heavy1 = kary_latency_cycles(KARY_ONE_WAY_TORUS, 0.012, 4, kdl, 2, 1, false);
    double drop = (heavy0 - heavy1) / heavy0, hops = 2 * (kd - kdl) / heavy0;
    ck_assert_double_lt(hops, 0.06);
    ck_assert_double_gt(drop - hops, hops);                  /* bandwidth dominates */
    ck_assert_double_gt(drop, 2 * (light0 - light1) / light0); /* more at heavy load */
    for (int n = 3; n <= 5; n++)
        ck_assert_double_gt(contention(2, 0.005, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 1) /
                                contention(2, 0.005, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 0.3),
                            contention(n, 0.005, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 1) /
                                contention(n, 0.005, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 0.3));
}
END_TEST

/* Fig. 14 (1K, L = 128, s = 4, 128 pins; indirect 4 x 4, 5 stages, W = 16, clock s + 8):
 * (a) the indirect network has the highest bandwidth and, once loaded (m >= 0.01), the
 * lowest latency (at m = 0.001 3-D is lower: note §9 item 11); (b) the 2-D direct network
 * with locality is comparable (within 10%) at low load for l < 0.6 and at high load
 * (m = 0.02) for l < 0.3, and not for larger l. */
START_TEST(indirect_network_claims)
{
    double loads[] = { 0.01, 0.02, 0.03, 0.05 };
    for (size_t i = 0; i < sizeof loads / sizeof loads[0]; i++) {
        double indirect = kary_indirect_latency(loads[i], 12, 5, 4, 8);
        for (int n = 2; n <= 5; n++)
            ck_assert_double_lt(indirect, contention(n, loads[i], KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 1));
    }
    ck_assert_double_gt(contention(3, 0.001, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 1),
                        0.9 * kary_indirect_latency(0.001, 12, 5, 4, 8));
    double low = kary_indirect_latency(0.001, 12, 5, 4, 8), high = kary_indirect_latency(0.02, 12, 5, 4, 8);
    ck_assert_double_lt(contention(2, 0.001, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 0.59), 1.1 * low);
    ck_assert_double_gt(contention(2, 0.001, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 1), 1.1 * low);
    ck_assert_double_lt(contention(2, 0.02, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 0.3), 1.1 * high);
    ck_assert_double_gt(contention(2, 0.02, KARY_FIXED_NODE_SIZE, KARY_WIRE_PLANAR, 0.5), 1.1 * high);
}
END_TEST

/* The config wrappers: which model applies where, and the figures they print. */
static void predict_for(const char *const *settings, struct model_result *m)
{
    struct config cfg;
    test_config(&cfg, settings);
    struct topo t;
    struct cfg_error err;
    ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
    struct channel_loads l;
    struct model_in in;
    model_input(&in, &cfg, &t, &l);
    model_predict(&in, m);
    model_input_free(&in);
    loads_free(&l);
    topo_free(&t);
}

static double figure(const struct model_result *m, const char *model, const char *name)
{
    for (unsigned i = 0; i < m->n_figures; i++)
        if (strcmp(m->figures[i].model, model) == 0 && strcmp(m->figures[i].name, name) == 0)
            return m->figures[i].value;
    return NAN;
}

START_TEST(models_read_the_config)
{
    static struct model_result m;
    /* cut-through: kary-contention is the delay model, k_d measured without self; no
     * [physical] key, so no kary-physical figures */
    const char *cut[] = { "network.topology=kary-ncube", "network.radix=10", "network.dimension=3",
                          "network.bidirectional=false", "routing.switching=cut-through", "workload.length=constant",
                          "workload.mean_length=4", "workload.rate=0.0222222222222222", NULL };
    predict_for(cut, &m);
    ck_assert_str_eq(m.model, "kary-contention");
    double kd = 4.5 * 1000 / 999, rho = 0.4 * 1000 / 999, paper = 3 * kd * (1 + kary_contention(rho, 4, kd, 3)) + 4;
    ck_assert_double_eq_tol(figure(&m, "kary-contention", "kd"), kd, 1e-9);
    ck_assert_double_eq_tol(figure(&m, "kary-contention", "latency"), paper, 1e-9);
    ck_assert_double_eq_tol(m.delay_mean, paper - 0.5, 1e-9); /* Poisson: from the creation instant */
    ck_assert(isnan(figure(&m, "kary-physical", "kd")));
    ck_assert_ptr_nonnull(strstr(m.why, "eq. (10)"));
    /* router_delay + link_latency cycles per hop */
    const char *slow[] = { "network.topology=kary-ncube", "network.radix=10", "network.dimension=3",
                           "network.bidirectional=false", "routing.switching=cut-through", "routing.router_delay=1",
                           "routing.link_latency=2", "workload.length=constant", "workload.mean_length=4",
                           "workload.rate=0.0222222222222222", "physical.switch_delay=4", NULL };
    predict_for(slow, &m);
    ck_assert_double_eq_tol(figure(&m, "kary-contention", "latency"),
                            3 * kd * (3 + kary_contention(rho, 4, kd, 3)) + 4, 1e-9);
    ck_assert_double_eq_tol(figure(&m, "kary-physical", "kd"), 4.5, 1e-9); /* a [physical] key is set */
    /* store-and-forward: not a pipelined network */
    const char *saf[] = { "network.topology=kary-ncube", "network.radix=10", "network.dimension=3",
                          "network.bidirectional=false", "workload.length=constant", NULL };
    predict_for(saf, &m);
    ck_assert(isnan(figure(&m, "kary-contention", "kd")));
    ck_assert_ptr_nonnull(strstr(m.why, "kary-contention needs pipelined switching"));
    /* not a k-ary n-cube, or k = 2 */
    const char *cube[] = { "network.topology=hypercube", "routing.switching=cut-through", "workload.length=constant",
                           "physical.switch_delay=4", NULL };
    predict_for(cube, &m);
    for (unsigned i = 0; i < m.n_figures; i++)
        ck_assert(strncmp(m.figures[i].model, "kary-", 5) != 0);
    ck_assert_ptr_nonnull(strstr(m.why, "kary-contention needs a k-ary n-cube"));
    const char *binary[] = { "network.topology=kary-ncube", "network.radix=2", "network.dimension=4",
                             "network.bidirectional=false", "routing.switching=cut-through",
                             "workload.length=constant", NULL };
    predict_for(binary, &m);
    ck_assert_ptr_nonnull(strstr(m.why, "k >= 3"));
}
END_TEST

START_TEST(bad_physical_keys_are_refused)
{
    const char *bad[][3] = {
        { "physical.indirect_radix=1", "physical.indirect_radix", "2 x 2" },
        { "physical.nodes=1", "physical.nodes", "one node" },
        { "physical.dimension=1", "physical.dimension", "n >= 2" },
        { "physical.wire_delay=curved", "physical.wire_delay", "curved" },
        { "physical.constraint=fixed-cost", "physical.constraint", "fixed-cost" },
        { "physical.node_pins=0", "physical.node_pins", "greater than 0" },
        { "physical.locality_fraction=1.5", "physical.locality_fraction", "at most 1" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct config cfg;
        struct cfg_error err;
        const char *o[] = { bad[i][0] };
        ck_assert_msg(!run_config_load(&cfg, "configs/002/contention.ini", o, 1, &err), "%s accepted", bad[i][0]);
        ck_assert_str_eq(err.key, bad[i][1]);
        ck_assert_msg(strstr(err.message, bad[i][2]), "%s: %s", bad[i][0], err.message);
    }
}
END_TEST

/* `sim --analytic` answers on the seed's largest configuration (in well under 50 ms:
 * make bench measures it). */
START_TEST(analytic_on_the_largest_configuration)
{
    const char *argv[] = { test_binary(), "--analytic", "-f", "json", "configs/002/physical.ini", "-s",
                           "physical.indirect_radix=4", NULL };
    static char out[65536], err[4096];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
    const char *w = strstr(out, "\"wall_seconds\": ");
    ck_assert_ptr_nonnull(w);
    ck_assert_ptr_nonnull(strstr(out, "\"kary-physical\": {"));
}
END_TEST

/* Simulation (cut-through, configs/002/fig0[2-4].ini settings, 50000 messages) against
 * kary-contention's delay.mean.  The paper prints no error figures ("remarkable accuracy
 * even at high loads" for k = 10; Sec. III-C), so the tolerances are its qualitative
 * claims: at k = 10 within 10% and, for 4-flit packets, the model above the simulation
 * ("overestimates the latency for large packet sizes"); at k = 4 near saturation the model
 * below it (Fig. 4); on a mesh close at low load and below at heavy load; and at vanishing
 * load the model's value inside the 95% interval. */
static void simulate_on(const char *wrap, const char *k, const char *n, const char *B, const char *rate,
                        struct run_report *r)
{
    char radix[64], dim[64], len[64], m[64];
    snprintf(radix, sizeof radix, "network.radix=%s", k);
    snprintf(dim, sizeof dim, "network.dimension=%s", n);
    snprintf(len, sizeof len, "workload.mean_length=%s", B);
    snprintf(m, sizeof m, "workload.rate=%s", rate);
    bool torus = strcmp(wrap, "true") == 0;
    char wraps[64];
    snprintf(wraps, sizeof wraps, "network.wrap=%s", wrap);
    const char *settings[] = { "network.topology=kary-ncube", radix, dim, wraps,
                               torus ? "network.bidirectional=false" : "network.bidirectional=true",
                               "routing.switching=cut-through", "workload.length=constant", len, m,
                               "run.warmup_messages=5000", "run.messages=50000", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    ck_assert_int_eq(test_run(&cfg, r), KERNEL_DONE);
    ck_assert_str_eq(r->model.model, "kary-contention");
}

static void simulate(const char *k, const char *n, const char *B, const char *rate, struct run_report *r)
{
    simulate_on("true", k, n, B, rate, r);
}

START_TEST(simulation_against_the_contention_model)
{
    static struct run_report r;
    simulate("10", "2", "4", "0.0002", &r); /* vanishing load: n k_d + B - 1/2 */
    ck_assert_double_le(r.delay.ci95[0], r.model.delay_mean);
    ck_assert_double_ge(r.delay.ci95[1], r.model.delay_mean);
    simulate("10", "3", "1", "0.0888889", &r); /* ρ = 0.4 */
    ck_assert_double_lt(fabs(r.delay.mean - r.model.delay_mean) / r.model.delay_mean, 0.10);
    simulate("10", "2", "4", "0.0222222", &r); /* ρ = 0.4, 4-flit packets */
    ck_assert_double_lt(fabs(r.delay.mean - r.model.delay_mean) / r.model.delay_mean, 0.10);
    ck_assert_double_lt(r.delay.ci95[1], r.model.delay_mean);
    simulate("4", "2", "4", "0.1", &r); /* ρ = 0.64 at k = 4 */
    ck_assert_double_gt(r.delay.ci95[0], r.model.delay_mean);
    /* Sec. III-C, bidirectional mesh: accurate at low load (ρ = 0.2), the simulation higher at
     * heavy load (ρ = 0.5: the middle channels run at 0.77) */
    simulate_on("false", "10", "2", "4", "0.030303", &r);
    ck_assert_double_lt(fabs(r.delay.mean - r.model.delay_mean) / r.model.delay_mean, 0.05);
    simulate_on("false", "10", "2", "4", "0.0757576", &r);
    ck_assert_double_gt(r.delay.ci95[0], 1.1 * r.model.delay_mean);
}
END_TEST

Suite *model_kary_suite(void)
{
    Suite *s = suite_create("model_kary");
    TCase *tc = tcase_create("published");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_published_number);
    tcase_add_test(tc, worked_examples);
    tcase_add_test(tc, distances_widths_and_wires);
    tcase_add_test(tc, exact_variance_is_the_distribution_of_v);
    tcase_add_test(tc, exact_variance_virtually_the_same_at_k4);
    tcase_add_test(tc, limiting_cases);
    tcase_add_test(tc, figure_11_orderings);
    tcase_add_test(tc, locality_claims);
    tcase_add_test(tc, indirect_network_claims);
    tcase_add_test(tc, models_read_the_config);
    tcase_add_test(tc, bad_physical_keys_are_refused);
    tcase_add_test(tc, analytic_on_the_largest_configuration);
    suite_add_tcase(s, tc);
    TCase *sim = tcase_create("simulation");
    tcase_set_timeout(sim, 120);
    tcase_add_test(sim, simulation_against_the_contention_model);
    suite_add_tcase(s, sim);
    return s;
}
