/* The families' bisections (topo_bisection, topo_ops.bisection_side): the channels
 * crossing each way equal the closed forms of the papers the families follow, the cut
 * halves the terminals; without one, the search finds a cut (the known minima where they
 * are known), and an odd number of terminals has none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/test.h"

static uint64_t power(uint64_t b, unsigned e)
{
    uint64_t p = 1;
    while (e--)
        p *= b;
    return p;
}

/* Channels crossing each way on the network of `settings`; asserts both ways agree. */
static uint64_t crossing(const char *const *settings)
{
    struct config cfg;
    struct topo t;
    struct cfg_error err;
    test_config(&cfg, settings);
    ck_assert_msg(topo_build(&t, &cfg, &err), "%s: %s", settings[0], err.message);
    struct topo_bisection b;
    char why[160];
    ck_assert_msg(topo_bisection(&t, &b, why, sizeof why), "%s: %s", settings[0], why);
    ck_assert_msg(b.channels[0] == b.channels[1], "%s: %llu one way, %llu the other", settings[0],
                  (unsigned long long)b.channels[0], (unsigned long long)b.channels[1]);
    /* a half-duplex link serves both ways: half its bandwidth each way */
    double share = strcmp(cfg.network.links, "half-duplex") == 0 ? 0.5 : 1;
    ck_assert_double_eq(b.bandwidth[0], (double)b.channels[0] * cfg.network.bandwidth * share);
    topo_free(&t);
    return b.channels[0];
}

START_TEST(bisections_match_closed_forms)
{
    char a[64], b[64], c[64];
    for (unsigned n = 1; n <= 7; n++) { /* binary n-cube: 2^(n-1) links */
        snprintf(a, sizeof a, "network.dimension=%u", n);
        const char *const s[] = { "network.topology=hypercube", a, NULL };
        ck_assert_uint_eq(crossing(s), power(2, n - 1));
    }
    for (unsigned k = 2; k <= 8; k += 2)
        for (unsigned n = 1; n <= 3; n++) { /* rings cross twice with wrap-around links, once without */
            snprintf(a, sizeof a, "network.radix=%u", k);
            snprintf(b, sizeof b, "network.dimension=%u", n);
            const char *const torus[] = { "network.topology=torus", a, b, NULL };
            const char *const mesh[] = { "network.topology=mesh", a, b, NULL };
            const char *const one_way[] = { "network.topology=kary-ncube", a, b, "network.bidirectional=false", NULL };
            const char *const half[] = { "network.topology=torus", a, b, "network.links=half-duplex", NULL };
            uint64_t rings = power(k, n - 1);
            ck_assert_uint_eq(crossing(torus), 2 * rings);
            ck_assert_uint_eq(crossing(mesh), rings);
            if (k > 2)
                ck_assert_uint_eq(crossing(one_way), rings);
            ck_assert_uint_eq(crossing(half), 2 * rings);
        }
    for (unsigned S = 2; S <= 6; S += 2)
        for (unsigned L = 1; L <= 3; L++)
            for (unsigned conc = 1; conc <= 2; conc++) { /* HyperX: (S/2)^2 S^(L-1) links */
                snprintf(a, sizeof a, "network.radix=%u", S);
                snprintf(b, sizeof b, "network.dimension=%u", L);
                snprintf(c, sizeof c, "network.concentration=%u", conc);
                const char *const s[] = { "network.topology=hyperx", a, b, c, NULL };
                ck_assert_uint_eq(crossing(s), (S / 2) * (S / 2) * power(S, L - 1));
            }
    for (unsigned k = 2; k <= 6; k += 2)
        for (unsigned n = 2; n <= 3; n++) { /* k-ary n-tree: full bisection, k^n / 2 links */
            snprintf(a, sizeof a, "network.radix=%u", k);
            snprintf(b, sizeof b, "network.dimension=%u", n);
            const char *const s[] = { "network.topology=fat-tree", a, b, NULL };
            ck_assert_uint_eq(crossing(s), power(k, n) / 2);
        }
    /* dragonfly, g even: (g/2)^2 pairs of groups, a h / (g - 1) global links each */
    static const unsigned df[][4] = { { 3, 1, 4, 1 }, { 4, 2, 2, 1 }, { 2, 2, 2, 2 }, { 3, 3, 10, 2 }, { 5, 3, 16, 1 } };
    for (size_t i = 0; i < sizeof df / sizeof df[0]; i++) {
        char d[64];
        snprintf(a, sizeof a, "network.group_routers=%u", df[i][0]);
        snprintf(b, sizeof b, "network.global_links=%u", df[i][1]);
        snprintf(c, sizeof c, "network.groups=%u", df[i][2]);
        snprintf(d, sizeof d, "network.concentration=%u", df[i][3]);
        const char *const s[] = { "network.topology=dragonfly", a, b, c, d, NULL };
        unsigned g = df[i][2], copies = df[i][0] * df[i][1] / (g - 1);
        ck_assert_uint_eq(crossing(s), (uint64_t)(g / 2) * (g / 2) * copies);
    }
}
END_TEST

