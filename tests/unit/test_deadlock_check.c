/* The static deadlock check (routing/deadlock_check.h): known verdicts on both flit
 * routers (a torus with one VC refused with its cycle named, two dateline classes
 * proved, meshes and hypercubes on one VC proved, random-minimal refused without
 * escape VCs and proved by Duato's condition with them, Valiant with too few VCs
 * refused, a half-duplex ring and minimal routing on a ring graph refused); mutations
 * of the relation (dateline classes, escape classes) refused; every shipped config's
 * verdict; agreement with the runtime search, in-process, both ways; refusals as runs,
 * sweeps and sim --check-deadlock see them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../routing/deadlock_check.h"
#include "../../routing/engine.h"
#include "../../routing/flit_params.h"
#include "../../sim/run/deadlock_run.h"
#include "../../sim/run/replicate.h"
#include "../common/test.h"

/* The verdict as sim --check-deadlock makes it: the run's own checks first. */
static struct dl_result verdict(const char *const *settings)
{
    struct config cfg;
    test_config(&cfg, settings);
    struct dl_result r;
    struct cfg_error err;
    ck_assert_msg(net_check_deadlock(&cfg, &r, &err), "%s: %s: %s", settings[0], err.key, err.message);
    return r;
}

/* The check alone, with no engine check before it (a router network's VC classes and
 * Valiant's two phases, which refuse too few VCs to run at all, first). */
static struct dl_result verdict_unchecked(const char *const *settings)
{
    struct config cfg;
    test_config(&cfg, settings);
    struct topo t;
    struct cfg_error err;
    ck_assert_msg(topo_build(&t, &cfg, &err), "%s", err.message);
    struct dl_result r;
    ck_assert(dl_check(&cfg, &t, engine_select(&cfg), true, &r));
    topo_free(&t);
    return r;
}

static void expect(const char *const *settings, enum dl_verdict v, bool duato, const char *in_note)
{
    struct dl_result r = verdict(settings);
    ck_assert_msg(r.verdict == v, "%s ...: %s (%s)", settings[0], dl_verdict_name(r.verdict), r.note);
    if (v == DL_PROVED || v == DL_REFUSED)
        ck_assert_msg(r.duato == duato && r.nodes > 0 && r.states > 0, "%s: duato %d", settings[0], r.duato);
    if (in_note)
        ck_assert_msg(strstr(r.note, in_note), "%s: note lacks \"%s\": %s", settings[0], in_note, r.note);
}

#define TORUS "network.topology=torus", "network.radix=8", "network.dimension=2", "routing.switching=wormhole"
#define IQ "routing.router=iq"

START_TEST(torus_one_vc_refused_two_dateline_classes_proved)
{
    const char *iq1[] = { TORUS, IQ, NULL }, *iq2[] = { TORUS, IQ, "routing.virtual_channels=2", NULL };
    const char *s1[] = { TORUS, NULL }, *s2[] = { TORUS, "routing.virtual_channels=2", NULL };
    /* a ring of one dimension, named in the topology's terms, and the fix */
    expect(iq1, DL_REFUSED, false, "of node ");
    expect(iq1, DL_REFUSED, false, "routing.virtual_channels = 2");
    expect(s1, DL_REFUSED, false, "vc 0 -> dim");
    expect(iq2, DL_PROVED, false, NULL);
    expect(s2, DL_PROVED, false, NULL);
    struct dl_result r = verdict(iq1);
    ck_assert_str_eq(r.key, "routing.virtual_channels");
    /* the cycle is one ring: every channel named runs the same way in one dimension */
    const char *first = strstr(r.note, "dim");
    ck_assert(first);
    char ring[6];
    snprintf(ring, sizeof ring, "%.5s", first);
    unsigned links = 0;
    for (const char *p = first; (p = strstr(p, "dim")); p += 3, links++)
        ck_assert_msg(strncmp(p, ring, 5) == 0, "%s", r.note);
    ck_assert_uint_eq(links, 8 + 1); /* eight links round, the first again */
}
END_TEST

