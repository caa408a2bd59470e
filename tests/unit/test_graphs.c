/* Slim Fly (topo/slim_fly.c) against its closed forms, and networks from graph files
 * (topo/graph_file.c): the example files, the edge list and anynet formats describing
 * one network alike, and every kind of bad file refused with its file and line.
 * tests/unit/test_topo.c checks both families against breadth-first search;
 * tests/common/checks.c's open-network check compares their channel loads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../topo/topo.h"
#include "../common/test.h"

static void build(struct topo *t, struct config *cfg, const char *const *settings)
{
    struct cfg_error err;
    test_config(cfg, settings);
    ck_assert_msg(topo_build(t, cfg, &err), "%s: %s", settings[1], err.message);
}

/* 2q^2 routers of network radix k' = (3q - delta)/2: (q - delta)/2 links within the
 * router's side and q across; diameter 2; c > 1 terminals of their own each. */
START_TEST(slim_fly_matches_its_closed_forms)
{
    const int cases[][3] = { { 5, 1, 1 }, { 7, -1, 1 }, { 3, -1, 2 }, { 13, 1, 4 }, { 11, -1, 1 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned q = (unsigned)cases[i][0], c = (unsigned)cases[i][2];
        int delta = cases[i][1];
        char qq[40], cc[48];
        snprintf(qq, sizeof qq, "network.q=%u", q);
        snprintf(cc, sizeof cc, "network.concentration=%u", c);
        const char *set[] = { "network.topology=slim-fly", qq, cc, NULL };
        struct config cfg;
        struct topo t;
        build(&t, &cfg, set);
        uint64_t R = 2ull * q * q, k = (uint64_t)((3 * (int)q - delta) / 2), T = c > 1 ? c * R : R;
        ck_assert_uint_eq(t.routers, R);
        ck_assert_uint_eq(t.terminals, T);
        ck_assert_uint_eq(t.nodes, c > 1 ? R + T : R);
        ck_assert_uint_eq(t.router_degree, k);
        ck_assert_uint_eq(t.degree, k + (c > 1 ? c : 0));
        ck_assert_uint_eq(t.router_diameter, 2);
        ck_assert_uint_eq(t.diameter, 2 + (c > 1 ? 2 : 0));
        ck_assert_uint_eq(t.channels, R * k + (c > 1 ? 2 * T : 0)); /* every router has exactly k' */
        ck_assert_uint_eq(t.ops->channels_in_class(&t, 0), R * (uint64_t)((int)q - delta) / 2);
        ck_assert_uint_eq(t.ops->channels_in_class(&t, 1), R * q);
        ck_assert_uint_eq(t.classes, 2 + (c > 1 ? 2 : 0));
        topo_free(&t);
    }
}
END_TEST

/* q must be an odd prime: 9 and 15 are odd, 16 is 4w (a power of two, delta = 0). */
START_TEST(slim_fly_refuses_what_is_not_an_odd_prime)
{
    static const char *const qs[] = { "network.q=9", "network.q=15", "network.q=16", "network.q=49" };
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        const char *set[] = { "network.topology=slim-fly", qs[i], NULL };
        struct config cfg;
        struct topo t;
        struct cfg_error err;
        test_config(&cfg, set);
        ck_assert_msg(!topo_build(&t, &cfg, &err), "%s accepted", qs[i]);
        ck_assert_str_eq(err.key, "network.q");
        ck_assert_msg(strstr(err.message, "odd prime"), "%s", err.message);
    }
}
END_TEST

/* Whether the channel dependencies of the canonical routes (minimal_hops()'s first hop
 * between every pair of terminals) close a cycle: depth-first search for a back edge. */
