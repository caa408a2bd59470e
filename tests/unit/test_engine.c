/* The engine interface (routing/engine.h): which engine a configuration runs (by
 * traits), that an engine needs nothing but its engine_env to move a message, and the
 * named figures engines report and the report's table lines made from them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../routing/engine.h"
#include "../common/checks.h"
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
    struct msg_pool pool = msg_pool_empty(NULL, NULL, true);
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
        chan[ch] = (struct channel_state){ 0 };
    const struct engine_ops *ops = switch_find("store-and-forward");
    const struct engine_env env = {
        .cfg = &cfg, .kernel = &k, .pool = &pool, .probe = &p, .in_flight = &in_flight, .created = &created,
        .topo = &t, .paths = &paths, .chan = chan, .access = proto_find("fifo"),
        .access_env = { .kernel = &k, .pool = &pool, .channels = { t.channels, 1, NULL, NULL, NULL } },
    };
    void *engine = ops->create(&env);
    ck_assert_ptr_nonnull(engine);
    uint32_t m = msg_pool_take(&pool);
    pool.msgs[m] = (struct message){ .length = 2, .src = 0, .dst = 3, .at = 0, .next_node = MSG_NONE,
                                     .link = MSG_NONE };
    msg_set_id(&pool, m, 0);
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

/* --- named figures --- */

static unsigned count_lines(const struct run_report *r, enum figure_place place)
{
    unsigned n = 0;
    for (unsigned i = 0; i < r->figures.n; i++)
        n += r->figures.item[i].kind == FIGURE_LINE && r->figures.item[i].place == place;
    return n;
}

/* Store-and-forward has no figures of its own: the report holds only the names of the
 * backtracking columns (every CSV has them), without values and without lines. */
