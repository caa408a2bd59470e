/* What a newcomer tripped on (issue 38): BookSim habits get hints that name the key
 * meant, integer bounds print as integers, a '#' in a value is explained, `mesh` is a
 * topology, a trace path is relative to its config's folder, an -s override that no
 * chosen plug-in reads is noted, an empty config says it runs the defaults (each through
 * the binary, as a user meets it: one line on stderr), and scripts/plot.sh overlays the
 * model on the simulation in words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/test.h"

enum { OUT_SIZE = 1 << 16 };
static char dir[64];
static char out[OUT_SIZE], err[OUT_SIZE];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/simnew-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Writes text to dir/name; the path in path (size 128). */
static const char *write_in_dir(char *path, const char *name, const char *text)
{
    snprintf(path, 128, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    ck_assert(fputs(text, f) >= 0 && fclose(f) == 0);
    return path;
}

static bool one_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl && nl[1] == '\0';
}

/* Runs sim with argv (after the binary); expects exit 2, nothing on stdout and one line
 * on stderr holding `says`. */
static void expect_refused(const char *const *args, const char *says)
{
    const char *argv[16] = { test_binary() };
    for (size_t i = 0; args[i]; i++)
        argv[i + 1] = args[i];
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(one_line(err), "not one line: %s", err);
    ck_assert_msg(strstr(err, says), "'%s' lacks '%s'", err, says);
}

START_TEST(booksim_habits_get_the_key_they_meant)
{
    expect_refused((const char *[]){ "configs/default.ini", "workload.rate=0.3", NULL },
                   "sim: 'workload.rate=0.3' is no CONFIG.ini: a key is set with -s workload.rate=0.3");
    expect_refused((const char *[]){ "-s", "workload.rate", "0.3", "configs/default.ini", NULL },
                   "sim: -s workload.rate: the value goes in the same argument, -s workload.rate=0.3");
    expect_refused((const char *[]){ "-s", "rate=0.3", "configs/default.ini", NULL },
                   "-s rate=0.3: expected section.key=value (did you mean workload.rate?)");
    expect_refused((const char *[]){ "--sweep", "rate=0.1,0.2", "configs/default.ini", NULL },
                   "--sweep 'rate=0.1,0.2': a key is SECTION.KEY (did you mean workload.rate?)");
    /* a name in several sections: every one of them */
    expect_refused((const char *[]){ "-s", "dimension=3", "configs/default.ini", NULL },
                   "(did you mean network.dimension or physical.dimension?)");
    expect_refused((const char *[]){ "-s", "run.dimension=3", "configs/default.ini", NULL },
                   "run.dimension: unknown key (did you mean network.dimension or physical.dimension?)");
    expect_refused((const char *[]){ "-s", "foo.rate=3", "configs/default.ini", NULL },
                   "foo.rate: unknown section [foo] (did you mean workload.rate?)");
    char path[128];
    const char *ini = write_in_dir(path, "bare.ini", "; no section\nrate = 0.3\n");
    expect_refused((const char *[]){ ini, NULL }, ":2: rate: key outside any [section] (did you mean workload.rate?)");
}
END_TEST

START_TEST(bounds_and_comments_are_said_as_written)
{
    expect_refused((const char *[]){ "-s", "network.topology=torus", "-s", "network.radix=1", "configs/default.ini",
                                     NULL },
                   "network.radix: must be at least 2 and at most 1073741824 (got 1)");
    char path[128];
    const char *ini = write_in_dir(path, "hash.ini", "[network]\ntopology = torus # a comment?\n");
    expect_refused((const char *[]){ ini, NULL },
                   ":2: network.topology: '#' starts no comment in a value (';' does): unknown value 'torus # a "
                   "comment?'");
    ini = write_in_dir(path, "semicolon.ini", "[network]\ntopology = torus ; a comment\nradix = 4\n");
    const char *argv[] = { test_binary(), "--describe", ini, NULL };
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
}
END_TEST

/* `mesh` is listed, explained by --describe, echoes no key it ignores, and runs the
 * network kary-ncube with wrap = false builds. */
