/* Wormhole and cut-through: the engine against the flit-by-flit reference model,
 * zero-load latency against its closed form, deadlock detection, finite buffers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../routing/flit.h"
#include "../../routing/flit_setup.h"
#include "../common/checks.h"
#include "../common/flit_reference.h"
#include "../common/test.h"

/* A figure the engine reported (sim/core/figures.h), by name. */
static double figure(const struct run_report *r, const char *name) { return test_figure(r, "switching", name); }

/* --- recording what the engine did --- */

struct flit_run_trace {
    struct ref_message *msgs;
    uint32_t n, cap;
    int64_t *engine_grant0, *engine_delivered; /* by trace position, -1 if not delivered */
    uint64_t first_id;
};

static uint32_t position(const struct flit_run_trace *t, uint64_t id)
{
    /* Offers come in creation order except self-addressed messages (never offered). */
    uint32_t lo = 0, hi = t->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (t->msgs[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    ck_assert_uint_lt(lo, t->n);
    ck_assert_uint_eq(t->msgs[lo].id, id);
    return lo;
}

static void on_offered(void *ctx, const struct worm *w)
{
    struct flit_run_trace *t = ctx;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->msgs = realloc(t->msgs, t->cap * sizeof *t->msgs);
        t->engine_grant0 = realloc(t->engine_grant0, t->cap * sizeof *t->engine_grant0);
        t->engine_delivered = realloc(t->engine_delivered, t->cap * sizeof *t->engine_delivered);
    }
    ck_assert_uint_le(w->hops, REF_MAX_HOPS);
    ck_assert(t->n == 0 || t->msgs[t->n - 1].id < w->id);
    struct ref_message *m = &t->msgs[t->n];
    memset(m, 0, sizeof *m);
    m->id = w->id;
    m->src = w->src;
    m->flits = w->flits;
    m->hops = w->hops;
    m->offered = w->eligible;
    for (uint32_t i = 0; i < w->hops; i++) {
        m->channel[i] = w->hop[i].channel;
        m->cls[i] = w->hop[i].cls;
    }
    t->engine_grant0[t->n] = t->engine_delivered[t->n] = -1;
    t->n++;
}

static void on_delivered(void *ctx, const struct worm *w, int64_t cycle)
{
    struct flit_run_trace *t = ctx;
    uint32_t i = position(t, w->id);
    t->engine_grant0[i] = w->grant0;
    t->engine_delivered[i] = cycle;
}

static void flit_run_trace_free(struct flit_run_trace *t)
{
    free(t->msgs);
    free(t->engine_grant0);
    free(t->engine_delivered);
    memset(t, 0, sizeof *t);
}

/* Runs the configuration with the recorder attached; returns the stop reason. */
static enum kernel_stop run_traced(const struct config *cfg, struct flit_run_trace *t, struct ref_params *p)
{
    static struct network net;
    struct cfg_error err;
    ck_assert_msg(net_create(&net, cfg, &err), "net_create: %s", err.message);
    struct flit_engine *e = flit_engine_of(net.engine, net.engine_state);
    ck_assert_ptr_nonnull(e);
    memset(t, 0, sizeof *t);
    e->obs = (struct flit_observer){ t, on_offered, on_delivered };
    *p = (struct ref_params){ net.topo.nodes, net.topo.channels, e->V, e->B, e->r, e->L, e->wormhole, e->dateline };
    enum kernel_stop why = net_run(&net);
    net_free(&net);
    return why;
}

/* Every message the engine delivered: the same first grant and delivery cycle in the
 * reference.  Returns how many were compared. */
static uint32_t compare_with_reference(const char *const *settings)
{
    struct config cfg;
    test_config(&cfg, settings);
    struct flit_run_trace t;
    struct ref_params p;
    ck_assert_int_eq(run_traced(&cfg, &t, &p), KERNEL_DONE);
    int64_t last = 0;
    for (uint32_t i = 0; i < t.n; i++)
        if (t.engine_delivered[i] > last)
            last = t.engine_delivered[i];
    ref_simulate(&p, t.msgs, t.n, last);
    uint32_t compared = 0;
    for (uint32_t i = 0; i < t.n; i++) {
        if (t.engine_delivered[i] < 0)
            continue;
        ck_assert_msg(t.msgs[i].grant0 == t.engine_grant0[i] && t.msgs[i].delivered == t.engine_delivered[i],
                      "message %llu (seed %llu): engine grant %lld delivered %lld, reference grant %lld delivered "
                      "%lld", (unsigned long long)t.msgs[i].id, (unsigned long long)cfg.run.seed,
                      (long long)t.engine_grant0[i], (long long)t.engine_delivered[i], (long long)t.msgs[i].grant0,
                      (long long)t.msgs[i].delivered);
        compared++;
    }
    flit_run_trace_free(&t);
    return compared;
}

static void compare_over_seeds(const char *const *base, int seeds)
{
    const char *settings[32];
    size_t n = 0;
    for (; base[n]; n++)
        settings[n] = base[n];
    char seed[32];
    settings[n] = seed;
    settings[n + 1] = NULL;
    uint32_t total = 0;
    for (int s = 1; s <= seeds; s++) {
        snprintf(seed, sizeof seed, "run.seed=%d", s);
        total += compare_with_reference(settings);
    }
    ck_assert_uint_gt(total, (uint32_t)seeds * 300);
}

#define COMMON "run.warmup_messages=0", "run.messages=400", "run.allow_unstable=true"

START_TEST(wormhole_hypercube_matches_reference)
{
    /* Heavy enough that most messages block somewhere; lengths vary. */
    const char *const settings[] = { "network.topology=hypercube", "network.dimension=4", "routing.switching=wormhole",
                                     "workload.rate=0.06", "workload.mean_length=4", COMMON, NULL };
    compare_over_seeds(settings, 20);
}
END_TEST

START_TEST(wormhole_buffers_latency_delay_match_reference)
{
    static const char *const variants[][3] = {
        { "routing.flit_buffers=1", "routing.link_latency=1", "routing.router_delay=0" },
        { "routing.flit_buffers=2", "routing.link_latency=3", "routing.router_delay=1" },
        { "routing.flit_buffers=3", "routing.link_latency=2", "routing.router_delay=2" },
        { "routing.flit_buffers=8", "routing.link_latency=1", "routing.router_delay=1" },
    };
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        const char *const settings[] = { "network.topology=hypercube", "network.dimension=3",
                                         "routing.switching=wormhole", "workload.rate=0.04",
                                         "workload.mean_length=5", variants[v][0], variants[v][1], variants[v][2],
                                         COMMON, NULL };
        compare_over_seeds(settings, 6);
    }
}
END_TEST

