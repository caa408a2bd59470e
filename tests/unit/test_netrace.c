/* Netrace v1 traces (issue 36, item 2): the reader on the format's documented layout
 * and on scripts/netrace-gen.py's output; refusals naming the file and the packet
 * (a dependency on a packet not yet read is waited for, a missing one refused, a
 * truncated file refused); the replay's rule, checked packet by packet on two networks
 * of different speed; and memory that follows the window, not the trace. */
#include <bzlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../sim/run/netrace_run.h"
#include "../../workloads/netrace.h"
#include "../common/test.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/simnetrace-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char *in_dir(const char *name)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

/* --- bytes as the format lays them out, written by hand (not by the reader's writer) --- */

struct bytes {
    unsigned char b[4096];
    size_t n;
};

static void put(struct bytes *x, uint64_t v, unsigned width)
{
    for (unsigned i = 0; i < width; i++)
        x->b[x->n++] = (unsigned char)(v >> 8 * i);
}

/* The 72-byte header: magic, version (float), 30-byte name, nodes, a pad byte,
 * cycles, packets, notes length, regions, 8 bytes of padding. */
static void header(struct bytes *x, uint32_t magic, float version, uint8_t nodes, uint64_t cycles, uint64_t packets,
                   const char *notes, uint32_t regions)
{
    uint32_t v;
    memcpy(&v, &version, 4);
    put(x, magic, 4);
    put(x, v, 4);
    char name[30] = "hand-made";
    memcpy(x->b + x->n, name, 30);
    x->n += 30;
    put(x, nodes, 1);
    put(x, 0, 1);
    put(x, cycles, 8);
    put(x, packets, 8);
    put(x, strlen(notes) + 1, 4);
    put(x, regions, 4);
    put(x, 0, 8);
    memcpy(x->b + x->n, notes, strlen(notes) + 1);
    x->n += strlen(notes) + 1;
    for (uint32_t r = 0; r < regions; r++) { /* seek offset, cycles, packets */
        put(x, 0, 8);
        put(x, cycles, 8);
        put(x, packets, 8);
    }
}

/* A packet: cycle, id, addr, type, src, dst, node types, then its dependents' ids. */
static void packet(struct bytes *x, uint64_t cycle, uint32_t id, uint8_t type, uint8_t src, uint8_t dst, unsigned n,
                   const uint32_t *deps)
{
    put(x, cycle, 8);
    put(x, id, 4);
    put(x, 0xABCD0000u + id, 4);
    put(x, type, 1);
    put(x, src, 1);
    put(x, dst, 1);
    put(x, 0x02, 1);
    put(x, n, 1);
    for (unsigned i = 0; i < n; i++)
        put(x, deps[i], 4);
}

