#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/test.h"

enum { BIG = 1 << 20 };
static char out[BIG], out2[BIG], err[65536];
static const char DEFAULT_INI[] = "configs/default.ini";

/* Removes the "performance" object (the only part allowed to differ between runs). */
static void strip_performance(char *json)
{
    char *p = strstr(json, "\"performance\"");
    ck_assert(p != NULL);
    char *end = strchr(p, '}');
    ck_assert(end != NULL);
    memmove(p, end + 1, strlen(end + 1) + 1);
}

START_TEST(help_version_and_list)
{
    const char *help[] = { test_binary(), "--help", NULL };
    ck_assert_int_eq(test_exec(help, out, BIG, err, sizeof err), 0);
    ck_assert(strstr(out, "usage: sim [options] CONFIG.ini"));
    ck_assert(strstr(out, "--format table|csv|json"));
    const char *version[] = { test_binary(), "--version", NULL };
    ck_assert_int_eq(test_exec(version, out, BIG, err, sizeof err), 0);
    ck_assert_msg(strncmp(out, "sim 0.1.0\nCopyright (C) ", 22) == 0, "%s", out); /* test_cli_polish.c: the rest */
    const char *list[] = { test_binary(), "--list", NULL };
    ck_assert_int_eq(test_exec(list, out, BIG, err, sizeof err), 0);
    struct config layout;
    run_config_defaults(&layout);
    for (size_t i = 0; i < cfg_key_count(&layout); i++) {
        const struct cfg_key *k = cfg_key_at(&layout, i);
        char section[64];
        snprintf(section, sizeof section, "[%s]", k->section);
        ck_assert_msg(strstr(out, section) && strstr(out, k->name), "--list lacks %s", k->name);
        ck_assert(strstr(out, k->help));
    }
    ck_assert(strstr(out, "store-and-forward"));
    const char *none[] = { test_binary(), NULL };
    ck_assert_int_eq(test_exec(none, out, BIG, err, sizeof err), 2);
    const char *badfmt[] = { test_binary(), "-f", "xml", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(badfmt, out, BIG, err, sizeof err), 2);
    ck_assert(strstr(err, "unknown format 'xml'"));
}
END_TEST

START_TEST(json_has_every_documented_field)
{
    const char *argv[] = { test_binary(), "-f", "json", "-s", "run.messages=4000", "-s", "run.warmup_messages=1000",
                           DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
    const char *fields[] = { "\"config\"", "\"delay\"", "\"mean\"", "\"variance\"", "\"stddev\"", "\"min\"", "\"max\"",
                             "\"p50\"", "\"p90\"", "\"p99\"", "\"p999\"", "\"ci95\": [", "\"count\": 4000",
                             "\"throughput\"", "\"channels\"", "\"utilization_mean\"", "\"utilization_max\"",
                             "\"analytic\": {", "\"model\": \"mm1-network\"", "\"delay_mean\": 7.804878049",
                             "\"interrupted\": false", "\"performance\"", "\"events\"", "\"events_per_second\"",
                             "\"wall_seconds\"", "\"backtracking\": null" };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        ck_assert_msg(strstr(out, fields[i]), "JSON lacks %s", fields[i]);
}
END_TEST

START_TEST(csv_has_one_header_and_one_row_of_equal_width)
{
    const char *argv[] = { test_binary(), "-f", "csv", "-s", "run.messages=4000", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
    char *row = strchr(out, '\n');
    ck_assert(row != NULL);
    *row++ = '\0';
    char *end = strchr(row, '\n');
    ck_assert(end && end[1] == '\0');
    *end = '\0';
    int header_commas = 0, row_commas = 0;
    for (char *c = out; *c; c++)
        header_commas += *c == ',';
    for (char *c = row; *c; c++)
        row_commas += *c == ',';
    ck_assert_int_eq(header_commas, row_commas);
    ck_assert(strstr(out, "delay.mean,"));
    ck_assert(strstr(out, "delay.ci95_low,delay.ci95_high"));
    ck_assert(strstr(out, "workload.rate,"));
    ck_assert(strstr(out, "performance.wall_seconds"));
    /* The config echo by column name: the framework's keys and ecube's, no other plug-in's. */
    const char *cells[][2] = { { "network.topology", "hypercube" }, { "network.dimension", "6" },
                               { "routing.algorithm", "ecube" }, { "routing.switching", "store-and-forward" },
                               { "routing.dimension_order", "ascending" }, { "protocol.link", "fifo" },
                               { "workload.arrival", "poisson" }, { "workload.rate", "1.2" },
                               { "workload.rate_unit", "messages" }, { "run.messages", "4000" } };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
        char cell[64];
        ck_assert_msg(test_csv_cell(out, row, cells[i][0], cell, sizeof cell), "no column %s", cells[i][0]);
        ck_assert_str_eq(cell, cells[i][1]);
    }
    const char *absent[] = { "protocol.slot", "routing.flit_buffers", "routing.buffers", "network.radix" };
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
        char cell[64];
        ck_assert_msg(!test_csv_cell(out, row, absent[i], cell, sizeof cell), "column %s echoed", absent[i]);
    }
}
END_TEST

