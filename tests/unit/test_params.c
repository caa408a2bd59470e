/* Parameter tables (sim/core/params.h) and the loader's layout of them
 * (sim/config/config.h): a plug-in's keys come from its own table, reached through
 * the registries in the schema, never from a list in the loader. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../protocols/protocol.h"
#include "../../sim/core/params.h"
#include "../common/test.h"

/* A plug-in the loader has never seen: its ops, one table and a registry line here. */
struct knob_params {
    int64_t turns;
    double gain;
};
static const struct cfg_key knob_keys[] = {
    { "network", "turns", CFG_INT, offsetof(struct knob_params, turns), "3", 1, 10, false, NULL,
      "test: turns of the knob" },
    { "gadget", "gain", CFG_REAL, offsetof(struct knob_params, gain), "0.5", 0, 1, true, NULL,
      "test: gain of the gadget" },
};
static CFG_PARAM_TABLE(knob_table, struct knob_params, knob_keys);
struct knob_ops {
    const char *name, *help;
    const struct cfg_param_table *params;
};
static const struct knob_ops knob = { "knob", "a test plug-in", &knob_table };
static const struct knob_ops *const knobs[] = { &knob, &knob }; /* listed twice: laid out once */
REGISTRY_PLUGIN_CHOICES(knobs, knob_choices);

/* The run's schema with the knob's registry added last. */
static void schema_with_knob(struct cfg_schema *schema, struct cfg_registry *buf, size_t size)
{
    const struct cfg_schema *run = run_config_schema();
    ck_assert_uint_lt(run->count, size);
    memcpy(buf, run->registries, run->count * sizeof buf[0]);
    buf[run->count] = (struct cfg_registry){ NULL, &knob_choices };
    *schema = (struct cfg_schema){ buf, run->count + 1 };
}

START_TEST(a_new_plugin_needs_only_its_table_and_a_registry)
{
    struct cfg_registry buf[32];
    struct cfg_schema schema;
    schema_with_knob(&schema, buf, 32);
    struct config *cfg = malloc(sizeof *cfg);
    cfg_defaults(cfg, &schema);
    const struct knob_params *p = cfg_params(cfg, &knob_table);
    ck_assert_int_eq(p->turns, 3);
    ck_assert_double_eq(p->gain, 0.5);
    struct cfg_error err;
    ck_assert(cfg_set(cfg, "network", "turns", "7", "x.ini", 4, &err));
    ck_assert_int_eq(p->turns, 7);
    ck_assert_int_eq(cfg_int(cfg, "network.turns"), 7);
    ck_assert_int_eq(cfg_origin_of(cfg, "network.turns")->line, 4);
    ck_assert(!cfg_set(cfg, "network", "turns", "11", "y.ini", 5, &err)); /* its own bounds */
    ck_assert_str_eq(err.key, "network.turns");
    ck_assert_msg(strstr(err.message, "at most 10"), "%s", err.message);
    ck_assert(!cfg_set(cfg, "gadget", "gain", "0", "y.ini", 6, &err)); /* exclusive minimum */
    ck_assert(cfg_set(cfg, "gadget", "gain", "0.25", "y.ini", 6, &err));
    ck_assert_double_eq(p->gain, 0.25);
    /* Listed after the run's network keys, its new section after every other. */
    int turns = cfg_key_index(cfg, "network.turns");
    ck_assert_int_eq(turns + 1, cfg_key_index(cfg, "routing.algorithm"));
    ck_assert_int_eq(cfg_key_index(cfg, "gadget.gain"), (int)cfg_key_count(cfg) - 1);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    cfg_print_keys(cfg, out);
    fclose(out);
    ck_assert_msg(strstr(text, "\n[gadget]\n  gain "), "%s", text);
    ck_assert(strstr(text, "test: turns of the knob"));
    free(text);
    free(cfg);
}
END_TEST

