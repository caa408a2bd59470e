/* The checks net_create() makes before it builds a run: whether it fits in memory,
 * whether the input fits the engine, the engine's own check (see network.h). */
#include <math.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../protocols/protocol.h"
#include "network.h"
#include "observe.h"

/* Refuses a network whose run would not fit in this machine's memory (or the
 * process's address-space limit), from its size, instead of leaving it to the
 * kernel's out-of-memory killer half-way through.  About 150 bytes per node and 18 per
 * channel: the peak RSS of runs on hypercubes of 2^16 to 2^20 nodes and on tori of 2^18
 * to 2^22 before traffic (131 and 16.2 fitted; bench/README.md); messages in flight
 * come on top (40 bytes each; 8 more where their creation numbers are kept, as in
 * message mode, 24 more under a priority discipline, 16 more with the node model); a
 * protocol that draws random numbers has a 32-byte stream per channel.  A
 * run that records its measured messages (run.warmup = auto, run.precision) adds 24 bytes per
 * message of run.messages (probe.h), and the batches' histograms for quantile
 * intervals about 19 KB per batch (stats.h). */
bool net_fits_in_memory(const struct config *cfg, const struct topo *t, const struct engine_ops *engine,
                           const struct proto_ops *proto, struct cfg_error *err)
{
    double need = 150.0 * t->nodes + 18.0 * (double)t->channels + (engine->memory ? engine->memory(cfg, t) : 0) +
                  observe_memory(cfg, t) + (proto->traits & ACCESS_DRAWS_RANDOM ? 32.0 * (double)t->channels : 0);
    bool recording = cfg->run.duration <= 0 && (cfg->run.warmup[0] == 'a' || cfg->run.precision > 0);
    unsigned batches = cfg->run.precision > 0 ? probe_max_batches((unsigned)cfg->run.batches) : (unsigned)cfg->run.batches;
    need += (recording ? 24.0 * (double)cfg->run.messages : 0) + 19440.0 * batches;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double have = pages > 0 && page > 0 ? (double)pages * (double)page : INFINITY;
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && (double)limit.rlim_cur < have)
        have = (double)limit.rlim_cur;
    if (need <= have)
        return true;
    const char *key = (t->ops->traits & TOPO_KARY_NCUBE) && cfg_is_set(cfg, "network.radix") ? "network.radix"
                                                                                               : "network.dimension";
    cfg_blame(cfg, key, err, "%u nodes and %llu channels need about %.1f GiB to simulate; %.1f GiB available",
              t->nodes, (unsigned long long)t->channels, need / (1u << 30), have / (1u << 30));
    return false;
}

/* An engine that admits its own input cycle by cycle (ENGINE_SLOTTED) takes no event-driven
 * arrivals, writes no trace and hands no message to the per-message files; false (err
 * says which) when the configuration asks for one of those. */
bool net_input_fits_engine(const struct network *net, const struct config *cfg, struct cfg_error *err)
{
    bool slotted = net->engine->traits & ENGINE_SLOTTED;
    if (slotted && (net->arrival->traits & ARRIVAL_DEPENDENCIES)) {
        cfg_blame(cfg, "workload.arrival", err, "netrace arrivals wait for deliveries; %s routing admits its own "
                  "input cycle by cycle", cfg->routing.algorithm);
        return false;
    }
    if (reply_params_of(cfg) && (slotted || (net->arrival->traits & ARRIVAL_REPLAY))) {
        cfg_blame(cfg, "workload.classes", err, "request-reply creates replies from deliveries: it needs "
                  "event-driven arrivals (not %s) and an engine that is not slotted (not %s routing)",
                  cfg->workload.arrival, cfg->routing.algorithm);
        return false;
    }
    if (reply_params_of(cfg) && cfg_rate_in_flits(cfg)) {
        cfg_blame(cfg, "workload.rate_unit", err, "request-reply: state workload.rate in requests (messages) per "
                  "terminal per time unit; requests and replies have lengths of their own");
        return false;
    }
    const struct reply_params *rp = reply_params_of(cfg);
    if (rp && rp->reply_queue > 0 && !(net->engine->traits & ENGINE_BOUNDS_REPLY_QUEUE)) {
        cfg_blame(cfg, "workload.reply_queue", err, "a bounded reply queue needs wormhole or cut-through switching "
                  "(either router), not %s", net->engine->name);
        return false;
    }
    if (!slotted && !net->arrival->interarrival && !(net->arrival->traits & ARRIVAL_REPLAY)) {
        cfg_blame(cfg, "workload.arrival", err, "'%s' arrivals exist only in slotted time; %s switching is event-driven",
                  cfg->workload.arrival, cfg->routing.switching);
        return false;
    }
    if (slotted && cfg->write_trace) { /* it admits its own input per cycle: no trace */
        snprintf(err->file, sizeof err->file, "--write-trace");
        err->line = 0;
        err->key[0] = '\0';
        snprintf(err->message, sizeof err->message, "no trace of %s routing: it admits its own input cycle by cycle",
                 cfg->routing.algorithm);
        return false;
    }
    if (slotted && (cfg->files.nodes || cfg->files.series)) { /* no message of it passes the run's hands */
        snprintf(err->file, sizeof err->file, "%s", cfg->files.nodes ? "--nodes" : "--series");
        err->line = 0;
        err->key[0] = '\0';
        snprintf(err->message, sizeof err->message, "no per-message output of %s routing: it admits its own input "
                 "cycle by cycle", cfg->routing.algorithm);
        return false;
    }
    return true;
}

/* The engine's own check of the configuration, on the built topology and workload. */
bool net_engine_accepts(const struct network *net, const struct config *cfg, struct cfg_error *err)
{
    const struct engine_spec spec = {
        .cfg = cfg,
        .topo = &net->topo,
        .arrivals_per_cycle = net->arrival->per_cycle != NULL,
        .destinations_may_pick_source = net->dest.ops->traits & DEST_MAY_PICK_SOURCE,
        .reply_queue = reply_params_of(cfg) ? (uint32_t)reply_params_of(cfg)->reply_queue : 0,
    };
    return !net->engine->check || net->engine->check(&spec, err);
}
