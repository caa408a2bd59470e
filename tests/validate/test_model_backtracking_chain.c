/* Seed 001's backtracking engine against the Markov chain, as in
 * tests/unit/test_model_backtracking_chain.c but over 200,000 cycles. */
#include "../common/checks.h"
#include "../common/test.h"

START_TEST(simulation_agrees_with_the_chain)
{
    check_simulation_agrees_with_the_chain("run.duration=200000");
}
END_TEST

Suite *model_backtracking_chain_suite(void)
{
    Suite *s = suite_create("model_backtracking_chain");
    TCase *tc = tcase_create("chain");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, simulation_agrees_with_the_chain);
    suite_add_tcase(s, tc);
    return s;
}
