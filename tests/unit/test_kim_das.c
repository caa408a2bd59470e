/* Seed 003 (Kim & Das 1994), the formulas of analytic/kim_das.c: against every number the
 * seed prints (n = 10, l = 200, t_u = 1, H{n-1|n-2} = 1, d_{n-1} = l/2, the Step 1
 * start P_b,s = l t_u λ_c,s, the LR routing examples), the note's worked examples
 * (§2.9, printed to 4 decimals for P_b and 2 for delays), the exact identities of its
 * §4.1, a brute-force enumeration of LR paths, and the paper's qualitative claims. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sf_gamma.h>

#include "../../analytic/kim_das.h"
#include "../../routing/routing.h"
#include "../../workloads/workload.h"
#include "../common/checks.h"
#include "../common/test.h"

static struct kd_traffic uniform10; /* 64 KiB each: static, off the stack */

static const struct kd_traffic *paper_cube(void)
{
    double p[KD_DIM_MAX + 1];
    kd_uniform(10, p);
    ck_assert(kd_traffic_init(&uniform10, 10, p));
    return &uniform10;
}

/* An arbitrary non-uniform P_k over 1..n (sums to 1). */
static void skewed(unsigned n, double *p)
{
    double total = 0;
    p[0] = 0;
    for (unsigned k = 1; k <= n; k++)
        total += p[k] = 1.0 / (k * k) + 0.3 * (k % 3);
    for (unsigned k = 1; k <= n; k++)
        p[k] /= total;
}

/* Note §2.9: n = 10, uniform, l = 200, t_u = 1, ρ = λ_g l = 0.2. */
START_TEST(worked_example_lr_wormhole_infinite_buffer)
{
    static const double pb[10] = { 0.1355, 0.1292, 0.1239, 0.1192, 0.1151, 0.1115, 0.1082, 0.1053, 0.1026, 0.1001 };
    struct kd_result r;
    kd_wormhole_lr(paper_cube(), 200, 0.001, false, &r);
    ck_assert(!r.saturated);
    for (unsigned s = 0; s < 10; s++)
        ck_assert_double_eq_tol(r.blocking[s], pb[s], 0.5e-4);
    ck_assert_double_eq_tol(r.delay_mean, 263.82, 0.005);
    ck_assert_double_eq_tol(r.delay_simple, 233.92, 0.005);
    ck_assert_double_eq(r.acceptance, 1);
}
END_TEST

START_TEST(worked_example_random_wormhole_infinite_buffer)
{
    struct kd_result r;
    kd_wormhole_random(paper_cube(), 200, 0.001, false, &r);
    ck_assert(!r.saturated);
    ck_assert_double_eq_tol(r.delay_mean, 285.96, 0.005);
    for (unsigned s = 0; s < 10; s++)
        ck_assert_double_eq_tol(r.blocking[s], 0.1431, 0.5e-4);
}
END_TEST

/* The seed's own numbers: d_{n-1} = l/2 at every load, H{n-1|n-2} = 1 for any P_k,
 * λ_t,0 = 0, and D_{n-1} = l (nothing downstream of the last channel). */
START_TEST(seed_printed_identities)
{
    for (unsigned n = 2; n <= 12; n++) {
        double p[KD_DIM_MAX + 1];
        skewed(n, p);
        static struct kd_traffic t;
        ck_assert(kd_traffic_init(&t, n, p));
        ck_assert_double_eq_tol(t.onward[n - 2][n - 1], 1, 1e-12);
        ck_assert_double_eq_tol(t.transit[0], 0, 1e-15);
        for (double rho = 0; rho < 0.6; rho += 0.1)
            for (int finite = 0; finite <= 1; finite++) {
                struct kd_result r;
                kd_wormhole_lr(&t, 200, rho / 200, finite, &r);
                if (r.saturated)
                    continue;
                ck_assert_double_eq_tol(r.length[n - 1], 100, 1e-12);
                ck_assert_double_eq_tol(r.delay[n - 1], 200, 1e-12);
            }
    }
}
END_TEST

/* The paper's procedure, literally: Step 1 P_b,s = l t_u λ_c,s, then d_s by (5), new
 * P_b,s by (9) (with (10) per channel), until nothing moves.  It must land on the
 * model's fixed point (reached there by one backward pass). */