/* Writes the bytes bzip2-compressed (the first `keep` compressed bytes only when keep > 0). */
static const char *write_bz2(const char *name, const struct bytes *x, unsigned keep)
{
    char out[8192];
    unsigned n = sizeof out;
    ck_assert_int_eq(BZ2_bzBuffToBuffCompress(out, &n, (char *)x->b, (unsigned)x->n, 9, 0, 0), BZ_OK);
    const char *path = in_dir(name);
    FILE *f = fopen(path, "wb");
    ck_assert(f);
    ck_assert_uint_eq(fwrite(out, 1, keep ? keep : n, f), keep ? keep : n);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

/* The scan of the bytes on 16 terminals refuses them with exactly `message`. */
static void expect_refused(const struct bytes *x, const char *message)
{
    const char *path = write_bz2("t.tr.bz2", x, 0);
    struct netrace_scan s;
    struct cfg_error err;
    ck_assert_msg(!netrace_scan(path, 16, &s, &err), "accepted; expected %s", message);
    ck_assert_str_eq(err.file, path);
    ck_assert_int_eq(err.line, 0);
    ck_assert_str_eq(err.key, "workload.trace");
    ck_assert_str_eq(err.message, message);
}

START_TEST(reader_follows_the_documented_layout)
{
    make_dir();
    struct bytes x = { .n = 0 };
    header(&x, NETRACE_MAGIC, 1.0f, 16, 40, 3, "notes of the trace", 2);
    uint32_t d1[] = { 30, 20 };
    packet(&x, 5, 10, 1, 0, 15, 2, d1);    /* ReadReq, 8 bytes */
    packet(&x, 25, 20, 2, 15, 0, 0, NULL); /* ReadResp, 72 bytes */
    packet(&x, 39, 30, 6, 3, 4, 0, NULL);  /* Writeback, 72 bytes */
    const char *path = write_bz2("t.tr.bz2", &x, 0);
    struct cfg_error err;
    struct netrace_file *f = netrace_open(path, 16, &err);
    ck_assert_msg(f, "%s", err.message);
    const struct netrace_header *h = netrace_header(f);
    ck_assert_uint_eq(h->magic, 0x484A5455u);
    ck_assert(h->version == 1.0f);
    ck_assert_str_eq(h->benchmark, "hand-made");
    ck_assert_uint_eq(h->nodes, 16);
    ck_assert_uint_eq(h->cycles, 40);
    ck_assert_uint_eq(h->packets, 3);
    ck_assert_uint_eq(h->notes_length, strlen("notes of the trace") + 1);
    ck_assert_uint_eq(h->regions, 2);
    struct netrace_packet p;
    ck_assert_int_eq(netrace_next(f, &p, &err), NETRACE_PACKET);
    ck_assert_uint_eq(p.cycle, 5);
    ck_assert_uint_eq(p.id, 10);
    ck_assert_uint_eq(p.addr, 0xABCD000Au);
    ck_assert_uint_eq(p.type, 1);
    ck_assert_uint_eq(p.src, 0);
    ck_assert_uint_eq(p.dst, 15);
    ck_assert_uint_eq(p.node_types, 2);
    ck_assert_uint_eq(p.num_deps, 2);
    ck_assert_uint_eq(p.deps[0], 30);
    ck_assert_uint_eq(p.deps[1], 20);
    ck_assert_int_eq(netrace_type_bytes(p.type), 8);
    ck_assert_int_eq(netrace_next(f, &p, &err), NETRACE_PACKET);
    ck_assert_uint_eq(p.id, 20);
    ck_assert_int_eq(netrace_type_bytes(p.type), 72);
    ck_assert_int_eq(netrace_next(f, &p, &err), NETRACE_PACKET);
    ck_assert_uint_eq(p.cycle, 39);
    ck_assert_int_eq(netrace_type_bytes(p.type), 72);
    ck_assert_int_eq(netrace_next(f, &p, &err), NETRACE_END);
    netrace_close(f);
    /* The format's size table: 8-byte control packets, 72-byte data packets, the rest no type. */
    static const int bytes[31] = { -1, 8, 72, 72, 72, 8, 72, -1, -1, -1, -1, -1, -1, 8, 8, 8,
                                   72, -1, -1, -1, -1, -1, -1, -1, -1, 8, -1, 8, 8, 8, 72 };
    for (unsigned t = 0; t < 31; t++)
        ck_assert_int_eq(netrace_type_bytes(t), bytes[t]);
    ck_assert_int_eq(netrace_type_bytes(31), -1);
    remove_dir();
}
END_TEST

START_TEST(bad_traces_name_the_file_and_the_packet)
{
    make_dir();
    uint32_t missing[] = { 99 }, self[] = { 2 }, later[] = { 3 };
    struct bytes x = { .n = 0 };
    header(&x, 0x484A5452u, 1.0f, 16, 10, 1, "", 0);
    expect_refused(&x, "not a Netrace trace: magic 0x484A5452 (Netrace's is 0x484A5455)");
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.1f, 16, 10, 1, "", 0);
    expect_refused(&x, "Netrace version 1.1: only version 1.0 is read");
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 64, 10, 1, "", 0);
    expect_refused(&x, "the trace has 64 nodes; the network has 16 terminals");
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 2, "", 0);
    packet(&x, 1, 1, 1, 0, 16, 0, NULL);
    expect_refused(&x, "packet 1 (id 1): destination 16 is not a terminal (the network has 16)");
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 2, "", 0);
    packet(&x, 1, 1, 7, 0, 1, 0, NULL);
    expect_refused(&x, "packet 1 (id 1): type 7 is not a Netrace packet type");
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 2, "", 0);
    packet(&x, 5, 1, 1, 0, 1, 0, NULL);
    packet(&x, 4, 2, 1, 0, 1, 0, NULL);
    expect_refused(&x, "packet 2 (id 2): cycle 4 goes backwards (the previous packet's is 5)");
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 2, "", 0);
    packet(&x, 1, 1, 1, 0, 1, 0, NULL);
    packet(&x, 2, 2, 1, 0, 1, 1, self);
    expect_refused(&x, "packet 2 (id 2): it names itself as its dependent");
    /* A missing dependency: packet 1 makes id 99 wait, and no packet 99 follows. */
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 2, "", 0);
    packet(&x, 1, 1, 1, 0, 1, 1, missing);
    packet(&x, 2, 2, 1, 0, 1, 0, NULL);
    expect_refused(&x, "packet 1 (id 1): its dependent id 99 does not follow it in the trace (missing, or at an "
                       "earlier cycle)");
    /* A dependent read at an earlier cycle could no longer wait: refused the same way. */
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 2, "", 0);
    packet(&x, 1, 3, 1, 0, 1, 0, NULL);
    packet(&x, 2, 2, 1, 0, 1, 1, later);
    expect_refused(&x, "packet 2 (id 2): its dependent id 3 does not follow it in the trace (missing, or at an "
                       "earlier cycle)");
    /* A dependency cycle within a cycle: ids 4 -> 5 -> 6 -> 5 (4 is free, 5 and 6 never). */
    uint32_t to5[] = { 5 }, to6[] = { 6 };
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 4, "", 0);
    packet(&x, 1, 1, 1, 0, 1, 0, NULL);
    packet(&x, 3, 4, 1, 0, 1, 1, to5);
    packet(&x, 3, 6, 1, 0, 1, 1, to5);
    packet(&x, 3, 5, 1, 0, 1, 1, to6);
    expect_refused(&x, "packet 3 (id 6): it waits, through the packets it waits for, on itself: a dependency cycle "
                       "within its cycle");
    /* A repeated id within a cycle. */
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 2, "", 0);
    packet(&x, 1, 1, 1, 0, 1, 0, NULL);
    packet(&x, 1, 1, 1, 2, 3, 0, NULL);
    expect_refused(&x, "packet 2 (id 1): its id is already a packet's at this cycle");
    /* Truncated: inside the third packet's fixed part, inside its dependency ids, and
     * after fewer packets than the header says. */
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 3, "", 0);
    packet(&x, 1, 1, 1, 0, 1, 0, NULL);
    packet(&x, 2, 2, 1, 0, 1, 0, NULL);
    packet(&x, 3, 3, 1, 0, 1, 0, NULL);
    x.n -= 5;
    expect_refused(&x, "packet 3: truncated: the file ends inside it");
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 3, "", 0);
    packet(&x, 1, 1, 1, 0, 1, 0, NULL);
    packet(&x, 2, 2, 1, 0, 1, 1, later);
    x.n -= 2;
    expect_refused(&x, "packet 2 (id 2): truncated: the file ends inside its dependency ids");
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 3, "", 0);
    packet(&x, 1, 1, 1, 0, 1, 0, NULL);
    expect_refused(&x, "the file ends after 1 packets; its header says 3");
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 1, "a note", 1);
    x.n -= 10;
    expect_refused(&x, "truncated: the file ends inside the header's notes or region heads");
    /* The compressed data itself cut short, and a file that is not bzip2 at all. */
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 1, "", 0);
    packet(&x, 1, 1, 1, 0, 1, 0, NULL);
    const char *path = write_bz2("cut.tr.bz2", &x, 40);
    struct netrace_scan s;
    struct cfg_error err;
    ck_assert(!netrace_scan(path, 16, &s, &err));
    ck_assert_msg(strstr(err.message, "truncated: the bzip2 data ends inside") != NULL, "%s", err.message);
    FILE *plain = fopen(in_dir("plain.tr"), "wb");
    ck_assert(plain);
    fwrite(x.b, 1, x.n, plain);
    fclose(plain);
    ck_assert(!netrace_scan(in_dir("plain.tr"), 16, &s, &err));
    ck_assert_str_eq(err.message, "not bzip2 data (Netrace traces are bzip2-compressed), at the header");
    remove_dir();
}
END_TEST

