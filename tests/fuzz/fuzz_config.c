/* libFuzzer target over what a user hands the simulator: a configuration file and
 * `-s` overrides, through the loader, the plug-ins' own checks, what --describe
 * computes (topology, channel loads, the analytic models) and a tiny run written in
 * all three formats.  Nothing may crash, leak, hang or trip undefined behaviour;
 * refusing the input is a fine answer.
 * Input: the .ini text, optionally followed by a line "%%" and one override
 * ("section.key=value") per line.  Built and run by `make fuzz` (clang's libFuzzer
 * with AddressSanitizer and UndefinedBehaviorSanitizer), seeded from configs/ and
 * tests/fuzz/corpus/, with a dictionary of the section and key names --list prints.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analytic/model.h"
#include "../../sim/report/report.h"
#include "../../sim/run/collect.h"
#include "../../sim/run/model_input.h"
#include "../../sim/run/network.h"
#include "../../sim/run/replicate.h"
#include "../../sim/run/run_config.h"

/* Every input, the slowest seed of configs/ included, runs in well under a second under
 * ASan + UBSan (libFuzzer's -timeout is 10 s: a slow input would stop `make fuzz` short
 * of its budget): at most 256 nodes run, for at most RUN_TIME_MAX time units. */
enum { OVERRIDES_MAX = 16, RUN_NODES_MAX = 1024, RUN_CHANNELS_MAX = 16384,
       /* The static deadlock check walks every destination: on seed 003's 10-cubes it takes
        * 3 s under ASan, so above this many nodes the runs go without it. */
       CHECK_NODES_MAX = 256 };
#define RUN_TIME_MAX 200.0

/* The harness's one temporary file, reused by every input of this process (fuzzing
 * harness state, not the simulator's). */
static char ini_path[] = "/tmp/sim-fuzz-XXXXXX";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    int fd = mkstemp(ini_path);
    if (fd < 0) {
        perror("sim-fuzz: mkstemp");
        abort();
    }
    close(fd);
    return 0;
}

/* Bounds the work of a run: a few messages on a small network, one replication. */
static void make_tiny(struct config *cfg)
{
    if (cfg->run.messages > 100)
        cfg->run.messages = 100;
    if (cfg->run.warmup_messages > 20)
        cfg->run.warmup_messages = 20;
    if (cfg->run.duration > 0) { /* a window of a few mean interarrival times per node */
        double limit = 20 / (cfg->workload.rate > 0 ? cfg->workload.rate : 1);
        if (limit > RUN_TIME_MAX) /* a flit engine's cycle costs every channel: bounded in time too */
            limit = RUN_TIME_MAX;
        if (cfg->run.duration > limit)
            cfg->run.duration = limit;
        if (cfg->run.warmup_time > limit)
            cfg->run.warmup_time = limit;
    }
    cfg->run.replications = 1;
}

static void describe_and_run(struct config *cfg)
{
    struct cfg_error err;
    struct topo t;
    if (!topo_build(&t, cfg, &err))
        return;
    bool small = t.nodes <= RUN_NODES_MAX && t.channels <= RUN_CHANNELS_MAX;
    bool checked = t.nodes <= CHECK_NODES_MAX;
    topo_free(&t);
    if (!small)
        return;
    make_tiny(cfg);
    if (!checked && !cfg_set(cfg, "routing", "deadlock_check", "off", "fuzz", 0, &err))
        return;
    struct run_report *report = calloc(1, sizeof *report);
    if (!report)
        return;
    bool runs = run_check(cfg, report, false, &err) == 0;
    if (!runs && topo_build(&t, cfg, &err)) { /* what --describe computes (a run below computes it too) */
        struct channel_loads loads;
        struct model_in in;
        model_input(&in, cfg, &t, &loads);
        struct model_result model;
        model_predict(&in, &model);
        model_input_free(&in);
        loads_free(&loads);
        topo_free(&t);
    }
    if (runs) {
        struct network *net = calloc(1, sizeof *net);
        if (net && net_create(net, cfg, &err)) {
            struct channel_loads loads;
            struct model_in in;
            model_input(&in, cfg, &net->topo, &loads);
            struct model_result model;
            model_predict(&in, &model);
            model_input_free(&in);
            enum kernel_stop why = net_run(net);
            report_collect(report, net, &loads, &model, why, 0);
            report->cfg = cfg;
            report->omit_timing = true;
            FILE *sink = fopen("/dev/null", "w");
            if (sink) {
                report_write(sink, report, REPORT_TABLE);
                report_write(sink, report, REPORT_CSV);
                report_write(sink, report, REPORT_JSON);
                fclose(sink);
            }
            loads_free(&loads);
            net_free(net);
        }
        free(net);
    }
    free(report);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    size_t ini_size = size;
    const char *overrides[OVERRIDES_MAX];
    size_t n_overrides = 0;
    char *split = strstr(text, "\n%%\n");
    if (split) {
        ini_size = (size_t)(split - text) + 1;
        for (char *line = strtok(split + 4, "\n"); line && n_overrides < OVERRIDES_MAX; line = strtok(NULL, "\n"))
            overrides[n_overrides++] = line;
    }
    FILE *f = fopen(ini_path, "w");
    if (f) {
        fwrite(data, 1, ini_size, f);
        fclose(f);
        struct config *cfg = malloc(sizeof *cfg);
        struct cfg_error err;
        if (cfg && run_config_load(cfg, ini_path, overrides, n_overrides, &err))
            describe_and_run(cfg);
        free(cfg);
    }
    free(text);
    return 0;
}