START_TEST(plugin_blocks_hold_their_own_values)
{
    struct config cfg;
    const char *settings[] = { "protocol.slot=2.5", "protocol.max_per_capture=7", "routing.virtual_channels=2", NULL };
    test_config(&cfg, settings);
    /* A protocol reads its block through the ops' table, as the run hands it over. */
    const struct proto_ops *tdm = proto_find("tdm"), *token = proto_find("token");
    ck_assert_ptr_nonnull(tdm->params);
    ck_assert_ptr_null(proto_find("fifo")->params);
    ck_assert_ptr_null(cfg_params(&cfg, proto_find("fifo")->params));
    ck_assert_double_eq(*(const double *)cfg_params(&cfg, tdm->params), 2.5); /* slot is its first field */
    ck_assert_double_eq_tol(token->capacity(cfg_params(&cfg, token->params)), 7 / 7.1, 1e-15);
    char detail[96];
    token->describe(cfg_params(&cfg, token->params), detail, sizeof detail);
    ck_assert_str_eq(detail, " (token time 0.1, 7 per capture)");
    ck_assert_int_eq(cfg_int(&cfg, "routing.virtual_channels"), 2);
    ck_assert_int_eq(cfg_int(&cfg, "routing.flit_buffers"), 4);
    /* A copy of the config is a whole value: its blocks travel with it. */
    struct config copy = cfg;
    ck_assert_double_eq(cfg_real(&copy, "protocol.slot"), 2.5);
    ck_assert_ptr_ne(cfg_params(&copy, tdm->params), cfg_params(&cfg, tdm->params));
    ck_assert_uint_eq(cfg_uint(&cfg, "run.seed"), 1);
}
END_TEST

/* Where a key was set travels with a copy, and names the copy's own file: nothing of
 * a copied config points into the original (freed here: the sanitised run would see). */
START_TEST(a_copied_config_blames_its_own_file)
{
    struct config *original = malloc(sizeof *original), *copy = malloc(sizeof *copy);
    run_config_defaults(original);
    snprintf(original->path, sizeof original->path, "a.ini");
    struct cfg_error err;
    ck_assert(cfg_set(original, "protocol", "slot", "2", original->path, 3, &err));
    ck_assert(!cfg_set(original, "protocol", "slot", "3", original->path, 4, &err)); /* set twice */
    ck_assert_msg(strstr(err.message, "set twice (first on line 3)"), "%s", err.message);
    *copy = *original;
    free(original);
    ck_assert(cfg_is_set(copy, "protocol.slot"));
    ck_assert(!cfg_is_set(copy, "protocol.token_time"));
    cfg_blame(copy, "protocol.slot", &err, "too long");
    ck_assert_str_eq(err.file, "a.ini");
    ck_assert_int_eq(err.line, 3);
    ck_assert(cfg_set(copy, "protocol", "slot", "4", "command line (-s)", 0, &err)); /* an override */
    cfg_blame(copy, "protocol.token_time", &err, "defaulted");
    ck_assert_str_eq(err.file, "a.ini");
    ck_assert_int_eq(err.line, 0);
    free(copy);
}
END_TEST

START_TEST(listing_order_is_kept)
{
    struct config cfg;
    run_config_defaults(&cfg);
    /* The order --list and every report's config echo have always had (the golden
     * fingerprints hold it byte for byte; this names the two placements it rests on). */
    static const char *const order[] = {
        "network.topology", "network.dimension", "network.bandwidth", "network.links", "network.radix",
        "network.wrap", "network.bidirectional", "network.width", "network.cluster_dimension",
        "routing.algorithm", "routing.switching", "routing.dimension_order", "routing.buffers",
        "workload.locality", "workload.hops", "workload.first_at_zero", "workload.distance_weights",
        "workload.trace", "run.seed", "physical.switch_delay", "physical.indirect_radix",
    };
    int last = -1;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        int at = cfg_key_index(&cfg, order[i]);
        ck_assert_msg(at > last, "%s is out of order", order[i]);
        last = at;
    }
    ck_assert_int_eq(cfg_key_index(&cfg, "network.width"), cfg_key_index(&cfg, "network.bidirectional") + 1);
    ck_assert_int_eq(cfg_key_index(&cfg, "workload.first_at_zero"), cfg_key_index(&cfg, "workload.hops") + 1);
    ck_assert_int_eq(cfg_key_index(&cfg, "no.such"), -1);
    ck_assert_int_eq(cfg_key_index(&cfg, "nodot"), -1);
}
END_TEST

