/* Trace replay: the messages of workload.trace, a file of `time,source,destination,
 * length` lines (commas or blanks between fields) sorted by time; blank lines and
 * lines starting with # are skipped, and the first other line may be the header
 * `time,source,destination,length`.  trace_load() reads and checks the whole file
 * before the run starts, so a bad trace never leaves a partial run: an unreadable
 * file, a malformed line, a node out of range, a negative time or length, or a time
 * before the previous line's gives one error naming the file and the line. */
#ifndef WORKLOADS_TRACE_H
#define WORKLOADS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "../sim/config.h"

struct trace_record {
    double time, length;
    uint32_t src, dst;
};

struct trace {
    struct trace_record *records;
    size_t count;
};

bool trace_load(struct trace *tr, const char *path, uint32_t nodes, struct cfg_error *err);
void trace_free(struct trace *tr);

/* Writes one record so that trace_load() reads back exactly the same doubles. */
void trace_write_record(FILE *out, double time, uint32_t src, uint32_t dst, double length);

#endif
