/* Seed 000 (Dandamudi & Eager): the hin model against every number the seed prints
 * (note 000 §6), at the printed precision, against the note's worked examples (§4.5),
 * its closed forms and limiting cases, and the built topologies.  Pure formulas:
 * no simulation here (see test_model_000_sim.c). */
#include <math.h>
#include <stdio.h>

#include <gsl/gsl_sf_gamma.h>

#include "../../analytic/hin_formulas.h"
#include "../common/test.h"

/* |x - printed| within half a unit of the printed last digit. */
#define ck_assert_printed(x, printed, unit) ck_assert_double_eq_tol((x), (printed), (unit) / 2.0 + 1e-12)

/* Fig. 6/7/10/11 parameters: λ = 1, μ_CL = 3. */
static const double LAMBDA = 1, MU = 3;

/* Worked example of note 000 §4.5: N = 1024, n = 16, α = 0.8. */
START_TEST(static_worked_example)
{
    struct hin_net bh = hin_net_cube(HIN_FLAT_BH, 10, 4), bhbh = hin_net_cube(HIN_BH, 10, 4);
    ck_assert_double_eq(hin_links(&bh), 5120);
    ck_assert_double_eq(hin_links(&bhbh), 2240);
    ck_assert_printed(hin_distance(&bh, 0.8), 2.6095, 1e-4);
    ck_assert_printed(hin_distance(&bhbh, 0.8), 3.0095, 1e-4);
    ck_assert_printed(hin_lp_ratio(&bhbh, 0.8), 0.5046, 1e-4);
}
END_TEST

/* Worked example of note 000 §4.5 and the paper's T14, T15 (Sec. IV-B, Fig. 12):
 * BH/BH, D = 6, d = 3, λ = 1, μ_CL = 1.5, μ_NCL = 3, random routing. */
START_TEST(queue_worked_example_and_fig12)
{
    struct hin_net h = hin_net_cube(HIN_BH, 6, 3);
    struct hin_queue q;
    hin_queue(&h, 0.5, 1, 1.5, 3, &q);
    ck_assert(!q.unstable);
    ck_assert_printed(q.delay, 15.1930, 1e-4);
    ck_assert_printed(q.cluster_utilization[1], 0.9444, 1e-4);
    ck_assert_printed(q.cluster_utilization[2], 0.3889, 1e-4);
    ck_assert_printed(q.cluster_utilization[3], 0.2778, 1e-4);
    ck_assert_printed(q.level2_utilization, 0.7619, 1e-4);
    ck_assert_printed(q.delay, 15.2, 0.1);                     /* T14: R = 15.2 */
    ck_assert_printed(100 * q.cluster_utilization[1], 94, 1);  /* T14: 94 % */
    hin_queue(&h, 0.6, 1, 1.5, 3, &q);
    ck_assert_printed(q.delay, 5.3, 0.1);                      /* T15: R = 5.3 */
    ck_assert_printed(100 * q.cluster_utilization[1], 82, 1);  /* T15: 82 % */
}
END_TEST

/* Table II: α = 1 - 1/√n as printed (0.67, 0.83, 0.86 rounded). */
START_TEST(table2_locality)
{
    static const struct {
        double n, alpha, unit;
    } rows[] = { { 4, 0.5, 0.1 },    { 9, 0.67, 0.01 },  { 16, 0.75, 0.01 },  { 25, 0.80, 0.01 },
                 { 36, 0.83, 0.01 }, { 49, 0.86, 0.01 }, { 64, 0.875, 0.001 } };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        ck_assert_printed(hin_nearest_neighbour_locality(rows[i].n), rows[i].alpha, rows[i].unit);
}
END_TEST

static void build(struct topo *t, const char *topology, int D, int d)
{
    char top[64], dim[64], cl[64];
    snprintf(top, sizeof top, "network.topology=%s", topology);
    snprintf(dim, sizeof dim, "network.dimension=%d", D);
    snprintf(cl, sizeof cl, "network.cluster_dimension=%d", d);
    const char *set[] = { top, dim, cl, NULL };
    struct config cfg;
    test_config(&cfg, set);
    struct cfg_error err;
    ck_assert_msg(topo_build(t, &cfg, &err), "%s", err.message);
}