static const char *type_word(enum cfg_type t)
{
    static const char *const words[] = { [CFG_INT] = "integer", [CFG_UINT] = "integer", [CFG_REAL] = "number",
                                         [CFG_BOOL] = "boolean", [CFG_CHOICE] = "choice", [CFG_LIST] = "list",
                                         [CFG_TEXT] = "text" };
    return words[t];
}

/* Next comma-separated item of a table cell, without blanks and backticks. */
static const char *cell_item(const char **cell, char *buf, size_t size)
{
    const char *p = *cell;
    while (*p == ' ' || *p == '`')
        p++;
    size_t n = 0;
    while (*p && *p != ',' && n + 1 < size)
        if (*p++ != '`')
            buf[n++] = p[-1];
    while (n && (buf[n - 1] == ' ' || buf[n - 1] == '`'))
        n--;
    buf[n] = '\0';
    *cell = *p == ',' ? p + 1 : p;
    return buf;
}

/* docs/manual.md's key reference: the text between its two markers. */
static char *manual_key_reference(void)
{
    FILE *f = fopen("docs/manual.md", "r");
    ck_assert_ptr_nonnull(f);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    char line[8192];
    bool inside = false, ended = false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "<!-- end of the key reference", 29) == 0) {
            ended = inside;
            inside = false;
        }
        if (inside)
            fputs(line, out);
        if (strncmp(line, "<!-- key reference:", 19) == 0)
            inside = true;
    }
    fclose(f);
    fclose(out);
    ck_assert_msg(ended, "docs/manual.md: no key reference between its two markers");
    return text;
}

/* The manual's key reference is what --list-markdown prints from the tables today:
 * a key added to a table, or a meaning changed, needs `make manual`. */
START_TEST(manual_key_reference_is_current)
{
    struct config *cfg = malloc(sizeof *cfg);
    run_config_defaults(cfg);
    char *want = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&want, &size);
    cfg_print_keys_markdown(cfg, out);
    fclose(out);
    char *have = manual_key_reference();
    ck_assert_msg(strcmp(have, want) == 0, "docs/manual.md's key reference is out of date: run `make manual`");
    free(have);
    free(want);
    free(cfg);
}
END_TEST

/* The manual's key reference (one table per section) names every key of the layout
 * once, with the type and default its table declares. */
START_TEST(manual_key_reference_matches_the_tables)
{
    struct config cfg;
    run_config_defaults(&cfg);
    char *text = manual_key_reference();
    char section[64] = "";
    unsigned seen[CFG_KEYS_MAX] = { 0 };
    char *rest = NULL;
    for (char *line = strtok_r(text, "\n", &rest); line; line = strtok_r(NULL, "\n", &rest)) {
        if (sscanf(line, "#### `[%63[a-z0-9_]]`", section) == 1)
            continue;
        if (strncmp(line, "| `", 3) != 0 || !section[0])
            continue;
        char *cells[4] = { 0 };
        char *p = line + 1;
        for (int c = 0; c < 4 && p; c++) {
            cells[c] = p;
            p = strchr(p, '|');
            if (p)
                *p++ = '\0';
        }
        ck_assert_msg(cells[3], "manual: a short row in [%s]", section);
        const char *names = cells[0], *defaults = cells[2];
        char name[64], fallback[64], type[32], key[128];
        const char *t = cells[1];
        cell_item(&t, type, sizeof type);
        while (*cell_item(&names, name, sizeof name)) {
            cell_item(&defaults, fallback, sizeof fallback);
            snprintf(key, sizeof key, "%s.%s", section, name);
            int i = cfg_key_index(&cfg, key);
            ck_assert_msg(i >= 0, "the manual names %s, which no table declares", key);
            const struct cfg_key *k = cfg_key_at(&cfg, (size_t)i);
            ck_assert_msg(strcmp(type, type_word(k->type)) == 0, "manual: %s is a %s, its table says %s", key, type,
                          type_word(k->type));
            const char *want = k->fallback[0] ? k->fallback : "(none)";
            ck_assert_msg(strcmp(fallback, want) == 0, "manual: %s defaults to '%s', its table says '%s'", key,
                          fallback, want);
            seen[i]++;
        }
    }
    free(text);
    for (size_t i = 0; i < cfg_key_count(&cfg); i++)
        ck_assert_msg(seen[i] == 1, "the manual's key reference has %s.%s %u times", cfg_key_at(&cfg, i)->section,
                      cfg_key_at(&cfg, i)->name, seen[i]);
}
END_TEST

