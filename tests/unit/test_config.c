#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/test.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/simcfg-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Writes text to dir/name and returns the path (static buffer). */
static const char *write_ini(const char *name, const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Loads text; expects failure on `line` for `key` with `fragment` in the message. */
static void expect_error(const char *text, int line, const char *key, const char *fragment)
{
    struct config cfg;
    struct cfg_error err;
    const char *path = write_ini("t.ini", text);
    ck_assert_msg(!run_config_load(&cfg, path, NULL, 0, &err), "accepted: %s", text);
    ck_assert_str_eq(err.file, path);
    ck_assert_int_eq(err.line, line);
    ck_assert_str_eq(err.key, key);
    ck_assert_msg(strstr(err.message, fragment), "message '%s' lacks '%s'", err.message, fragment);
}

START_TEST(unknown_key_names_the_nearest_valid_key)
{
    expect_error("[network]\ntopology = hypercube\ndimenson = 3\n", 3, "network.dimenson",
                 "did you mean network.dimension?");
    expect_error("; comment\n[workload]\nmean_lenght = 2\n", 3, "workload.mean_lenght",
                 "did you mean workload.mean_length?");
    /* A key under the wrong section is suggested with its own section. */
    expect_error("[network]\nrate = 2\n", 2, "network.rate", "did you mean workload.rate?");
    expect_error("[network]\nzzzzzzzz = 2\n", 2, "network.zzzzzzzz", "unknown key");
}
END_TEST

START_TEST(unknown_section_names_the_nearest_section)
{
    expect_error("[netwrok]\ndimension = 3\n", 2, "netwrok.dimension", "unknown section [netwrok] (did you mean [network]?)");
}
END_TEST

START_TEST(wrong_type_is_refused)
{
    expect_error("[network]\ndimension = abc\n", 2, "network.dimension", "not a whole number");
    expect_error("[network]\ndimension = 2.5\n", 2, "network.dimension", "not a whole number");
    expect_error("[workload]\nrate = fast\n", 2, "workload.rate", "not a finite number");
    expect_error("[workload]\nrate = nan\n", 2, "workload.rate", "not a finite number");
    expect_error("[run]\nredraw_length_per_hop = maybe\n", 2, "run.redraw_length_per_hop", "not a boolean");
    expect_error("[run]\nseed = -3\n", 2, "run.seed", "negative");
    expect_error("[network]\ntopology = hypercub\n", 2, "network.topology", "did you mean 'hypercube'?");
    expect_error("[workload]\nrate =\n", 2, "workload.rate", "missing value");
}
END_TEST

START_TEST(impossible_values_are_refused)
{
    expect_error("[workload]\nrate = -1\n", 2, "workload.rate", "must be greater than 0");
    expect_error("[workload]\nrate = 0\n", 2, "workload.rate", "must be greater than 0");
    expect_error("[network]\ndimension = 0\n", 2, "network.dimension", "must be at least 1");
    expect_error("[network]\nbandwidth = 0\n", 2, "network.bandwidth", "must be greater than 0");
    expect_error("[workload]\nmean_length = -2\n", 2, "workload.mean_length", "must be greater than 0");
    expect_error("[run]\nmessages = 0\n", 2, "run.messages", "must be at least 1");
    expect_error("[run]\nbatches = 1\n", 2, "run.batches", "must be at least 2");
}
END_TEST

START_TEST(repeated_key_and_syntax_errors_are_refused)
{
    expect_error("[run]\nseed = 1\n\nseed = 2\n", 4, "run.seed", "set twice (first on line 2)");
    expect_error("[run]\nseed = 1\nthis is not ini\n", 3, "", "syntax error");
    expect_error("dimension = 3\n", 1, "dimension", "outside any [section]");
    /* inih would read an indented line as the previous value's continuation */
    expect_error("[network]\ndimension = 3\n  dimension = 4\n", 3, "", "indented line");
    expect_error("[run]\nseed = 99999999999999999999\n", 2, "run.seed", "not a whole number");
}
END_TEST

START_TEST(unreadable_file_is_refused)
{
    struct config cfg;
    struct cfg_error err;
    char missing[128];
    snprintf(missing, sizeof missing, "%s/none.ini", dir);
    ck_assert(!run_config_load(&cfg, missing, NULL, 0, &err));
    ck_assert_str_eq(err.file, missing);
    ck_assert_msg(strstr(err.message, "cannot read"), "%s", err.message);
}
END_TEST

START_TEST(overrides_apply_after_the_file)
{
    struct config cfg;
    struct cfg_error err;
    const char *path = write_ini("o.ini", "[network]\ndimension = 3\n[workload]\nrate = 0.5 ; comment\n");
    const char *ov[] = { "network.dimension=5", "run.seed=77", "run.redraw_length_per_hop=true" };
    ck_assert_msg(run_config_load(&cfg, path, ov, 3, &err), "%s", err.message);
    ck_assert_int_eq(cfg.network.dimension, 5);
    ck_assert_double_eq(cfg.workload.rate, 0.5);
    ck_assert_uint_eq(cfg.run.seed, 77);
    ck_assert(cfg.run.redraw_length_per_hop);
    ck_assert_str_eq(cfg.routing.algorithm, "ecube"); /* untouched keys keep their defaults */

    const char *bad[] = { "network.dimension=0" };
    ck_assert(!run_config_load(&cfg, path, bad, 1, &err));
    ck_assert_str_eq(err.file, "command line (-s)");
    ck_assert_str_eq(err.key, "network.dimension");
    const char *malformed[] = { "dimension" };
    ck_assert(!run_config_load(&cfg, path, malformed, 1, &err));
    ck_assert_msg(strstr(err.message, "expected section.key=value"), "%s", err.message);
}
END_TEST

START_TEST(every_key_has_a_default_and_a_meaning)
{
    struct config cfg;
    run_config_defaults(&cfg); /* aborts on a default that does not parse */
    /* Every row of the framework's tables and of each distinct plug-in table the
     * schema reaches, each laid out once. */
    size_t rows = 0;
    for (size_t f = 0; f < cfg_framework_table_count; f++)
        rows += cfg_framework_tables[f].count;
    const struct cfg_param_table *seen[CFG_BLOCKS_MAX];
    size_t n_seen = 0;
    const struct cfg_schema *schema = run_config_schema();
    for (size_t g = 0; g < schema->count; g++) {
        const struct cfg_choices *c = schema->registries[g].choices;
        for (size_t i = 0; c->params && c->name(i); i++) {
            const struct cfg_param_table *t = c->params(i);
            bool known = !t;
            for (size_t k = 0; k < n_seen && !known; k++)
                known = seen[k] == t;
            if (!known) {
                ck_assert_uint_lt(n_seen, CFG_BLOCKS_MAX);
                seen[n_seen++] = t;
                rows += t->count;
            }
        }
    }
    ck_assert_uint_eq(cfg_key_count(&cfg), rows);
    ck_assert_uint_eq(cfg.n_blocks, n_seen);
    for (size_t i = 0; i < cfg_key_count(&cfg); i++) {
        const struct cfg_key *k = cfg_key_at(&cfg, i);
        ck_assert_msg(k->section && k->name, "key %zu has no row", i);
        ck_assert_msg(k->help && strlen(k->help) > 10, "key %zu has no meaning", i);
    }
    ck_assert_str_eq(cfg.network.topology, "hypercube");
    ck_assert_int_eq(cfg.run.batches, 20);
}
END_TEST

/* blame() points at the line a key was set on, or at the file when defaulted. */
START_TEST(blame_names_where_a_key_was_set)
{
    struct config cfg;
    struct cfg_error err;
    const char *path = write_ini("b.ini", "[workload]\n\nrate = 3\n");
    ck_assert(run_config_load(&cfg, path, NULL, 0, &err));
    cfg_blame(&cfg, "workload.rate", &err, "x");
    ck_assert_int_eq(err.line, 3);
    ck_assert_str_eq(err.key, "workload.rate");
    cfg_blame(&cfg, "network.dimension", &err, "x");
    ck_assert_int_eq(err.line, 0);
    ck_assert_str_eq(err.file, path);
}
END_TEST

/* End to end through the binary: one line on stderr, exit 2, nothing on stdout, no -o file. */
static void expect_cli_error(const char *text, const char *fragment)
{
    const char *path = write_ini("e.ini", text);
    char out_path[128];
    snprintf(out_path, sizeof out_path, "%s/out.json", dir);
    const char *argv[] = { test_binary(), "-f", "json", "-o", out_path, path, NULL };
    char out[4096], err[4096];
    int status = test_exec(argv, out, sizeof out, err, sizeof err);
    ck_assert_int_eq(status, 2);
    ck_assert_str_eq(out, "");
    char *newline = strchr(err, '\n');
    ck_assert_msg(newline && newline[1] == '\0', "not one line: %s", err);
    ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "does not name the file: %s", err);
    ck_assert_msg(strstr(err, fragment), "'%s' lacks '%s'", err, fragment);
    ck_assert_int_ne(access(out_path, F_OK), 0);
}

