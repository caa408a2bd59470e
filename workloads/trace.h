/* Trace replay: the messages of workload.trace, a file of `time,source,destination,
 * length` lines (commas or blanks between fields) sorted by time; blank lines and
 * lines starting with # are skipped, and the first other line may be the header
 * `time,source,destination,length`.  trace_load() reads and checks the whole file
 * before the run starts, so a bad trace never leaves a partial run: an unreadable
 * file (named with the config's file and line), a malformed line, a node out of
 * range, a negative time or length, a time before the previous line's, and what
 * sim/core/text_input.h refuses of any text file (a NUL or other control byte, a
 * CR-only line ending, a line over TRACE_MAX_LINE characters, a file over
 * TRACE_MAX_BYTES) gives one error naming the file and the line; so do more than
 * TRACE_MAX_MESSAGES messages.  CRLF endings and a UTF-8 byte order mark are read as
 * a config's are.  A trace read from a FIFO is given up on a held stop signal. */
#ifndef WORKLOADS_TRACE_H
#define WORKLOADS_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../sim/core/config_value.h"

enum { TRACE_NONE = UINT32_MAX };
/* Bounds on what a trace may take: /dev/zero or an endless pipe fails, never fills memory
 * (100 million records are 3.2 GB). */
#define TRACE_MAX_BYTES (1ull << 33) /* 8 GiB */
enum { TRACE_MAX_LINE = 1000, TRACE_MAX_MESSAGES = 100000000 };

struct trace_record {
    double time, length;
    uint32_t src, dst;
    uint32_t next; /* the next record of the same source, TRACE_NONE after its last */
};

/* Records chain per source so that the network replays each source as the process
 * it was: a source's next message is scheduled when its previous one is created,
 * and first messages in node order, as net_create() and on_arrival() do.  Events are
 * then inserted in the same order as in the run that wrote the trace, so even
 * simultaneous events (integer arrival times, fixed lengths) replay in the same order. */
struct trace {
    struct trace_record *records;
    size_t count;
    uint32_t *first; /* per node: its first record, TRACE_NONE if it has none */
    uint32_t nodes;
};

/* The file cfg replays (workload.trace, the trace arrivals' own key), into buf: "" when
 * none.  A relative path set in a config file is relative to that file's folder (so a
 * config and its trace move together); one set with -s or --sweep, to the current
 * directory.  Returns buf. */
const char *trace_path(const struct config *cfg, char *buf, size_t size);

/* Reads cfg's trace (trace_path).  A file that cannot be opened blames workload.trace
 * where it was set (the config file and line); a bad line names the trace and its line. */
bool trace_load(struct trace *tr, const struct config *cfg, uint32_t nodes, struct cfg_error *err);
/* The same for the file at path (tests, the fuzzer): its errors name that file only. */
bool trace_load_file(struct trace *tr, const char *path, uint32_t nodes, struct cfg_error *err);
void trace_free(struct trace *tr);
/* Blames workload.trace where it was set: the file at path (cfg's trace, trace_path())
 * cannot be opened, for the reason `why`. */
void trace_blame_unreadable(const struct config *cfg, const char *path, const char *why, struct cfg_error *err);

/* Writes one record so that trace_load() reads back exactly the same doubles. */
void trace_write_record(FILE *out, double time, uint32_t src, uint32_t dst, double length);

#endif
