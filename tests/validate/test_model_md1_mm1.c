/* Seed 004's model against the simulation on every FIFO row of Table B.1 with 50
 * replications (tests/unit/test_model_md1_mm1.c checks every other triple with 20). */
#include "../common/checks.h"
#include "../common/test.h"

START_TEST(fifo_rows_track_the_thesis_model)
{
    check_fifo_rows_track_the_model(true);
}
END_TEST

Suite *model_md1_mm1_suite(void)
{
    Suite *s = suite_create("model_md1_mm1");
    TCase *tc = tcase_create("seed-004");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, fifo_rows_track_the_thesis_model);
    suite_add_tcase(s, tc);
    return s;
}