static bool canonical_dependencies_cycle(const struct topo *t)
{
    uint32_t C = t->channels;
    uint8_t *dep = calloc((size_t)C * C, 1), *state = calloc(C, 1);
    uint32_t *stack = malloc((size_t)C * sizeof *stack), *at = malloc((size_t)C * sizeof *at);
    for (uint32_t s = 0; s < t->terminals; s++)
        for (uint32_t d = 0; d < t->terminals; d++) {
            uint32_t cur = s, prev = UINT32_MAX;
            while (cur != d) {
                struct hop h;
                t->ops->minimal_hops(t, cur, d, &h, 1);
                if (prev != UINT32_MAX)
                    dep[(size_t)prev * C + h.channel] = 1;
                prev = h.channel;
                cur = h.next;
            }
        }
    bool cycle = false;
    for (uint32_t root = 0; root < C && !cycle; root++) {
        if (state[root])
            continue;
        uint32_t n = 0;
        stack[n] = root;
        at[n++] = 0;
        state[root] = 1;
        while (n && !cycle) {
            uint32_t c = stack[n - 1];
            if (at[n - 1] == C) {
                state[c] = 2;
                n--;
                continue;
            }
            uint32_t next = at[n - 1]++;
            if (!dep[(size_t)c * C + next])
                continue;
            if (state[next] == 1)
                cycle = true;
            else if (!state[next]) {
                state[next] = 1;
                stack[n] = next;
                at[n++] = 0;
            }
        }
    }
    free(dep);
    free(state);
    free(stack);
    free(at);
    return cycle;
}

/* Why slim-fly does not claim TOPO_MINIMAL_ACYCLIC: its minimal routes' channel
 * dependencies close cycles (as a ring's do), where HyperX's dimension order does not;
 * the iq router, which then takes a VC class per hop, refuses it on one VC. */
START_TEST(slim_fly_minimal_routes_have_cyclic_dependencies)
{
    const char *sf[] = { "network.topology=slim-fly", "network.q=3", NULL };
    const char *hx[] = { "network.topology=hyperx", "network.radix=3", "network.dimension=2", NULL };
    struct config cfg;
    struct topo t;
    build(&t, &cfg, sf);
    ck_assert(!(t.ops->traits & TOPO_MINIMAL_ACYCLIC));
    ck_assert(canonical_dependencies_cycle(&t));
    topo_free(&t);
    build(&t, &cfg, hx);
    ck_assert(!canonical_dependencies_cycle(&t));
    topo_free(&t);
    const char *argv[] = { test_binary(), "-s", "network.topology=slim-fly", "-s", "routing.algorithm=minimal", "-s",
                           "routing.switching=wormhole", "-s", "routing.router=iq", "configs/default.ini", NULL };
    char out[4096], err[4096];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "routing.virtual_channels: minimal on slim-fly needs 2 virtual channels"), "%s", err);
    ck_assert_str_eq(out, "");
}
END_TEST

/* The ring example: 8 routers, their own terminals, 16 channels, diameter 4. */
START_TEST(graph_ring_example_is_a_ring)
{
    const char *set[] = { "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges", NULL };
    struct config cfg;
    struct topo t;
    build(&t, &cfg, set);
    ck_assert_uint_eq(t.routers, 8);
    ck_assert_uint_eq(t.terminals, 8);
    ck_assert_uint_eq(t.nodes, 8);
    ck_assert_uint_eq(t.channels, 16);
    ck_assert_uint_eq(t.degree, 2);
    ck_assert_uint_eq(t.diameter, 4);
    for (uint32_t a = 0; a < 8; a++)
        for (uint32_t b = 0; b < 8; b++) {
            uint32_t around = a > b ? a - b : b - a;
            ck_assert_uint_eq(t.ops->distance(&t, a, b), around < 8 - around ? around : 8 - around);
        }
    topo_free(&t);
}
END_TEST

/* configs/graphs/irregular-6.edges and irregular-6.anynet describe one network (two
 * routers with two terminals, terminals numbered router-major): the same counts, the
 * same terminal attachment and the same distance between every pair of nodes. */
