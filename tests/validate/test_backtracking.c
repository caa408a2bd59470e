/* Seed 001's backtracking engine against the paper's qualitative claims about its 6-cube
 * simulations: 12 runs (tests/unit/test_backtracking.c has the engine's fast checks). */
#include <math.h>

#include "../common/checks.h"
#include "../common/test.h"

/* A figure the engine reported (sim/core/figures.h), by name. */
static double bt(const struct run_report *r, const char *name) { return test_figure(r, "backtracking", name); }

/* The paper's statements about its 6-cube simulations (configs/001/published.csv;
 * the seed prints no numbers): γ never degrades as λ grows (Fig. 9); P_A falls with
 * λ and rises with M (Fig. 7); at low λ the delay does not depend on M (Fig. 8); at
 * λ = 1 the smallest buffer (M = 6 = n) has a larger delay than M = 8, and beyond
 * that delay grows with M (Fig. 8's U shape); at high λ more buffers mean more
 * delay.  Measured at λ ≥ 2 the minimum moves to M = 6 itself (README). */
START_TEST(the_papers_stated_shapes_hold)
{
    const double rates[] = { 0.25, 1.0, 3.0 };
    const int buffers[] = { 6, 8, 10, 30 };
    double T[3][4], pa[3][4], gamma[3][4];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            const char *extra[] = { "run.warmup_time=1000", "run.duration=6000", NULL };
            struct config cfg;
            bt_config(&cfg, 6, buffers[j], rates[i], extra);
            struct run_report r;
            bt_run(&cfg, &r);
            T[i][j] = r.delay.mean;
            pa[i][j] = bt(&r, "acceptance");
            gamma[i][j] = bt(&r, "throughput");
        }
    for (int j = 0; j < 4; j++)
        for (int i = 1; i < 3; i++) {
            ck_assert_msg(gamma[i][j] > gamma[i - 1][j], "gamma fell with lambda at M = %d", buffers[j]);
            ck_assert_msg(pa[i][j] < pa[i - 1][j] || (pa[i][j] == 1 && pa[i - 1][j] == 1), /* none rejected */
                          "P_A rose with lambda at M = %d", buffers[j]);
        }
    for (int i = 1; i < 3; i++)
        for (int j = 1; j < 4; j++)
            ck_assert_msg(pa[i][j] > pa[i][j - 1], "P_A fell with M at lambda = %g", rates[i]);
    for (int j = 2; j < 4; j++)
        ck_assert_msg(fabs(T[0][j] / T[0][1] - 1) < 0.01, "low-load delay depends on M: %g vs %g", T[0][j], T[0][1]);
    ck_assert_msg(T[1][0] > T[1][1] && T[1][1] < T[1][2] && T[1][2] < T[1][3], "no U shape at lambda = 1: %g %g %g %g",
                  T[1][0], T[1][1], T[1][2], T[1][3]);
    for (int j = 1; j < 4; j++)
        ck_assert_msg(T[2][j] > T[2][j - 1], "delay fell with M at lambda = 3");
}
END_TEST

Suite *backtracking_suite(void)
{
    Suite *s = suite_create("backtracking");
    TCase *tc = tcase_create("engine");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, the_papers_stated_shapes_hold);
    suite_add_tcase(s, tc);
    return s;
}