struct order {
    uint32_t ready[8];
    unsigned n;
};

static void note_ready(void *ctx, uint32_t rec)
{
    struct order *o = ctx;
    o->ready[o->n++] = rec;
}

START_TEST(a_dependency_on_a_packet_not_yet_read_is_waited_for)
{
    make_dir();
    /* Packet id 5 (cycle 2) waits for id 1 (cycle 0); id 7 comes first in the file at
     * cycle 4 and waits for id 8, which follows it at the same cycle. */
    uint32_t five[] = { 5 }, seven[] = { 7 };
    struct bytes x = { .n = 0 };
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 4, "", 0);
    packet(&x, 0, 1, 1, 0, 1, 1, five);
    packet(&x, 2, 5, 2, 1, 0, 0, NULL);
    packet(&x, 4, 7, 1, 2, 3, 0, NULL);
    packet(&x, 4, 8, 1, 3, 2, 1, seven);
    const char *path = write_bz2("t.tr.bz2", &x, 0);
    struct netrace_scan s;
    struct cfg_error err;
    ck_assert_msg(netrace_scan(path, 16, &s, &err), "%s", err.message);
    ck_assert_uint_eq(s.packets, 4);
    struct netrace_replay *r = netrace_replay_open(path, 16, &err);
    ck_assert(r);
    struct order o = { .n = 0 };
    ck_assert(netrace_replay_read(r, 0, note_ready, &o, &err));
    ck_assert_uint_eq(o.n, 1);
    uint32_t one = o.ready[0];
    ck_assert_uint_eq(netrace_replay_record(r, one)->id, 1);
    ck_assert(netrace_replay_next_cycle(r) == 2);
    ck_assert(netrace_replay_read(r, 2, note_ready, &o, &err));
    ck_assert_uint_eq(o.n, 1); /* id 5 waits for id 1 */
    netrace_replay_done(r, one, note_ready, &o);
    ck_assert_uint_eq(o.n, 2);
    ck_assert_uint_eq(netrace_replay_record(r, o.ready[1])->id, 5);
    ck_assert(netrace_replay_read(r, 4, note_ready, &o, &err));
    ck_assert_uint_eq(o.n, 3); /* id 8 is free; id 7 waits for it */
    ck_assert_uint_eq(netrace_replay_record(r, o.ready[2])->id, 8);
    netrace_replay_done(r, o.ready[2], note_ready, &o);
    ck_assert_uint_eq(o.n, 4);
    ck_assert_uint_eq(netrace_replay_record(r, o.ready[3])->id, 7);
    ck_assert(isinf(netrace_replay_next_cycle(r)));
    netrace_replay_free(r);
    remove_dir();
}
END_TEST