START_TEST(store_and_forward_names_only_the_columns_every_report_has)
{
    const char *const settings[] = { "network.dimension=2", "run.messages=300", "run.warmup_messages=30", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    static struct run_report r;
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    ck_assert_uint_eq(r.figures.n, 15);
    for (unsigned i = 0; i < r.figures.n; i++) {
        const struct figure *f = &r.figures.item[i];
        ck_assert_str_eq(f->group, "backtracking");
        ck_assert(f->hints & FIGURE_NOT_RUN);
        ck_assert(isnan(f->value));
    }
    ck_assert_str_eq(r.figures.item[0].name, "acceptance");
    ck_assert_str_eq(r.figures.item[14].name, "in_network");
    ck_assert(!r.slotted);
    ck_assert_double_eq(r.delivered_total, r.messages_created - r.backlog_end);
}
END_TEST

/* Wormhole on a 2-cube: its figures in report order, per-class figures for both
 * classes, and table lines for the delay parts, the classes and the saturation warning. */
START_TEST(wormhole_reports_its_figures_and_lines)
{
    const char *const settings[] = { "network.dimension=2", "routing.switching=wormhole", "workload.length=constant",
                                     "workload.mean_length=4", "workload.rate=0.02", "run.messages=2000",
                                     "run.warmup_messages=200", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    static struct run_report r;
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    const char *const order[] = { "network_delay_mean", "source_wait_mean", "blocked_cycles_mean",
                                  "blocking_probability", "blocking_probability_max" };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        ck_assert_str_eq(r.figures.item[i].group, "switching");
        ck_assert_str_eq(r.figures.item[i].name, order[i]);
    }
    ck_assert_double_eq(test_figure(&r, "switching", "network_delay_mean"), r.link_mean);
    ck_assert(isnan(test_figure(&r, "switching", "acceptance_probability"))); /* infinite buffers */
    ck_assert_double_eq_tol(test_figure(&r, "switching", "throughput_flits"), 4 * r.throughput, 1e-12);
    ck_assert(!test_figure(&r, "switching", "saturated"));
    ck_assert_str_eq(test_figure_text(&r, "switching", "saturation_note"), "");
    for (int c = 0; c < 2; c++)
        ck_assert_ptr_nonnull(figures_find(&r.figures, "switching", c, "blocked_cycles_mean"));
    ck_assert_uint_eq(count_lines(&r, FIGURE_PLACE_DELAY_PARTS), 7); /* recoveries and acceptance: conditional */
    ck_assert_uint_eq(count_lines(&r, FIGURE_PLACE_CLASS), 1);
    ck_assert_uint_eq(count_lines(&r, FIGURE_PLACE_HEADER), 2); /* saturation, and the static deadlock check's */
    ck_assert(!report_delay_withheld(&r));
    /* The backtracking columns are still named, after the engine's own figures. */
    const struct figure *bt = figures_find(&r.figures, "backtracking", FIGURE_NO_CLASS, "acceptance");
    ck_assert(bt && (bt->hints & FIGURE_NOT_RUN));
}
END_TEST

/* The slotted engine's books add up in its figures. */
START_TEST(backtracking_figures_add_up)
{
    const char *extra[] = { "run.warmup_messages=500", "run.messages=3000", NULL };
    struct config cfg;
    bt_config(&cfg, 4, 6, 0.8, extra);
    static struct run_report r;
    bt_run(&cfg, &r);
    ck_assert(r.slotted);
    double generated = test_figure(&r, "backtracking", "generated");
    ck_assert(generated > 0);
    ck_assert_double_eq(generated, test_figure(&r, "backtracking", "accepted") +
                                       test_figure(&r, "backtracking", "rejected"));
    ck_assert_double_eq(test_figure(&r, "backtracking", "cycles"), r.window);
    ck_assert(!(figures_find(&r.figures, "backtracking", FIGURE_NO_CLASS, "cycles")->hints & FIGURE_NOT_RUN));
    ck_assert_uint_eq(count_lines(&r, FIGURE_PLACE_WORKLOAD), 1);
    ck_assert_uint_eq(count_lines(&r, FIGURE_PLACE_RATES), 5);
}
END_TEST

/* Templates: {name} as the table prints numbers, {name:conversion}, {a-b}, a text,
 * the {?name} condition, and a class's own figures. */
START_TEST(table_lines_fill_in_their_group_figures)
{
    static struct run_report r;
    memset(&r, 0, sizeof r);
    struct figure_sink sink = figures_sink(&r.figures, false);
    sink.number(sink.ctx, "g", "x", 0.25, 0);
    sink.number(sink.ctx, "g", "y", 3, 0);
    sink.number(sink.ctx, "g", "none", NAN, 0);
    sink.text(sink.ctx, "g", "note", "hello", 0);
    sink.flag(sink.ctx, "g", "off", false, 0);
    sink.number(sink.ctx, "h", "x", 99, 0);
    sink.class_number(sink.ctx, "g", 1, "c", 7);
    sink.line(sink.ctx, "g", FIGURE_PLACE_RATES, "a {x} b {y:%.1f} c {none} d {x:%-6.6s}| e {y-x} {note}");
    sink.line(sink.ctx, "g", FIGURE_PLACE_RATES, "{?none}never");
    sink.line(sink.ctx, "g", FIGURE_PLACE_RATES, "{?off}never");
    sink.line(sink.ctx, "g", FIGURE_PLACE_RATES, "{?y}y is {y}");
    sink.line(sink.ctx, "g", FIGURE_PLACE_CLASS, "class {c}");
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_uint_eq(report_lines(out, &r, FIGURE_PLACE_RATES, FIGURE_NO_CLASS), 2);
    ck_assert_uint_eq(report_lines(out, &r, FIGURE_PLACE_CLASS, 1), 1);
    fclose(out);
    ck_assert_str_eq(text, "a 0.25 b 3.0 c - d 0.25  | e 2.75 hello\ny is 3\nclass 7\n");
    free(text);
    ck_assert(report_has_lines(&r, FIGURE_PLACE_CLASS));
    ck_assert(!report_has_lines(&r, FIGURE_PLACE_HEADER));
}
END_TEST

/* A module that did not run is named without values, and gives no lines. */
START_TEST(a_sink_for_a_module_that_did_not_run_names_only)
{
    static struct figures list;
    list.n = 0;
    struct figure_sink sink = figures_sink(&list, true);
    sink.number(sink.ctx, "g", "x", 1, FIGURE_EARLY);
    sink.text(sink.ctx, "g", "t", "text", 0);
    sink.class_number(sink.ctx, "g", 0, "c", 1);
    sink.line(sink.ctx, "g", FIGURE_PLACE_RATES, "{x}");
    ck_assert_uint_eq(list.n, 2);
    ck_assert(isnan(list.item[0].value));
    ck_assert_uint_eq(list.item[0].hints, FIGURE_EARLY | FIGURE_NOT_RUN);
    ck_assert_str_eq(list.item[1].text, "");
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
    TCase *figures = tcase_create("figures");
    tcase_set_timeout(figures, 60);
    tcase_add_test(figures, store_and_forward_names_only_the_columns_every_report_has);
    tcase_add_test(figures, wormhole_reports_its_figures_and_lines);
    tcase_add_test(figures, backtracking_figures_add_up);
    tcase_add_test(figures, table_lines_fill_in_their_group_figures);
    tcase_add_test(figures, a_sink_for_a_module_that_did_not_run_names_only);
    suite_add_tcase(s, figures);
    return s;
}