/* T1 (Sec. II-C): BH/BH, N = 1024, n = 16 has 960 nodes of degree 4 and 64 of degree
 * 10; BH(10) has degree 10 everywhere. */
START_TEST(t1_degrees)
{
    struct topo t;
    build(&t, "bh-bh", 10, 4);
    struct hop hops[64];
    unsigned of_degree[16] = { 0 };
    for (uint32_t x = 0; x < t.nodes; x++)
        of_degree[t.ops->neighbors(&t, x, hops, 64)]++;
    ck_assert_uint_eq(of_degree[4], 960);
    ck_assert_uint_eq(of_degree[10], 64);
    topo_free(&t);
    build(&t, "hypercube", 10, 4);
    for (uint32_t x = 0; x < t.nodes; x++)
        ck_assert_uint_eq(t.ops->neighbors(&t, x, hops, 64), 10);
    topo_free(&t);
}
END_TEST

/* T2 (Sec. II-C): NCUBE/ten, 16 boards of 64 nodes: 512 half-duplex inter-board wires
 * per board for BH(10), 8 for BH/BH with d = 6 (a full-duplex link is two wires). */
START_TEST(t2_ncube_board_wires)
{
    struct hin_net bh = hin_net_cube(HIN_FLAT_BH, 10, 6), bhbh = hin_net_cube(HIN_BH, 10, 6);
    ck_assert_double_eq(2 * hin_cluster_exit_links(&bh), 512);
    ck_assert_double_eq(2 * hin_cluster_exit_links(&bhbh), 8);
}
END_TEST

/* Eqs. 1, 6, 9, 11, 13 as printed, and the links of the built topologies. */
START_TEST(link_counts)
{
    for (unsigned D = 3; D <= 14; D++)
        for (unsigned d = 1; d < D; d++) {
            double p = ldexp(1, (int)D - 1), K = ldexp(1, (int)(D - d));
            struct hin_net bh = hin_net_cube(HIN_FLAT_BH, D, d), bhbh = hin_net_cube(HIN_BH, D, d),
                           br = hin_net_cube(HIN_BR, D, d), cc = hin_net_cube(HIN_CC, D, d);
            ck_assert_double_eq(hin_links(&bh), D * p);
            ck_assert_double_eq(hin_links(&bhbh), d * p + (D - d) * ldexp(1, (int)(D - d) - 1));
            ck_assert_double_eq(hin_links(&br), K * (d * ldexp(1, (int)d - 1) + 1));
            ck_assert_double_eq(hin_links(&cc), d * p + K / 2 * (K - 1));
            /* note 000 §4.2: L_BH - L_BH/BH = (D-d) 2^(D-1) (1 - 1/n) (T6, A13) */
            ck_assert_double_eq_tol(hin_links(&bh) - hin_links(&bhbh), (D - d) * p * (1 - ldexp(1, -(int)d)), 1e-9);
        }
    for (unsigned dc = 3; dc <= 8; dc++) {
        struct hin_net ccc = hin_net_ccc(4, dc);
        ck_assert_double_eq(hin_links(&ccc), 4 * hin_nodes(&ccc) / 2 + 3 * dc * ldexp(1, (int)dc - 1));
    }
    static const struct {
        const char *topology;
        enum hin_kind kind;
        int D, d;
    } built[] = { { "hypercube", HIN_FLAT_BH, 7, 4 }, { "bh-bh", HIN_BH, 10, 4 }, { "bh-br", HIN_BR, 9, 3 },
                  { "bh-cc", HIN_CC, 9, 3 },          { "bh-ccc", HIN_CCC, 9, 3 } };
    for (size_t i = 0; i < sizeof built / sizeof built[0]; i++) {
        struct topo t;
        build(&t, built[i].topology, built[i].D, built[i].d);
        struct hin_net h = built[i].kind == HIN_CCC ? hin_net_ccc(3, 4)
                                                    : hin_net_cube(built[i].kind, built[i].D, built[i].d);
        ck_assert_double_eq(hin_links(&h), (double)t.links);
        ck_assert_double_eq(hin_nodes(&h), t.nodes);
        topo_free(&t);
    }
}
END_TEST

/* Eq. 4's double sum against its closed form, eqs. 8, 10, 12 as printed, and the
 * identity P_BH/BH - P_BH = (1-α) d/2 (note 000 §4.2, A12). */
