/* libFuzzer target over the other text a user hands the simulator: a trace file
 * (workloads/trace.c through sim/core/text_input.c: sizes, lines, control bytes, CR and
 * NUL, a byte order mark, numbers, order) and --sweep specs (sim/cli/sweep_spec.c:
 * ranges of any length, lists, whole-number ranges, labels and seeds of the points).
 * Nothing may crash, leak, hang or trip undefined behaviour; refusing is a fine answer.
 * Input: the whole of it is the trace (on 16 nodes); its lines, cut at '\n' and NUL,
 * are also up to 16 --sweep specs, and, bzip2-compressed, a Netrace trace
 * (workloads/netrace.c: the header, packets, dependencies), scanned and, when accepted,
 * replayed to its end with every packet delivered as soon as it is free (a trace the
 * scan accepts must free every packet).  Built and run by `make fuzz` beside
 * fuzz_config.c, seeded from tests/fuzz/corpus-inputs/.
 */
#include <bzlib.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../sim/cli/sweep.h"
#include "../../workloads/netrace.h"
#include "../../workloads/trace.h"

enum { NODES = 16, POINTS_LOOKED_AT = 64 };

/* The harness's one temporary file, reused by every input of this process (fuzzing
 * harness state, not the simulator's). */
static char trace_file[] = "/tmp/sim-fuzz-trace-XXXXXX";
static char netrace_file[] = "/tmp/sim-fuzz-netrace-XXXXXX";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    int fd = mkstemp(trace_file), fd2 = mkstemp(netrace_file);
    if (fd < 0 || fd2 < 0) {
        perror("sim-fuzz: mkstemp");
        abort();
    }
    close(fd);
    close(fd2);
    return 0;
}

static void read_trace(const uint8_t *data, size_t size)
{
    FILE *f = fopen(trace_file, "wb");
    if (!f)
        return;
    fwrite(data, 1, size, f);
    fclose(f);
    struct trace tr;
    struct cfg_error err;
    if (trace_load_file(&tr, trace_file, NODES, &err)) {
        /* An accepted trace is text: no NUL or other control byte, no CR but before LF
         * (they were once dropped silently, with the rest of their line or file). */
        for (size_t i = 0; i < size; i++)
            if ((data[i] < 0x20 && data[i] != '\t' && data[i] != '\n' && data[i] != '\r') || data[i] == 0x7f ||
                (data[i] == '\r' && (i + 1 == size || data[i + 1] != '\n')))
                abort();
        for (size_t i = 0; i < tr.count; i++) /* what the replay relies on */
            if (tr.records[i].src >= NODES || tr.records[i].dst >= NODES || !(tr.records[i].length > 0) ||
                (i && tr.records[i].time < tr.records[i - 1].time))
                abort();
        trace_free(&tr);
    }
}

static void parse_specs(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    const char *specs[SWEEP_MAX_DIMS + 1];
    size_t n = 0;
    for (char *line = text; n <= SWEEP_MAX_DIMS && line < text + size; line += strlen(line) + 1) {
        line[strcspn(line, "\n")] = '\0'; /* a NUL ends a spec as it ends an argv string */
        specs[n++] = line;
    }
    struct sweep sw;
    char why[1024];
    if (sweep_parse(&sw, specs, n, why, sizeof why)) {
        for (size_t p = 0; p < sw.points && p < POINTS_LOOKED_AT; p++) {
            char label[512];
            sweep_label(&sw, p, label, sizeof label);
            (void)sweep_point_seed(&sw, p, 1);
            (void)sweep_common_seed(&sw, p, 1);
        }
    } else if (!memchr(why, '\0', sizeof why)) {
        abort(); /* the reason is always a string */
    }
    sweep_free(&sw);
    free(text);
}

/* The packets freed, delivered at once, in order (a stack of records). */
struct freed {
    uint32_t *recs;
    size_t n, cap;
    bool failed;
};

static void on_free(void *ctx, uint32_t rec)
{
    struct freed *f = ctx;
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        uint32_t *g = realloc(f->recs, cap * sizeof *g);
        if (!g) {
            f->failed = true;
            return;
        }
        f->recs = g;
        f->cap = cap;
    }
    f->recs[f->n++] = rec;
}

static void read_netrace(const uint8_t *data, size_t size)
{
    unsigned room = (unsigned)(size + size / 100 + 600);
    char *packed = malloc(room);
    if (!packed || BZ2_bzBuffToBuffCompress(packed, &room, (char *)data, (unsigned)size, 1, 0, 0) != BZ_OK) {
        free(packed);
        return;
    }
    FILE *f = fopen(netrace_file, "wb");
    if (f) {
        fwrite(packed, 1, room, f);
        fclose(f);
    }
    free(packed);
    struct netrace_scan scan;
    struct cfg_error err;
    if (!f || !netrace_scan(netrace_file, NODES, &scan, &err))
        return;
    struct netrace_replay *r = netrace_replay_open(netrace_file, NODES, &err);
    if (!r)
        abort(); /* the scan accepted it */
    struct freed freed = { 0 };
    uint64_t done = 0;
    while (!freed.failed) {
        while (freed.n > 0 && !freed.failed) {
            uint32_t rec = freed.recs[--freed.n];
            const struct netrace_record *x = netrace_replay_record(r, rec);
            if (x->src >= NODES || x->dst >= NODES || !(x->length == 8 || x->length == 72))
                abort();
            netrace_replay_done(r, rec, on_free, &freed);
            done++;
        }
        double next = netrace_replay_next_cycle(r);
        if (isinf(next))
            break;
        if (!netrace_replay_read(r, next, on_free, &freed, &err))
            break; /* an id used again while held: refused by the replay */
    }
    if (!freed.failed && isinf(netrace_replay_next_cycle(r)) && done != scan.packets)
        abort(); /* an accepted trace runs to its end */
    free(freed.recs);
    netrace_replay_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_trace(data, size);
    read_netrace(data, size);
    parse_specs(data, size);
    return 0;
}
