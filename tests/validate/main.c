/* make validate: the long statistical and seed-reproduction runs (minutes), one suite
 * per module as in tests/unit; exits non-zero if any check fails.  One suite or test
 * case: CK_RUN_SUITE=name, CK_RUN_CASE=name; each test's result: CK_VERBOSITY=verbose. */
#include <stdlib.h>

#include "../common/test.h"

#define SUITES                                                                                                   \
    X(topo)                                                                                                      \
    X(network)                                                                                                   \
    X(protocols)                                                                                                 \
    X(backtracking)                                                                                              \
    X(model_mm1)                                                                                                 \
    X(model_md1_mm1)                                                                                             \
    X(model_hin)                                                                                                 \
    X(model_backtracking_chain)                                                                                  \
    X(model_wormhole_hypercube)                                                                                  \
    X(deadlock_free)                                                                                              \
    X(dragonfly)

#define X(name) Suite *name##_suite(void);
SUITES
#undef X

int main(void)
{
    SRunner *runner = srunner_create(NULL);
#define X(name) srunner_add_suite(runner, name##_suite());
    SUITES
#undef X
    srunner_run_all(runner, CK_ENV);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
