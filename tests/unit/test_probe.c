/* The measurement probe (sim/core/probe.h): which messages count, when the window
 * opens and closes, and which batch a measured delay joins, on a bare kernel. */
#include <math.h>

#include "../../sim/core/probe.h"
#include "../common/test.h"

static void opened(void *ctx, double now)
{
    *(double *)ctx = now;
}

/* Message mode: numbers 3..5 are measured; the window opens when number 3 is created
 * and the run ends when the last of them is delivered or refused. */
START_TEST(message_mode_measures_the_numbered_messages)
{
    struct kernel k;
    ck_assert(kernel_init(&k));
    uint32_t in_flight = 7;
    struct probe p;
    const struct probe_spec spec = { .warmup_messages = 3, .messages = 3, .batches = 3 };
    ck_assert(probe_init(&p, &k, &spec, &in_flight));
    double opened_at = -1;
    probe_set_open_hook(&p, opened, &opened_at);
    const struct delay_parts parts = { 1, 2 };
    probe_created(&p, 2, 1.0);
    ck_assert(!p.window_open);
    probe_delivered(&p, 2, 1.5, 3, &parts, 4); /* warm-up: not measured */
    probe_created(&p, 3, 2.0);
    ck_assert(p.window_open);
    ck_assert_double_eq(opened_at, 2.0);
    ck_assert_uint_eq(p.in_flight_at_open, 7);
    probe_delivered(&p, 3, 2.5, 3, &parts, 4);
    probe_refused(&p, 4, 2.7);
    ck_assert_int_eq(k.stop, KERNEL_RUNNING);
    probe_delivered(&p, 5, 3.0, 5, &parts, 2);
    ck_assert_int_eq(k.stop, KERNEL_DONE);
    ck_assert_double_eq(p.window_end, 3.0);
    ck_assert_uint_eq(p.delay.count, 2);
    ck_assert_double_eq(p.delay.mean, 4);
    ck_assert_uint_eq(p.hops_measured, 6);
    ck_assert_uint_eq(p.delivered_in_window, 2);
    ck_assert_uint_eq(p.delay_node.count, 2);
    ck_assert_double_eq(p.delay_link.mean, 2);
    /* Each measured number has its batch: 3 -> 0, 5 -> 2; 4 was refused. */
    ck_assert_uint_eq(p.delay.batch_count[0], 1);
    ck_assert_uint_eq(p.delay.batch_count[1], 0);
    ck_assert_uint_eq(p.delay.batch_count[2], 1);
    probe_free(&p);
    kernel_free(&k);
}
END_TEST

/* Time mode: the window is [warmup_time, warmup_time + duration], cut into equal
 * batches; a delivery at the very end belongs to the last batch, not to none. */
START_TEST(time_mode_batches_are_slices_of_the_window)
{
    struct kernel k;
    ck_assert(kernel_init(&k));
    uint32_t in_flight = 0;
    struct probe p;
    const struct probe_spec spec = { .warmup_time = 0, .duration = 10, .batches = 2 };
    ck_assert(probe_init(&p, &k, &spec, &in_flight));
    probe_schedule_window(&p); /* warmup_time 0: open at once */
    ck_assert(p.window_open);
    const struct delay_parts parts = { 0, 1 };
    probe_delivered(&p, 100, 4.9, 1, &parts, 1);
    probe_delivered(&p, 7, 5.0, 1, &parts, 1);
    probe_delivered(&p, 8, 10.0, 1, &parts, 1);
    ck_assert_uint_eq(p.delay.count, 3);
    ck_assert_uint_eq(p.delay.batch_count[0], 1);
    ck_assert_uint_eq(p.delay.batch_count[1], 2);
    ck_assert_int_eq(k.stop, KERNEL_RUNNING); /* time mode ends by the window's event */
    /* Stopped at 7 (a signal): the slice [0, 5) is over, [5, 10) is not, so the
     * interval has one complete batch, none. */
    k.now = 7;
    k.stop = KERNEL_INTERRUPTED;
    ck_assert(probe_settle(&p));
    struct stats_summary sum;
    stats_summarize(&p.delay, &sum);
    ck_assert_uint_eq(sum.batches_used, 1);
    ck_assert(isnan(sum.ci95[0]));
    /* The window closed: both slices are complete batches, whatever their counts. */
    k.now = 10;
    k.stop = KERNEL_DONE;
    ck_assert(probe_settle(&p));
    stats_summarize(&p.delay, &sum);
    ck_assert_uint_eq(sum.batches_used, 2);
    ck_assert(!isnan(sum.ci95[0]) && sum.ci95[0] <= 1 && 1 <= sum.ci95[1]);
    probe_free(&p);
    kernel_free(&k);
}
END_TEST

/* Slotted engines: whole cycles; the window closes (and stops the run) at the first
 * cycle past ceil(warmup_time + duration). */
START_TEST(slotted_time_window_is_whole_cycles)
{
    struct kernel k;
    ck_assert(kernel_init(&k));
    uint32_t in_flight = 0;
    struct probe p;
    const struct probe_spec spec = { .warmup_time = 1.5, .duration = 2, .batches = 2 };
    ck_assert(probe_init(&p, &k, &spec, &in_flight));
    probe_slotted(&p);
    ck_assert(probe_cycle_start(&p, 1, 0));
    ck_assert(!p.window_open);
    ck_assert(probe_cycle_start(&p, 2, 0)); /* ceil(1.5) */
    ck_assert(p.window_open);
    ck_assert_double_eq(p.window_start, 2);
    probe_cycle_end(&p, 2);
    ck_assert_double_eq(p.window_end, 3);
    ck_assert(probe_settle(&p)); /* stopped here: cycle 2, slice 0, is over; slice 1 is not */
    ck_assert_uint_eq(p.delay.closed, 1);
    ck_assert(probe_cycle_start(&p, 3, 0));
    probe_cycle_end(&p, 3);
    const struct delay_parts parts = { 0, 1 };
    probe_delivered(&p, 0, 2.5, 1, &parts, 1); /* cycle 2: slice 0 */
    probe_delivered(&p, 1, 3.5, 3, &parts, 1); /* cycle 3: slice 1 */
    ck_assert(probe_settle(&p)); /* cycles 2 and 3 have ended: both slices are over */
    ck_assert_uint_eq(p.delay.closed, 2);
    ck_assert(!probe_cycle_start(&p, 4, 0)); /* ceil(3.5) */
    ck_assert_int_eq(k.stop, KERNEL_DONE);
    ck_assert_double_eq(p.window_end, 4);
    ck_assert(probe_settle(&p));
    ck_assert_uint_eq(p.delay.closed, 2);
    probe_free(&p);
    kernel_free(&k);
}
END_TEST

Suite *probe_suite(void)
{
    Suite *s = suite_create("probe");
    TCase *tc = tcase_create("probe");
    tcase_add_test(tc, message_mode_measures_the_numbered_messages);
    tcase_add_test(tc, time_mode_batches_are_slices_of_the_window);
    tcase_add_test(tc, slotted_time_window_is_whole_cycles);
    suite_add_tcase(s, tc);
    return s;
}
