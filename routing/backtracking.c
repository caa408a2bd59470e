/* Seed 001's timestamp/backtracking routing with finite buffers: a slotted engine.
 *
 * The network: a binary n-cube of full-duplex links, every link direction carrying
 * at most one message per cycle; M >= n buffers per node shared by all messages;
 * fixed-size messages, one cycle per hop.  A message's header H = here XOR
 * destination; sending on channel c flips bit c: a forward move when the bit was 1,
 * a backtrack (one hop farther) when it was 0.  A message whose header becomes 0 is
 * delivered at once and needs no buffer.
 *
 * One kernel event per cycle does, for every node, from the state at the cycle's
 * start (note 001 §1.6):
 *   phase 1: every message picks one of its header's 1-bits uniformly; the channel
 *            goes to the oldest message that picked it (the others stay this phase);
 *   phase 2: if more than M - n messages would stay, the `need` = n - M + i - j
 *            messages chosen by routing.forced_choice among those left (youngest by
 *            default, the paper's reading) go out on free channels drawn uniformly
 *            without replacement, whatever their headers say;
 * then all nodes exchange messages (deliveries recorded), then each node admits
 * min(G, M - Z) of its G new messages, G from the arrival process's per_cycle()
 * (batch-geometric: the paper's), and rejects the rest for good.
 *
 * Priority is the timestamp (admission cycle, source, sequence at the source).
 * Admission runs node by node in increasing order, so numbering accepted messages
 * in admission order gives exactly that lexicographic order: a smaller number is an
 * older message.  Each node keeps its buffer sorted by that number, so phase 1
 * meets messages oldest first and phase 2 finds the youngest at the end.
 *
 * Measurement goes through the run's probe in its slotted form (sim/core/probe.h):
 * message mode measures accepted messages by admission number after
 * run.warmup_messages; the window of the rate figures (acceptance, throughput,
 * utilisation, occupancy) is whole cycles, from the first cycle after the warm-up
 * count is reached to the cycle that delivers the last measured message.  Time mode
 * counts cycles: the window is [ceil(warmup_time), ceil(warmup_time + duration)).
 * Random streams: batch sizes from each node's arrival stream, destinations from
 * its destination stream, phase-1 and phase-2 draws from its routing stream. */
#include "../sim/core/params.h"
#include "backtracking.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "../sim/core/registry.h"
#include "engine.h"

struct backtracking_params {
    int64_t buffers;
    const char *forced_choice;
};

static const struct cfg_key backtracking_keys[] = {
    { "routing", "buffers", CFG_INT, offsetof(struct backtracking_params, buffers), "10", 1, 1 << 20, false, NULL,
      "backtracking: M message buffers shared by each node (M >= dimension)" },
    { "routing", "forced_choice", CFG_CHOICE, offsetof(struct backtracking_params, forced_choice), "youngest", 0, 0, false, &forced_choice_choices,
      "backtracking: which of the messages phase 1 left unassigned phase 2 forces out" },
};
static CFG_PARAM_TABLE(backtracking_param_table, struct backtracking_params, backtracking_keys);

/* This plug-in's own key values. */
static const struct backtracking_params *backtracking_params_of(const struct config *cfg)
{
    return cfg_params(cfg, &backtracking_param_table);
}

enum { BT_MAX_DIMENSION = 20 };
#define BT_MAX_MESSAGES ((uint64_t)1 << 27) /* N·M buffers: 3 GiB of messages */

enum forced_rule { FORCE_YOUNGEST, FORCE_OLDEST, FORCE_RANDOM };

/* routing.forced_choice: the engine's own option, so its values live here. */
struct forced_choice {
    const char *name, *help;
    enum forced_rule rule;
};
static const struct forced_choice youngest = { "youngest", "the lowest-priority (youngest) messages: the paper's reading",
                                               FORCE_YOUNGEST };
static const struct forced_choice oldest = { "oldest", "the highest-priority (oldest) messages", FORCE_OLDEST };
static const struct forced_choice random_pick = { "random", "messages drawn uniformly among those left over",
                                                  FORCE_RANDOM };
static const struct forced_choice *const forced_choices[] = { &youngest, &oldest, &random_pick };
REGISTRY_DEFINE(struct forced_choice, forced_choices, forced_choice_find, forced_choice_choices);

struct bt_message {
    uint64_t id;      /* admission number: the priority (smaller = older) */
    uint64_t created; /* admission cycle */
    uint32_t header;  /* here XOR destination */
    uint32_t hops;
};

