/* Channel loads by flow conservation (analytic/channel_loads.c) against closed forms
 * and against the enumeration of every pair's path; a torus's ties as the engine that
 * runs the network breaks them. */
#include <math.h>
#include <stdlib.h>
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

/* --- torus ties: the rule of the engine that runs the network --- */

/* A torus of radix k and dimension n, 4-flit packets, uniform destinations with self, a
 * message rate of 0.025 per node (0.1 flits: configs/iq/torus-8x8.ini's load), the
 * router and tie rule given ("router=..." NULL: the store-and-forward engine). */
static void torus(struct analysed *a, unsigned k, unsigned n, const char *router, const char *tie, const char *order)
{
    char radix[32], dimension[32];
    snprintf(radix, sizeof radix, "network.radix=%u", k);
    snprintf(dimension, sizeof dimension, "network.dimension=%u", n);
    const char *set[] = { "network.topology=torus", radix, dimension, "workload.destination=uniform-with-self",
                          "workload.length=constant", "workload.mean_length=4", "workload.rate=0.025",
                          order, router ? "routing.switching=wormhole" : "routing.switching=store-and-forward",
                          router ? router : "run.seed=1", tie, NULL };
    analyse(a, set);
}

static bool negative_class(const struct topo *t, unsigned c)
{
    char name[24];
    t->ops->class_name(t, c, name, sizeof name);
    return name[strlen(name) - 1] == '-';
}

/* Uniform destinations with self on a k-ary ring: the mean distance is k/4 (k even) or
 * (k^2 - 1)/(4k) (k odd).  Ties drawn at random (k even) split it evenly: every channel
 * carries λ k/8 messages per time unit, a utilisation of λ L k/8 = 0.1 at k = 8 (0.1
 * flits per node).  The topology's rule sends a tie (distance k/2, probability 1/k)
 * the negative way: λ (k + 2)/8 on the negative channels, λ (k - 2)/8 on the positive
 * ones (0.125 and 0.075 at k = 8).  Either dimension order. */
START_TEST(iq_random_ties_load_both_directions_evenly)
{
    const char *orders[] = { "routing.dimension_order=ascending", "routing.dimension_order=descending" };
    const unsigned sizes[][2] = { { 4, 1 }, { 4, 3 }, { 6, 2 }, { 8, 1 }, { 8, 2 }, { 8, 3 }, { 10, 2 } };
    for (size_t o = 0; o < 2; o++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            double k = sizes[i][0], lambda = 0.025;
            struct analysed a;
            torus(&a, sizes[i][0], sizes[i][1], "routing.router=iq", "routing.tie=random", orders[o]);
            ck_assert(a.loads.known);
            for (unsigned c = 0; c < a.t.classes; c++) {
                ck_assert_msg(fabs(a.loads.class_rate[c] - lambda * k / 8) < 1e-12, "%gx%u %s class %u: %g", k,
                              sizes[i][1], orders[o], c, a.loads.class_rate[c]);
                ck_assert_double_eq_tol(a.loads.class_rate_max[c], a.loads.class_rate[c], 1e-12);
                ck_assert_double_eq_tol(a.loads.class_utilization[c], lambda * 4 * k / 8, 1e-12);
            }
            ck_assert_double_eq_tol(a.loads.max_utilization, lambda * 4 * k / 8, 1e-12);
            ck_assert_double_eq_tol(a.loads.mean_hops, sizes[i][1] * k / 4, 1e-12);
            release(&a);
            torus(&a, sizes[i][0], sizes[i][1], "routing.router=iq", "routing.tie=negative", orders[o]);
            for (unsigned c = 0; c < a.t.classes; c++)
                ck_assert_double_eq_tol(a.loads.class_rate[c], lambda * (negative_class(&a.t, c) ? k + 2 : k - 2) / 8,
                                        1e-12);
            ck_assert_double_eq_tol(a.loads.max_utilization, lambda * 4 * (k + 2) / 8, 1e-12);
            release(&a);
        }
    struct analysed a; /* configs/iq/torus-8x8.ini's figures */
    torus(&a, 8, 2, "routing.router=iq", "routing.tie=random", "routing.dimension_order=ascending");
    for (unsigned c = 0; c < a.t.classes; c++)
        ck_assert_double_eq_tol(a.loads.class_utilization[c], 0.1, 1e-12);
    release(&a);
    torus(&a, 8, 2, "routing.router=iq", "routing.tie=negative", "routing.dimension_order=ascending");
    for (unsigned c = 0; c < a.t.classes; c++)
        ck_assert_double_eq_tol(a.loads.class_utilization[c], negative_class(&a.t, c) ? 0.125 : 0.075, 1e-12);
    release(&a);
}
END_TEST

