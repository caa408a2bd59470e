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
    ck_assert_str_eq(err, "sim: --describe, --analytic and --check-deadlock go one at a time (run sim twice)\n");
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

/* cfg_put_escaped of s, as a string. */
static const char *escaped(const char *s)
{
    static char buf[256];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    ck_assert(f != NULL);
    cfg_put_escaped(s, f);
    fclose(f);
    return buf;
}

START_TEST(invisible_characters_in_a_value_are_escaped)
{
    /* Issue 37 item 15: a no-break space after a choice value was echoed as it is, so the
     * message read "unknown value 'ecube '". */
    ck_assert_str_eq(escaped("ecube\xc2\xa0"), "ecube\\xc2\\xa0");
    ck_assert_str_eq(escaped("\xef\xbb\xbf" "x\xe2\x80\x8b" "y"), "\\xef\\xbb\\xbfx\\xe2\\x80\\x8by"); /* BOM, zero width */
    ck_assert_str_eq(escaped("a\xe3\x80\x80" "b\xc2\x85"), "a\\xe3\\x80\\x80b\\xc2\\x85"); /* ideographic space, NEL */
    ck_assert_str_eq(escaped("bad\xff\xc3"), "bad\\xff\\xc3"); /* no UTF-8 */
    ck_assert_str_eq(escaped("r\xc3\xa9" "sum\xc3\xa9 \xe6\x97\xa5.ini"), "r\xc3\xa9" "sum\xc3\xa9 \xe6\x97\xa5.ini"); /* text as it is */
    static char out[4096], err[4096];
    const char *argv[] = { test_binary(), "-s", "routing.algorithm=ecube\xc2\xa0", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "unknown value 'ecube\\xc2\\xa0' (did you mean 'ecube'?)"), "%s", err);
}
END_TEST

Suite *cli_polish_suite(void)
{
    Suite *s = suite_create("cli_polish");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, version_names_copyright_and_licence);
    tcase_add_test(tc, describe_and_analytic_are_refused_together);
    tcase_add_test(tc, list_markdown_has_every_key_once);
    tcase_add_test(tc, invisible_characters_in_a_value_are_escaped);
    suite_add_tcase(s, tc);
    return s;
}