/* --- replays on whole networks --- */

enum { GEN_PACKETS = 1500 };

static void generate(const char *path, unsigned nodes, unsigned packets, unsigned seed)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "python3 scripts/netrace-gen.py --nodes %u --packets %u --seed %u -o %s", nodes, packets,
             seed, path);
    ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
}

struct times {
    double cycle[GEN_PACKETS], created[GEN_PACKETS], delivered[GEN_PACKETS];
    uint32_t parents_of[GEN_PACKETS][4], n_parents[GEN_PACKETS];
};

/* The generator's ids are 11 + 3 k. */
static uint32_t slot(uint32_t id)
{
    ck_assert(id >= 11 && (id - 11) % 3 == 0 && (id - 11) / 3 < GEN_PACKETS);
    return (id - 11) / 3;
}

static void watch_created(void *ctx, uint32_t id, double cycle, double now)
{
    struct times *t = ctx;
    t->cycle[slot(id)] = cycle;
    t->created[slot(id)] = now;
}

static void watch_delivered(void *ctx, uint32_t id, double now)
{
    struct times *t = ctx;
    t->delivered[slot(id)] = now;
}

/* Replays path on the network of the settings; returns the completion time and checks
 * every packet against the Netrace rule: created at max(its cycle, its parents' last
 * delivery), plus `late` at most (a router that stamps deliveries before the kernel's time). */