START_TEST(graph_edge_list_and_anynet_describe_one_network)
{
    const char *edges[] = { "network.topology=graph", "network.graph_file=configs/graphs/irregular-6.edges", NULL };
    const char *anynet[] = { "network.topology=graph", "network.graph_file=configs/graphs/irregular-6.anynet",
                             "network.graph_format=anynet", NULL };
    struct config ce, ca;
    struct topo te, ta;
    build(&te, &ce, edges);
    build(&ta, &ca, anynet);
    ck_assert_uint_eq(te.routers, 6);
    ck_assert_uint_eq(te.terminals, 8);
    ck_assert_uint_eq(te.nodes, 14);
    ck_assert_uint_eq(te.channels, 2 * 7 + 2 * 8);
    ck_assert_uint_eq(te.router_diameter, 3);
    ck_assert_uint_eq(ta.channels, te.channels);
    ck_assert_uint_eq(ta.nodes, te.nodes);
    for (uint32_t a = 0; a < te.nodes; a++)
        for (uint32_t b = 0; b < te.nodes; b++)
            ck_assert_uint_eq(ta.ops->distance(&ta, a, b), te.ops->distance(&te, a, b));
    /* terminals 0 and 1 share router 0: two terminal links apart */
    ck_assert_uint_eq(te.ops->distance(&te, 0, 1), 2);
    topo_free(&te);
    topo_free(&ta);
}
END_TEST

/* A bad file: refused with its path, the line (0: none) and the message. */
struct bad_graph {
    const char *format, *text;
    int line;
    const char *message;
};

static const struct bad_graph bad_graphs[] = {
    { "edges", "routers 3\n0 1\n1 5\n", 3, "unknown router 5 (the routers are 0 to 2)" },
    { "edges", "routers 3\n0 1\n2 2\n", 3, "router 2 is linked to itself" },
    { "edges", "routers 3\n0 1\n1 2\n# again\n1 0\n", 5, "the link 0 1 is listed twice (first on line 2)" },
    { "edges", "routers 4\n0 1\n2 3\n", 0, "the network is not connected: router 2 cannot be reached from router 0" },
    { "edges", "routers 9000\n", 1, "9000 routers: there must be 1 to 8192" },
    { "edges", "0 1\n", 1, "'routers N' must come before terminals and links" },
    { "edges", "routers 2\n0 1 5\n", 2,
      "a link is two router ids 'A B' (per-link latency and bandwidth are not supported: every link has the "
      "engines' own)" },
    { "edges", "routers 2\nterminals 1 300\n0 1\n", 2, "'300' terminals: a router has 0 to 256" },
    { "edges", "routers 2\nterminals 0\n0 1\n", 0, "the network has no terminals" },
    { "edges", "routers 2\n0\x01" "1\n", 2, "control byte 0x01 (a graph file is text)" },
    { "edges", "routers 2\r0 1\r", 1, "control byte 0x0d (a graph file is text)" },
    { "edges", "routers 2\nlink 0 1\n", 2, "expected 'routers N', 'terminals [ROUTER] C' or a link 'A B'" },
    { "edges", "", 0, "the file declares no routers ('routers N')" },
    { "anynet", "router 0 router 1 3\n", 1,
      "link latency 3: per-link latencies are not supported (every link has the engines' own); remove it or "
      "write 1" },
    { "anynet", "router 0 node 0 router 1\nnode 0 node 1\n", 2, "a node cannot be linked to a node" },
    { "anynet", "router 0 node 0 router 1\nrouter 1 node 0\n", 2,
      "node 0 is attached to router 1 here and to router 0 on line 1" },
    { "anynet", "router 0 node 0 router 2\nrouter 2 node 1\n", 0,
      "router ids must run from 0 without gaps: router 1 is never named" },
    { "anynet", "router 0 node 0 router 1\nrouter 1 node 2\n", 0,
      "node ids must run from 0 without gaps: node 1 is never named" },
    { "anynet", "router 0 node 0 router 9000\n", 1, "too many routers: router 9000 (ids 0 to 8191)" },
    { "anynet", "router 0 node 0 router 0\n", 1, "router 0 is linked to itself" },
    { "anynet", "switch 0 node 0\n", 1, "a line starts with 'router ID' or 'node ID'" },
};

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, len, f), len);
    fclose(f);
}