struct bt_state {
    struct engine_env env;
    unsigned n;
    uint32_t nodes, buffers;
    enum forced_rule forced;
    const char *forced_name;    /* routing.forced_choice, for the table */
    struct bt_message *buf;     /* node v: buf[v*M .. v*M + fill[v]), sorted by id */
    uint32_t *fill;
    struct bt_message *transit; /* slot v*n + c: the message v sends on channel c this cycle */
    uint8_t *sending;           /* slot in use */
    uint32_t *leftover;         /* scratch, M entries */
    uint8_t *assigned;          /* scratch, M entries: sent this cycle */
    uint32_t ev_cycle;
    uint64_t next_id;
    struct backtracking_counts window, run;
    uint32_t max_occupancy;
};

/* --- configuration --- */

/* Store-and-forward's own refusals apply too: the engine moves whole messages. */
static bool check(const struct engine_spec *spec, struct cfg_error *err)
{
    const struct config *cfg = spec->cfg;
    const struct topo *t = spec->topo;
    const struct engine_ops *sw = switch_find(cfg->routing.switching);
    const char *bad = NULL;
    char why[160];
    const char *key = "routing.algorithm";
    if (!(t->ops->traits & TOPO_BINARY_HYPERCUBE))
        key = "network.topology", bad = "runs on the binary hypercube only";
    else if (t->kind != CHANNEL_LINK_DIRECTION)
        key = "network.links", bad = "needs full-duplex links (one message per direction per cycle)";
    else if (backtracking_params_of(cfg)->buffers < cfg->network.dimension)
        key = "routing.buffers", bad = "needs routing.buffers (M) >= network.dimension (n), or it can deadlock";
    else if ((uint64_t)t->nodes * (uint64_t)backtracking_params_of(cfg)->buffers > BT_MAX_MESSAGES)
        key = "routing.buffers", bad = "needs nodes x buffers <= 2^27";
    else if (!(sw->traits & SWITCH_WHOLE_MESSAGE))
        key = "routing.switching", bad = "moves whole messages one hop per cycle (store-and-forward switching)";
    else if ((proto_find(cfg->protocol.link)->traits & ACCESS_PLAIN_CHANNEL) != ACCESS_PLAIN_CHANNEL)
        key = "protocol.link", bad = "decides every channel itself each cycle; protocol.link must stay fifo";
    else if (!(priority_discipline(cfg->protocol.priority)->traits & ACCESS_FIFO_ORDER))
        key = "protocol.priority", bad = "orders messages by timestamp itself; protocol.priority must stay fifo";
    else if (cfg->node.service_rate > 0)
        key = "node.service_rate", bad = "has no node servers (node.service_rate = 0)";
    else if (cfg->run.redraw_length_per_hop)
        key = "run.redraw_length_per_hop", bad = "has fixed-size messages: nothing to re-draw";
    else if (!spec->arrivals_per_cycle)
        key = "workload.arrival", bad = "is slotted: the arrival process must give a count per cycle";
    else if (spec->destinations_may_pick_source) {
        snprintf(why, sizeof why, "has no self-addressed messages; %s can pick the source", cfg->workload.destination);
        key = "workload.destination", bad = why;
    }
    if (bad) {
        cfg_blame(cfg, key, err, "backtracking %s", bad);
        return false;
    }
    return !sw->check || sw->check(spec, err);
}

/* --- one node's decision --- */

/* The k-th (from 0) set bit of h. */
static unsigned nth_bit(uint32_t h, unsigned k)
{
    while (k--)
        h &= h - 1;
    return (unsigned)__builtin_ctz(h);
}

static void send(struct bt_state *s, uint32_t v, unsigned c, const struct bt_message *m, bool forced)
{
    struct bt_message *out = &s->transit[(size_t)v * s->n + c];
    *out = *m;
    uint32_t bit = 1u << c;
    bool backtrack = !(out->header & bit);
    out->header ^= bit;
    out->hops++;
    s->sending[(size_t)v * s->n + c] = 1;
    bool window_open = s->env.probe->window_open;
    struct backtracking_counts *counts[2] = { &s->run, window_open ? &s->window : NULL };
    for (int i = 0; i < 2 && counts[i]; i++) {
        counts[i]->sends++;
        counts[i]->forced_sends += forced;
        counts[i]->backtracks += backtrack;
    }
    if (window_open)
        s->env.chan[v * s->n + c].busy_time += 1;
}

