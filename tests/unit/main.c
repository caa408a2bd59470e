/* make test: every fast, deterministic suite (one per module, tests/unit/test_<name>.c
 * defines <name>_suite); exits non-zero if any check fails.  One suite or test case:
 * CK_RUN_SUITE=name, CK_RUN_CASE=name; each test's result: CK_VERBOSITY=verbose.
 * `run --shard K/N` runs every Nth suite from the Kth (make test splits the slow
 * sanitised run in two that way). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/test.h"

#define SUITES                                                                                                   \
    X(eventq)                                                                                                    \
    X(rng)                                                                                                       \
    X(stats)                                                                                                     \
    X(probe)                                                                                                     \
    X(params)                                                                                                    \
    X(config)                                                                                                    \
    X(config_input)                                                                                              \
    X(text_input)                                                                                                \
    X(output)                                                                                                    \
    X(file_identity)                                                                                             \
    X(cli)                                                                                                       \
    X(cli_polish)                                                                                                \
    X(channel_loads)                                                                                             \
    X(topo)                                                                                                      \
    X(destinations)                                                                                              \
    X(workloads)                                                                                                 \
    X(netrace)                                                                                                   \
    X(lengths)                                                                                                   \
    X(network)                                                                                                   \
    X(protocols)                                                                                                 \
    X(routing)                                                                                                   \
    X(saf_routing)                                                                                               \
    X(engine)                                                                                                    \
    X(backtracking)                                                                                              \
    X(flit)                                                                                                      \
    X(iq)                                                                                                        \
    X(iq_ties)                                                                                                   \
    X(recovery)                                                                                                  \
    X(simple_routing)                                                                                            \
    X(sweep)                                                                                                     \
    X(sweep_failures)                                                                                            \
    X(sweep_signals)                                                                                             \
    X(replication_jobs)                                                                                          \
    X(run_values)                                                                                                \
    X(model_mm1)                                                                                                 \
    X(model_md1_mm1)                                                                                             \
    X(model_hin)                                                                                                 \
    X(model_hin_sim)                                                                                             \
    X(model_backtracking_chain)                                                                                  \
    X(kim_das)                                                                                                   \
    X(model_wormhole_hypercube)                                                                                  \
    X(model_kary)                                                                                                \
    X(time_resolution)                                                                                           \
    X(signals)                                                                                                   \
    X(common_numbers)                                                                                            \
    X(observe)                                                                                                   \
    X(backlog)                                                                                                   \
    X(flit_dor)                                                                                                  \
    X(echo)                                                                                                      \
    X(router_nets)                                                                                               \
    X(graphs)                                                                                                    \
    X(up_down)                                                                                                   \
    X(zero_load)                                                                                                 \
    X(valiant_loads)                                                                                             \
    X(bisection)                                                                                                 \
    X(concentration)                                                                                             \
    X(request_reply)                                                                                             \
    X(deadlock_check)                                                                                            \
    X(iq_nets)                                                                                                   \
    X(router_classes)                                                                                            \
    X(router_escapes)                                                                                            \
    X(newcomer)

#define X(name) Suite *name##_suite(void);
SUITES
#undef X

int main(int argc, char **argv)
{
    int shard = 1, shards = 1, index = 0;
    if (argc != 1 && !(argc == 3 && strcmp(argv[1], "--shard") == 0 && sscanf(argv[2], "%d/%d", &shard, &shards) == 2 &&
                       shards >= 1 && shard >= 1 && shard <= shards)) {
        fprintf(stderr, "usage: %s [--shard K/N]\n", argv[0]);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* each suite's name shows as it starts, through make test's pipe */
    SRunner *runner = srunner_create(NULL);
#define X(name)                                                                                                  \
    if (index++ % shards == shard - 1)                                                                           \
        srunner_add_suite(runner, name##_suite());
    SUITES
#undef X
    srunner_run_all(runner, CK_ENV);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