START_TEST(torus_virtual_channels_match_reference)
{
    /* 4-ary 2-cube torus, dimension order, dateline classes; 2 and 4 VCs share links. */
    const char *const two[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                "routing.switching=wormhole", "routing.virtual_channels=2", "routing.flit_buffers=2",
                                "workload.rate=0.08", "workload.mean_length=4", COMMON, NULL };
    compare_over_seeds(two, 10);
    const char *const four[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                 "routing.switching=wormhole", "routing.virtual_channels=4", "routing.link_latency=2",
                                 "workload.rate=0.08", "workload.mean_length=4", COMMON, NULL };
    compare_over_seeds(four, 10);
}
END_TEST

START_TEST(cut_through_matches_reference)
{
    const char *const settings[] = { "network.topology=hypercube", "network.dimension=4",
                                     "routing.switching=cut-through", "workload.rate=0.06", "workload.mean_length=4",
                                     COMMON, NULL };
    compare_over_seeds(settings, 10);
    const char *const torus[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                  "routing.switching=cut-through", "routing.virtual_channels=2",
                                  "routing.router_delay=1", "workload.rate=0.08", "workload.mean_length=4", COMMON,
                                  NULL };
    compare_over_seeds(torus, 10);
}
END_TEST

/* --- zero load: h (r + L) + l - 1 cycles from the offer, exactly --- */