static void decide(struct bt_state *s, uint32_t v)
{
    uint32_t i = s->fill[v], M = s->buffers;
    unsigned n = s->n;
    if (i == 0)
        return;
    struct bt_message *q = &s->buf[(size_t)v * M];
    struct rng *r = &s->env.rng_route[v];
    uint8_t *assigned = s->assigned;
    memset(assigned, 0, i);
    int32_t out[BT_MAX_DIMENSION];
    bool forced_out[BT_MAX_DIMENSION] = { false };
    for (unsigned c = 0; c < n; c++)
        out[c] = -1;
    /* Phase 1: oldest first, so the first claimant of a channel is its oldest. */
    unsigned j = 0;
    for (uint32_t k = 0; k < i; k++) {
        uint32_t h = q[k].header;
        unsigned ones = (unsigned)__builtin_popcount(h);
        unsigned c = nth_bit(h, ones > 1 ? (unsigned)rng_below(r, ones) : 0);
        if (out[c] < 0) {
            out[c] = (int32_t)k;
            assigned[k] = 1;
            j++;
        }
    }
    assert(j >= 1);
    /* Phase 2: keep at most M - n so that n arrivals always fit. */
    if (i - j > M - n) {
        uint32_t need = i - j - (M - n), left = 0;
        for (uint32_t k = 0; k < i; k++) /* phase 1's leftovers, oldest first */
            if (!assigned[k])
                s->leftover[left++] = k;
        unsigned free_ch[BT_MAX_DIMENSION], nfree = 0;
        for (unsigned c = 0; c < n; c++)
            if (out[c] < 0)
                free_ch[nfree++] = c;
        assert(left == i - j && need <= left && need <= nfree);
        for (uint32_t p = 0; p < need; p++) {
            uint32_t pick;
            if (s->forced == FORCE_YOUNGEST) {
                pick = s->leftover[left - 1 - p];
            } else if (s->forced == FORCE_OLDEST) {
                pick = s->leftover[p];
            } else { /* partial Fisher-Yates over the leftovers */
                uint32_t x = p + (uint32_t)rng_below(r, left - p), tmp = s->leftover[p];
                s->leftover[p] = s->leftover[x];
                s->leftover[x] = tmp;
                pick = s->leftover[p];
            }
            unsigned f = nfree > 1 ? (unsigned)rng_below(r, nfree) : 0, c = free_ch[f];
            free_ch[f] = free_ch[--nfree];
            out[c] = (int32_t)pick;
            assigned[pick] = 1;
            forced_out[c] = true;
        }
    }
    for (unsigned c = 0; c < n; c++)
        if (out[c] >= 0)
            send(s, v, c, &q[out[c]], forced_out[c]);
    uint32_t kept = 0; /* close the gaps, keeping the age order */
    for (uint32_t k = 0; k < i; k++)
        if (!assigned[k])
            q[kept++] = q[k];
    s->fill[v] = kept;
    assert(kept <= M - n);
}

/* --- exchange, delivery and admission at one node --- */

static void count_both(struct bt_state *s, uint64_t generated, uint64_t accepted, uint64_t delivered)
{
    struct backtracking_counts *counts[2] = { &s->run, s->env.probe->window_open ? &s->window : NULL };
    for (int i = 0; i < 2 && counts[i]; i++) {
        counts[i]->generated += generated;
        counts[i]->accepted += accepted;
        counts[i]->rejected += generated - accepted;
        counts[i]->delivered += delivered;
    }
}

static void deliver(struct bt_state *s, const struct bt_message *m, uint64_t cycle)
{
    double delay = (double)(cycle - m->created);
    count_both(s, 0, 0, 1);
    --*s->env.in_flight;
    const struct delay_parts parts = { 0, delay }; /* no node model: all of it is the network's */
    probe_delivered(s->env.probe, m->id, (double)cycle, delay, &parts, m->hops);
}

/* Keeps the buffer sorted by id: a transit message may be older than any held. */
static void store(struct bt_state *s, uint32_t w, const struct bt_message *m)
{
    struct bt_message *q = &s->buf[(size_t)w * s->buffers];
    uint32_t k = s->fill[w]++;
    assert(s->fill[w] <= s->buffers);
    while (k > 0 && q[k - 1].id > m->id) {
        q[k] = q[k - 1];
        k--;
    }
    q[k] = *m;
}

