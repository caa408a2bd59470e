/* Seed 003's claim (Sec. IV), analysis and simulation within 5%, over the range where it
 * holds here (reports/003-results.md shows the gaps beyond it): infinite buffers at
 * ρ = 0.05 and 0.1, finite buffers at ρ = 0.05 ... 0.3, 100000 messages each
 * (tests/unit/test_model_wormhole_hypercube.c checks ρ = 0.1 with 20000). */
#include "../common/checks.h"
#include "../common/test.h"

START_TEST(simulation_within_the_seeds_five_percent)
{
    for (double rho = 0.05; rho < 0.11; rho += 0.05)
        within_seed_claim(rho, false, 100000);
    for (double rho = 0.05; rho < 0.31; rho += 0.05)
        within_seed_claim(rho, true, 100000);
}
END_TEST

Suite *model_wormhole_hypercube_suite(void)
{
    Suite *s = suite_create("model_wormhole_hypercube");
    TCase *tc = tcase_create("kim-das");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, simulation_within_the_seeds_five_percent);
    suite_add_tcase(s, tc);
    return s;
}