START_TEST(meshes_and_hypercubes_on_one_vc_proved)
{
    const char *mesh[] = { "network.topology=mesh", "network.radix=5", "network.dimension=2",
                           "routing.switching=wormhole", NULL };
    const char *mesh_iq[] = { "network.topology=mesh", "network.radix=5", "network.dimension=2",
                              "routing.switching=wormhole", IQ, NULL };
    const char *cube[] = { "network.dimension=6", "routing.switching=wormhole", NULL };
    const char *cube_iq[] = { "network.dimension=6", "routing.switching=wormhole", IQ, NULL };
    const char *hyperx[] = { "network.topology=hyperx", "network.radix=4", "network.dimension=2",
                             "network.concentration=2", "routing.algorithm=minimal", "routing.switching=wormhole", IQ,
                             NULL };
    expect(mesh, DL_PROVED, false, NULL);
    expect(mesh_iq, DL_PROVED, false, NULL);
    expect(cube, DL_PROVED, false, NULL);
    expect(cube_iq, DL_PROVED, false, NULL);
    expect(hyperx, DL_PROVED, false, NULL);
}
END_TEST

START_TEST(random_minimal_needs_escape_vcs_and_duato_proves_them)
{
    const char *iq_none[] = { TORUS, IQ, "routing.algorithm=random-minimal", "routing.virtual_channels=3",
                              "routing.escape_vcs=0", NULL };
    const char *iq_escape[] = { TORUS, IQ, "routing.algorithm=random-minimal", "routing.virtual_channels=3", NULL };
    const char *iq_adaptive[] = { TORUS, IQ, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3",
                                  NULL };
    const char *drawn[] = { TORUS, "routing.algorithm=random-minimal", "routing.virtual_channels=2", NULL };
    const char *per_hop[] = { TORUS, "routing.algorithm=random-minimal", "routing.virtual_channels=3",
                              "routing.escape_vcs=2", NULL };
    const char *cube_drawn[] = { "network.dimension=5", "routing.switching=wormhole", "routing.algorithm=random-minimal",
                                 NULL };
    const char *cube_adaptive[] = { "network.dimension=5", "routing.switching=wormhole",
                                    "routing.algorithm=adaptive-minimal", "routing.virtual_channels=2", NULL };
    expect(iq_none, DL_REFUSED, false, "routing.escape_vcs");
    expect(iq_escape, DL_PROVED, true, NULL);
    expect(iq_adaptive, DL_PROVED, true, NULL);
    expect(drawn, DL_REFUSED, false, NULL);
    expect(per_hop, DL_PROVED, true, NULL);
    expect(cube_drawn, DL_REFUSED, false, NULL);
    expect(cube_adaptive, DL_PROVED, true, NULL);
    const char *fat_tree[] = { "network.topology=fat-tree", "network.radix=2", "network.dimension=3",
                               "routing.algorithm=adaptive-minimal", "routing.switching=wormhole", IQ,
                               "routing.virtual_channels=2", NULL };
    expect(fat_tree, DL_PROVED, true, NULL);
}
END_TEST