static void receive_and_admit(struct bt_state *s, uint32_t w, uint64_t cycle)
{
    const struct engine_env *env = &s->env;
    for (unsigned c = 0; c < s->n; c++) {
        size_t slot = (size_t)(w ^ (1u << c)) * s->n + c;
        if (!s->sending[slot])
            continue;
        s->sending[slot] = 0;
        const struct bt_message *m = &s->transit[slot];
        if (m->header == 0)
            deliver(s, m, cycle);
        else
            store(s, w, m);
    }
    uint32_t generated = env->per_cycle(env->cfg, &env->rng_arrival[w]);
    uint32_t room = s->buffers - s->fill[w], accepted = generated < room ? generated : room;
    struct bt_message *q = &s->buf[(size_t)w * s->buffers];
    for (uint32_t a = 0; a < accepted; a++) {
        uint32_t dst = env->pick(env->dest, w, &env->rng_dest[w]);
        assert(dst != w);
        q[s->fill[w]++] = (struct bt_message){ s->next_id++, cycle, w ^ dst, 0 };
    }
    if (s->fill[w] > s->max_occupancy)
        s->max_occupancy = s->fill[w];
    *env->in_flight += accepted;
    count_both(s, generated, accepted, 0);
}

/* --- the cycle --- */

static void on_cycle(struct kernel *k, void *ctx, uint32_t obj)
{
    (void)obj;
    struct bt_state *s = ctx;
    uint64_t cycle = (uint64_t)k->now;
    if (!probe_cycle_start(s->env.probe, cycle, s->next_id))
        return;
    kernel_schedule(k, 1, s->ev_cycle, 0);
    uint64_t occupancy = 0, full = 0;
    for (uint32_t v = 0; v < s->nodes; v++) {
        occupancy += s->fill[v];
        full += s->fill[v] == s->buffers;
        decide(s, v);
    }
    for (uint32_t w = 0; w < s->nodes; w++)
        receive_and_admit(s, w, cycle);
    struct backtracking_counts *counts[2] = { &s->run, s->env.probe->window_open ? &s->window : NULL };
    for (int i = 0; i < 2 && counts[i]; i++) {
        counts[i]->cycles++;
        counts[i]->occupancy += occupancy;
        counts[i]->full += full;
    }
    probe_cycle_end(s->env.probe, cycle);
    *s->env.created = s->next_id;
}

/* --- life cycle --- */

static void engine_free(void *self)
{
    struct bt_state *s = self;
    if (!s)
        return;
    free(s->buf);
    free(s->fill);
    free(s->transit);
    free(s->sending);
    free(s->leftover);
    free(s->assigned);
    free(s);
}

static void *engine_create(const struct engine_env *env)
{
    const struct config *cfg = env->cfg;
    struct bt_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->env = *env;
    s->n = env->topo->dimension;
    s->nodes = env->topo->nodes;
    s->buffers = (uint32_t)backtracking_params_of(cfg)->buffers;
    const struct forced_choice *forced = forced_choice_find(backtracking_params_of(cfg)->forced_choice); /* the loader accepted it */
    s->forced = forced->rule;
    s->forced_name = forced->name;
    size_t slots = (size_t)s->nodes * s->n;
    s->buf = malloc((size_t)s->nodes * s->buffers * sizeof *s->buf);
    s->fill = calloc(s->nodes, sizeof *s->fill);
    s->transit = malloc(slots * sizeof *s->transit);
    s->sending = calloc(slots, 1);
    s->leftover = malloc(s->buffers * sizeof *s->leftover);
    s->assigned = malloc(s->buffers);
    if (!s->buf || !s->fill || !s->transit || !s->sending || !s->leftover || !s->assigned) {
        engine_free(s);
        return NULL;
    }
    probe_slotted(env->probe);
    s->ev_cycle = kernel_register(env->kernel, on_cycle, s);
    kernel_schedule(env->kernel, 0, s->ev_cycle, 0);
    if (env->kernel->stop == KERNEL_FAILED) {
        engine_free(s);
        return NULL;
    }
    return s;
}

bool backtracking_figures(const struct engine_ops *ops, const void *self, struct backtracking_figures *out)
{
    if (!ops || !(ops->traits & ENGINE_BACKTRACKS) || !self)
        return false;
    const struct bt_state *s = self;
    *out = (struct backtracking_figures){ s->n, s->nodes, s->buffers, s->window, s->run, 0, s->max_occupancy };
    for (uint32_t v = 0; v < s->nodes; v++)
        out->in_network += s->fill[v];
    return true;
}

/* --- figures: rates over the window's cycles --- */

static const char group[] = "backtracking";

static void line(const struct figure_sink *sink, enum figure_place place, const char *label, const char *rest)
{
    char text[FIGURE_TEXT_MAX];
    snprintf(text, sizeof text, "%-12s %s", label, rest);
    sink->line(sink->ctx, group, place, text);
}

