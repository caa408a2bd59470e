/* Routes on the largest topology instance of tests/unit/test_topo.c: the dual-bus
 * hypercube of width 6 and dimension 4 (1296 nodes on 20 buses each), whose all-pairs
 * BFS takes about 30 s (minutes under the sanitizers). */
#include "../common/checks.h"
#include "../common/test.h"

START_TEST(routes_are_shortest_paths_on_the_largest_instance)
{
    const char *const set[] = { "network.topology=dual-bus-hypercube", "network.width=6", "network.dimension=4",
                                NULL };
    check_routes_are_shortest_paths(set);
}
END_TEST

Suite *topo_suite(void)
{
    Suite *s = suite_create("topo");
    TCase *tc = tcase_create("structure");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, routes_are_shortest_paths_on_the_largest_instance);
    suite_add_tcase(s, tc);
    return s;
}
