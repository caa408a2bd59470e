/* The config echo (sim/config/echo.c, sim/run/run_config.c): a report lists the
 * framework's keys and those of the plug-ins and models the run chose, so a plug-in
 * that a configuration does not choose changes nothing it prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../protocols/protocol.h"
#include "../../sim/core/params.h"
#include "../common/test.h"

/* Whether "section.name" is among the keys echo lists of cfg. */
static bool echoes(const struct config *cfg, const struct cfg_echo *echo, const char *key)
{
    for (size_t e = 0; e < echo->n; e++) {
        const struct cfg_key *k = cfg_key_at(cfg, echo->key[e]);
        char name[128];
        snprintf(name, sizeof name, "%s.%s", k->section, k->name);
        if (strcmp(name, key) == 0)
            return true;
    }
    return false;
}

/* The echo of the defaults with `settings`, no model applied. */
static void echo_of(struct config *cfg, struct cfg_echo *echo, const char *const *settings)
{
    test_config(cfg, settings);
    run_config_echo(cfg, NULL, echo);
}

START_TEST(the_echo_lists_the_chosen_plugins_keys)
{
    struct config *cfg = malloc(sizeof *cfg);
    struct cfg_echo echo;
    echo_of(cfg, &echo, NULL);
    /* The framework's keys always; ecube's order; nothing of a plug-in not chosen. */
    const char *always[] = { "network.topology", "network.dimension", "routing.switching", "protocol.priority",
                             "workload.rate", "run.seed", "run.max_wall_seconds", "routing.dimension_order" };
    for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
        ck_assert_msg(echoes(cfg, &echo, always[i]), "the default echo lacks %s", always[i]);
    const char *never[] = { "protocol.slot", "protocol.token_time", "routing.flit_buffers", "routing.buffers",
                            "network.radix", "network.width", "network.cluster_dimension", "workload.hops",
                            "workload.trace", "physical.switch_delay" };
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        ck_assert_msg(!echoes(cfg, &echo, never[i]), "the default echo has %s, which no chosen plug-in reads",
                      never[i]);
    /* Listing order: positions in the layout, increasing. */
    for (size_t e = 1; e < echo.n; e++)
        ck_assert_uint_lt(echo.key[e - 1], echo.key[e]);

    echo_of(cfg, &echo, (const char *const[]){ "protocol.link=tdm", NULL });
    ck_assert(echoes(cfg, &echo, "protocol.slot") && echoes(cfg, &echo, "protocol.tdm_rule"));
    ck_assert(!echoes(cfg, &echo, "protocol.token_time"));

    /* Only ecube reads its dimension order, on store-and-forward and the simple router;
     * the iq router reads ecube's (its table's `reads`) whatever the path selection. */
    echo_of(cfg, &echo, (const char *const[]){ "routing.algorithm=random-minimal", NULL });
    ck_assert(!echoes(cfg, &echo, "routing.dimension_order"));
    echo_of(cfg, &echo, (const char *const[]){ "routing.algorithm=random-minimal", "routing.switching=wormhole", NULL });
    ck_assert(!echoes(cfg, &echo, "routing.dimension_order") && echoes(cfg, &echo, "routing.flit_buffers"));
    echo_of(cfg, &echo, (const char *const[]){ "routing.algorithm=random-minimal", "routing.switching=wormhole",
                                               "routing.router=iq", NULL });
    ck_assert(echoes(cfg, &echo, "routing.dimension_order"));

    /* The router model is a choice within the flit engines: the iq router's own keys
     * only with it, and only while routing.router itself is in effect. */
    echo_of(cfg, &echo, (const char *const[]){ "routing.switching=wormhole", NULL });
    ck_assert(echoes(cfg, &echo, "routing.router") && !echoes(cfg, &echo, "routing.vc_alloc_delay"));
    echo_of(cfg, &echo, (const char *const[]){ "routing.switching=wormhole", "routing.router=iq", NULL });
    ck_assert(echoes(cfg, &echo, "routing.vc_alloc_delay") && echoes(cfg, &echo, "routing.tie"));
    echo_of(cfg, &echo, (const char *const[]){ "routing.router=iq", NULL }); /* store-and-forward: no router */
    ck_assert(!echoes(cfg, &echo, "routing.router") && !echoes(cfg, &echo, "routing.vc_alloc_delay"));

    /* A shared key is echoed where a chosen plug-in reads it: cluster-locality's clusters. */
    echo_of(cfg, &echo, (const char *const[]){ "workload.destination=cluster-locality", NULL });
    ck_assert(echoes(cfg, &echo, "workload.locality") && echoes(cfg, &echo, "network.cluster_dimension"));
    ck_assert(!echoes(cfg, &echo, "network.level2_bandwidth"));
    echo_of(cfg, &echo, (const char *const[]){ "network.topology=torus", "workload.arrival=trace",
                                               "workload.trace=x.csv", NULL });
    ck_assert(echoes(cfg, &echo, "network.radix") && echoes(cfg, &echo, "workload.trace"));
    free(cfg);
}
END_TEST

