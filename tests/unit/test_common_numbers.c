/* Common random numbers: two configurations that differ only in channel access or
 * switching see the same messages: each created at the same instant, at the same
 * source, for the same destination, with the same length.  Compared through the
 * --write-trace record of every message created, byte for byte, for every arrival
 * process an event-driven engine takes (time mode: the runs stop at the same time). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/test.h"

static char *traced_run(const char *arrival, const char *variant, const char *path)
{
    const char *set[] = { "network.dimension=4", "workload.rate=0.4", "run.warmup_time=10", "run.duration=150",
                          arrival, variant, NULL };
    struct config cfg;
    test_config(&cfg, set);
    cfg.write_trace = path;
    struct run_report r;
    ck_assert_int_eq(test_run(&cfg, &r), KERNEL_DONE);
    FILE *f = fopen(path, "r");
    ck_assert(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    unlink(path);
    buf[n] = '\0';
    ck_assert_uint_lt(n, sizeof buf - 1);
    return strdup(buf);
}

START_TEST(protocol_and_switching_see_the_same_messages)
{
    const char *arrivals[] = { "workload.arrival=poisson", "workload.arrival=bernoulli",
                               "workload.arrival=deterministic" };
    const char *variants[] = { "routing.switching=wormhole", "routing.switching=cut-through", "protocol.link=tdm",
                               "protocol.link=token", "protocol.priority=oldest-first" };
    char path[64];
    snprintf(path, sizeof path, "build/crn-%d.csv", (int)getpid());
    for (size_t a = 0; a < sizeof arrivals / sizeof *arrivals; a++) {
        char *base = traced_run(arrivals[a], "routing.switching=store-and-forward", path);
        size_t lines = 0;
        for (const char *c = base; *c; c++)
            lines += *c == '\n';
        ck_assert_msg(lines > 800, "%s: %zu messages", arrivals[a], lines);
        for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
            char *other = traced_run(arrivals[a], variants[v], path);
            ck_assert_msg(strcmp(base, other) == 0, "%s with %s: other messages", arrivals[a], variants[v]);
            free(other);
        }
        free(base);
    }
}
END_TEST

Suite *common_numbers_suite(void)
{
    Suite *s = suite_create("common_numbers");
    TCase *tc = tcase_create("streams");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, protocol_and_switching_see_the_same_messages);
    suite_add_tcase(s, tc);
    return s;
}