/* The fraction of the messages of a run with the given settings whose length is
 * `length`; every length must be one of `allowed` (count of them). */
static double length_fraction(const char *const *settings, double length, const double *allowed, size_t n_allowed)
{
    char path[] = "/tmp/simlen-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    static char out[1 << 16], err[1 << 12];
    const char *argv[32] = { test_binary(), "-s", "run.messages=4000", "-s", "run.warmup_messages=0", "-s",
                             "workload.rate=0.05", "--write-trace", path, "-f", "csv", "configs/default.ini" };
    size_t argc = 12;
    for (size_t i = 0; settings[i]; i++) {
        argv[argc++] = "-s";
        argv[argc++] = settings[i];
    }
    ck_assert_msg(test_exec(argv, out, sizeof out, err, sizeof err) == 0, "%s", err);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[256];
    unsigned total = 0, hits = 0;
    while (fgets(line, sizeof line, f)) {
        double t, l;
        unsigned src, dst;
        if (sscanf(line, "%lf,%u,%u,%lf", &t, &src, &dst, &l) != 4)
            continue; /* the header */
        bool known = false;
        for (size_t i = 0; i < n_allowed; i++)
            known |= l == allowed[i];
        ck_assert_msg(known, "length %g drawn", l);
        total++;
        hits += l == length;
    }
    fclose(f);
    unlink(path);
    ck_assert_uint_ge(total, 4000);
    return (double)hits / total;
}

/* The run hands a length distribution its own block: bimodal and empirical lengths
 * drawn by whole runs follow their keys (binomial bounds, 5 sigma). */
START_TEST(length_blocks_reach_the_run)
{
    const double bimodal[] = { 1, 16 };
    const char *const bimodal_settings[] = { "workload.length=bimodal", "workload.long_fraction=0.2",
                                             "workload.mean_length=4", NULL };
    double f = length_fraction(bimodal_settings, 16, bimodal, 2);
    ck_assert_msg(fabs(f - 0.2) < 5 * sqrt(0.2 * 0.8 / 4000), "long fraction %g", f);
    const double empirical[] = { 2, 5 };
    const char *const empirical_settings[] = { "workload.length=empirical", "workload.empirical_lengths=2,5",
                                               "workload.empirical_weights=1,3", "workload.mean_length=4.25", NULL };
    f = length_fraction(empirical_settings, 5, empirical, 2);
    ck_assert_msg(fabs(f - 0.75) < 5 * sqrt(0.75 * 0.25 / 4000), "fraction of 5s %g", f);
}
END_TEST

Suite *params_suite(void)
{
    Suite *s = suite_create("params");
    TCase *tc = tcase_create("layout");
    tcase_add_test(tc, a_new_plugin_needs_only_its_table_and_a_registry);
    tcase_add_test(tc, plugin_blocks_hold_their_own_values);
    tcase_add_test(tc, a_copied_config_blames_its_own_file);
    tcase_add_test(tc, listing_order_is_kept);
    tcase_add_test(tc, manual_key_reference_is_current);
    tcase_add_test(tc, manual_key_reference_matches_the_tables);
    tcase_add_test(tc, length_blocks_reach_the_run);
    suite_add_tcase(s, tc);
    return s;
}
