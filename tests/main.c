/* Runs every suite; exits non-zero if any test fails. */
#include <stdlib.h>

#include "test.h"

int main(void)
{
    SRunner *runner = srunner_create(eventq_suite());
    srunner_add_suite(runner, rng_suite());
    srunner_add_suite(runner, stats_suite());
    srunner_add_suite(runner, config_suite());
    srunner_add_suite(runner, cli_suite());
    srunner_add_suite(runner, loads_suite());
    srunner_add_suite(runner, topo_suite());
    srunner_add_suite(runner, destinations_suite());
    srunner_add_suite(runner, workloads_suite());
    srunner_add_suite(runner, network_suite());
    srunner_add_suite(runner, families_suite());
    srunner_add_suite(runner, protocols_suite());
    srunner_add_suite(runner, thesis_suite());
    srunner_add_suite(runner, model_000_suite());
    srunner_add_suite(runner, model_000_sim_suite());
    srunner_add_suite(runner, model_001_suite());
    srunner_add_suite(runner, backtracking_suite());
    srunner_add_suite(runner, routing_suite());
    srunner_add_suite(runner, model_003_suite());
    srunner_add_suite(runner, flit_suite());
    srunner_add_suite(runner, model002_suite());
    srunner_add_suite(runner, sweep_suite());
    srunner_add_suite(runner, run_values_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