/* The stability check reads the same loads: at 0.9 flits per node (0.225 messages) the
 * 8x8 iq torus's busiest channel is loaded 0.9 under random ties, but 1.125 under
 * the negative rule, which refuses the run. */
START_TEST(stability_follows_the_tie_rule)
{
    const char *ties[] = { "routing.tie=random", "routing.tie=negative" };
    for (size_t i = 0; i < 2; i++) {
        const char *set[] = { "network.topology=torus", "network.radix=8", "network.dimension=2",
                              "routing.switching=wormhole", "routing.router=iq", ties[i],
                              "workload.destination=uniform-with-self", "workload.length=constant",
                              "workload.mean_length=4", "workload.rate=0.225", NULL };
        struct config cfg;
        test_config(&cfg, set);
        struct stability st;
        test_stability(&cfg, &st);
        ck_assert(st.known);
        ck_assert_double_eq_tol(st.channel_load, i == 0 ? 0.9 : 1.125, 1e-12);
        ck_assert(st.saturated == (i == 1));
    }
}
END_TEST

/* The simple router and store-and-forward take the topology's rule (a tie the negative
 * way) whatever routing.tie says, and so does the iq router on a 2-ary torus, whose
 * two ways are parallel channels: their loads keep the negative way's asymmetry. */
START_TEST(other_engines_keep_the_negative_tie)
{
    const char *routers[] = { "routing.router=simple", NULL };
    for (size_t r = 0; r < 2; r++)
        for (unsigned k = 4; k <= 8; k += 2) {
            struct analysed a;
            torus(&a, k, 2, routers[r], "routing.tie=random", "routing.dimension_order=ascending");
            for (unsigned c = 0; c < a.t.classes; c++) {
                double ways = negative_class(&a.t, c) ? k + 2.0 : k - 2.0;
                ck_assert_double_eq_tol(a.loads.class_rate[c], 0.025 * ways / 8, 1e-12);
            }
            release(&a);
        }
    struct analysed a;
    torus(&a, 2, 4, "routing.router=iq", "routing.tie=random", "routing.dimension_order=ascending");
    for (unsigned c = 0; c < a.t.classes; c++)
        ck_assert_double_eq_tol(a.loads.class_rate[c], negative_class(&a.t, c) ? 0.025 / 2 : 0, 1e-12);
    release(&a);
}
END_TEST

/* An odd radix has no ties: every rule gives each direction λ (k^2 - 1)/(8k). */
START_TEST(odd_radix_loads_are_unchanged)
{
    const char *ties[] = { "routing.tie=random", "routing.tie=negative" };
    const char *routers[] = { "routing.router=iq", "routing.router=simple", NULL };
    for (unsigned k = 3; k <= 9; k += 2)
        for (size_t r = 0; r < 3; r++)
            for (size_t i = 0; i < 2; i++) {
                struct analysed a;
                torus(&a, k, 2, routers[r], ties[i], "routing.dimension_order=ascending");
                for (unsigned c = 0; c < a.t.classes; c++)
                    ck_assert_double_eq_tol(a.loads.class_rate[c], 0.025 * (k * k - 1.0) / (8.0 * k), 1e-12);
                release(&a);
            }
}
END_TEST

/* Transpose on an 8x8 torus (not translation invariant: every destination is pushed),
 * channel by channel against each pair's paths taken from the digits alone: a dimension
 * whose two ways tie puts half the message on each way's k/2 channels under
 * tie = random, all of it on the negative way's under tie = negative; the class shortcut
 * agrees with the pair-by-pair push under uniform traffic too. */
