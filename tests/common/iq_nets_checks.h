/* The iq router's routings on router networks and graphs (tests/common/iq_nets_checks.c):
 * the combinations issue 34 added, each with the fewest VCs it takes, and the run that
 * must never stop on a deadlock.  Each asserts with ck_assert (call inside a Check test). */
#ifndef TESTS_IQ_NETS_CHECKS_H
#define TESTS_IQ_NETS_CHECKS_H

#include <stddef.h>

enum { IQ_NET_CASE_SETTINGS = 8 };

struct iq_net_case {
    const char *set[IQ_NET_CASE_SETTINGS]; /* network and routing settings, NULL-ended when shorter */
    unsigned vcs;                          /* routing.virtual_channels: the fewest it takes */
};
extern const struct iq_net_case iq_net_cases[];
extern const size_t iq_net_cases_count;

/* Case i's settings plus wormhole on the iq router into out (at most max, NULL-ended);
 * returns how many. */
size_t iq_net_settings(size_t i, const char **out, size_t max);
/* Case i's settings on one line, into buf. */
const char *iq_net_label(size_t i, char *buf, size_t size);
/* Case i run `cycles` cycles (a tenth of them warm-up) with seed `seed`, offered twice
 * its saturation at least, the runtime deadlock search every 500 cycles: it must
 * complete (no deadlock), past saturation, and deliver. */
void check_iq_net_never_deadlocks(size_t i, int seed, long cycles);

#endif
