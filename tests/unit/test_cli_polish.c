/* The command line's finish (issue 21): --version names the copyright and licence,
 * --describe and --analytic are refused together with one "sim: " line and nothing on
 * stdout, and --list-markdown lists every key of the layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../sim/config/config.h"
#include "../../sim/run/run_config.h"
#include "../common/test.h"

enum { OUT_SIZE = 1 << 18 };

START_TEST(version_names_copyright_and_licence)
{
    static char out[OUT_SIZE], err[4096];
    const char *argv[] = { test_binary(), "--version", NULL };
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strncmp(out, "sim 0.1.0\n", 10) == 0, "%s", out);
    ck_assert_msg(strstr(out, "\nCopyright (C) "), "%s", out);
    ck_assert_msg(strstr(out, "\nLicense GPLv3+: GNU GPL version 3 or later"), "%s", out);
    ck_assert_msg(strstr(out, "NO WARRANTY"), "%s", out);
    ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(describe_and_analytic_are_refused_together)
{
    static char out[OUT_SIZE], err[4096];
    const char *argv[] = { test_binary(), "--describe", "--analytic", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "sim: --describe and --analytic go one at a time (run sim twice)\n");
    const char *reversed[] = { test_binary(), "--analytic", "-f", "json", "--describe", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(reversed, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
}
END_TEST

/* One table row per key, in each section's table, in the layout's order. */
START_TEST(list_markdown_has_every_key_once)
{
    static char out[OUT_SIZE], err[4096];
    const char *argv[] = { test_binary(), "--list-markdown", NULL };
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
    struct config *layout = malloc(sizeof *layout);
    run_config_defaults(layout);
    const char *at = out;
    for (size_t i = 0; i < cfg_key_count(layout); i++) {
        const struct cfg_key *k = cfg_key_at(layout, i);
        char heading[80], row[80];
        snprintf(heading, sizeof heading, "#### `[%s]`\n", k->section);
        snprintf(row, sizeof row, "\n| `%s` | ", k->name);
        const char *section = strstr(out, heading);
        ck_assert_msg(section, "no table for [%s]", k->section);
        const char *next = strstr(at, row);
        ck_assert_msg(next && next > section, "%s.%s missing or out of order", k->section, k->name);
        at = next + 1;
    }
    free(layout);
}
END_TEST

Suite *cli_polish_suite(void)
{
    Suite *s = suite_create("cli_polish");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, version_names_copyright_and_licence);
    tcase_add_test(tc, describe_and_analytic_are_refused_together);
    tcase_add_test(tc, list_markdown_has_every_key_once);
    suite_add_tcase(s, tc);
    return s;
}