static void expected_transpose(const struct topo *t, bool random_ties, double *rate)
{
    const unsigned k = 8;
    struct hop hops[8];
    memset(rate, 0, t->channels * sizeof *rate);
    for (uint32_t src = 0; src < t->nodes; src++) {
        uint32_t dst = src % k * k + src / k, at = src;
        for (unsigned d = 0; d < 2; d++) {
            unsigned from = d ? at / k : at % k, to = d ? dst / k : dst % k, negative = (from + k - to) % k;
            for (int way = 0; way < 2; way++) { /* 0: negative, 1: positive */
                unsigned steps = way ? (k - negative) % k : negative;
                double share = negative == 0 ? 0
                               : 2 * negative == k ? (random_ties ? 0.5 : way == 0)
                               : (2 * negative < k) == (way == 0);
                uint32_t x = at;
                for (unsigned s = 0; share > 0 && s < steps; s++) { /* the neighbour one step that way */
                    unsigned digit = d ? x / k : x % k, next = way ? (digit + 1) % k : (digit + k - 1) % k;
                    uint32_t y = d ? next * k + x % k : x / k * k + next;
                    unsigned n = t->ops->neighbors(t, x, hops, 8);
                    for (unsigned h = 0; h < n; h++)
                        if (hops[h].next == y)
                            rate[hops[h].channel] += 0.025 * share;
                    x = y;
                }
            }
            at = d ? dst : dst % k + at / k * k; /* dimension 0 corrected first */
        }
    }
}

START_TEST(random_ties_split_pair_by_pair)
{
    const char *ties[] = { "routing.tie=random", "routing.tie=negative" };
    double gap = 0;
    double *want[2];
    for (size_t i = 0; i < 2; i++) {
        const char *set[] = { "network.topology=torus", "network.radix=8", "network.dimension=2",
                              "routing.switching=wormhole", "routing.router=iq", ties[i],
                              "workload.destination=transpose", "workload.rate=0.025", NULL };
        struct analysed a;
        analyse(&a, set);
        ck_assert_uint_eq(a.loads.n_groups, a.t.channels);
        want[i] = malloc(a.t.channels * sizeof *want[i]);
        expected_transpose(&a.t, i == 0, want[i]);
        for (uint32_t ch = 0; ch < a.t.channels; ch++)
            ck_assert_msg(fabs(a.loads.groups[ch].rate - want[i][ch]) < 1e-12, "%s channel %u: %g, paths %g", ties[i],
                          ch, a.loads.groups[ch].rate, want[i][ch]);
        for (uint32_t ch = 0; i == 1 && ch < a.t.channels; ch++)
            gap = fmax(gap, fabs(want[0][ch] - want[1][ch]));
        release(&a);
    }
    ck_assert_double_ge(gap, 0.0125 - 1e-12); /* half a source's messages change ways somewhere */
    free(want[0]);
    free(want[1]);

    const char *uniform[] = { "network.topology=torus", "network.radix=6", "network.dimension=2",
                              "routing.switching=wormhole", "routing.router=iq", "routing.tie=random",
                              "routing.dimension_order=descending", "workload.rate=0.3", NULL };
    struct analysed a;
    analyse(&a, uniform);
    struct channel_loads by_pair;
    struct model_in in;
    model_input(&in, &a.cfg, &a.t, NULL);
    ck_assert(in.route & ROUTE_RANDOM_TIES);
    ck_assert(!(in.route & ROUTE_DETERMINISTIC));
    ck_assert(loads_compute_enumerated(&in, &by_pair));
    for (uint32_t ch = 0; ch < a.t.channels; ch++)
        ck_assert_double_eq_tol(by_pair.groups[ch].rate, a.loads.groups[a.t.ops->channel_class(&a.t, ch)].rate, 1e-12);
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
    tcase_add_test(tc, iq_random_ties_load_both_directions_evenly);
    tcase_add_test(tc, stability_follows_the_tie_rule);
    tcase_add_test(tc, other_engines_keep_the_negative_tie);
    tcase_add_test(tc, odd_radix_loads_are_unchanged);
    tcase_add_test(tc, random_ties_split_pair_by_pair);
    suite_add_tcase(s, tc);
    return s;
}