static double replay(const char *path, const char *const *settings, double late, unsigned *waited)
{
    struct times *t = calloc(1, sizeof *t);
    ck_assert(t);
    struct cfg_error err;
    struct netrace_file *f = netrace_open(path, 16, &err);
    ck_assert(f);
    struct netrace_packet p;
    while (netrace_next(f, &p, &err) == NETRACE_PACKET)
        for (unsigned i = 0; i < p.num_deps; i++) {
            uint32_t k = slot(p.deps[i]);
            ck_assert_uint_lt(t->n_parents[k], 4);
            t->parents_of[k][t->n_parents[k]++] = slot(p.id);
        }
    netrace_close(f);
    for (unsigned k = 0; k < GEN_PACKETS; k++)
        t->created[k] = t->delivered[k] = NAN;
    struct config cfg;
    struct network *net = calloc(1, sizeof *net);
    ck_assert(net);
    test_config(&cfg, settings);
    ck_assert_msg(net_create(net, &cfg, &err), "%s", err.message);
    const struct net_netrace_watch watch = { watch_created, watch_delivered, t };
    net->netrace->watch = &watch;
    ck_assert_int_eq(net_run(net), KERNEL_DONE);
    struct run_report *report = malloc(sizeof *report);
    ck_assert(report);
    struct channel_loads loads;
    struct model_in in;
    model_input(&in, &cfg, &net->topo, &loads);
    struct model_result model;
    model_predict(&in, &model);
    model_input_free(&in);
    report_collect(report, net, &loads, &model, KERNEL_DONE, 0);
    loads_free(&loads);
    double completion = test_figure(report, "trace", "completion");
    ck_assert(test_figure(report, "trace", "packets") == GEN_PACKETS);
    ck_assert_uint_eq(report->delay.count, GEN_PACKETS);
    double last = 0;
    *waited = 0;
    for (unsigned k = 0; k < GEN_PACKETS; k++) {
        double due = t->cycle[k];
        for (unsigned j = 0; j < t->n_parents[k]; j++) {
            double d = t->delivered[t->parents_of[k][j]];
            ck_assert_msg(!isnan(d), "packet %u created before its parent was delivered", k);
            due = fmax(due, d);
        }
        ck_assert_msg(t->created[k] >= due && t->created[k] <= due + late, "packet %u created at %g, due at %g", k,
                      t->created[k], due);
        *waited += t->created[k] > t->cycle[k];
        last = fmax(last, t->delivered[k]);
    }
    ck_assert(completion == last);
    free(report);
    net_free(net);
    free(net);
    free(t);
    return completion;
}

/* scripts/netrace-gen.py's output, read back: its header (one region head and notes
 * to skip), packets in cycle order, each dependent following its namer at a later
 * cycle, the sizes of its three types; and the same arguments give the same bytes. */