START_TEST(distance_formulas)
{
    for (unsigned D = 2; D <= 16; D++)
        for (unsigned d = 0; d < D; d++) {
            double N = ldexp(1, (int)D), n = ldexp(1, (int)d), sum = 0;
            for (unsigned i = 1; i <= D - d; i++)
                for (unsigned j = 0; j <= d; j++)
                    sum += gsl_sf_choose(D - d, i) * gsl_sf_choose(d, j) * (i + j);
            double pbh2 = sum / (N - n), K = N / n;
            for (double a = 0; a <= 1.0001; a += 0.125) {
                struct hin_net bh = hin_net_cube(HIN_FLAT_BH, D, d), bhbh = hin_net_cube(HIN_BH, D, d),
                               br = hin_net_cube(HIN_BR, D, d), cc = hin_net_cube(HIN_CC, D, d);
                ck_assert_double_eq_tol(hin_distance(&bh, a), a * d / 2 + (1 - a) * pbh2, 1e-9);
                ck_assert_double_eq_tol(hin_distance(&bhbh, a),
                                        a * d / 2 + (1 - a) * ((D + d) * N / 2 - d * n) / (N - n), 1e-9);
                ck_assert_double_eq_tol(hin_distance(&br, a), a * d / 2 + (1 - a) * (d + K * K / (4 * (K - 1))), 1e-9);
                ck_assert_double_eq_tol(hin_distance(&cc, a), a * d / 2 + (1 - a) * (d + 1), 1e-9);
                ck_assert_double_eq_tol(hin_distance(&bhbh, a) - hin_distance(&bh, a), (1 - a) * d / 2, 1e-9);
            }
        }
    /* eq. 14 with Wittie's D_c = 4 level-2 distance 7 - 3 + 5/8 */
    struct hin_net ccc = hin_net_ccc(3, 4);
    ck_assert_double_eq_tol(hin_distance(&ccc, 0.8), 0.8 * 1.5 + 0.2 * (3 + 4.625), 1e-12);
}
END_TEST

/* The static P formulas against the mean shortest-path distance of the built
 * network under the α workload (self-messages included with 0), and A6: Wittie's
 * CCC distance is the BFS mean including self-pairs at D_c = 4 only. */
START_TEST(distance_against_built_networks)
{
    static const struct {
        const char *topology;
        enum hin_kind kind;
        int D, d;
    } nets[] = { { "hypercube", HIN_FLAT_BH, 7, 3 }, { "bh-bh", HIN_BH, 7, 3 }, { "bh-br", HIN_BR, 7, 3 },
                 { "bh-cc", HIN_CC, 7, 3 },          { "bh-ccc", HIN_CCC, 9, 3 } };
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        struct topo t;
        build(&t, nets[i].topology, nets[i].D, nets[i].d);
        uint32_t n = t.cluster_size, N = t.nodes;
        double intra = 0, inter = 0, level2 = 0, level2_self = 0; /* over every ordered pair */
        for (uint32_t s = 0; s < N; s++)
            for (uint32_t x = 0; x < N; x++) {
                double dist = t.ops->distance(&t, s, x);
                if (x / n == s / n)
                    intra += dist;
                else
                    inter += dist;
                if (s % n == 0 && x % n == 0) {
                    level2_self += dist;
                    if (x != s)
                        level2 += dist;
                }
            }
        double K = (double)N / n;
        intra /= (double)N * n;
        inter /= (double)N * (N - n);
        struct hin_net h = nets[i].kind == HIN_CCC ? hin_net_ccc(3, 4)
                                                   : hin_net_cube(nets[i].kind, nets[i].D, nets[i].d);
        for (double a = 0.5; a <= 1.0001; a += 0.25) {
            double exact = a * intra + (1 - a) * inter;
            if (nets[i].kind == HIN_CCC) /* eq. 14 uses Wittie's level-2 distance (A6) */
                ck_assert_double_eq_tol(exact - hin_distance(&h, a),
                                        (1 - a) * (level2 / (K * (K - 1)) - hin_level2_distance(&h)), 1e-9);
            else
                ck_assert_double_eq_tol(hin_distance(&h, a), exact, 1e-9);
        }
        if (nets[i].kind == HIN_CCC) { /* A6 at D_c = 4: Wittie = the mean including self-pairs */
            ck_assert_double_eq_tol(hin_level2_distance(&h), level2_self / (K * K), 1e-12);
            ck_assert(hin_level2_distance(&h) < level2 / (K * (K - 1))); /* distinct pairs: 4.698 */
        }
        topo_free(&t);
    }
}
END_TEST