/* Same config and seed: identical bytes outside "performance"; another seed differs. */
START_TEST(same_seed_gives_identical_results)
{
    const char *argv[] = { test_binary(), "-f", "json", "-s", "run.messages=20000", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
    ck_assert_int_eq(test_exec(argv, out2, BIG, err, sizeof err), 0);
    strip_performance(out);
    strip_performance(out2);
    ck_assert_str_eq(out, out2);
    const char *other[] = { test_binary(), "-f", "json", "-s", "run.messages=20000", "--seed", "2", DEFAULT_INI,
                            NULL };
    ck_assert_int_eq(test_exec(other, out2, BIG, err, sizeof err), 0);
    strip_performance(out2);
    ck_assert_str_ne(out, out2);
    /* --seed N is the same as -s run.seed=N */
    const char *same[] = { test_binary(), "-f", "json", "-s", "run.messages=20000", "-s", "run.seed=2", DEFAULT_INI,
                           NULL };
    ck_assert_int_eq(test_exec(same, out, BIG, err, sizeof err), 0);
    strip_performance(out);
    ck_assert_str_eq(out, out2);
}
END_TEST

START_TEST(output_file_is_written_whole)
{
    char dir[] = "/tmp/simout-XXXXXX";
    ck_assert(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/result.csv", dir);
    const char *argv[] = { test_binary(), "-f", "csv", "-o", path, "-s", "run.messages=4000", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
    ck_assert_str_eq(out, ""); /* nothing on stdout */
    FILE *f = fopen(path, "r");
    ck_assert(f != NULL);
    size_t n = fread(out2, 1, BIG - 1, f);
    out2[n] = '\0';
    fclose(f);
    ck_assert(strstr(out2, "delay.mean"));
    char cmd[160];
    snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) -eq 1 && rm -rf %s", dir, dir); /* no temporary left */
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(sigint_prints_partial_results_and_exits_130)
{
    const char *argv[] = { test_binary(), "-f", "json", "-s", "run.messages=1000000000", "-s", "network.dimension=8",
                           DEFAULT_INI, NULL };
    int status = test_exec_signal(argv, 0.5, SIGINT, out, BIG, err, sizeof err);
    ck_assert_int_eq(status, 130);
    ck_assert_msg(strstr(out, "\"interrupted\": true"), "%s", out);
    ck_assert(strstr(out, "\"stop_reason\": \"signal\""));
    ck_assert(strstr(out, "\"performance\""));
    status = test_exec_signal(argv, 0.5, SIGTERM, out, BIG, err, sizeof err);
    ck_assert_int_eq(status, 130);
    ck_assert(strstr(out, "\"interrupted\": true"));
}
END_TEST

START_TEST(max_wall_seconds_stops_the_run)
{
    const char *argv[] = { test_binary(), "-f", "json", "-s", "run.messages=1000000000", "-s",
                           "run.max_wall_seconds=0.3", DEFAULT_INI, NULL };
    int status = test_exec(argv, out, BIG, err, sizeof err);
    ck_assert_int_eq(status, 124);
    ck_assert(strstr(out, "\"interrupted\": true"));
    ck_assert(strstr(out, "\"stop_reason\": \"max_wall_seconds\""));
}
END_TEST

START_TEST(progress_line_goes_to_stderr_only)
{
    /* Long enough to outlast the first progress line (0.5 s) on a fast machine. */
    const char *argv[] = { test_binary(), "--progress", "-f", "csv", "-s", "run.messages=4000000", "-s",
                           "run.warmup_messages=0", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "[sim] t="), "no progress line in: %s", err);
    ck_assert(strstr(err, "events/s"));
    ck_assert(strstr(err, "ETA"));
    ck_assert(!strstr(out, "[sim]"));
}
END_TEST

/* --describe: the structure without a simulation, as a table or JSON; bad input is exit 2. */
START_TEST(describe_prints_the_structure)
{
    const char *json[] = { test_binary(), "--describe", "-f", "json", "configs/sbh-4x4x4.ini", NULL };
    ck_assert_int_eq(test_exec(json, out, BIG, err, sizeof err), 0);
    const char *fields[] = { "\"nodes\": 64", "\"channels\": 48", "\"channel_kind\": \"bus\"", "\"links\": 48",
                             "\"degree\": 3", "\"diameter\": 3", "\"average_distance\": 2.285714286",
                             "\"load_factor\": 3.047619048", "\"name\": \"dim2\"" };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        ck_assert_msg(strstr(out, fields[i]), "missing %s in %s", fields[i], out);
    /* no model's delay, only the structure's zero-load one */
    ck_assert(!strstr(out, "delay_mean") && !strstr(out, "mm1"));
    ck_assert_msg(strstr(out, "\"zero_load_delay\": "), "%s", out);
    const char *table[] = { test_binary(), "--describe", "configs/torus-4x4x4.ini", NULL };
    ck_assert_int_eq(test_exec(table, out, BIG, err, sizeof err), 0);
    ck_assert(strstr(out, "channels          192 (half-duplex-link servers)"));
    ck_assert(strstr(out, "average distance  3.047619048"));
    const char *csv[] = { test_binary(), "--describe", "-f", "csv", "configs/torus-4x4x4.ini", NULL };
    ck_assert_int_eq(test_exec(csv, out, BIG, err, sizeof err), 2);
    const char *bad[] = { test_binary(), "--describe", "-s", "network.topology=bh-ccc", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(bad, out, BIG, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, "network.cluster_dimension: bh-ccc needs") && !strchr(strchr(err, '\n') + 1, '\n'),
                  "%s", err);
}
END_TEST

/* `--analytic`: every model's figures, no simulation, on the largest networks of
 * configs/ (its speed, under 50 ms each, is measured by make bench, not here). */
START_TEST(analytic_alone_is_complete)
{
    const char *json[] = { test_binary(), "--analytic", "-f", "json", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(json, out, BIG, err, sizeof err), 0);
    ck_assert_msg(strstr(out, "\"mm1-network\": {\"delay.mean\": 7.804878049, \"hops_mean\": 3.047619048"), "%s", out);
    ck_assert(strstr(out, "\"model\": \"mm1-network\""));
    ck_assert(!strstr(out, "\"delay\": {"));
    const char *csv[] = { test_binary(), "--analytic", "-f", "csv", "configs/004/b1a-sbh-10.0.ini", NULL };
    ck_assert_int_eq(test_exec(csv, out, BIG, err, sizeof err), 0);
    char *second = strchr(out, '\n') + 1;
    ck_assert(strstr(out, ",md1-mm1-network.delay.mean,") < second);
    ck_assert_ptr_eq(strchr(second, '\n') + 1, out + strlen(out)); /* one header, one row */
    const char *configs[] = { "configs/hypercube-10.ini", "configs/kary-32x32.ini", "configs/bh-bh-6-3.ini",
                              "configs/dbh-4x4x4.ini", "configs/004/b1a-dbh-10.0.ini" };
    for (size_t i = 0; i <= sizeof configs / sizeof configs[0]; i++) {
        bool big = i == sizeof configs / sizeof configs[0]; /* last: a 2^20-node hypercube */
        const char *argv[] = { test_binary(), "--analytic", "-f", "json", "-s",
                               big ? "network.dimension=20" : "run.seed=1", big ? DEFAULT_INI : configs[i], NULL };
        ck_assert_int_eq(test_exec(argv, out, BIG, err, sizeof err), 0);
        ck_assert_msg(strstr(out, "\"wall_seconds\": "), "%s: %s", argv[6], out);
    }
    /* --no-timing leaves out the one wall-clock figure, in every format: the output is
     * then a function of the config alone. */
    const char *formats[] = { "json", "table", "csv" };
    for (size_t i = 0; i < 3; i++) {
        const char *untimed[] = { test_binary(), "--analytic", "--no-timing", "-f", formats[i], DEFAULT_INI, NULL };
        ck_assert_int_eq(test_exec(untimed, out, BIG, err, sizeof err), 0);
        ck_assert_msg(!strstr(out, "\"wall_seconds\"") && !strstr(out, "performance"), "%s: %s", formats[i], out);
        ck_assert_msg(strstr(out, "7.804878049"), "%s: %s", formats[i], out);
    }
    /* The same figures come with a simulation, beside the simulated values. */
    const char *table[] = { test_binary(), "-s", "run.messages=20000", DEFAULT_INI, NULL };
    ck_assert_int_eq(test_exec(table, out, BIG, err, sizeof err), 0);
    char line[128];
    snprintf(line, sizeof line, "%-56s %-14s ", "  mm1-network.delay.mean", "7.804878049");
    ck_assert_msg(strstr(out, line), "%s", out);
}
END_TEST

Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("binary");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, help_version_and_list);
    tcase_add_test(tc, json_has_every_documented_field);
    tcase_add_test(tc, csv_has_one_header_and_one_row_of_equal_width);
    tcase_add_test(tc, same_seed_gives_identical_results);
    tcase_add_test(tc, output_file_is_written_whole);
    tcase_add_test(tc, sigint_prints_partial_results_and_exits_130);
    tcase_add_test(tc, max_wall_seconds_stops_the_run);
    tcase_add_test(tc, progress_line_goes_to_stderr_only);
    tcase_add_test(tc, describe_prints_the_structure);
    tcase_add_test(tc, analytic_alone_is_complete);
    suite_add_tcase(s, tc);
    return s;
}