START_TEST(valiant_with_too_few_vcs_refused)
{
    /* Too few VCs to be deadlock-free: the check is the one place that refuses them, with
     * the cycle and the fix the old hand-written rules named (both routers). */
    const char *torus2[] = { TORUS, IQ, "routing.algorithm=valiant", "routing.virtual_channels=2", NULL };
    const char *torus3[] = { TORUS, "routing.algorithm=valiant", "routing.virtual_channels=3", NULL };
    const char *escape1[] = { TORUS, IQ, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3",
                              "routing.escape_vcs=1", NULL };
    const char *escape0[] = { "network.topology=mesh", "network.radix=4", "network.dimension=2",
                              "routing.switching=wormhole", "routing.algorithm=adaptive-minimal",
                              "routing.virtual_channels=2", "routing.escape_vcs=0", NULL };
    const char *cycle_named = "cycle: dim", *fix4 = "the fix: routing.virtual_channels = 4 (Valiant needs two phases "
                                                    "of dateline classes)";
    expect(torus2, DL_REFUSED, false, cycle_named);
    expect(torus2, DL_REFUSED, false, fix4);
    expect(torus3, DL_REFUSED, false, fix4);
    expect(escape1, DL_REFUSED, true, "the fix: routing.escape_vcs = 2 (two dateline classes on a torus");
    expect(escape0, DL_REFUSED, false, "the fix: routing.escape_vcs = 1 (one dimension-order VC");
    ck_assert_str_eq(verdict(escape1).key, "routing.escape_vcs");
    ck_assert_str_eq(verdict(torus3).key, "routing.virtual_channels");
    /* Too few to run at all: refused before the check; the check refuses them on its own too. */
    const char *torus4[] = { TORUS, IQ, "routing.algorithm=valiant", "routing.virtual_channels=4", NULL };
    const char *mesh1[] = { "network.topology=mesh", "network.radix=4", "network.dimension=2",
                            "routing.switching=wormhole", "routing.algorithm=valiant", NULL };
    const char *mesh2[] = { "network.topology=mesh", "network.radix=4", "network.dimension=2",
                            "routing.switching=wormhole", "routing.algorithm=valiant", "routing.virtual_channels=2",
                            NULL };
    const char *hx1[] = { "network.topology=hyperx", "network.radix=3", "network.dimension=2",
                          "routing.algorithm=valiant", "routing.switching=wormhole", IQ, NULL };
    const char *hx2[] = { "network.topology=hyperx", "network.radix=3", "network.dimension=2",
                          "routing.algorithm=valiant", "routing.switching=wormhole", IQ, "routing.virtual_channels=2",
                          NULL };
    ck_assert_int_eq(verdict_unchecked(torus2).verdict, DL_REFUSED);
    ck_assert_int_eq(verdict_unchecked(torus4).verdict, DL_PROVED);
    ck_assert_int_eq(verdict_unchecked(mesh1).verdict, DL_REFUSED);
    ck_assert_int_eq(verdict_unchecked(mesh2).verdict, DL_PROVED);
    ck_assert_int_eq(verdict_unchecked(hx1).verdict, DL_REFUSED);
    ck_assert_int_eq(verdict_unchecked(hx2).verdict, DL_PROVED);
    const char *dragonfly[] = { "network.topology=dragonfly", "network.group_routers=2", "network.global_links=1",
                                "routing.algorithm=ugal", "routing.switching=wormhole", IQ,
                                "routing.virtual_channels=3", NULL };
    const char *dragonfly2[] = { "network.topology=dragonfly", "network.group_routers=2", "network.global_links=1",
                                 "routing.algorithm=ugal", "routing.switching=wormhole", IQ,
                                 "routing.virtual_channels=2", NULL };
    ck_assert_int_eq(verdict(dragonfly).verdict, DL_PROVED);
    ck_assert_int_eq(verdict_unchecked(dragonfly2).verdict, DL_REFUSED);
}
END_TEST

START_TEST(half_duplex_ring_and_minimal_ring_graph_refused)
{
    const char *ring[] = { "network.topology=kary-ncube", "network.radix=8", "network.dimension=1",
                           "network.wrap=true", "network.links=half-duplex", "routing.switching=wormhole",
                           "routing.virtual_channels=2", NULL };
    expect(ring, DL_REFUSED, false, NULL);
    const char *line[] = { "network.topology=kary-ncube", "network.radix=8", "network.dimension=1",
                           "network.wrap=false", "network.links=half-duplex", "routing.switching=wormhole", NULL };
    expect(line, DL_REFUSED, false, NULL); /* both ways along a line share each link */
    const char *graph[] = { "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges",
                            "routing.algorithm=minimal", "routing.switching=wormhole", NULL };
    const char *up_down[] = { "network.topology=graph", "network.graph_file=configs/graphs/ring-8.edges",
                              "routing.algorithm=up-down", "routing.switching=wormhole", NULL };
    expect(graph, DL_REFUSED, false, NULL);
    expect(up_down, DL_PROVED, false, NULL);
}
END_TEST

/* --- mutations of the relation: a broken class assignment is refused --- */

