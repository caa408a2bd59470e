/* libFuzzer target over the other text a user hands the simulator: a trace file
 * (workloads/trace.c through sim/core/text_input.c: sizes, lines, control bytes, CR and
 * NUL, a byte order mark, numbers, order) and --sweep specs (sim/cli/sweep_spec.c:
 * ranges of any length, lists, whole-number ranges, labels and seeds of the points).
 * Nothing may crash, leak, hang or trip undefined behaviour; refusing is a fine answer.
 * Input: the whole of it is the trace (on 16 nodes); its lines, cut at '\n' and NUL,
 * are also up to 16 --sweep specs.  Built and run by `make fuzz` beside fuzz_config.c,
 * seeded from tests/fuzz/corpus-inputs/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../sim/cli/sweep.h"
#include "../../workloads/trace.h"

enum { NODES = 16, POINTS_LOOKED_AT = 64 };

/* The harness's one temporary file, reused by every input of this process (fuzzing
 * harness state, not the simulator's). */
static char trace_file[] = "/tmp/sim-fuzz-trace-XXXXXX";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    int fd = mkstemp(trace_file);
    if (fd < 0) {
        perror("sim-fuzz: mkstemp");
        abort();
    }
    close(fd);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_trace(data, size);
    parse_specs(data, size);
    return 0;
}