START_TEST(binary_reports_each_error_kind_in_one_line_with_exit_2)
{
    expect_cli_error("[network]\ndimenson = 3\n", ":2: network.dimenson: unknown key (did you mean network.dimension?)");
    expect_cli_error("[nework]\ndimension = 3\n", ":2: nework.dimension: unknown section");
    expect_cli_error("[network]\ndimension = x\n", ":2: network.dimension: 'x' is not a whole number");
    expect_cli_error("[workload]\nrate = -1\n", ":2: workload.rate: must be greater than 0");
    expect_cli_error("[network]\ndimension = 21\n", ":2: network.dimension: a hypercube of dimension 21 is too large");
    /* Unstable load (default 6-cube: channel load 32/63 of the rate) blames the rate's line. */
    expect_cli_error("[network]\ndimension = 6\n[workload]\nrate = 2.0\n", ":4: workload.rate: unstable");
    /* A saturated node server blames node.service_rate; a window without a duration is refused. */
    expect_cli_error("[network]\ndimension = 6\n[node]\nservice_rate = 4\n", ":4: node.service_rate: unstable");
    expect_cli_error("[run]\nwarmup_time = 75\n", ":2: run.warmup_time: run.warmup_time needs run.duration");
    expect_cli_error("[protocol]\nlink = tdm\ntdm_rule = loose\n", ":3: protocol.tdm_rule: unknown value 'loose'");
    expect_cli_error("[protocol]\npriority = random\n", ":2: protocol.priority: unknown value 'random'");
    expect_cli_error("[protocol]\ntoken_time = 0\n", ":2: protocol.token_time: must be greater than 0");
    expect_cli_error("[run]\nreplications = 0\n", ":2: run.replications: must be at least 1");
    char missing[128];
    snprintf(missing, sizeof missing, "%s/missing.ini", dir);
    const char *argv[] = { test_binary(), missing, NULL };
    char out[1024], err[1024];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "missing.ini: cannot read"), "%s", err);
}
END_TEST

