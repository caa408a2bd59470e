/* Seed 004's simulated figures (Appendix B, Tables 5.1-5.2): the thesis's mean, σ and
 * max within 2 sd of the replications of each row, for at least 95% of the rows
 * (tests/common/appendix_b.c): every fourth row with 20 replications, and every row
 * with 50. */
#include "../common/checks.h"
#include "../common/test.h"

START_TEST(thesis_figures_within_replication_spread)
{
    check_thesis_figures(false);
}
END_TEST

START_TEST(thesis_figures_within_replication_spread_every_row)
{
    check_thesis_figures(true);
}
END_TEST

Suite *protocols_suite(void)
{
    Suite *s = suite_create("protocols");
    TCase *tc = tcase_create("appendix-b");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, thesis_figures_within_replication_spread);
    tcase_add_test(tc, thesis_figures_within_replication_spread_every_row);
    suite_add_tcase(s, tc);
    return s;
}