/* spacing: cycles between consecutive flits once the pipe is full (1, or 2 when one
 * buffer cannot cover the credit loop of a 1-cycle link). */
static void zero_load_spaced(const char *switching, int hops, int flits, int r, int L, int B, int spacing)
{
    char sw[64], h[48], l[48], rd[48], ll[48], fb[48];
    snprintf(sw, sizeof sw, "routing.switching=%s", switching);
    snprintf(h, sizeof h, "workload.hops=%d", hops);
    snprintf(l, sizeof l, "workload.mean_length=%d", flits);
    snprintf(rd, sizeof rd, "routing.router_delay=%d", r);
    snprintf(ll, sizeof ll, "routing.link_latency=%d", L);
    snprintf(fb, sizeof fb, strcmp(switching, "wormhole") == 0 ? "routing.flit_buffers=%d" : "run.seed=%d", B);
    /* One message in the network at a time (λ = 1e-9), each exactly `hops` away. */
    const char *const settings[] = { "network.topology=hypercube", "network.dimension=6", sw, h, l, rd, ll, fb,
                                     "workload.destination=fixed-hops", "workload.length=constant",
                                     "workload.rate=1e-9", "run.warmup_messages=0", "run.messages=300", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    struct run_report rep;
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    double network = (double)(hops * (r + L) - r + spacing * (flits - 1)); /* from the first grant */
    ck_assert_msg(rep.link_mean == network && rep.link_variance == 0, "%s h=%d l=%d r=%d L=%d B=%d: network delay %.9g "
                  "(variance %g), closed form %g", switching, hops, flits, r, L, B, rep.link_mean, rep.link_variance,
                  network);
    /* From creation: the wait to the next cycle boundary (0, 1] plus the source's router delay. */
    ck_assert_double_le(rep.delay.max, network + r + 1);
    ck_assert_double_gt(rep.delay.min, network + r);
}

static void zero_load(const char *switching, int hops, int flits, int r, int L, int B)
{
    zero_load_spaced(switching, hops, flits, r, L, B, 1);
}

START_TEST(zero_load_latency_closed_form)
{
    static const int path_lengths[] = { 1, 3, 6 };
    for (size_t k = 0; k < 3; k++)
        for (int hops = path_lengths[k], flits = 1; flits <= 200; flits *= 7) {
            zero_load("wormhole", hops, flits, 0, 1, 2);   /* seed 003: (l + h - 1) t_u */
            zero_load("wormhole", hops, flits, 2, 1, 4);   /* buffers cover credit and routing */
            zero_load("wormhole", hops, flits, 1, 3, 5);
            zero_load("wormhole", hops, flits, 3, 2, 3);   /* router delay needs no extra buffer */
            /* One credit per two cycles, except on one hop: a destination never blocks. */
            zero_load_spaced("wormhole", hops, flits, 0, 1, 1, hops > 1 ? 2 : 1);
            zero_load_spaced("wormhole", hops, flits, 2, 1, 1, hops > 1 ? 2 : 1);
            zero_load("cut-through", hops, flits, 0, 1, 1);
            zero_load("cut-through", hops, flits, 3, 2, 1);
        }
}
END_TEST

/* --- deadlock --- */

static void expect_deadlock(const char *const *argv)
{
    char out[4096], err[4096];
    int status = test_exec(argv, out, sizeof out, err, sizeof err);
    ck_assert_msg(status == 3, "exit status %d, stderr: %s", status, err);
    ck_assert_msg(strstr(err, "deadlock at cycle") && strstr(err, "cycle of channels:"), "stderr: %s", err);
    ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "not one line: %s", err);
    ck_assert_str_eq(out, "");
}