START_TEST(reader_reads_the_generators_output)
{
    make_dir();
    generate(in_dir("a.tr.bz2"), 12, 800, 9);
    generate(in_dir("b.tr.bz2"), 12, 800, 9);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cmp -s %s/a.tr.bz2 %s/b.tr.bz2", dir, dir);
    ck_assert_int_eq(system(cmd), 0);
    struct cfg_error err;
    struct netrace_file *f = netrace_open(in_dir("a.tr.bz2"), 12, &err);
    ck_assert_msg(f, "%s", err.message);
    const struct netrace_header *h = netrace_header(f);
    ck_assert_str_eq(h->benchmark, "synthetic");
    ck_assert_uint_eq(h->nodes, 12);
    ck_assert_uint_eq(h->packets, 800);
    ck_assert_uint_eq(h->regions, 1);
    ck_assert_uint_eq(h->notes_length, strlen("netrace-gen.py --nodes 12 --packets 800 --seed 9") + 1);
    struct netrace_packet p;
    uint64_t cycle = 0, count = 0;
    unsigned with_deps = 0, sizes[3] = { 0 };
    double *cycle_of = calloc(3 * 800 + 11, sizeof *cycle_of);
    ck_assert(cycle_of);
    for (size_t i = 0; i < 3 * 800 + 11; i++)
        cycle_of[i] = -1;
    uint32_t (*named)[2] = malloc(4000 * sizeof *named); /* (namer's cycle, dependent) */
    ck_assert(named);
    size_t n_named = 0;
    while (netrace_next(f, &p, &err) == NETRACE_PACKET) {
        ck_assert_uint_ge(p.cycle, cycle);
        cycle = p.cycle;
        count++;
        ck_assert_uint_lt(p.id, 3 * 800 + 11);
        cycle_of[p.id] = (double)p.cycle;
        ck_assert(p.src < 12 && p.dst < 12 && p.src != p.dst);
        sizes[p.type == 1 ? 0 : p.type == 2 ? 1 : 2] += p.type == 1 || p.type == 2 || p.type == 6;
        with_deps += p.num_deps > 0;
        for (unsigned i = 0; i < p.num_deps && n_named < 4000; i++) {
            named[n_named][0] = (uint32_t)p.cycle;
            named[n_named++][1] = p.deps[i];
        }
    }
    ck_assert_uint_eq(count, 800);
    ck_assert_uint_eq(sizes[0] + sizes[1] + sizes[2], 800);
    ck_assert(sizes[0] > 300 && sizes[1] > 300 && sizes[2] > 20);
    ck_assert_uint_gt(with_deps, 300);
    for (size_t k = 0; k < n_named; k++) /* every dependent named is in the file, at a later cycle */
        ck_assert_msg(cycle_of[named[k][1]] > named[k][0], "id %u", named[k][1]);
    netrace_close(f);
    free(named);
    free(cycle_of);
    remove_dir();
}
END_TEST

START_TEST(a_faster_network_finishes_the_trace_sooner_and_no_packet_precedes_its_dependencies)
{
    make_dir();
    const char *path = in_dir("gen.tr.bz2");
    generate(path, 16, GEN_PACKETS, 3);
    char trace[160];
    snprintf(trace, sizeof trace, "workload.trace=%s", path);
    static const char *engines[][3] = {
        { "routing.switching=store-and-forward", NULL, NULL },
        { "routing.switching=wormhole", NULL, NULL },
        { "routing.switching=wormhole", "routing.router=iq", NULL },
    };
    static const double late[] = { 0, 0, 0.5 };
    for (unsigned e = 0; e < 3; e++) {
        double finish[2];
        unsigned waited[2];
        for (unsigned speed = 0; speed < 2; speed++) {
            const char *settings[] = { "network.topology=mesh", "network.radix=4", "network.dimension=2",
                                       speed ? "network.bandwidth=32" : "network.bandwidth=4",
                                       "workload.arrival=netrace", trace, engines[e][0], engines[e][1], NULL };
            finish[speed] = replay(path, settings, late[e], &waited[speed]);
        }
        printf("netrace %s%s: completion %g cycles at 4 bytes a cycle (%u packets waited past their cycle), %g at "
               "32 (%u)\n", engines[e][0], engines[e][1] ? " iq" : "", finish[0], waited[0], finish[1], waited[1]);
        ck_assert_uint_gt(waited[0], 100); /* the slow network makes packets wait: the rule is exercised */
        ck_assert_msg(finish[1] < finish[0], "faster %g, slower %g", finish[1], finish[0]);
    }
    remove_dir();
}
END_TEST