START_TEST(mesh_is_a_topology)
{
    const char *list[] = { test_binary(), "--list", NULL };
    ck_assert_int_eq(test_exec(list, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strstr(out, "\n      mesh                 k-ary n-cube without end-around links"), "%s", out);
    const char *describe[] = { test_binary(), "--describe", "-s", "network.topology=mesh", "-s", "network.radix=4",
                               "-s", "network.dimension=2", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(describe, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strncmp(out, "topology          mesh (4-ary 2-cube mesh, kary-ncube with wrap = false)\n", 73) == 0,
                  "%s", out);
    ck_assert_msg(strstr(out, "\ndiameter          6 (router to router: 6)\n"), "%s", out);
    static char mesh[OUT_SIZE], kary[OUT_SIZE];
    const char *run_mesh[] = { test_binary(), "--no-timing", "-s", "network.topology=mesh", "-s", "network.radix=4",
                               "-s", "network.dimension=2", "-s", "workload.rate=0.2", "-s", "run.messages=3000",
                               "-s", "run.warmup_messages=300", "-f", "json", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(run_mesh, mesh, sizeof mesh, err, sizeof err), 0);
    ck_assert_msg(strstr(mesh, "\"topology\": \"mesh\"") && !strstr(mesh, "\"wrap\""), "%s", mesh);
    const char *run_kary[] = { test_binary(), "--no-timing", "-s", "network.topology=kary-ncube", "-s",
                               "network.wrap=false", "-s", "network.radix=4", "-s", "network.dimension=2", "-s",
                               "workload.rate=0.2", "-s", "run.messages=3000", "-s", "run.warmup_messages=300", "-f",
                               "json", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(run_kary, kary, sizeof kary, err, sizeof err), 0);
    /* the same run: every figure after the network's name */
    const char *m = strstr(mesh, "\n  \"nodes\""), *k = strstr(kary, "\n  \"nodes\"");
    ck_assert(m && k);
    ck_assert_str_eq(m, k);
}
END_TEST

/* A relative workload.trace in a file is read from the file's folder, wherever sim runs;
 * one that cannot be read is named with the config's file and line. */
START_TEST(trace_paths_are_relative_to_their_config)
{
    char trace[128], ini[128], sub[128];
    write_in_dir(trace, "t.csv", "0.5,1,2,1\n1,2,3,1\n1.5,3,4,1\n");
    write_in_dir(ini, "tr.ini", "[network]\ndimension = 4\n[workload]\narrival = trace\ntrace = t.csv\n"
                                "[run]\nmessages = 3\nwarmup_messages = 0\n");
    const char *argv[] = { test_binary(), "--no-timing", ini, NULL };
    ck_assert_msg(test_exec(argv, out, sizeof out, err, sizeof err) == 0, "%s", err);
    char want[400];
    snprintf(want, sizeof want, "replay of the trace %s\n", trace);
    ck_assert_msg(strstr(out, want), "%s", out);
    /* on the command line: relative to the current directory, named with -s */
    const char *set[] = { test_binary(), "-s", "workload.trace=t.csv", ini, NULL };
    ck_assert_int_eq(test_exec(set, out, sizeof out, err, sizeof err), 2);
    ck_assert_msg(strncmp(err, "command line (-s): workload.trace: cannot read the trace t.csv: ", 63) == 0, "%s", err);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    write_in_dir(ini, "sub/missing.ini", "[network]\ndimension = 4\n[workload]\narrival = trace\ntrace = t.csv\n");
    const char *missing[] = { test_binary(), ini, NULL };
    ck_assert_int_eq(test_exec(missing, out, sizeof out, err, sizeof err), 2);
    snprintf(want, sizeof want, "%s:5: workload.trace: cannot read the trace %s/t.csv (relative to the config's folder): ",
             ini, sub);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0 && one_line(err), "%s", err);
    ck_assert_str_eq(out, "");
}
END_TEST

/* An -s override that no chosen plug-in reads: one line naming the choice that rules it
 * out, and the same report as without it; keys in the file stay silent. */
START_TEST(overrides_without_effect_are_noted)
{
    static char plain[OUT_SIZE];
    const char *base[] = { test_binary(), "--no-timing", "-s", "run.messages=2000", "-s", "run.warmup_messages=200",
                           "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(base, plain, sizeof plain, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    const char *iq[] = { test_binary(), "--no-timing", "-s", "run.messages=2000", "-s", "run.warmup_messages=200",
                         "-s", "routing.router=iq", "-s", "routing.routing_delay=3", "-s", "routing.router=simple",
                         "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(iq, out, sizeof out, err, sizeof err), 0);
    ck_assert_str_eq(out, plain);
    ck_assert_str_eq(err, "sim: -s routing.router has no effect with routing.switching = store-and-forward\n"
                          "sim: -s routing.routing_delay has no effect with routing.switching = store-and-forward\n");
    const char *wormhole[] = { test_binary(), "--describe", "-s", "routing.switching=wormhole", "-s",
                               "routing.vc_release=tail-credit", "-s", "network.radix=4", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(wormhole, out, sizeof out, err, sizeof err), 0);
    ck_assert_str_eq(err, "sim: -s routing.vc_release has no effect with routing.router = simple\n"
                          "sim: -s network.radix has no effect with network.topology = hypercube\n");
    char path[128];
    const char *ini = write_in_dir(path, "unused.ini", "[routing]\nrouter = iq\n[network]\nradix = 4\n");
    const char *file[] = { test_binary(), "--describe", ini, NULL };
    ck_assert_int_eq(test_exec(file, out, sizeof out, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    const char *quiet[] = { test_binary(), "--describe", "--no-notes", "-s", "network.radix=4", "configs/default.ini",
                            NULL };
    ck_assert_int_eq(test_exec(quiet, out, sizeof out, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(empty_config_says_it_runs_the_defaults)
{
    char path[128], want[300];
    const char *ini = write_in_dir(path, "empty.ini", "; nothing yet\n\n");
    snprintf(want, sizeof want, "sim: %s sets no key: running the defaults (sim --list shows them)\n", ini);
    const char *describe[] = { test_binary(), "--describe", ini, NULL };
    ck_assert_int_eq(test_exec(describe, out, sizeof out, err, sizeof err), 0);
    ck_assert_str_eq(err, want);
    ck_assert(strncmp(out, "topology          hypercube", 27) == 0);
    const char *sweep[] = { test_binary(), "--no-progress", "-j", "2", "--sweep", "workload.rate=0.2,0.4", "-s",
                            "run.messages=500", "-s", "run.warmup_messages=50", "-f", "csv", ini, NULL };
    ck_assert_int_eq(test_exec(sweep, out, sizeof out, err, sizeof err), 0);
    ck_assert_str_eq(err, want); /* once, not once per point */
    ini = write_in_dir(path, "one.ini", "[workload]\nrate = 0.5\n");
    const char *set[] = { test_binary(), "--describe", ini, NULL };
    ck_assert_int_eq(test_exec(set, out, sizeof out, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
}
END_TEST

/* scripts/plot.sh -n (the gnuplot script, not drawn): any number of Y columns, words from
 * its column table, the x range padded, and each row left out said on stderr. */
START_TEST(plot_overlays_the_model_in_words)
{
    char csv[128];
    write_in_dir(csv, "s.csv",
                 "workload.rate,workload.rate_unit,routing.switching,delay.mean,delay.ci95_low,delay.ci95_high,"
                 "analytic.model,analytic.delay_mean,stop_reason\n"
                 "0.1,flits,wormhole,4.7,4.6,4.8,mm1-network,4.5,completed\n"
                 "0.3,flits,wormhole,5.5,5.4,5.6,mm1-network,5.2,completed\n"
                 "0.8,flits,wormhole,,,,mm1-network,,unstable: not run\n"
                 "0.1,flits,cut-through,4.1,4.0,4.2,mm1-network,4.5,completed\n");
    const char *argv[] = { "/bin/sh", "scripts/plot.sh", "-n", "-e", "delay.ci95_low,delay.ci95_high", csv,
                           "workload.rate", "delay.mean", "analytic.delay_mean", NULL };
    ck_assert_msg(test_exec(argv, out, sizeof out, err, sizeof err) == 0, "%s", err);
    const char *want[] = { "set title 'mean delay against offered load'\n",
                           "set xlabel 'offered load (flits per node per time unit)'\n",
                           "set ylabel 'delay (time units)'\n",
                           "set xrange [0.09:0.31]\n", /* 5% of the span each side */
                           "$curve1 using 1:2:3:4 with yerrorlines title 'simulation: mean delay'",
                           "$curve2 using 1:2 with linespoints title 'model (mm1-network): mean delay'",
                           "$curve1 << EOD\n0.1 4.1 4.0 4.2\n0.1 4.7 4.6 4.8\n0.3 5.5 5.4 5.6\nEOD\n" };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(out, want[i]), "lacks %s:\n%s", want[i], out);
    ck_assert_str_eq(err, "plot.sh: left out workload.rate=0.8: no delay.mean, analytic.delay_mean (unstable: not run)\n");
    /* one curve per Y and per group value */
    const char *grouped[] = { "/bin/sh", "scripts/plot.sh", "-n", "-g", "routing.switching", "-t", "mine", csv,
                              "workload.rate", "delay.mean", "analytic.delay_mean", NULL };
    ck_assert_msg(test_exec(grouped, out, sizeof out, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(strstr(out, "title 'simulation: mean delay, routing.switching=wormhole'") &&
                      strstr(out, "title 'model (mm1-network): mean delay, routing.switching=cut-through'") &&
                      strstr(out, "$curve4 using") && !strstr(out, "$curve5") && strstr(out, "set title 'mine'\n"),
                  "%s", out);
    ck_assert_msg(strstr(err, "left out workload.rate=0.8 routing.switching=wormhole: no delay.mean"), "%s", err);
}
END_TEST

/* sim.1 documents every long option --help lists, and states --version's copyright year;
 * its examples use the default prefix. */
START_TEST(man_page_keeps_up_with_the_binary)
{
    static char help[OUT_SIZE], man[OUT_SIZE];
    const char *argv[] = { test_binary(), "--help", NULL };
    ck_assert_int_eq(test_exec(argv, help, sizeof help, err, sizeof err), 0);
    FILE *f = fopen("sim.1", "r");
    ck_assert(f != NULL);
    man[fread(man, 1, sizeof man - 1, f)] = '\0';
    fclose(f);
    unsigned options = 0;
    for (const char *p = strstr(help, " --"); p; p = strstr(p + 1, " --")) {
        char name[64], roff[160] = "\\-\\-";
        size_t len = strspn(p + 3, "abcdefghijklmnopqrstuvwxyz-");
        snprintf(name, sizeof name, "%.*s", (int)len, p + 3);
        for (const char *c = name; *c; c++) /* groff writes each hyphen \- */
            strcat(roff, *c == '-' ? "\\-" : (char[]){ *c, '\0' });
        ck_assert_msg(strstr(man, roff), "sim.1 lacks --%s", name);
        options++;
    }
    ck_assert_uint_ge(options, 20);
    ck_assert(strstr(man, "--common") == NULL && strstr(man, "\\-\\-common\\-random\\-numbers"));
    const char *version[] = { test_binary(), "--version", NULL };
    ck_assert_int_eq(test_exec(version, out, sizeof out, err, sizeof err), 0);
    const char *year = strstr(out, "Copyright (C) ");
    ck_assert(year);
    char th[64], copyright[64];
    snprintf(th, sizeof th, ".TH SIM 1 \"%.4s\"", year + 14);
    snprintf(copyright, sizeof copyright, "Copyright \\(co %.4s the sim authors.", year + 14);
    ck_assert_msg(strstr(man, th) && strstr(man, copyright), "sim.1's year is not --version's %.4s", year + 14);
    ck_assert_msg(!strstr(man, "/usr/share/sim") && strstr(man, "/usr/local/share/sim/configs/default.ini"),
                  "sim.1's examples do not use the default prefix");
}
END_TEST

/* Smaller things a newcomer read: --describe's units on a rate in flits, --list's words,
 * and scripts/deps.sh saying what it found for a group. */
START_TEST(describe_list_and_deps_say_what_they_mean)
{
    const char *describe[] = { test_binary(), "--describe", "configs/iq/torus-8x8.ini", NULL };
    ck_assert_int_eq(test_exec(describe, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strstr(out, "\nload factor: messages per time unit through a channel per message per node per time "
                              "unit offered;\nutilisation: at workload.rate = 0.1 flits (0.025 messages) per node "
                              "per time unit"),
                  "%s", out);
    const char *list[] = { test_binary(), "--list", NULL };
    ck_assert_int_eq(test_exec(list, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(!strstr(out, "free free") && strstr(out, "the most free room on its adaptive VCs"), "%s", out);
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        return; /* make test installs it first */
    const char *deps[] = { "/bin/sh", "scripts/deps.sh", "plot", NULL };
    ck_assert_int_eq(test_exec(deps, out, sizeof out, err, sizeof err), 0);
    ck_assert_str_eq(err, "scripts/deps.sh: nothing to install: the build dependencies and gnuplot (plot) are present\n");
    const char *quiet[] = { "/bin/sh", "scripts/deps.sh", "-q", "plot", NULL };
    ck_assert_int_eq(test_exec(quiet, out, sizeof out, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
}
END_TEST

Suite *newcomer_suite(void)
{
    Suite *s = suite_create("newcomer");
    TCase *tc = tcase_create("first steps");
    tcase_add_checked_fixture(tc, make_dir, remove_dir);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, booksim_habits_get_the_key_they_meant);
    tcase_add_test(tc, bounds_and_comments_are_said_as_written);
    tcase_add_test(tc, mesh_is_a_topology);
    tcase_add_test(tc, trace_paths_are_relative_to_their_config);
    tcase_add_test(tc, overrides_without_effect_are_noted);
    tcase_add_test(tc, empty_config_says_it_runs_the_defaults);
    tcase_add_test(tc, plot_overlays_the_model_in_words);
    tcase_add_test(tc, man_page_keeps_up_with_the_binary);
    tcase_add_test(tc, describe_list_and_deps_say_what_they_mean);
    suite_add_tcase(s, tc);
    return s;
}
