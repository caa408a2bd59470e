/* Request-reply's classes and reply queue in the static deadlock check (contract in
 * deadlock_protocol.h). */
#include "deadlock_protocol.h"

#include <stdio.h>

#include "flit_params.h"

void dl_protocol(const struct config *cfg, uint32_t reply_queue, struct dl_result *r)
{
    if (!reply_queue || r->verdict != DL_PROVED)
        return;
    if (flit_vc_sets(cfg, true) > 1) {
        snprintf(r->note, sizeof r->note, "both message classes (replies have their own VCs and injection line: "
                 "a request's ejection waits on replies, which never wait on requests)");
        return;
    }
    r->verdict = DL_REFUSED;
    r->duato = false;
    snprintf(r->key, sizeof r->key, "routing.class_vcs");
    snprintf(r->note, sizeof r->note, "protocol deadlock: ejection of requests at a terminal (reply queue full) -> "
             "its replies' injection behind its own requests -> their channels -> ejection of requests at their "
             "destination (reply queue full) -> ...; the fix: routing.class_vcs = separate");
}