START_TEST(memory_follows_the_window_not_the_trace)
{
    make_dir();
    const char *path = in_dir("long.tr.bz2");
    generate(path, 16, 60000, 5);
    struct config cfg;
    struct network *net = calloc(1, sizeof *net);
    ck_assert(net);
    char trace[160];
    snprintf(trace, sizeof trace, "workload.trace=%s", path);
    const char *settings[] = { "network.topology=mesh", "network.radix=4", "network.dimension=2",
                               "network.bandwidth=16", "routing.switching=wormhole", "workload.arrival=netrace",
                               trace, NULL };
    test_config(&cfg, settings);
    struct cfg_error err;
    ck_assert_msg(net_create(net, &cfg, &err), "%s", err.message);
    ck_assert_int_eq(net_run(net), KERNEL_DONE);
    size_t held = netrace_replay_most_held(net->netrace->replay);
    printf("netrace: 60000 packets replayed holding at most %zu ids (scan: %zu)\n", held, net->netrace->scan.most_held);
    ck_assert_uint_lt(held, 600); /* a hundredth of the trace */
    ck_assert_uint_lt(net->netrace->scan.most_held, 600);
    ck_assert_uint_eq(net->probe.delivered, 60000);
    net_free(net);
    free(net);
    remove_dir();
}
END_TEST

/* A packet a finite source buffer refuses frees the packets waiting for it as a
 * delivery would: the trace still runs to its end. */
START_TEST(a_refused_packet_frees_its_dependents)
{
    char trace[160];
    snprintf(trace, sizeof trace, "workload.trace=%s", "configs/traces/synthetic-16.tr.bz2");
    const char *settings[] = { "network.topology=mesh", "network.radix=4", "network.dimension=2",
                               "network.bandwidth=4", "routing.switching=wormhole", "routing.finite_buffer=true",
                               "workload.arrival=netrace", trace, NULL };
    struct config cfg;
    test_config(&cfg, settings);
    struct run_report *report = malloc(sizeof *report);
    ck_assert(report);
    ck_assert_int_eq(test_run(&cfg, report), KERNEL_DONE);
    double refused = test_figure(report, "trace", "refused");
    ck_assert_msg(refused > 100, "refused %g", refused);
    ck_assert(test_figure(report, "trace", "packets") == 2000);
    ck_assert_uint_eq(report->delivered_total + refused, 2000);
    ck_assert(test_figure(report, "trace", "completion") >= 1860);
    free(report);
}
END_TEST

/* sim itself: bad input is one line on stderr, exit status 2, nothing on stdout; the
 * engines that cannot close the loop and the run keys that cannot apply are refused. */