START_TEST(paper_iteration_reaches_the_same_fixed_point)
{
    const struct kd_traffic *t = paper_cube();
    for (int finite = 0; finite <= 1; finite++)
        for (double rho = 0.05; rho <= 0.35; rho += 0.05) {
            double rate = rho / 200, pb[10], d[10];
            for (unsigned s = 0; s < 10; s++)
                pb[s] = 200 * t->channel * rate; /* Step 1 */
            double change = 1;
            int sweeps = 0;
            for (; change > 1e-13 && sweeps < 10000; sweeps++) {
                kd_blocking_lengths(t, 200, pb, d);
                change = 0;
                for (unsigned s = 0; s < 10; s++) {
                    double accepted = finite ? (1 - pb[s]) * rate : rate; /* eq. (10) */
                    double next = 2 * d[s] * t->channel * accepted;       /* eq. (9) */
                    change = fmax(change, fabs(next - pb[s]));
                    pb[s] = next;
                }
            }
            ck_assert_int_lt(sweeps, 10000);
            struct kd_result r;
            kd_wormhole_lr(t, 200, rate, finite, &r);
            for (unsigned s = 0; s < 10; s++) {
                ck_assert_double_eq_tol(pb[s], r.blocking[s], 1e-10);
                ck_assert_double_eq_tol(d[s], r.length[s], 1e-8);
            }
        }
}
END_TEST

/* Lemmas 2-4 and eq. (6) for uniform traffic, at several n and a skewed P_k. */
START_TEST(traffic_lemmas_hold)
{
    for (unsigned n = 1; n <= 20; n++)
        for (int kind = 0; kind < 2; kind++) {
            double p[KD_DIM_MAX + 1];
            if (kind)
                skewed(n, p);
            else
                kd_uniform(n, p);
            static struct kd_traffic t;
            ck_assert(kd_traffic_init(&t, n, p));
            double fresh = 0, transit = 0, h = 0;
            for (unsigned k = 1; k <= n; k++)
                h += k * p[k];
            ck_assert_double_eq_tol(t.hops_mean, h, 1e-12);
            for (unsigned s = 0; s < n; s++) {
                fresh += t.fresh[s];
                transit += t.transit[s];
                ck_assert_double_eq_tol(t.transit[s] + t.fresh[s], h / n, 1e-12); /* Lemma 4 */
                if (!kind) {
                    double N = ldexp(1, (int)n);
                    ck_assert_double_eq_tol(t.fresh[s], ldexp(1, (int)(n - s - 1)) / (N - 1), 1e-12);
                    ck_assert_double_eq_tol(t.ends[s], ldexp(1, -(int)(n - 1 - s)), 1e-12);
                }
            }
            ck_assert_double_eq_tol(fresh, 1, 1e-12);         /* Σ λ_n,s = λ_n */
            ck_assert_double_eq_tol(transit, h - 1, 1e-12);   /* (2b) */
            if (!kind)
                ck_assert_double_eq_tol(h, n * ldexp(1, (int)n - 1) / (ldexp(1, (int)n) - 1), 1e-12);
        }
}
END_TEST

/* Eqs. (1), (3), (6), (7) and (8)'s factors by enumerating every destination of node 0
 * (the cube is vertex-transitive) and its LR path, the dimensions in increasing order. */