/* The models choose themselves: their keys are echoed when they applied. */
START_TEST(a_models_keys_are_echoed_when_it_applied)
{
    struct config *cfg = malloc(sizeof *cfg);
    struct model_result *m = calloc(1, sizeof *m);
    struct cfg_echo echo;
    test_config(cfg, (const char *const[]){ "network.topology=torus", NULL });
    run_config_echo(cfg, m, &echo);
    ck_assert(!echoes(cfg, &echo, "physical.switch_delay"));
    m->applied[m->n_applied++] = "mm1-network";
    m->applied[m->n_applied++] = "kary-physical";
    run_config_echo(cfg, m, &echo);
    ck_assert(echoes(cfg, &echo, "physical.switch_delay") && echoes(cfg, &echo, "physical.indirect_radix"));

    /* model_predict says which applied: the physical model only where a [physical] key is set. */
    struct network net;
    test_network(&net, cfg, (const char *const[]){ "network.topology=torus", "physical.switch_delay=3", NULL });
    struct channel_loads loads;
    struct model_in in;
    model_input(&in, cfg, &net.topo, &loads);
    model_predict(&in, m);
    bool physical = false;
    for (unsigned i = 0; i < m->n_applied; i++)
        physical = physical || strcmp(m->applied[i], "kary-physical") == 0;
    ck_assert(physical);
    model_input_free(&in);
    loads_free(&loads);
    net_free(&net);
    free(m);
    free(cfg);
}
END_TEST

/* A protocol the loader has never seen, with a key of its own, registered beside the
 * real ones (as one line in protocols/registry.c would). */
struct test_order_params {
    int64_t window;
};
static const struct cfg_key test_order_keys[] = {
    { "protocol", "test_order_window", CFG_INT, offsetof(struct test_order_params, window), "4", 1, 100, false, NULL,
      "test: a new protocol's key" },
};
static CFG_PARAM_TABLE(test_order_table, struct test_order_params, test_order_keys);

static size_t protocols_registered(void)
{
    size_t n = 0;
    while (proto_choices.name(n))
        n++;
    return n;
}
static const char *with_new_name(size_t i)
{
    size_t n = protocols_registered();
    return i < n ? proto_choices.name(i) : i == n ? "test-only-order" : NULL;
}
static const char *with_new_help(size_t i)
{
    size_t n = protocols_registered();
    return i < n ? proto_choices.help(i) : i == n ? "test: serves waiting messages in random order" : NULL;
}
static const struct cfg_param_table *with_new_params(size_t i)
{
    size_t n = protocols_registered();
    return i < n ? proto_choices.params(i) : i == n ? &test_order_table : NULL;
}
static const struct cfg_choices protocols_with_new = { with_new_name, with_new_help, with_new_params };

/* The run's schema, protocol.link's registry holding the new protocol too. */
static void schema_with_new_protocol(struct cfg_schema *schema, struct cfg_registry *buf, size_t size)
{
    const struct cfg_schema *run = run_config_schema();
    ck_assert_uint_le(run->count, size);
    memcpy(buf, run->registries, run->count * sizeof buf[0]);
    for (size_t g = 0; g < run->count; g++)
        if (buf[g].key && strcmp(buf[g].key, "protocol.link") == 0)
            buf[g].choices = &protocols_with_new;
    *schema = (struct cfg_schema){ buf, run->count };
}