/* Limiting cases (A23): at α = 1 every network has P = d/2 and every hierarchical
 * network the BH/BH cluster-only R; one cluster behaves like α = 1. */
START_TEST(limiting_cases)
{
    enum hin_kind kinds[] = { HIN_FLAT_BH, HIN_BH, HIN_BR, HIN_CC };
    struct hin_queue q, qbh;
    struct hin_net bhbh = hin_net_cube(HIN_BH, 9, 3);
    hin_queue(&bhbh, 1, LAMBDA, MU, MU, &qbh);
    ck_assert_double_eq_tol(qbh.delay, 1.5 / (MU - 0.5), 1e-12); /* every link λ/2, d/2 hops */
    for (size_t i = 0; i < 4; i++) {
        struct hin_net h = hin_net_cube(kinds[i], 9, 3);
        ck_assert_double_eq_tol(hin_distance(&h, 1), 1.5, 1e-12);
        hin_queue(&h, 1, LAMBDA, MU, MU, &q);
        ck_assert_double_eq_tol(q.delay, qbh.delay, 1e-12);
        ck_assert_double_eq(q.level2_utilization, 0);
    }
    struct hin_net one = hin_net_cube(HIN_BH, 4, 4);
    ck_assert_double_eq_tol(hin_distance(&one, 0.3), 2, 1e-12);
    hin_queue(&one, 0.3, LAMBDA, MU, MU, &q);
    ck_assert_double_eq_tol(q.delay, 2 / (MU - 0.5), 1e-12);
    /* the flat BH's cluster links carry λ/2 at every α (note 000 §4.3.1) */
    struct hin_net bh = hin_net_cube(HIN_FLAT_BH, 9, 3);
    for (double a = 0; a <= 1; a += 0.25) {
        hin_queue(&bh, a, LAMBDA, MU, MU, &q);
        ck_assert_double_eq_tol(q.cluster_rate[2], 0.5, 1e-15);
    }
}
END_TEST

/* Eq. 16's p(j) as printed against its closed form S_j/M_j/n, and the flow balance:
 * the j-level intercluster rate times the links equals (1-α) λ n (sources at
 * distance >= j) / n per cluster and direction. */
START_TEST(level_rates)
{
    for (unsigned d = 1; d <= 8; d++) {
        struct hin_net h = hin_net_cube(HIN_BH, d + 3, d);
        struct hin_queue q;
        hin_queue(&h, 0.25, 2, 1e9, 1e9, &q);
        double n = ldexp(1, (int)d);
        for (unsigned j = 1; j <= d; j++) {
            double below = 0;
            for (unsigned k = 0; k < j; k++)
                below += gsl_sf_choose(d, k);
            double links = (d - j + 1) * gsl_sf_choose(d, j - 1);
            double p = (n - below) / (links * n);
            ck_assert_double_eq_tol(q.cluster_rate[j], 0.25 * 2 / 2 + n * 2 * 0.75 * p, 1e-9);
        }
    }
}
END_TEST

static double lp(enum hin_kind kind, double a)
{
    struct hin_net h = kind == HIN_CCC ? hin_net_ccc(4, 4) : hin_net_cube(kind, 10, 4);
    return hin_lp_ratio(&h, a);
}

/* T3, T4 (Sec. III-A5, Fig. 3; N = 1024, n = 16): BH/BH has the lowest LP ratio over
 * a wide range of α; near α = 1 BH/BR and BH/CCC fall below it; below 1 even at α = 0. */
