/* Every network family simulated against the M/M/1 network model, as in
 * tests/unit/test_model_mm1.c but with 2,000,000 messages per family. */
#include "../common/checks.h"
#include "../common/test.h"

START_TEST(family_matches_the_open_network_model)
{
    check_family_matches_the_open_network_model(_i, 2000000);
}
END_TEST

Suite *model_mm1_suite(void)
{
    Suite *s = suite_create("model_mm1");
    TCase *tc = tcase_create("simulation");
    tcase_set_timeout(tc, 1200);
    tcase_add_loop_test(tc, family_matches_the_open_network_model, 0, families_count);
    suite_add_tcase(s, tc);
    return s;
}
