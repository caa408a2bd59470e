/* Channel loads by flow conservation (analytic/channel_loads.c) against closed forms
 * and against the enumeration of every pair's path. */
#include <math.h>
#include <string.h>

#include "../common/test.h"

/* Hypercube, e-cube, uniform destinations: every channel carries λ 2^(n-1) / (2^n - 1)
 * messages per time unit; the mean path is n 2^(n-1) / (2^n - 1) hops. */
START_TEST(hypercube_channel_load_matches_closed_form)
{
    for (int n = 1; n <= 12; n++) {
        char dim[32];
        snprintf(dim, sizeof dim, "network.dimension=%d", n);
        const char *set[] = { dim, "workload.rate=0.3", NULL };
        struct analysed a;
        analyse(&a, set);
        const struct channel_loads *l = &a.loads;
        double share = ldexp(1, n - 1) / (ldexp(1, n) - 1);
        ck_assert_uint_eq(l->n_groups, (unsigned)n);
        for (size_t g = 0; g < l->n_groups; g++)
            ck_assert_double_eq_tol(l->groups[g].rate, 0.3 * share, 1e-12);
        ck_assert_double_eq_tol(l->mean_hops, n * share, 1e-12);
        ck_assert_double_eq_tol(l->max_utilization, 0.3 * share, 1e-12);
        release(&a);
    }
}
END_TEST

/* The one-source class shortcut and the full pair enumeration agree channel by channel. */
START_TEST(class_shortcut_agrees_with_enumeration)
{
    const char *set[] = { "network.dimension=7", "workload.rate=0.7", NULL };
    struct analysed a;
    analyse(&a, set);
    const struct channel_loads *by_class = &a.loads;
    struct channel_loads by_pair;
    struct model_in in;
    model_input(&in, &a.cfg, &a.t, NULL);
    ck_assert(loads_compute_enumerated(&in, &by_pair));
    ck_assert_uint_eq(by_pair.n_groups, a.t.channels);
    for (size_t ch = 0; ch < by_pair.n_groups; ch++)
        ck_assert_double_eq_tol(by_pair.groups[ch].rate,
                                by_class->groups[a.t.ops->channel_class(&a.t, (uint32_t)ch)].rate, 1e-12);
    ck_assert_double_eq_tol(by_pair.mean_hops, by_class->mean_hops, 1e-12);
    ck_assert_double_eq_tol(by_pair.max_utilization, by_class->max_utilization, 1e-12);
    loads_free(&by_pair);
    model_input_free(&in);
    release(&a);
}
END_TEST

Suite *channel_loads_suite(void)
{
    Suite *s = suite_create("channel_loads");
    TCase *tc = tcase_create("loads");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, hypercube_channel_load_matches_closed_form);
    tcase_add_test(tc, class_shortcut_agrees_with_enumeration);
    suite_add_tcase(s, tc);
    return s;
}
