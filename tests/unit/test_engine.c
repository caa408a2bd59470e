/* The engine interface (routing/engine.h): which engine a configuration runs (by
 * traits), and that an engine needs nothing but its engine_env to move a message. */
#include "../../routing/engine.h"
#include "../common/test.h"

/* Every routing.switching choice selects its own engine, event-driven, with the
 * traits the models and the run ask about. */
START_TEST(each_switching_choice_selects_its_engine)
{
    size_t n = 0;
    for (const char *name; (name = switch_choices.name(n)); n++) {
        char setting[96];
        snprintf(setting, sizeof setting, "routing.switching=%s", name);
        const char *const settings[] = { setting, NULL };
        struct config cfg;
        test_config(&cfg, settings);
        const struct engine_ops *e = engine_select(&cfg);
        ck_assert_ptr_eq(e, switch_find(name));
        ck_assert_msg(!(e->traits & (ENGINE_SLOTTED | ENGINE_BACKTRACKS)), "%s: slotted", name);
        ck_assert_msg(e->create && e->inject && e->destroy, "%s: incomplete", name);
        /* Exactly one of: whole messages, or flits (pipelined). */
        ck_assert_msg(!(e->traits & SWITCH_WHOLE_MESSAGE) != !(e->traits & SWITCH_PIPELINED), "%s", name);
        /* Only an engine that queues whole messages at nodes takes the node model. */
        ck_assert_msg(!e->visited == !(e->traits & SWITCH_WHOLE_MESSAGE), "%s: visited", name);
    }
    ck_assert_uint_eq(n, 3);
}
END_TEST

/* A path selection that runs the network itself picks the slotted engine whatever
 * routing.switching says; that engine creates its own input (no inject). */
START_TEST(backtracking_routing_selects_the_slotted_engine)
{
    const char *const settings[] = { "routing.algorithm=backtracking", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    const struct engine_ops *e = engine_select(&cfg);
    ck_assert(e->traits & ENGINE_SLOTTED);
    ck_assert(e->traits & ENGINE_BACKTRACKS);
    ck_assert_ptr_null(e->inject);
    ck_assert_ptr_null(switch_find(e->name)); /* not a routing.switching choice */
}
END_TEST

/* Store-and-forward from a hand-made environment (no struct network): one message of
 * length 2 from node 0 to node 3 of a 2-cube crosses two channels of bandwidth 1, so
 * the probe records a delay of 4, all of it link time, over 2 hops. */
START_TEST(store_and_forward_runs_from_its_environment_alone)
{
    const char *const settings[] = { "network.dimension=2", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    struct cfg_error err;
    struct topo t;
    ck_assert(topo_build(&t, &cfg, &err));
    struct kernel k;
    ck_assert(kernel_init(&k));
    struct msg_pool pool = msg_pool_empty(QUEUE_FIFO);
    uint32_t in_flight = 0;
    uint64_t created = 0;
    struct probe p;
    const struct probe_spec spec = { .messages = 1, .batches = 1 };
    ck_assert(probe_init(&p, &k, &spec, &in_flight));
    struct rng streams[4];
    for (uint32_t v = 0; v < 4; v++)
        rng_seed_stream(&streams[v], 1, RNG_ROUTING, v);
    struct path_selection paths = { route_find("ecube"), NULL, &t, streams };
    struct channel_state chan[8];
    for (uint32_t ch = 0; ch < t.channels; ch++)
        chan[ch] = (struct channel_state){ MSG_NONE, 0, 0 };
    const struct engine_ops *ops = switch_find("store-and-forward");
    const struct engine_env env = {
        .cfg = &cfg, .kernel = &k, .pool = &pool, .probe = &p, .in_flight = &in_flight, .created = &created,
        .topo = &t, .paths = &paths, .chan = chan, .access = proto_find("fifo"),
        .access_env = { .kernel = &k, .pool = &pool, .channels = { t.channels, 1, NULL, NULL, NULL } },
    };
    void *engine = ops->create(&env);
    ck_assert_ptr_nonnull(engine);
    uint32_t m = msg_pool_take(&pool);
    pool.msgs[m] = (struct message){ .id = 0, .length = 2, .src = 0, .dst = 3, .at = 0, .next_node = MSG_NONE,
                                     .link = MSG_NONE, .link2 = MSG_NONE };
    in_flight++;
    probe_created(&p, 0, 0);
    ops->inject(engine, m);
    ck_assert_int_eq(kernel_run(&k), KERNEL_DONE);
    ck_assert_uint_eq(p.delay.count, 1);
    ck_assert_double_eq(p.delay.mean, 4);
    ck_assert_double_eq(p.delay_link.mean, 4);
    ck_assert_uint_eq(p.hops_measured, 2);
    ck_assert_uint_eq(in_flight, 0);
    ops->destroy(engine);
    probe_free(&p);
    msg_pool_free(&pool);
    kernel_free(&k);
    topo_free(&t);
}
END_TEST

Suite *engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *tc = tcase_create("interface");
    tcase_add_test(tc, each_switching_choice_selects_its_engine);
    tcase_add_test(tc, backtracking_routing_selects_the_slotted_engine);
    tcase_add_test(tc, store_and_forward_runs_from_its_environment_alone);
    suite_add_tcase(s, tc);
    return s;
}
