/* The families' bisections (topo_bisection, topo_ops.bisection_side): the channels
 * crossing each way equal the closed forms of the papers the families follow, the cut
 * halves the terminals, and families or parameters without one say so. */
#include <stdio.h>
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

START_TEST(without_a_closed_form_it_says_why)
{
    static const struct {
        const char *set[6];
        const char *says;
    } cases[] = {
        { { "network.topology=torus", "network.radix=5", "network.dimension=2", NULL }, "odd radix" },
        { { "network.topology=dragonfly", "network.group_routers=4", "network.global_links=2", NULL }, "groups" },
        { { "network.topology=ccc", "network.dimension=3", NULL }, "this family" },
        { { "network.topology=slim-fly", "network.q=5", NULL }, "this family" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct config cfg;
        struct topo t;
        struct cfg_error err;
        test_config(&cfg, cases[i].set);
        ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
        struct topo_bisection b;
        char why[160] = "";
        ck_assert(!topo_bisection(&t, &b, why, sizeof why));
        ck_assert_msg(strstr(why, cases[i].says), "%s: %s", cases[i].set[0], why);
        topo_free(&t);
    }
}
END_TEST

Suite *bisection_suite(void)
{
    Suite *s = suite_create("bisection");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, bisections_match_closed_forms);
    tcase_add_test(tc, without_a_closed_form_it_says_why);
    suite_add_tcase(s, tc);
    return s;
}