START_TEST(t3_t4_lp_ratios)
{
    for (double a = 0; a <= 0.9; a += 0.05) {
        ck_assert(lp(HIN_BH, a) < lp(HIN_BR, a));
        ck_assert(lp(HIN_BH, a) < lp(HIN_CC, a));
        ck_assert(lp(HIN_BH, a) < lp(HIN_CCC, a));
    }
    ck_assert(lp(HIN_BR, 0.999) < lp(HIN_BH, 0.999));
    ck_assert(lp(HIN_CCC, 0.999) < lp(HIN_BH, 0.999));
    ck_assert(lp(HIN_BH, 0) < 1);
    struct hin_net small = hin_net_cube(HIN_BH, 7, 4); /* Fig. 2: N = 128 */
    ck_assert(hin_lp_ratio(&small, 0) < 1);
}
END_TEST

/* T5 (Fig. 4, α = 0.8, n = 16): P of BH/BH "only 10 % higher" than BH.  Approximate
 * (A12): the exact difference is (1-α) d/2 = 0.4; the ratio falls from 1.17 to 1.13
 * as N goes from 2^7 to 2^15, so we check the claim's order: below 20 %. */
START_TEST(t5_distance_only_slightly_higher)
{
    for (unsigned D = 7; D <= 15; D++) {
        struct hin_net bh = hin_net_cube(HIN_FLAT_BH, D, 4), bhbh = hin_net_cube(HIN_BH, D, 4);
        double ratio = hin_distance(&bhbh, 0.8) / hin_distance(&bh, 0.8);
        ck_assert(ratio > 1.1 && ratio < 1.2);
        ck_assert_double_eq_tol(hin_distance(&bhbh, 0.8) - hin_distance(&bh, 0.8), 0.4, 1e-12);
    }
}
END_TEST

static void fig6(enum hin_kind kind, double a, struct hin_queue *q)
{
    struct hin_net h = kind == HIN_CCC ? hin_net_ccc(3, 4) : hin_net_cube(kind, 9, 3);
    hin_queue(&h, a, LAMBDA, MU, MU, q);
}

/* T7-T10 (Sec. III-B4, Fig. 6: d = 3, D = 9, D_c = 4, λ = 1, μ = 3): BH/BR saturates
 * over the plotted range (α < 0.95); BH/CCC saturates below α = 0.8 and not from 0.8
 * on; BH/BH and BH/CC are stable for α >= 0.5; the LR ratio falls as α grows. */
START_TEST(t7_to_t10_fig6)
{
    struct hin_queue q;
    for (double a = 0.5; a <= 0.95; a += 0.05) {
        fig6(HIN_BR, a, &q);
        ck_assert(q.unstable);
    }
    for (double a = 0.5; a < 0.79; a += 0.05) {
        fig6(HIN_CCC, a, &q);
        ck_assert(q.unstable);
    }
    for (double a = 0.8; a < 1.0001; a += 0.05) {
        fig6(HIN_CCC, a, &q);
        ck_assert(!q.unstable);
    }
    enum hin_kind kinds[] = { HIN_BH, HIN_CC };
    for (size_t i = 0; i < 2; i++) {
        struct hin_net h = hin_net_cube(kinds[i], 9, 3);
        double last = INFINITY;
        for (double a = 0.5; a <= 1.0001; a += 0.05) {
            fig6(kinds[i], a, &q);
            ck_assert(!q.unstable);
            double lr = hin_lr_ratio(&h, a, LAMBDA, MU, MU);
            ck_assert(lr < last);
            last = lr;
        }
    }
}
END_TEST

/* T11 (Fig. 7, d = 4, α = 0.8, μ = 3): the smallest integer i keeping level-2 links
 * below 80 %; BH/CCC needs a much higher level-2 rate than BH/BH at large N. */
START_TEST(t11_fig7_replication_rule)
{
    struct hin_net ccc = hin_net_ccc(4, 8), bhbh = hin_net_cube(HIN_BH, 15, 4);
    unsigned i = hin_replication_below(&ccc, 0.8, LAMBDA, MU, 0.8);
    struct hin_queue q;
    hin_queue(&ccc, 0.8, LAMBDA, MU, i * MU, &q);
    ck_assert(q.level2_utilization < 0.8);
    hin_queue(&ccc, 0.8, LAMBDA, MU, (i - 1) * MU, &q);
    ck_assert(q.level2_utilization >= 0.8);
    ck_assert_uint_eq(i, 5);
    ck_assert_uint_eq(hin_replication_below(&bhbh, 0.8, LAMBDA, MU, 0.8), 1);
    ck_assert_uint_eq(hin_replication_below(&ccc, 0.8, LAMBDA, MU, 0.8), 5);
    struct hin_net ccc4 = hin_net_ccc(4, 4); /* N = 1024 */
    ck_assert_uint_eq(hin_replication_below(&ccc4, 0.8, LAMBDA, MU, 0.8), 3);
}
END_TEST

