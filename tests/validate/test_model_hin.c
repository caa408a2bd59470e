/* Seed 000's hin model against the simulation, as in tests/unit/test_model_hin_sim.c
 * but long: lengths re-drawn per hop, 20 seeds of 1,000,000 messages (at least 17
 * intervals must cover the model); lengths kept, 2,000,000 messages (within 10 %). */
#include "../common/checks.h"
#include "../common/test.h"

START_TEST(simulation_redrawn_lengths_cover_model)
{
    check_hin_redrawn_lengths_cover_model(20, 1000000);
}
END_TEST

START_TEST(simulation_kept_lengths_close_to_model)
{
    check_hin_kept_lengths_close_to_model(2000000);
}
END_TEST

Suite *model_hin_suite(void)
{
    Suite *s = suite_create("model_hin");
    TCase *tc = tcase_create("simulation");
    tcase_set_timeout(tc, 3600);
    tcase_add_test(tc, simulation_redrawn_lengths_cover_model);
    tcase_add_test(tc, simulation_kept_lengths_close_to_model);
    suite_add_tcase(s, tc);
    return s;
}