START_TEST(torus_one_vc_deadlock_detected)
{
    const char *const argv[] = { test_binary(), "configs/default.ini", "--no-progress", "-s", "network.topology=torus",
                                 "-s", "network.radix=8", "-s", "network.dimension=2", "-s", "routing.switching=wormhole",
                                 "-s", "routing.flit_buffers=1", "-s", "workload.rate=0.05", "-s",
                                 "workload.mean_length=16", "-s", "workload.length=constant", "-s",
                                 "run.allow_unstable=true", "-s", "run.messages=1000000", "-s", "run.max_wall_seconds=30",
                                 "-s", "routing.deadlock_check=off", NULL }; /* the runtime search, unchecked */
    expect_deadlock(argv);
}
END_TEST

START_TEST(random_wormhole_deadlock_detected)
{
    const char *const argv[] = { test_binary(), "configs/default.ini", "--no-progress", "-s",
                                 "network.dimension=6", "-s", "routing.switching=wormhole", "-s",
                                 "routing.algorithm=random-minimal", "-s", "routing.flit_buffers=1", "-s",
                                 "workload.rate=0.03", "-s", "workload.mean_length=16", "-s", "run.allow_unstable=true",
                                 "-s", "run.messages=1000000", "-s", "run.max_wall_seconds=30", "-s",
                                 "routing.deadlock_check=off", NULL };
    expect_deadlock(argv);
}
END_TEST