struct mutant {
    struct dl_relation inner;
    int kind; /* 0: every hop in the lower dateline class; 1: escape steps on all escape VCs */
};

static unsigned mutant_next(void *self, uint32_t key, const struct dl_step *at, struct dl_step *out, unsigned max)
{
    struct mutant *m = self;
    unsigned n = m->inner.next(m->inner.self, key, at, out, max);
    for (unsigned i = 0; i < n; i++) {
        if (out[i].channel == DL_NONE)
            continue;
        if (m->kind == 0) {
            out[i].lo = 0;
            out[i].hi = (uint16_t)(m->inner.vcs / 2);
        } else if (out[i].hi <= m->inner.escape) {
            out[i].lo = 0;
            out[i].hi = (uint16_t)m->inner.escape;
        }
    }
    return n;
}

static unsigned mutant_seeds(void *self, uint32_t key, uint32_t source, struct dl_step *out, unsigned max)
{
    struct mutant *m = self;
    return m->inner.seeds(m->inner.self, key, source, out, max);
}

static enum dl_verdict mutated(const char *const *settings, int kind, enum dl_verdict *unmutated)
{
    struct config cfg;
    test_config(&cfg, settings);
    struct topo t;
    struct cfg_error err;
    ck_assert(topo_build(&t, &cfg, &err));
    const struct engine_ops *engine = engine_select(&cfg);
    struct mutant m = { .kind = kind };
    ck_assert(engine->relation && engine->relation(&cfg, &t, &m.inner));
    struct dl_result r;
    ck_assert(dl_decide(&t, &m.inner, &r));
    *unmutated = r.verdict;
    struct dl_relation rel = m.inner;
    rel.self = &m;
    rel.next = mutant_next;
    rel.seeds = mutant_seeds;
    rel.escape_next = NULL; /* the mutant has no cheaper escape steps */
    ck_assert(dl_decide(&t, &rel, &r));
    m.inner.destroy(m.inner.self);
    topo_free(&t);
    return r.verdict;
}