/* self NULL: the names only (the columns are in every report). */
static void figures(const void *self, const struct figure_sink *sink)
{
    const struct bt_state *s = self;
    struct backtracking_counts w = { 0 };
    uint64_t in_network = 0;
    double nodes = 0, dimension = 0, delay_mean = NAN;
    bool delays = false;
    if (s) {
        w = s->window;
        nodes = s->nodes;
        dimension = s->n;
        for (uint32_t v = 0; v < s->nodes; v++)
            in_network += s->fill[v];
        delays = s->env.probe->delay.count > 0;
        delay_mean = s->env.probe->delay.mean;
    }
    double cycles = (double)w.cycles, node_cycles = cycles * nodes, channel_cycles = node_cycles * dimension;
    double sends = (double)w.sends;
    double acceptance = w.generated ? (double)w.accepted / (double)w.generated : NAN;
    double throughput = cycles > 0 ? (double)w.accepted / cycles : NAN;
    const struct {
        const char *name;
        double v;
    } all[] = {
        { "acceptance", acceptance },
        { "throughput", throughput },
        { "throughput_per_node", cycles > 0 ? (double)w.accepted / node_cycles : NAN },
        /* Kleinrock's power as the paper uses it: γ / T · P_A (messages per cycle²) */
        { "power", delays ? throughput * acceptance / delay_mean : NAN },
        { "generated", (double)w.generated },
        { "accepted", (double)w.accepted },
        { "rejected", (double)w.rejected },
        { "cycles", cycles },
        { "occupancy_mean", cycles > 0 ? (double)w.occupancy / node_cycles : NAN },
        { "full_fraction", cycles > 0 ? (double)w.full / node_cycles : NAN },
        { "backtrack_fraction", sends > 0 ? (double)w.backtracks / sends : NAN },
        { "forced_fraction", sends > 0 ? (double)w.forced_sends / sends : NAN },
        { "forward_probability", cycles > 0 ? (sends - (double)w.backtracks) / channel_cycles : NAN },
        { "backtrack_probability", cycles > 0 ? (double)w.backtracks / channel_cycles : NAN },
        { "in_network", (double)in_network },
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        sink->number(sink->ctx, group, all[i].name, all[i].v, FIGURE_EARLY);
    if (!s)
        return;
    char text[FIGURE_TEXT_MAX / 2]; /* a template's text after its label */
    snprintf(text, sizeof text, "%u per node, shared; phase 2 forces out the %s leftovers", s->buffers,
             s->forced_name);
    line(sink, FIGURE_PLACE_WORKLOAD, "buffers", text);
    line(sink, FIGURE_PLACE_RATES, "acceptance",
         "{acceptance} ({accepted:%.0f} of {generated:%.0f} generated in the window accepted, {rejected:%.0f} "
         "rejected and lost)");
    line(sink, FIGURE_PLACE_RATES, "accepted",
         "{throughput} accepted messages per cycle, {throughput_per_node} per node; power {power}");
    snprintf(text, sizeof text, "mean {occupancy_mean} messages per node at a cycle's start; all %u buffers taken "
             "at {full_fraction} of them", s->buffers);
    line(sink, FIGURE_PLACE_RATES, "occupancy", text);
    line(sink, FIGURE_PLACE_RATES, "backtracking",
         "{backtrack_fraction} of hops backtrack (away from the destination); {forced_fraction} of hops forced by "
         "phase 2");
    line(sink, FIGURE_PLACE_RATES, "channels",
         "P_f {forward_probability}, P_r {backtrack_probability} per channel per cycle; net progress "
         "{forward_probability-backtrack_probability}");
}

/* The path selection: it names the algorithm; the engine below does the routing. */
const struct route_ops route_backtracking = {
    .name = "backtracking",
    .help = "seed 001: slotted hypercube, routing.buffers shared per node, oldest-first two-phase decision with "
            "forced (possibly backtracking) sends; excess input rejected",
    .params = &backtracking_param_table,
    .traits = ROUTE_BACKTRACKS,
};

const struct engine_ops engine_backtracking = {
    .name = "backtracking",
    .help = "seed 001's slotted engine: finite shared buffers, two-phase decision, backtracking sends",
    .traits = ENGINE_SLOTTED | ENGINE_BACKTRACKS | ENGINE_COLUMNS_ALWAYS | SWITCH_WHOLE_MESSAGE | ENGINE_DRAWS_ROUTING,
    .check = check,
    .create = engine_create,
    .figures = figures,
    .destroy = engine_free,
};
