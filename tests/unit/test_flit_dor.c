/* How the simple router builds paths.  Dimension-order paths walked on the digits
 * (routing/flit_dor.c) against the paths the topology gives hop by hop (ecube's path
 * selection, as draw_path() asks it), for every (source, destination) pair of tori,
 * meshes and one-way rings, ascending and descending: the same channels, nodes and
 * dateline classes.  Lazy paths: past saturation, messages waiting at their source
 * hold no worm (and no path) unless their path is drawn at random. */
#include <stdlib.h>
#include <string.h>

#include "../../routing/flit.h"
#include "../../routing/flit_dor.h"
#include "../../routing/flit_setup.h"
#include "../common/test.h"

/* The path and classes the general way: the next hop from the path selection at every
 * node; the class is 1 from the hop that crosses its dimension's wrap-around link on. */
static uint32_t reference_path(const struct flit_engine *e, uint32_t src, uint32_t dst, uint32_t *channel,
                               uint32_t *to, uint32_t *cls)
{
    const struct topo *t = e->env.topo;
    uint32_t at = src, h = 0, k = e->radix;
    uint64_t crossed = 0;
    while (at != dst) {
        struct hop hop = path_next(e->env.paths, at, dst);
        unsigned dim = t->ops->channel_dimension(t, hop.channel);
        uint32_t p = e->pow[dim], a = at / p % k, b = hop.next / p % k;
        if (b == (a + 1) % k ? a == k - 1 : a == 0)
            crossed |= 1ull << dim;
        channel[h] = hop.channel;
        to[h] = hop.next;
        cls[h] = e->dateline && (crossed >> dim & 1);
        at = hop.next;
        h++;
    }
    return h;
}

static void check_every_pair(const char *const *settings)
{
    struct config cfg;
    static struct network net;
    test_network(&net, &cfg, settings);
    struct flit_engine *e = flit_engine_of(net.engine, net.engine_state);
    ck_assert_msg(e && e->dor_chan, "%s: no digit walk", settings[0]);
    uint32_t n = net.topo.nodes, d = e->max_hops;
    uint32_t *slab = calloc((size_t)2 * d, sizeof *slab);
    struct flit_hop *hop = calloc(d, sizeof *hop);
    ck_assert(slab && hop);
    uint32_t *hop_to = calloc(d, sizeof *hop_to);
    ck_assert(hop_to);
    struct worm x = { .hop = hop, .to = hop_to };
    uint32_t *channel = slab, *to = slab + d, cls[64];
    ck_assert_uint_le(d, 64);
    uint64_t hops = 0;
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t t = 0; t < n; t++) {
            struct message msg = { .src = s, .dst = t, .at = s };
            ck_assert(flit_dor_path(e, &x, &msg));
            uint32_t h = reference_path(e, s, t, channel, to, cls);
            ck_assert_uint_eq(x.hops, h);
            ck_assert_uint_eq(msg.hops, h);
            ck_assert_uint_eq(msg.at, s);
            for (uint32_t i = 0; i < h; i++) {
                ck_assert_msg(x.hop[i].channel == channel[i] && x.to[i] == to[i] && x.hop[i].cls == cls[i],
                              "%s: %u -> %u hop %u: channel %u/%u, to %u/%u, class %u/%u", settings[0], s, t, i,
                              x.hop[i].channel, channel[i], x.to[i], to[i], x.hop[i].cls, cls[i]);
                ck_assert_uint_eq(x.hop[i].sent, 0);
            }
            hops += h;
        }
    ck_assert_uint_gt(hops, 0);
    free(slab);
    free(hop);
    free(hop_to);
    net_free(&net);
}