/* Without a cut in closed form the search finds one (an upper bound on the minimum); an
 * odd number of terminals has no bisection at all. */
START_TEST(without_a_closed_form_a_cut_is_searched)
{
    static const struct {
        const char *set[6];
        uint64_t channels; /* what the search finds: at most the cut named */
    } cases[] = {
        /* g = 9 groups of 4 routers, one terminal each: 4 groups and half a group on a side,
         * at most 4 x 4 global links plus the split group's */
        { { "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2", NULL }, 20 },
        /* CCC of dimension 3 (24 nodes): a cut along a cube dimension crosses 4 links */
        { { "network.topology=ccc", "network.dimension=3", NULL }, 4 },
        { { "network.topology=slim-fly", "network.q=5", NULL }, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct config cfg;
        struct topo t;
        struct cfg_error err;
        test_config(&cfg, cases[i].set);
        ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
        struct topo_bisection b;
        char why[160] = "";
        ck_assert_msg(topo_bisection(&t, &b, why, sizeof why), "%s: %s", cases[i].set[0], why);
        ck_assert(b.searched);
        fprintf(stderr, "  searched bisection of %s: %llu channels each way\n", t.label,
                (unsigned long long)b.channels[0]);
        if (cases[i].channels)
            ck_assert_uint_le(b.channels[0], cases[i].channels);
        ck_assert_uint_gt(b.channels[0], 0);
        topo_free(&t);
    }
    const char *odd[] = { "network.topology=torus", "network.radix=5", "network.dimension=2", NULL };
    struct config cfg;
    struct topo t;
    struct cfg_error err;
    test_config(&cfg, odd);
    ck_assert(topo_build(&t, &cfg, &err));
    struct topo_bisection b;
    char why[160] = "";
    ck_assert(!topo_bisection(&t, &b, why, sizeof why));
    ck_assert_msg(strstr(why, "odd number of terminals"), "%s", why);
    topo_free(&t);
}
END_TEST

/* Channels from side 0 to side 1 across side[] on t. */
static uint64_t across(const struct topo *t, const int8_t *side)
{
    struct hop hops[64];
    uint64_t n = 0;
    for (uint32_t x = 0; x < t->nodes; x++) {
        unsigned k = t->ops->neighbors(t, x, hops, 64);
        for (unsigned i = 0; i < k; i++)
            n += side[x] == 0 && side[hops[i].next] == 1;
    }
    return n;
}

/* On families whose minimum bisection is known the search finds it: the 8 x 8 torus
 * (16 channels each way), the 6-cube (32), the 4 x 4 mesh (4), a ring of 8 routers (2). */
START_TEST(search_finds_known_minima)
{
    static const struct {
        const char *set[5];
        uint64_t minimum;
    } cases[] = {
        { { "network.topology=torus", "network.radix=8", "network.dimension=2", NULL }, 16 },
        { { "network.topology=hypercube", "network.dimension=6", NULL }, 32 },
        { { "network.topology=mesh", "network.radix=4", "network.dimension=2", NULL }, 4 },
        { { "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges", NULL }, 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct config cfg;
        struct topo t;
        struct cfg_error err;
        test_config(&cfg, cases[i].set);
        ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
        int8_t *side = malloc(t.nodes);
        ck_assert(side && topo_bisection_search(&t, side));
        uint32_t upper = 0;
        for (uint32_t x = 0; x < t.terminals; x++)
            upper += side[x] == 1;
        ck_assert_uint_eq(2 * upper, t.terminals);
        ck_assert_msg(across(&t, side) == cases[i].minimum, "%s: %llu, the minimum is %llu", t.label,
                      (unsigned long long)across(&t, side), (unsigned long long)cases[i].minimum);
        free(side);
        topo_free(&t);
    }
}
END_TEST

Suite *bisection_suite(void)
{
    Suite *s = suite_create("bisection");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, bisections_match_closed_forms);
    tcase_add_test(tc, without_a_closed_form_a_cut_is_searched);
    tcase_add_test(tc, search_finds_known_minima);
    suite_add_tcase(s, tc);
    return s;
}