START_TEST(bad_graph_files_are_refused_with_file_and_line)
{
    char path[] = "/tmp/sim-graph-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    for (size_t i = 0; i < sizeof bad_graphs / sizeof bad_graphs[0]; i++) {
        const struct bad_graph *b = &bad_graphs[i];
        write_file(path, b->text, strlen(b->text));
        char file[600], format[64];
        snprintf(file, sizeof file, "network.graph_file=%s", path);
        snprintf(format, sizeof format, "network.graph_format=%s", b->format);
        const char *set[] = { "network.topology=graph", file, format, NULL };
        struct config cfg;
        struct topo t;
        struct cfg_error err;
        test_config(&cfg, set);
        ck_assert_msg(!topo_build(&t, &cfg, &err), "case %zu accepted", i);
        ck_assert_str_eq(err.file, path);
        ck_assert_int_eq(err.line, b->line);
        ck_assert_str_eq(err.key, "network.graph_file");
        ck_assert_str_eq(err.message, b->message);
    }
    /* a NUL byte, a line and a file past their limits */
    static char big[(16 << 20) + 16];
    memcpy(big, "routers 2\n0\0001\n", 14);
    write_file(path, big, 14);
    const char *fmt = "network.graph_format=edges";
    char file[600];
    snprintf(file, sizeof file, "network.graph_file=%s", path);
    const char *set[] = { "network.topology=graph", file, fmt, NULL };
    struct config cfg;
    struct topo t;
    struct cfg_error err;
    test_config(&cfg, set);
    ck_assert(!topo_build(&t, &cfg, &err));
    ck_assert_int_eq(err.line, 2);
    ck_assert_str_eq(err.message, "control byte 0x00 (a graph file is text)");
    memset(big, ' ', 5000);
    memcpy(big, "routers 2\n", 10);
    big[5000] = '\n';
    write_file(path, big, 5001);
    ck_assert(!topo_build(&t, &cfg, &err));
    ck_assert_int_eq(err.line, 2);
    ck_assert_str_eq(err.message, "the line is longer than 4096 bytes");
    memset(big, '\n', sizeof big);
    write_file(path, big, sizeof big);
    ck_assert(!topo_build(&t, &cfg, &err));
    ck_assert_int_eq(err.line, 0);
    ck_assert_str_eq(err.message, "the graph file is larger than 16777216 bytes");
    unlink(path);
    ck_assert(!topo_build(&t, &cfg, &err));
    ck_assert_msg(strstr(err.message, "cannot read the graph"), "%s", err.message);
}
END_TEST

/* From the command line: exit 2, one line naming file and line, nothing on stdout; and
 * the example config finds its graph relative to its own folder. */
START_TEST(graph_files_through_the_binary)
{
    char path[] = "/tmp/sim-graph-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "routers 3\n0 1\n1 7\n", 18), 18);
    close(fd);
    char file[600], expect[700];
    snprintf(file, sizeof file, "network.graph_file=%s", path);
    snprintf(expect, sizeof expect, "%s:3: network.graph_file: unknown router 7 (the routers are 0 to 2)\n", path);
    const char *argv[] = { test_binary(), "-s", "network.topology=graph", "-s", file, "-s", "routing.algorithm=minimal",
                           "configs/default.ini", NULL };
    char out[8192], err[4096];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(err, expect);
    ck_assert_str_eq(out, "");
    unlink(path);
    const char *ring[] = { test_binary(), "-s", "run.messages=2000", "configs/graph-ring.ini", NULL };
    ck_assert_int_eq(test_exec(ring, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strstr(out, "graph graphs/ring-8.edges: 8 routers"), "%s", out);
}
END_TEST

Suite *graphs_suite(void)
{
    Suite *s = suite_create("graphs");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, slim_fly_matches_its_closed_forms);
    tcase_add_test(tc, slim_fly_refuses_what_is_not_an_odd_prime);
    tcase_add_test(tc, slim_fly_minimal_routes_have_cyclic_dependencies);
    tcase_add_test(tc, graph_ring_example_is_a_ring);
    tcase_add_test(tc, graph_edge_list_and_anynet_describe_one_network);
    tcase_add_test(tc, bad_graph_files_are_refused_with_file_and_line);
    tcase_add_test(tc, graph_files_through_the_binary);
    suite_add_tcase(s, tc);
    return s;
}