START_TEST(torus_dateline_no_deadlock)
{
    /* The same load as the one-VC deadlock, with two dateline classes: completes. */
    const char *const settings[] = { "network.topology=torus", "network.radix=8", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.virtual_channels=2",
                                     "routing.flit_buffers=1", "workload.rate=0.05", "workload.mean_length=16",
                                     "workload.length=constant", "run.allow_unstable=true", "run.messages=20000",
                                     "run.warmup_messages=0", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    struct run_report rep;
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    ck_assert_uint_eq(rep.delay.count, 20000);
}
END_TEST

START_TEST(cut_through_never_deadlocks)
{
    /* Seed 002's Fig. 2 point that the old check stopped at cycle 1024 (one-way 10-ary
     * 3-cube, one VC, 8-flit packets, rho = 0.5): cut-through buffers are unbounded, so
     * queued headers never hold channels for good; the run completes. */
    const char *const settings[] = { "network.topology=kary-ncube", "network.radix=10", "network.dimension=3",
                                     "network.bidirectional=false", "routing.switching=cut-through",
                                     "workload.length=constant", "workload.mean_length=8",
                                     "workload.rate=0.0138889", "run.messages=20000", "run.warmup_messages=2000",
                                     NULL };
    struct config cfg;
    test_config(&cfg, settings);
    struct run_report rep;
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    ck_assert_uint_eq(rep.delay.count, 20000);
}
END_TEST

/* --- finite buffer: a 1-cube source is a loss system with a known acceptance --- */

/* Offers come at cycle boundaries, Poisson(λ) per cycle; an idle source accepts the
 * first and holds its line for `busy` cycles.  Renewal: E[idle cycles] = e^-λ/(1-e^-λ),
 * one acceptance per idle period plus busy cycles. */
static double loss_acceptance(double lambda, double busy)
{
    double idle = exp(-lambda) / (1 - exp(-lambda));
    return 1 / (lambda * (idle + busy));
}

static void finite_case(const char *switching, double busy)
{
    char sw[64];
    snprintf(sw, sizeof sw, "routing.switching=%s", switching);
    const char *const settings[] = { "network.topology=hypercube", "network.dimension=1", sw,
                                     "routing.finite_buffer=true", "workload.length=constant",
                                     "workload.mean_length=4", "workload.rate=0.1", "run.warmup_messages=1000",
                                     "run.messages=200000", "run.allow_unstable=true", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    struct run_report rep;
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    double exact = loss_acceptance(0.1, busy);
    /* About 150000 renewal periods: the estimate's sd is under 0.0015. */
    double acceptance = figure(&rep, "acceptance_probability");
    ck_assert_msg(fabs(acceptance - exact) < 0.005, "%s: acceptance %.5f, exact %.5f", switching, acceptance, exact);
    ck_assert(!figure(&rep, "saturated"));
}

START_TEST(finite_buffer_acceptance_loss_system)
{
    finite_case("cut-through", 4); /* the channel frees as the tail is sent */
    finite_case("wormhole", 5);    /* ... as the tail is consumed, one link latency later */
}
END_TEST

/* workload.rate_unit = flits on the wormhole engine: the flits it carries (offered, at
 * a stable load) are the rate for every length distribution (tests/common/checks.c). */
START_TEST(rate_in_flits_offers_its_flits)
{
    const char *const engine[] = { "routing.switching=wormhole", NULL };
    check_rate_in_flits_is_offered(engine, "throughput_flits", 200000);
}
END_TEST

START_TEST(saturation_withholds_the_mean)
{
    const char *const past[] = { "network.topology=hypercube", "network.dimension=4", "routing.switching=wormhole",
                                 "workload.length=constant", "workload.mean_length=4", "workload.rate=0.3",
                                 "run.allow_unstable=true", "run.messages=20000", "run.warmup_messages=1000", NULL };
    struct config cfg;
    test_config(&cfg, past);
    struct run_report rep;
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    ck_assert(figure(&rep, "saturated"));
    ck_assert(isnan(rep.delay.mean));
    ck_assert(strstr(test_figure_text(&rep, "switching", "saturation_note"), "source queues grew"));
    /* one verdict: the report's own saturated says what the engine found, in every format */
    ck_assert(rep.stability.saturated);
    ck_assert(strstr(rep.stability.why, "source queues grew"));
    rep.omit_timing = true;
    char *text = NULL;
    size_t size = 0;
    for (int f = 0; f < 3; f++) {
        FILE *m = open_memstream(&text, &size);
        report_write(m, &rep, (enum report_format[]){ REPORT_TABLE, REPORT_CSV, REPORT_JSON }[f]);
        fclose(m);
        ck_assert(f != 0 || strstr(text, "** SATURATED: source queues grew"));
        ck_assert(f != 2 || (strstr(text, "\n  \"saturated\": true,") && strstr(text, "\"saturated\": true\n") == NULL));
        ck_assert(!strstr(text, "\"saturated\": false") && !strstr(text, ",false,source queues"));
        free(text);
        text = NULL;
    }
    const char *const below[] = { "network.topology=hypercube", "network.dimension=4", "routing.switching=wormhole",
                                  "workload.length=constant", "workload.mean_length=4", "workload.rate=0.05",
                                  "run.messages=20000", "run.warmup_messages=1000", NULL };
    test_config(&cfg, below);
    ck_assert_int_eq(test_run(&cfg, &rep), KERNEL_DONE);
    ck_assert(!figure(&rep, "saturated"));
    ck_assert(!rep.stability.saturated);
    ck_assert(rep.delay.mean > 0);
    /* Every flit offered is delivered: throughput in flits is 4 times the messages'. */
    ck_assert_double_eq_tol(figure(&rep, "throughput_flits"), 4 * rep.throughput, 1e-12);
    ck_assert(figure(&rep, "blocking_probability") > 0 && figure(&rep, "blocking_probability") < 1);
}
END_TEST

START_TEST(same_seed_same_results)
{
    const char *const settings[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.virtual_channels=4",
                                     "routing.algorithm=random-minimal", "workload.rate=0.05",
                                     "workload.mean_length=4", "run.messages=5000", "run.warmup_messages=500", NULL };
    struct config cfg;
    test_config(&cfg, settings);
    struct run_report a, b;
    ck_assert_int_eq(test_run(&cfg, &a), KERNEL_DONE);
    ck_assert_int_eq(test_run(&cfg, &b), KERNEL_DONE);
    ck_assert(a.delay.mean == b.delay.mean && a.delay.variance == b.delay.variance && a.window == b.window);
    ck_assert(figure(&a, "blocking_probability") == figure(&b, "blocking_probability"));
    ck_assert(figure(&a, "blocked_cycles_mean") == figure(&b, "blocked_cycles_mean"));
}
END_TEST

/* The engine counts each channel's busy cycles in its own 32-bit field, carrying past
 * 2^32 into a wider count, and writes them into the run's books when the run is over
 * (engine_ops.finish): a run whose counts start at 2^32 - 1 books exactly 2^32 - 1
 * more per channel than the same run from 0, and the books are busy at all. */
static double *busy_of_a_run(bool start_near_the_wrap, uint32_t *channels)
{
    const char *const settings[] = { "network.topology=torus", "network.radix=4", "network.dimension=2",
                                     "routing.switching=wormhole", "routing.virtual_channels=2",
                                     "workload.rate=0.05", "workload.mean_length=4", "run.messages=3000",
                                     "run.warmup_messages=300", NULL };
    static struct network net;
    struct config cfg;
    test_network(&net, &cfg, settings);
    struct flit_engine *e = flit_engine_of(net.engine, net.engine_state);
    ck_assert_ptr_nonnull(e);
    *channels = net.topo.channels;
    for (uint32_t ch = 0; start_near_the_wrap && ch < *channels; ch++)
        e->chans[ch].busy = UINT32_MAX;
    ck_assert_int_eq(net_run(&net), KERNEL_DONE);
    double *busy = malloc(*channels * sizeof *busy);
    ck_assert(busy);
    for (uint32_t ch = 0; ch < *channels; ch++)
        busy[ch] = net.chan[ch].busy_time;
    net_free(&net);
    return busy;
}

START_TEST(busy_cycles_reach_the_run_books_past_2_to_the_32)
{
    uint32_t channels;
    double *plain = busy_of_a_run(false, &channels), *wrapped = busy_of_a_run(true, &channels), total = 0;
    for (uint32_t ch = 0; ch < channels; ch++) {
        ck_assert_double_eq(wrapped[ch] - plain[ch], (double)UINT32_MAX);
        total += plain[ch];
    }
    ck_assert(total > 0);
    free(plain);
    free(wrapped);
}
END_TEST

/* --- configuration errors and output --- */

static void refused(const char *const *settings, const char *key, const char *words)
{
    struct config cfg;
    test_config(&cfg, settings);
    static struct network net;
    struct cfg_error err;
    ck_assert_msg(!net_create(&net, &cfg, &err), "accepted: %s", settings[0]);
    ck_assert_str_eq(err.key, key);
    ck_assert_msg(strstr(err.message, words), "message: %s", err.message);
    ck_assert_int_gt(err.line, 0);
}

/* The flit keys of a file are ignored when it runs store-and-forward (as a topology's
 * keys are under another topology), so one file sweeps routing.switching. */
START_TEST(flit_keys_ignored_by_store_and_forward)
{
    const char *const plain[] = { "run.messages=3000", "run.warmup_messages=300", NULL };
    const char *const flit_keys[] = { "routing.virtual_channels=2", "routing.flit_buffers=9", "routing.link_latency=3",
                                      "routing.router_delay=2", "routing.router=iq", "run.messages=3000",
                                      "run.warmup_messages=300", NULL };
    struct config a, b;
    test_config(&a, plain);
    test_config(&b, flit_keys);
    struct run_report ra, rb;
    ck_assert_int_eq(test_run(&a, &ra), KERNEL_DONE);
    ck_assert_int_eq(test_run(&b, &rb), KERNEL_DONE);
    ck_assert_double_eq(ra.delay.mean, rb.delay.mean);
    ck_assert_double_eq(ra.delay.max, rb.delay.max);
    /* the sweep issue 21 asks for: a file setting flit keys, swept across switchings */
    const char *const argv[] = { test_binary(), "configs/iq/torus-8x8.ini", "--no-progress", "--no-timing", "-f", "csv",
                                 "-j", "1", "--sweep", "routing.switching=store-and-forward,wormhole", "-s",
                                 "run.messages=500", "-s", "run.warmup_messages=100", NULL };
    char out[16384], err[4096];
    ck_assert_msg(test_exec(argv, out, sizeof out, err, sizeof err) == 0, "stderr: %s", err);
    unsigned lines = 0, fields[3] = { 1, 1, 1 };
    bool quoted = false;
    for (const char *c = out; *c; c++) { /* fields per line, commas in quoted notes aside */
        if (*c == '"')
            quoted = !quoted;
        else if (*c == ',' && !quoted && lines < 3)
            fields[lines]++;
        else if (*c == '\n')
            lines++;
    }
    ck_assert_uint_eq(lines, 3); /* the header and one row per switching */
    /* one header for both engines' columns (store-and-forward reports no switching
     * figures, the iq router does): every row as wide as the header */
    ck_assert_uint_eq(fields[1], fields[0]);
    ck_assert_uint_eq(fields[2], fields[0]);
    ck_assert(strstr(out, "switching.throughput_flits_max") != NULL);
    ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(impossible_combinations_refused)
{
    const char *const tdm[] = { "routing.switching=wormhole", "protocol.link=tdm", NULL };
    refused(tdm, "protocol.link", "must be fifo");
    const char *const nodes[] = { "routing.switching=cut-through", "node.service_rate=2", NULL };
    refused(nodes, "node.service_rate", "router_delay");
    const char *const redraw[] = { "routing.switching=wormhole", "run.redraw_length_per_hop=true", NULL };
    refused(redraw, "run.redraw_length_per_hop", "keeps its flits");
}
END_TEST

START_TEST(switching_fields_in_every_format)
{
    const char *const base[] = { test_binary(), "configs/default.ini", "--no-progress", "-s",
                                 "routing.switching=wormhole", "-s", "network.dimension=4", "-s", "workload.rate=0.05",
                                 "-s", "run.messages=2000", "-s", "run.warmup_messages=100", "-f", NULL, NULL };
    static char out[1 << 16], err[4096];
    const char *argv[sizeof base / sizeof base[0]];
    memcpy(argv, base, sizeof base);
    argv[14] = "json";
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
    ck_assert(strstr(out, "\n  \"switching\": {\n    \"network_delay_mean\": "));
    ck_assert(strstr(out, "\"blocking_dim3\": ") && strstr(out, "\"blocking_probability\": "));
    ck_assert(strstr(out, "\"acceptance_probability\": null"));
    argv[14] = "csv";
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
    ck_assert(strstr(out, ",switching.network_delay_mean,switching.source_wait_mean,switching.blocked_cycles_mean,"));
    argv[14] = "table";
    ck_assert_int_eq(test_exec(argv, out, sizeof out, err, sizeof err), 0);
    ck_assert(strstr(out, "\nnetwork      mean ") && strstr(out, "\nsource wait  mean ") && strstr(out, " blocking "));
}
END_TEST

Suite *flit_suite(void)
{
    Suite *s = suite_create("flit");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, wormhole_hypercube_matches_reference);
    tcase_add_test(tc, wormhole_buffers_latency_delay_match_reference);
    tcase_add_test(tc, torus_virtual_channels_match_reference);
    tcase_add_test(tc, cut_through_matches_reference);
    tcase_add_test(tc, zero_load_latency_closed_form);
    tcase_add_test(tc, torus_one_vc_deadlock_detected);
    tcase_add_test(tc, random_wormhole_deadlock_detected);
    tcase_add_test(tc, torus_dateline_no_deadlock);
    tcase_add_test(tc, cut_through_never_deadlocks);
    tcase_add_test(tc, finite_buffer_acceptance_loss_system);
    tcase_add_test(tc, saturation_withholds_the_mean);
    tcase_add_test(tc, rate_in_flits_offers_its_flits);
    tcase_add_test(tc, same_seed_same_results);
    tcase_add_test(tc, busy_cycles_reach_the_run_books_past_2_to_the_32);
    tcase_add_test(tc, flit_keys_ignored_by_store_and_forward);
    tcase_add_test(tc, impossible_combinations_refused);
    tcase_add_test(tc, switching_fields_in_every_format);
    suite_add_tcase(s, tc);
    return s;
}