/* The echo as "section.name=value" lines, the bytes a report's config echo is made of. */
static void echo_text(const struct config *cfg, const struct cfg_echo *echo, char *buf, size_t size)
{
    size_t used = 0;
    for (size_t e = 0; e < echo->n && used < size; e++) {
        const struct cfg_key *k = cfg_key_at(cfg, echo->key[e]);
        char value[2048];
        report_fmt_key(value, sizeof value, cfg, echo->key[e]);
        used += (size_t)snprintf(buf + used, size - used, "%s.%s=%s\n", k->section, k->name, value);
    }
}

static bool set_all(struct config *cfg, const char *const *settings)
{
    struct cfg_error err;
    for (size_t i = 0; settings[i]; i++) {
        char section[64], name[64], value[256];
        if (sscanf(settings[i], "%63[^.].%63[^=]=%255s", section, name, value) != 3 ||
            !cfg_set(cfg, section, name, value, "test", 0, &err))
            return false;
    }
    return true;
}

START_TEST(a_plugin_not_chosen_changes_no_echo)
{
    struct cfg_registry buf[32];
    struct cfg_schema with_new;
    schema_with_new_protocol(&with_new, buf, 32);
    struct config *before = malloc(sizeof *before), *after = malloc(sizeof *after);
    char *text_before = malloc(1 << 16), *text_after = malloc(1 << 16);
    const char *const variants[][4] = {
        { NULL },
        { "protocol.link=tdm", NULL },
        { "protocol.link=token", "routing.switching=wormhole", NULL },
        { "network.topology=torus", "workload.destination=hotspot", NULL },
    };
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        cfg_defaults(before, run_config_schema());
        cfg_defaults(after, &with_new);
        ck_assert(set_all(before, variants[v]) && set_all(after, variants[v]));
        struct cfg_echo echo_before, echo_after;
        cfg_echo_keys(before, run_config_schema(), NULL, NULL, &echo_before);
        cfg_echo_keys(after, &with_new, NULL, NULL, &echo_after);
        echo_text(before, &echo_before, text_before, 1 << 16);
        echo_text(after, &echo_after, text_after, 1 << 16);
        ck_assert_str_eq(text_before, text_after);
        ck_assert_msg(!strstr(text_after, "test_order_window"), "%s", text_after);
        /* The layout itself grew by the new key (--list shows it). */
        ck_assert_uint_eq(cfg_key_count(after), cfg_key_count(before) + 1);
    }
    /* Chosen, its key is echoed, and no other protocol's. */
    struct cfg_echo echo;
    ck_assert(set_all(after, (const char *const[]){ "protocol.link=test-only-order", NULL }));
    cfg_echo_keys(after, &with_new, NULL, NULL, &echo);
    echo_text(after, &echo, text_after, 1 << 16);
    ck_assert_msg(strstr(text_after, "protocol.link=test-only-order\n") && strstr(text_after, "protocol.test_order_window=4\n"),
                  "%s", text_after);
    /* ... and no other protocol's: every echoed protocol key is a choice key or its own. */
    for (size_t e = 0; e < echo.n; e++) {
        const struct cfg_key *k = cfg_key_at(after, echo.key[e]);
        if (strcmp(k->section, "protocol") == 0)
            ck_assert_msg(strcmp(k->name, "link") == 0 || strcmp(k->name, "priority") == 0 ||
                              strcmp(k->name, "test_order_window") == 0,
                          "protocol.%s echoed", k->name);
    }
    free(text_before);
    free(text_after);
    free(before);
    free(after);
}
END_TEST

Suite *echo_suite(void)
{
    Suite *s = suite_create("echo");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, the_echo_lists_the_chosen_plugins_keys);
    tcase_add_test(tc, a_models_keys_are_echoed_when_it_applied);
    tcase_add_test(tc, a_plugin_not_chosen_changes_no_echo);
    suite_add_tcase(s, tc);
    return s;
}