START_TEST(traffic_matches_path_enumeration)
{
    for (unsigned n = 2; n <= 7; n++) {
        double p[KD_DIM_MAX + 1];
        skewed(n, p);
        static struct kd_traffic t;
        ck_assert(kd_traffic_init(&t, n, p));
        double transit[8] = { 0 }, fresh[8] = { 0 }, through[8] = { 0 }, ends[8] = { 0 };
        double cont[8] = { 0 }, fresh_cont[8] = { 0 }, fresh_ends[8] = { 0 }, onward[8][8] = { { 0 } },
               fresh_onward[8][8] = { { 0 } };
        for (uint32_t dst = 1; dst < (1u << n); dst++) {
            unsigned k = (unsigned)__builtin_popcount(dst);
            double w = p[k] / gsl_sf_choose(n, k);
            unsigned lowest = (unsigned)__builtin_ctz(dst);
            for (unsigned s = 0; s < n; s++) {
                if (!(dst >> s & 1))
                    continue;
                uint32_t above = dst >> (s + 1);
                through[s] += w;
                if (s == lowest)
                    fresh[s] += w;
                else
                    transit[s] += w;
                if (!above) {
                    ends[s] += w;
                    if (s == lowest)
                        fresh_ends[s] += w;
                    continue;
                }
                unsigned j = s + 1 + (unsigned)__builtin_ctz(above), rest = (unsigned)__builtin_popcount(above);
                cont[s] += w;
                onward[s][j] += w * rest;
                if (s == lowest) {
                    fresh_cont[s] += w;
                    fresh_onward[s][j] += w * rest;
                }
            }
        }
        for (unsigned s = 0; s < n; s++) {
            ck_assert_double_eq_tol(t.transit[s], transit[s], 1e-12);
            ck_assert_double_eq_tol(t.fresh[s], fresh[s], 1e-12);
            ck_assert_double_eq_tol(t.ends[s], ends[s] / through[s], 1e-12);
            ck_assert_double_eq_tol(t.fresh_ends[s], fresh[s] > 0 ? fresh_ends[s] / fresh[s] : 0, 1e-12);
            for (unsigned j = s + 1; j < n; j++) {
                ck_assert_double_eq_tol(t.onward[s][j], cont[s] > 0 ? onward[s][j] / cont[s] : 0, 1e-12);
                ck_assert_double_eq_tol(t.fresh_onward[s][j], fresh_cont[s] > 0 ? fresh_onward[s][j] / fresh_cont[s] : 0,
                                        1e-12);
            }
        }
    }
}
END_TEST

/* Limits: zero load gives (l + h_a - 1) t_u for every variant; uniform D_s = 2 d_s
 * (the paper's "D_s ≈ 2 d_s"); the last channel's infinite-buffer P_b equals VCT's
 * (h_a/n) ρ; P_b depends on λ_g and l only through ρ = λ_g l. */
START_TEST(limits_and_exact_relations)
{
    const struct kd_traffic *t = paper_cube();
    struct kd_result r, v, q;
    for (int finite = 0; finite <= 1; finite++) {
        kd_wormhole_lr(t, 200, 0, finite, &r);
        ck_assert_double_eq_tol(r.delay_mean, 200 + t->hops_mean - 1, 1e-9);
        kd_wormhole_random(t, 200, 0, finite, &r);
        ck_assert_double_eq_tol(r.delay_mean, 200 + t->hops_mean - 1, 1e-9);
        kd_cut_through(t, 200, 0, finite, &r);
        ck_assert_double_eq_tol(r.delay_mean, 200 + t->hops_mean - 1, 1e-9);
    }
    for (double rho = 0.05; rho < 0.4; rho += 0.05) {
        kd_wormhole_lr(t, 200, rho / 200, false, &r);
        kd_cut_through(t, 200, rho / 200, false, &v);
        kd_wormhole_lr(t, 37, rho / 37, false, &q);
        ck_assert_double_eq_tol(r.blocking[9], t->hops_mean / 10 * rho, 1e-12);
        ck_assert_double_eq_tol(v.blocking[0], t->hops_mean / 10 * rho, 1e-12);
        for (unsigned s = 0; s < 10; s++) {
            ck_assert_double_eq_tol(r.delay[s], 2 * r.length[s], 1e-9);
            ck_assert_double_eq_tol(q.blocking[s], r.blocking[s], 1e-12);
        }
    }
}
END_TEST

/* Eqs. (12)-(14): the roots satisfy the equations they solve, and eq. (13) saturates
 * exactly at λ_g = n / (2 h_a (h_a - 1) (l + h_a - 1)). */
START_TEST(random_routing_equations)
{
    const struct kd_traffic *t = paper_cube();
    double h = t->hops_mean, base = 200 + h - 1;
    for (double rho = 0.02; rho < 0.5; rho += 0.02) {
        double rate = rho / 200;
        struct kd_result r;
        kd_wormhole_random(t, 200, rate, false, &r);
        if (!r.saturated) {
            ck_assert_double_eq_tol(r.blocking[0], h / 10 * rate * r.delay_mean, 1e-12);
            ck_assert_double_eq_tol(r.delay_mean, base + r.blocking[0] * (h - 1) * r.delay_mean / 2, 1e-9);
        }
        kd_wormhole_random(t, 200, rate, true, &r);
        if (!r.saturated) {
            double a = rate * h * r.delay_mean;
            ck_assert_double_eq_tol(r.blocking[0], a / (10 + a), 1e-12);
            ck_assert_double_eq_tol(r.delay_mean, base + r.blocking[0] * (h - 1) * r.delay_mean / 2, 1e-9);
            ck_assert_double_eq_tol(r.acceptance, 1 - r.blocking[0], 1e-15);
        }
    }
    double limit = 10 / (2 * h * (h - 1) * base);
    struct kd_result below, above;
    kd_wormhole_random(t, 200, limit * (1 - 1e-9), false, &below);
    kd_wormhole_random(t, 200, limit * (1 + 1e-9), false, &above);
    ck_assert(!below.saturated);
    ck_assert(above.saturated);
}
END_TEST