START_TEST(sim_refuses_bad_traces_and_what_cannot_replay_them)
{
    make_dir();
    struct bytes x = { .n = 0 };
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 3, "", 0);
    packet(&x, 1, 1, 1, 0, 1, 0, NULL);
    packet(&x, 2, 2, 1, 0, 1, 0, NULL);
    x.n -= 3;
    const char *cut = write_bz2("cut.tr.bz2", &x, 0);
    char trace[160], out[4096], errs[4096], want[256];
    snprintf(trace, sizeof trace, "workload.trace=%s", cut);
    const char *argv[] = { test_binary(), "-s", "workload.arrival=netrace", "-s", trace, "-s", "network.bandwidth=16",
                           "configs/kary-8x8.ini", NULL };
    ck_assert_int_eq(test_exec(argv, out, sizeof out, errs, sizeof errs), 2);
    ck_assert_str_eq(out, "");
    snprintf(want, sizeof want, "%s: workload.trace: packet 2: truncated: the file ends inside it\n", cut);
    ck_assert_str_eq(errs, want);
    /* An id used again while its first packet is still in flight: the scan cannot see it
     * (ids are unique within a cycle only there), the replay stops on it. */
    x.n = 0;
    header(&x, NETRACE_MAGIC, 1.0f, 16, 10, 2, "", 0);
    packet(&x, 1, 1, 2, 0, 15, 0, NULL);
    packet(&x, 2, 1, 2, 0, 15, 0, NULL);
    const char *again = write_bz2("again.tr.bz2", &x, 0);
    snprintf(trace, sizeof trace, "workload.trace=%s", again);
    const char *twice[] = { test_binary(), "-s", "workload.arrival=netrace", "-s", trace, "-s", "network.bandwidth=1",
                            "configs/kary-8x8.ini", NULL };
    ck_assert_int_eq(test_exec(twice, out, sizeof out, errs, sizeof errs), 3);
    ck_assert_str_eq(out, "");
    snprintf(want, sizeof want, "sim: %s: workload.trace: packet 2 (id 1): its id is a packet's not yet delivered\n",
             again);
    ck_assert_str_eq(errs, want);
    /* The shipped configuration finds its trace beside it (a path relative to the config's folder). */
    enum { BIG = 1 << 16 };
    char *big = malloc(BIG);
    ck_assert(big);
    const char *shipped[] = { test_binary(), "configs/traces/mesh-4x4-netrace.ini", NULL };
    ck_assert_int_eq(test_exec(shipped, big, BIG, errs, sizeof errs), 0);
    ck_assert_msg(strstr(big, "\ntrace        completion 1908 cycles for 2000 packets (the trace's own span: 1860 "
                              "cycles; at most 75 ids held)\n") != NULL, "%s", big);
    free(big);
    const char *missing[] = { test_binary(), "-s", "workload.trace=no-such.tr.bz2",
                              "configs/traces/mesh-4x4-netrace.ini", NULL };
    ck_assert_int_eq(test_exec(missing, out, sizeof out, errs, sizeof errs), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(errs, "command line (-s): workload.trace: cannot read the trace no-such.tr.bz2: No such file or "
                           "directory\n");
    generate(in_dir("ok.tr.bz2"), 16, 50, 1);
    snprintf(trace, sizeof trace, "workload.trace=%s", in_dir("ok.tr.bz2"));
    const char *duration[] = { test_binary(), "-s", "workload.arrival=netrace", "-s", trace, "-s", "run.duration=100",
                               "configs/kary-8x8.ini", NULL };
    ck_assert_int_eq(test_exec(duration, out, sizeof out, errs, sizeof errs), 2);
    ck_assert_str_eq(errs, "command line (-s): run.duration: netrace arrivals measure every packet of the trace, to its "
                           "end: leave run.duration out\n");
    const char *slotted[] = { test_binary(), "-s", "workload.arrival=netrace", "-s", trace, "-s",
                              "routing.algorithm=backtracking", "configs/kary-8x8.ini", NULL };
    ck_assert_int_eq(test_exec(slotted, out, sizeof out, errs, sizeof errs), 2);
    ck_assert_msg(strstr(errs, "netrace arrivals wait for deliveries") != NULL, "%s", errs);
    remove_dir();
}
END_TEST

Suite *netrace_suite(void)
{
    Suite *s = suite_create("netrace");
    TCase *tc = tcase_create("netrace");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, reader_follows_the_documented_layout);
    tcase_add_test(tc, bad_traces_name_the_file_and_the_packet);
    tcase_add_test(tc, a_dependency_on_a_packet_not_yet_read_is_waited_for);
    tcase_add_test(tc, reader_reads_the_generators_output);
    tcase_add_test(tc, a_faster_network_finishes_the_trace_sooner_and_no_packet_precedes_its_dependencies);
    tcase_add_test(tc, memory_follows_the_window_not_the_trace);
    tcase_add_test(tc, a_refused_packet_frees_its_dependents);
    tcase_add_test(tc, sim_refuses_bad_traces_and_what_cannot_replay_them);
    suite_add_tcase(s, tc);
    return s;
}