START_TEST(broken_dateline_or_escape_classes_refused)
{
    const char *iq2[] = { TORUS, IQ, "routing.virtual_channels=2", NULL };
    const char *simple2[] = { TORUS, "routing.virtual_channels=2", NULL };
    const char *adaptive[] = { TORUS, IQ, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3", NULL };
    const char *per_hop[] = { TORUS, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3", NULL };
    enum dl_verdict before;
    ck_assert_int_eq(mutated(iq2, 0, &before), DL_REFUSED);
    ck_assert_int_eq(before, DL_PROVED);
    ck_assert_int_eq(mutated(simple2, 0, &before), DL_REFUSED);
    ck_assert_int_eq(before, DL_PROVED);
    ck_assert_int_eq(mutated(adaptive, 1, &before), DL_REFUSED);
    ck_assert_int_eq(before, DL_PROVED);
    ck_assert_int_eq(mutated(per_hop, 1, &before), DL_REFUSED);
    ck_assert_int_eq(before, DL_PROVED);
}
END_TEST

/* Duato's linear-time witness (the depths of the direct escape graph) and the exact
 * extended graph agree, proved or refused, on both routers; so do the walk by (node, aux)
 * of a relation that routes by node and the three passes by state (verdict, direct
 * dependencies, the cycle or refusal named). */
START_TEST(duato_witness_agrees_with_the_exact_extended_graph)
{
    static const struct {
        const char *set[9];
    } cases[] = {
        { { TORUS, IQ, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3" } },
        { { TORUS, IQ, "routing.algorithm=random-minimal", "routing.virtual_channels=4" } },
        { { TORUS, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3" } },
        { { "network.topology=mesh", "network.radix=5", "network.dimension=3", "routing.switching=wormhole", IQ,
            "routing.algorithm=adaptive-minimal", "routing.virtual_channels=2" } },
        { { "network.dimension=5", "routing.switching=wormhole", "routing.algorithm=adaptive-minimal",
            "routing.virtual_channels=2" } },
        { { "network.topology=hyperx", "network.radix=4", "network.dimension=2", "routing.switching=wormhole", IQ,
            "routing.algorithm=adaptive-minimal", "routing.virtual_channels=2" } },
        { { "network.topology=fat-tree", "network.radix=2", "network.dimension=3", "routing.switching=wormhole", IQ,
            "routing.algorithm=random-minimal", "routing.virtual_channels=2" } },
    };
    int by_node_cases = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct config cfg;
        test_config(&cfg, cases[i].set);
        struct topo t;
        struct cfg_error err;
        ck_assert(topo_build(&t, &cfg, &err));
        struct dl_relation rel;
        ck_assert(engine_select(&cfg)->relation(&cfg, &t, &rel));
        ck_assert(rel.escape > 0);
        for (int kind = -1; kind <= 1; kind++) { /* the relation, then the two mutants */
            struct mutant m = { .inner = rel, .kind = kind };
            struct dl_relation use = rel;
            if (kind >= 0) {
                use.self = &m;
                use.next = mutant_next;
                use.seeds = mutant_seeds;
                use.escape_next = NULL;
            }
            struct dl_result witness, exact, by_state;
            ck_assert(dl_decide(&t, &use, &witness));
            ck_assert(dl_decide_within(&t, &use, DL_EXACT_ONLY, &exact));
            ck_assert_msg(witness.verdict == exact.verdict, "case %zu, mutant %d: witness %s, exact %s (%s)", i, kind,
                          dl_verdict_name(witness.verdict), dl_verdict_name(exact.verdict), exact.note);
            /* the walk by (node, aux) and the three passes by state: one verdict, graph and note */
            use.by_node = false;
            ck_assert(dl_decide(&t, &use, &by_state));
            ck_assert_msg(by_state.verdict == witness.verdict && by_state.edges == witness.edges &&
                              strcmp(by_state.note, witness.note) == 0,
                          "case %zu, mutant %d: by node %s (%llu, %s), by state %s (%llu, %s)", i, kind,
                          dl_verdict_name(witness.verdict), (unsigned long long)witness.edges, witness.note,
                          dl_verdict_name(by_state.verdict), (unsigned long long)by_state.edges, by_state.note);
            if (kind == -1)
                ck_assert_msg(witness.verdict == DL_PROVED, "case %zu: %s", i, witness.note);
            by_node_cases += rel.by_node;
        }
        rel.destroy(rel.self);
        topo_free(&t);
    }
    ck_assert_int_ge(by_node_cases, 4 * 3); /* the lattices walk by node, both routers */
}
END_TEST

/* --- agreement with the runtime search --- */

static int run_status(const char *const *settings, const char *const *load)
{
    const char *all[32];
    size_t n = 0;
    for (size_t i = 0; settings[i]; i++)
        all[n++] = settings[i];
    for (size_t i = 0; load[i]; i++)
        all[n++] = load[i];
    all[n] = NULL;
    struct config cfg;
    test_config(&cfg, all);
    struct run_report *rep = calloc(1, sizeof *rep);
    enum kernel_stop why;
    struct cfg_error err;
    int status = run_replications(&cfg, 0, rep, &why, &err);
    free(rep);
    return status;
}

/* Too few VCs to be deadlock-free is the check's alone to refuse: with it off such a
 * configuration runs (the periodic search is the safety net: finished, exit 0, or the
 * deadlock found, exit 3, never refused up front, 2); too few to run at all is refused
 * whatever the check says. */
START_TEST(too_few_vcs_run_with_the_check_off)
{
    const char *load[] = { "workload.rate=0.02", "run.messages=300", "run.warmup_messages=0",
                           "routing.deadlock_check=off", NULL };
    const char *const cases[][10] = {
        { TORUS, IQ, "routing.algorithm=valiant", "routing.virtual_channels=2", NULL },
        { TORUS, "routing.algorithm=valiant", "routing.virtual_channels=3", NULL },
        { TORUS, IQ, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3", "routing.escape_vcs=1", NULL },
        { TORUS, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=2", "routing.escape_vcs=0", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int status = run_status(cases[i], load);
        ck_assert_msg(status == 0 || status == 3, "case %zu: exit status %d", i, status);
    }
    const char *one_vc[] = { TORUS, "routing.algorithm=valiant", NULL };
    ck_assert_int_eq(run_status(one_vc, load), 2);
    const char *no_adaptive[] = { TORUS, IQ, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=2",
                                  NULL };
    ck_assert_int_eq(run_status(no_adaptive, load), 2);
}
END_TEST

START_TEST(proved_never_deadlock_refused_do)
{
    /* Far past saturation (a flit per node per cycle, one-flit buffers), the static
     * check off: the runtime search is the judge. */
    const char *load[] = { "workload.rate=1", "workload.rate_unit=flits", "workload.length=constant",
                           "workload.mean_length=16", "routing.flit_buffers=1", "run.allow_unstable=true",
                           "run.warmup_messages=0", "routing.deadlock_interval=64", "routing.deadlock_check=off",
                           "run.max_wall_seconds=60", NULL, NULL };
    size_t last = sizeof load / sizeof load[0] - 2; /* the run's length: a refused one runs until it deadlocks */
#define TORUS4 "network.topology=torus", "network.radix=4", "network.dimension=2", "routing.switching=wormhole"
    static const struct {
        const char *set[8];
    } cases[] = {
        { { TORUS4, IQ, "routing.virtual_channels=2" } },
        { { TORUS4, "routing.virtual_channels=2" } },
        { { TORUS4, IQ, "routing.algorithm=adaptive-minimal", "routing.virtual_channels=3" } },
        { { "network.topology=mesh", "network.radix=4", "network.dimension=2", "routing.switching=wormhole" } },
        { { "network.dimension=4", "routing.switching=wormhole", "routing.algorithm=adaptive-minimal",
            "routing.virtual_channels=2" } },
        { { TORUS4 } },
        { { TORUS, IQ } },
        { { "network.dimension=4", "routing.switching=wormhole", "routing.algorithm=random-minimal" } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *const *set = cases[i].set;
        struct dl_result r = verdict(set);
        load[last] = r.verdict == DL_PROVED ? "run.messages=3000" : "run.messages=1000000";
        int status = run_status(set, load);
        if (r.verdict == DL_PROVED)
            ck_assert_msg(status == 0, "case %zu proved, yet the run ended %d", i, status);
        else
            ck_assert_msg(r.verdict == DL_REFUSED && status == RUN_DEADLOCK, "case %zu: %s, the run ended %d", i,
                          dl_verdict_name(r.verdict), status);
    }
}
END_TEST

/* Random small configurations (a fixed draw: topology, router, routing, VCs), each the
 * engines accept: a proved one runs far past saturation without the runtime search
 * finding a deadlock; a refused deterministic one (ecube) deadlocks at run time.  A
 * refused oblivious or adaptive one is only run, not judged: its cycle is a possible
 * wait, which a run need not fill (the check is conservative there, docs/models.md). */
START_TEST(random_configurations_agree_with_the_runtime_search)
{
    static const char *const topologies[][3] = {
        { "network.topology=torus", "network.radix=8", "network.dimension=2" },
        { "network.topology=mesh", "network.radix=4", "network.dimension=2" },
        { "network.topology=hypercube", "network.radix=2", "network.dimension=4" },
        { "network.topology=torus", "network.radix=8", "network.dimension=1" },
    };
    static const char *const routers[] = { "routing.router=simple", "routing.router=iq" };
    static const char *const algorithms[] = { "routing.algorithm=ecube", "routing.algorithm=random-minimal",
                                              "routing.algorithm=adaptive-minimal" };
    static const char *const vcs[] = { "routing.virtual_channels=1", "routing.virtual_channels=2",
                                       "routing.virtual_channels=3" };
    const char *load[] = { "workload.rate=1", "workload.rate_unit=flits", "workload.length=constant",
                           "workload.mean_length=16", "routing.flit_buffers=1", "run.allow_unstable=true",
                           "run.warmup_messages=0", "routing.deadlock_interval=64", "routing.deadlock_check=off",
                           "run.max_wall_seconds=60", NULL, NULL };
    size_t last = sizeof load / sizeof load[0] - 2;
    uint64_t x = 35; /* a linear congruential draw: the same configurations every run */
    unsigned judged = 0;
    for (int draw = 0; draw < 12; draw++) {
        unsigned pick[4], sizes[4] = { 4, 2, 3, 3 };
        for (int i = 0; i < 4; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            pick[i] = (unsigned)(x >> 33) % sizes[i];
        }
        const char *set[] = { topologies[pick[0]][0], topologies[pick[0]][1], topologies[pick[0]][2],
                              "routing.switching=wormhole", routers[pick[1]], algorithms[pick[2]], vcs[pick[3]],
                              NULL };
        struct config cfg;
        test_config(&cfg, set);
        struct dl_result r;
        struct cfg_error err;
        if (!net_check_deadlock(&cfg, &r, &err)) /* a configuration the engine does not run */
            continue;
        bool deterministic = pick[2] == 0;
        load[last] = r.verdict == DL_PROVED || !deterministic ? "run.messages=2000" : "run.messages=1000000";
        int status = run_status(set, load);
        if (r.verdict == DL_PROVED) {
            ck_assert_msg(status == 0, "%s %s %s %s: proved, yet the run ended %d", set[0], set[4], set[5], set[6],
                          status);
            judged++;
        } else if (deterministic) {
            ck_assert_msg(r.verdict == DL_REFUSED && status == RUN_DEADLOCK, "%s %s %s %s: %s, the run ended %d",
                          set[0], set[4], set[5], set[6], dl_verdict_name(r.verdict), status);
            judged++;
        }
    }
    ck_assert_uint_ge(judged, 4);
}
END_TEST

/* --- as runs, sweeps and sim --check-deadlock see it --- */

START_TEST(refused_run_exits_2_naming_the_cycle_and_check_deadlock_alone)
{
    char out[8192], err[8192];
    const char *run[] = { test_binary(), "--no-progress", "-s", "network.topology=torus", "-s", "network.radix=4",
                          "-s", "network.dimension=2", "-s", "routing.switching=wormhole", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(run, out, sizeof out, err, sizeof err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, "routing.virtual_channels: the routing can deadlock: channel dependency cycle: dim"),
                  "%s", err);
    ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "one line: %s", err);
    const char *alone[] = { test_binary(), "--check-deadlock", "-s", "network.topology=torus", "-s",
                            "network.radix=4", "-s", "network.dimension=2", "-s", "routing.switching=wormhole", "-s",
                            "routing.virtual_channels=2", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(alone, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strncmp(out, "deadlock check    proved (Dally & Seitz; ", 41) == 0, "%s", out);
    const char *off[] = { test_binary(), "--describe", "-s", "network.topology=torus", "-s", "network.radix=4", "-s",
                          "network.dimension=2", "-s", "routing.switching=wormhole", "-s",
                          "routing.deadlock_check=off", "configs/default.ini", NULL };
    ck_assert_int_eq(test_exec(off, out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strstr(out, "deadlock check    off\n"), "%s", out);
}
END_TEST

START_TEST(refused_sweep_point_keeps_a_marked_row)
{
    static char out[1 << 16], err[1 << 14];
    const char *argv[] = { test_binary(), "-s", "network.topology=torus", "-s", "network.radix=4", "-s",
                           "network.dimension=2", "-s", "routing.switching=wormhole", "-s", "run.messages=500", "-s",
                           "run.warmup_messages=100", "--sweep", "routing.virtual_channels=1,2", "-f", "csv",
                           "--no-timing", "--no-progress", "-j", "1", "configs/default.ini", NULL };
    int status = test_exec(argv, out, sizeof out, err, sizeof err);
    ck_assert_msg(status == 0, "status %d: %s", status, err);
    const char *row1 = strchr(out, '\n');
    ck_assert(row1);
    const char *row2 = strchr(row1 + 1, '\n');
    ck_assert(row2 && strstr(row1, "deadlock: refused by the static check") &&
              strstr(row1, "deadlock: refused by the static check") < row2);
    ck_assert_msg(!strstr(row2, "refused by the static check"), "%s", out);
}
END_TEST

START_TEST(shipped_configs_get_the_verdict_the_runtime_search_agrees_with)
{
    /* Every wormhole config ships deadlock-free, or with routing.deadlock = recover
     * (seed 003's random routing: recovery); none is refused.  Configs whose routing
     * the check has seen already (same network, routing and VCs) are not walked again. */
    FILE *list = popen("find configs -name '*.ini' | LC_ALL=C sort", "r");
    ck_assert(list);
    char path[512], seen[64][256];
    unsigned n_seen = 0, proved = 0, recovery = 0;
    while (fgets(path, sizeof path, list)) {
        path[strcspn(path, "\n")] = '\0';
        struct config cfg;
        struct cfg_error err;
        ck_assert_msg(run_config_load(&cfg, path, NULL, 0, &err), "%s: %s", path, err.message);
        const struct engine_ops *engine = engine_select(&cfg);
        char sig[256];
        bool flits = engine->traits & SWITCH_PIPELINED;
        snprintf(sig, sizeof sig, "%s %s %s %lld %s %s %s %lld", cfg.network.topology, cfg.routing.algorithm,
                 cfg.routing.switching, (long long)cfg.network.dimension, cfg.network.links, engine->name,
                 flits ? cfg_text(&cfg, "routing.deadlock") : "",
                 flits ? (long long)flit_params_of(&cfg)->virtual_channels : 0);
        bool again = false;
        for (unsigned i = 0; i < n_seen && !again; i++)
            again = strcmp(seen[i], sig) == 0;
        if (again)
            continue;
        ck_assert(n_seen < 64);
        snprintf(seen[n_seen++], sizeof seen[0], "%s", sig);
        struct dl_result r;
        ck_assert_msg(net_check_deadlock(&cfg, &r, &err), "%s: %s", path, err.message);
        bool recovers = (engine->traits & SWITCH_PIPELINED) && strcmp(cfg_text(&cfg, "routing.deadlock"), "recover") == 0;
        ck_assert_msg(r.verdict == (recovers && r.verdict == DL_RECOVERY ? DL_RECOVERY
                                    : engine->traits & SWITCH_HOLDS_CHANNELS ? DL_PROVED : DL_NOT_NEEDED),
                      "%s: %s (%s)", path, dl_verdict_name(r.verdict), r.note);
        proved += r.verdict == DL_PROVED;
        recovery += r.verdict == DL_RECOVERY;
    }
    pclose(list);
    ck_assert_uint_ge(proved, 4);  /* the iq configs, hyperx, dragonfly, seed 003's ecube */
    ck_assert_uint_ge(recovery, 1); /* seed 003's random routing */
}
END_TEST

Suite *deadlock_check_suite(void)
{
    Suite *s = suite_create("deadlock_check");
    TCase *c = tcase_create("verdicts");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, torus_one_vc_refused_two_dateline_classes_proved);
    tcase_add_test(c, meshes_and_hypercubes_on_one_vc_proved);
    tcase_add_test(c, random_minimal_needs_escape_vcs_and_duato_proves_them);
    tcase_add_test(c, valiant_with_too_few_vcs_refused);
    tcase_add_test(c, too_few_vcs_run_with_the_check_off);
    tcase_add_test(c, half_duplex_ring_and_minimal_ring_graph_refused);
    tcase_add_test(c, broken_dateline_or_escape_classes_refused);
    tcase_add_test(c, duato_witness_agrees_with_the_exact_extended_graph);
    tcase_add_test(c, proved_never_deadlock_refused_do);
    tcase_add_test(c, random_configurations_agree_with_the_runtime_search);
    tcase_add_test(c, refused_run_exits_2_naming_the_cycle_and_check_deadlock_alone);
    tcase_add_test(c, refused_sweep_point_keeps_a_marked_row);
    tcase_add_test(c, shipped_configs_get_the_verdict_the_runtime_search_agrees_with);
    suite_add_tcase(s, c);
    return s;
}