/* Sec. IV's statements: finite buffers block less than infinite; the lowest channel
 * blocks more than the highest, more so as traffic grows; VCT P_b is linear in ρ;
 * random routing's delay is above LR's, and its infinite-buffer variant saturates
 * first; the finite-buffer LR wormhole never saturates (acceptance falls instead). */
START_TEST(qualitative_claims_of_section_iv)
{
    const struct kd_traffic *t = paper_cube();
    double gap = 0, lr_saturates = 0, rr_saturates = 0;
    for (double rho = 0.01; rho < 1.0; rho += 0.01) {
        double rate = rho / 200;
        struct kd_result inf, fin, rr, vct;
        kd_wormhole_lr(t, 200, rate, false, &inf);
        kd_wormhole_lr(t, 200, rate, true, &fin);
        kd_wormhole_random(t, 200, rate, false, &rr);
        kd_cut_through(t, 200, rate, false, &vct);
        ck_assert(!fin.saturated);
        ck_assert(fin.acceptance < 1 && fin.acceptance > 0);
        if (rr.saturated && !rr_saturates)
            rr_saturates = rho;
        if (inf.saturated && !lr_saturates)
            lr_saturates = rho;
        if (inf.saturated)
            continue;
        ck_assert_double_eq_tol(vct.blocking[3], t->channel * rho, 1e-12);
        for (unsigned s = 0; s < 10; s++)
            ck_assert(fin.blocking[s] < inf.blocking[s]);
        ck_assert(inf.blocking[0] - inf.blocking[9] > gap);
        gap = inf.blocking[0] - inf.blocking[9];
        if (!rr.saturated)
            ck_assert(rr.delay_mean > inf.delay_mean);
    }
    ck_assert(rr_saturates > 0 && lr_saturates > rr_saturates);
}
END_TEST

/* Sec. II-B: in a 6-cube, addresses differing in positions {0, 2, 3, 5} are routed
 * over channels 0, 2, 3, 5 in that order; 0 -> 15 uses channel 0 first, never after
 * channel 2.  (Channel i = dimension i, e-cube's correction order.) */
START_TEST(lr_routing_examples)
{
    const char *set[] = { "network.dimension=6", NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct topo t;
    struct cfg_error err;
    ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
    const struct route_ops *lr = route_find("ecube");
    static const struct {
        uint32_t dst;
        unsigned order[4];
    } cases[] = { { 1u | 4u | 8u | 32u, { 0, 2, 3, 5 } }, { 15, { 0, 1, 2, 3 } } };
    for (unsigned c = 0; c < 2; c++) {
        uint32_t at = 0;
        for (unsigned i = 0; i < 4; i++) {
            struct hop h = lr->next(&t, at, cases[c].dst, NULL);
            ck_assert_uint_eq(t.ops->channel_class(&t, h.channel), cases[c].order[i]);
            at = h.next;
        }
        ck_assert_uint_eq(at, cases[c].dst);
    }
    topo_free(&t);
}
END_TEST

Suite *kim_das_suite(void)
{
    Suite *s = suite_create("kim_das");
    TCase *tc = tcase_create("formulas");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, worked_example_lr_wormhole_infinite_buffer);
    tcase_add_test(tc, worked_example_random_wormhole_infinite_buffer);
    tcase_add_test(tc, seed_printed_identities);
    tcase_add_test(tc, paper_iteration_reaches_the_same_fixed_point);
    tcase_add_test(tc, traffic_lemmas_hold);
    tcase_add_test(tc, traffic_matches_path_enumeration);
    tcase_add_test(tc, limits_and_exact_relations);
    tcase_add_test(tc, random_routing_equations);
    tcase_add_test(tc, qualitative_claims_of_section_iv);
    tcase_add_test(tc, lr_routing_examples);
    suite_add_tcase(s, tc);
    return s;
}