START_TEST(digit_walk_is_the_topology_path)
{
    const char *const cases[][8] = {
        { "network.topology=torus", "network.radix=8", "network.dimension=2", "routing.virtual_channels=2", NULL },
        { "network.topology=torus", "network.radix=5", "network.dimension=3", "routing.virtual_channels=2", NULL },
        { "network.topology=torus", "network.radix=6", "network.dimension=3", "routing.virtual_channels=4",
          "routing.dimension_order=descending", NULL },
        { "network.topology=torus", "network.radix=3", "network.dimension=1", "routing.virtual_channels=1", NULL },
        { "network.topology=kary-ncube", "network.wrap=false", "network.radix=6", "network.dimension=2", NULL },
        { "network.topology=kary-ncube", "network.bidirectional=false", "network.radix=5", "network.dimension=2",
          "routing.virtual_channels=2", NULL },
        { "network.topology=kary-ncube", "network.links=half-duplex", "network.radix=4", "network.dimension=2",
          "routing.virtual_channels=2", NULL },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *settings[12] = { 0 };
        size_t n = 0;
        for (; cases[c][n]; n++)
            settings[n] = cases[c][n];
        settings[n++] = "routing.switching=wormhole";
        settings[n++] = "routing.algorithm=ecube";
        check_every_pair(settings);
    }
}
END_TEST

/* Where the walk does not apply, the topology's paths are used (no table). */
START_TEST(general_way_elsewhere)
{
    const char *const cases[][6] = {
        { "network.topology=hypercube", "network.dimension=4", NULL },
        { "network.topology=torus", "network.radix=8", "network.dimension=2", "routing.algorithm=random-minimal",
          NULL },
        { "network.topology=kary-ncube", "network.radix=2", "network.dimension=3", NULL },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *settings[8] = { 0 };
        size_t n = 0;
        for (; cases[c][n]; n++)
            settings[n] = cases[c][n];
        settings[n++] = "routing.switching=wormhole";
        struct config cfg;
        static struct network net;
        test_network(&net, &cfg, settings);
        const struct flit_engine *e = flit_engine_of(net.engine, net.engine_state);
        ck_assert(e && !e->dor_chan);
        net_free(&net);
    }
}
END_TEST

/* An 8x8 torus offered a flit per node and cycle, far past saturation, for
 * 11,000 cycles: tens of thousands of messages wait at their sources. */
static void saturated_torus(const char *algorithm, struct network *net, struct flit_engine **e)
{
    const char *const settings[] = { "network.topology=torus", "network.radix=8", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.virtual_channels=4", algorithm,
                                     "workload.rate=0.25", "workload.length=constant", "workload.mean_length=4",
                                     "run.warmup_time=1000", "run.duration=10000", "run.allow_unstable=true", NULL };
    static struct config cfg; /* the network keeps it: it outlives this call */
    test_network(net, &cfg, settings);
    *e = flit_engine_of(net->engine, net->engine_state);
    ck_assert_ptr_nonnull(*e);
    ck_assert_int_eq(net_run(net), KERNEL_DONE);
}

START_TEST(waiting_messages_hold_no_path)
{
    static struct network net;
    struct flit_engine *e;
    /* At most one worm per VC of the 256 channels and one per source's injection line
     * exist at once: the pool (doubling from 256) stays at 2048 or under. */
    static const char *const lazy[] = { "routing.algorithm=ecube", "routing.algorithm=adaptive-minimal" };
    for (size_t i = 0; i < sizeof lazy / sizeof lazy[0]; i++) {
        saturated_torus(lazy[i], &net, &e);
        ck_assert(e->lazy_paths);
        ck_assert_msg(e->at_source > 50000, "%s: only %lld at sources", lazy[i], (long long)e->at_source);
        ck_assert_msg(e->worm_cap <= 2048, "%s: %u worms for %lld waiting", lazy[i], e->worm_cap,
                      (long long)e->at_source);
        net_free(&net);
    }
    /* Valiant draws its intermediate node at creation (the routing streams' order): a worm each. */
    saturated_torus("routing.algorithm=valiant", &net, &e);
    ck_assert(!e->lazy_paths);
    ck_assert(e->at_source > 50000 && e->worm_cap >= (uint32_t)e->at_source);
    net_free(&net);
}
END_TEST

Suite *flit_dor_suite(void)
{
    Suite *s = suite_create("flit_dor");
    TCase *tc = tcase_create("paths");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, digit_walk_is_the_topology_path);
    tcase_add_test(tc, general_way_elsewhere);
    tcase_add_test(tc, waiting_messages_hold_no_path);
    suite_add_tcase(s, tc);
    return s;
}
