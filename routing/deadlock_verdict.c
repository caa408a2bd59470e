/* The static deadlock check's verdict for a run: which engines need it, the keys that
 * turn it off or make a refusal a note, the size above which a run skips it; and the
 * names it gives channels (contract in deadlock_check.h). */
#include <stdio.h>
#include <string.h>

#include "deadlock_check.h"
#include "engine.h"
#include "flit_params.h"

static const char *const names[] = {
    [DL_OFF] = "off", [DL_NOT_NEEDED] = "not needed", [DL_PROVED] = "proved",
    [DL_REFUSED] = "refused", [DL_RECOVERY] = "recovery", [DL_SKIPPED] = "skipped",
};

const char *dl_verdict_name(enum dl_verdict v) { return names[v]; }

bool dl_check(const struct config *cfg, const struct topo *t, const struct engine_ops *engine, bool force,
              struct dl_result *r)
{
    memset(r, 0, sizeof *r);
    if (!(engine->traits & SWITCH_HOLDS_CHANNELS)) {
        r->verdict = DL_NOT_NEEDED;
        snprintf(r->note, sizeof r->note, "%s: a blocked message waits whole in a buffer of its own, holding no "
                 "channel", engine->name);
        return true;
    }
    if (!engine->relation) {
        r->verdict = DL_SKIPPED;
        snprintf(r->note, sizeof r->note, "the %s engine hands no routing relation to walk", engine->name);
        return true;
    }
    if (!force && strcmp(flit_params_of(cfg)->deadlock_check, "off") == 0) {
        r->verdict = DL_OFF;
        return true;
    }
    struct dl_relation rel = { 0 };
    if (!engine->relation(cfg, t, &rel))
        return false;
    double work = (double)rel.keys * ((double)t->channels + t->nodes) * rel.vcs;
    if (rel.escape) /* Duato's two passes: the direct dependencies, then the witness of the indirect ones */
        work *= 2;
    if (rel.escape && rel.by_node) /* the same two, by (node, aux) pair and its steps */
        work = 2.0 * rel.keys * t->nodes * (rel.aux_count ? rel.aux_count : 1) * (t->max_hops ? t->max_hops : 1);
    if (!force && work > DL_WORK_LIMIT) {
        r->verdict = DL_SKIPPED;
        snprintf(r->note, sizeof r->note, "too big to walk before every run (about %.3g steps, above %.3g); "
                 "sim --check-deadlock walks it", work, DL_WORK_LIMIT);
        rel.destroy(rel.self);
        return true;
    }
    bool ok = dl_decide_within(t, &rel, force ? -1 : DL_WORK_LIMIT, r);
    rel.destroy(rel.self);
    if (ok && r->verdict == DL_REFUSED && flit_deadlock_recovers(cfg)) { /* run anyway: what recovery is for */
        r->verdict = DL_RECOVERY;
        char *fix = strstr(r->note, "; the fix:");
        if (fix)
            snprintf(fix, sizeof r->note - (size_t)(fix - r->note), "; deadlocks are broken at run time "
                     "(routing.deadlock = recover)");
    }
    return ok;
}

void dl_summary(const struct dl_result *r, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s", dl_verdict_name(r->verdict));
    if (n < 0 || (size_t)n >= size)
        return;
    if (r->verdict == DL_PROVED || r->verdict == DL_REFUSED || r->verdict == DL_RECOVERY)
        n += snprintf(buf + n, size - (size_t)n, " (%s; %llu channel-VCs, %llu dependencies, %llu %s walked)",
                      r->duato ? "Duato, escape VCs" : "Dally & Seitz", (unsigned long long)r->nodes,
                      (unsigned long long)r->edges, (unsigned long long)r->states,
                      r->by_node ? "(node, aux) pairs" : "states");
    if (n >= 0 && (size_t)n < size && r->note[0])
        snprintf(buf + n, size - (size_t)n, ": %s", r->note);
}

void dl_channel_name(const struct topo *t, uint32_t ch, uint32_t to, char *buf, size_t size)
{
    uint32_t from = DL_NONE;
    t->ops->senders(t, ch, &from, 1);
    bool lattice = (t->ops->traits & (TOPO_KARY_NCUBE | TOPO_BINARY_HYPERCUBE)) && t->ops->channel_dimension &&
                   t->kind == CHANNEL_LINK_DIRECTION;
    if (lattice) {
        unsigned d = t->ops->channel_dimension(t, ch);
        uint32_t k = t->lattice.radix ? t->lattice.radix : 2, p = 1;
        for (unsigned i = 0; i < d; i++)
            p *= k;
        const char *way = "";
        if (k > 2)
            way = to / p % k == (from / p % k + 1) % k ? "+" : "-";
        snprintf(buf, size, "dim%u%s of node %u", d, way, from);
        return;
    }
    char cls[64] = "", ends[48];
    if (t->classes > 1 && t->ops->class_name) {
        t->ops->class_name(t, t->ops->channel_class(t, ch), cls, sizeof cls - 1);
        strcat(cls, " ");
    }
    uint32_t senders[2] = { from, DL_NONE };
    if (t->kind == CHANNEL_HALF_DUPLEX && t->ops->senders(t, ch, senders, 2) == 2) /* one server, both ways */
        snprintf(ends, sizeof ends, "link %u (%u-%u)", ch, senders[0], senders[1]);
    else if (t->kind == CHANNEL_BUS)
        snprintf(ends, sizeof ends, "bus %u (%u->%u)", ch, from, to);
    else
        snprintf(ends, sizeof ends, "channel %u (%u->%u)", ch, from, to);
    snprintf(buf, size, "%s%s", cls, ends);
}