START_TEST(allow_unstable_lets_an_unstable_run_start)
{
    const char *path = write_ini("u.ini", "[workload]\nrate = 2.0\n[run]\nallow_unstable = true\nwarmup_messages = 0\n"
                                          "messages = 2000\n");
    const char *argv[] = { test_binary(), "-f", "json", path, NULL };
    char out[16384], err[1024];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strstr(out, "\"unstable\": true"), "%s", out);
    ck_assert_msg(strstr(out, "\"saturated\": true"), "%s", out);
    ck_assert_msg(strstr(out, "\"saturation_note\": \"channel utilisation 1.016 >= 1"), "%s", out);
}
END_TEST

/* Replications from the command line: the JSON carries their count and intervals, and
 * the thesis's time window replaces message counts. */
START_TEST(replications_and_time_window_on_the_command_line)
{
    const char *path = write_ini("r.ini", "[network]\ntopology = spanning-bus-hypercube\nwidth = 4\ndimension = 3\n"
                                          "bandwidth = 10\n[node]\nservice_rate = 20\n[protocol]\nlink = token\n"
                                          "token_time = 0.3333333333333333\n[run]\nwarmup_time = 75\n"
                                          "duration = 75\nreplications = 4\n");
    const char *argv[] = { test_binary(), "-f", "json", path, NULL };
    char out[16384], err[1024];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
    const char *fields[] = { "\"replications\": {\n    \"count\": 4", "\"stddev_ci95_low\"", "\"max_sd\"",
                             "\"node_mean\"", "\"link_variance\"", "\"node_servers\": {", "\"saturated\": false",
                             "\"duration\": 75" };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        ck_assert_msg(strstr(out, fields[i]), "JSON lacks %s:\n%s", fields[i], out);
    const char *table[] = { test_binary(), path, NULL };
    ck_assert_int_eq(test_exec(table, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strstr(out, "delivered in [75, 150] over 4 replications"), "%s", out);
    ck_assert_msg(strstr(out, "95% CI (replications)"), "%s", out);
}
END_TEST

Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, make_dir, remove_dir);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, unknown_key_names_the_nearest_valid_key);
    tcase_add_test(tc, unknown_section_names_the_nearest_section);
    tcase_add_test(tc, wrong_type_is_refused);
    tcase_add_test(tc, impossible_values_are_refused);
    tcase_add_test(tc, repeated_key_and_syntax_errors_are_refused);
    tcase_add_test(tc, unreadable_file_is_refused);
    tcase_add_test(tc, overrides_apply_after_the_file);
    tcase_add_test(tc, every_key_has_a_default_and_a_meaning);
    tcase_add_test(tc, blame_names_where_a_key_was_set);
    tcase_add_test(tc, binary_reports_each_error_kind_in_one_line_with_exit_2);
    tcase_add_test(tc, allow_unstable_lets_an_unstable_run_start);
    tcase_add_test(tc, replications_and_time_window_on_the_command_line);
    suite_add_tcase(s, tc);
    return s;
}