/* T12 (Sec. IV-A, Fig. 10: d = 4, D = 15, D_c = 8, α = 0.8): BH/BH level-2 links are
 * busier than its cluster links, BH/CCC's (μ_NCL = 4 μ_CL) much more so; inside the
 * cluster utilisation falls with j (note 000 §8). */
START_TEST(t12_fig10_utilisations)
{
    struct hin_net ccc = hin_net_ccc(4, 8), bhbh = hin_net_cube(HIN_BH, 15, 4);
    struct hin_queue qb, qc;
    hin_queue(&bhbh, 0.8, LAMBDA, MU, MU, &qb);
    hin_queue(&ccc, 0.8, LAMBDA, MU, 4 * MU, &qc);
    for (unsigned j = 1; j <= 4; j++) {
        ck_assert(qb.level2_utilization > qb.cluster_utilization[j]);
        if (j > 1)
            ck_assert(qb.cluster_utilization[j] < qb.cluster_utilization[j - 1]);
    }
    ck_assert(qc.level2_utilization > qb.level2_utilization + 0.3);
    ck_assert_double_eq_tol(qc.cluster_utilization[1], qb.cluster_utilization[1], 1e-12);
}
END_TEST

static unsigned best_replication(const struct hin_net *base)
{
    unsigned best = 0;
    double least = INFINITY;
    for (unsigned r = 1; r <= 32; r++) {
        struct hin_net h = *base;
        h.replication = r;
        double lr = hin_lr_ratio(&h, 0.8, LAMBDA, MU, r * MU);
        if (lr < least) {
            least = lr;
            best = r;
        }
    }
    return best;
}

/* T13 (Sec. IV-A, Fig. 11): over integer r the LR ratio is least at r = 2 for BH/BH
 * and r = 8 for BH/CCC (D_c = 8, A1), with a broad knee; BH/CCC's best LR ratio comes
 * close to BH/BH's. */
START_TEST(t13_fig11_optimal_replication)
{
    struct hin_net ccc = hin_net_ccc(4, 8), bhbh = hin_net_cube(HIN_BH, 15, 4);
    ck_assert_uint_eq(best_replication(&bhbh), 2);
    ck_assert_uint_eq(best_replication(&ccc), 8);
    ccc.replication = 8;
    bhbh.replication = 2;
    double lc = hin_lr_ratio(&ccc, 0.8, LAMBDA, MU, 8 * MU), lb = hin_lr_ratio(&bhbh, 0.8, LAMBDA, MU, 2 * MU);
    ck_assert(fabs(lc - lb) / lb < 0.05);
    ccc.replication = 9; /* broad knee: the neighbour within 1 % */
    ck_assert(hin_lr_ratio(&ccc, 0.8, LAMBDA, MU, 9 * MU) < lc * 1.01);
}
END_TEST

Suite *model_hin_suite(void)
{
    Suite *s = suite_create("model_hin");
    TCase *tc = tcase_create("published");
    tcase_add_test(tc, static_worked_example);
    tcase_add_test(tc, queue_worked_example_and_fig12);
    tcase_add_test(tc, table2_locality);
    tcase_add_test(tc, t1_degrees);
    tcase_add_test(tc, t2_ncube_board_wires);
    tcase_add_test(tc, link_counts);
    tcase_add_test(tc, distance_formulas);
    tcase_add_test(tc, distance_against_built_networks);
    tcase_add_test(tc, limiting_cases);
    tcase_add_test(tc, level_rates);
    tcase_add_test(tc, t3_t4_lp_ratios);
    tcase_add_test(tc, t5_distance_only_slightly_higher);
    tcase_add_test(tc, t7_to_t10_fig6);
    tcase_add_test(tc, t11_fig7_replication_rule);
    tcase_add_test(tc, t12_fig10_utilisations);
    tcase_add_test(tc, t13_fig11_optimal_replication);
    suite_add_tcase(s, tc);
    return s;
}
