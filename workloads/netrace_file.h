/* Netrace v1 trace files: reading (and, for tests and tools, writing) the binary,
 * bzip2-compressed format of Hestness, Grot and Keckler, "Netrace: dependency-driven
 * trace-based network-on-chip simulation" (NoCArc 2010), as the format's own reader
 * (netrace.h, netrace.c of the Netrace distribution) lays it out; docs/manual.md gives
 * the layout byte by byte.
 *
 * Promise: netrace_open() reads and checks the header (magic, version 1.0, notes and
 * region headers), netrace_next() one packet at a time, so memory never depends on
 * the trace's length.  Every refusal is one cfg_error naming the file (line 0, key
 * workload.trace) and, past the header, the packet by its number in the file (from 1)
 * and its id: a bad magic or version, a truncated file (the file ends inside the
 * header or a packet, or the bzip2 data is cut or corrupt), a packet type outside the
 * format's table, a source or destination that is not a terminal (0 .. terminals - 1),
 * a cycle before the previous packet's, a packet naming itself as its dependent, and
 * more or fewer packets than the header says.  bzip2 files of several streams (as
 * parallel compressors write) are read as one.  Integers are little-endian, as the
 * format's reader requires.
 * Needs: libbz2, the error type of sim/core/config_value.h.
 */
#ifndef WORKLOADS_NETRACE_FILE_H
#define WORKLOADS_NETRACE_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../sim/core/config_value.h"

#define NETRACE_MAGIC UINT32_C(0x484A5455)
enum {
    NETRACE_HEADER_BYTES = 72, /* the packed header, as the format's reader reads it */
    NETRACE_PACKET_BYTES = 21, /* a packet before its dependency ids */
    NETRACE_NAME_BYTES = 30,
    NETRACE_MAX_NOTES = 1 << 20,
    NETRACE_MAX_REGIONS = 100, /* the format's reader refuses more */
    NETRACE_TYPES = 31,
};

struct netrace_header {
    uint32_t magic;
    float version;
    char benchmark[NETRACE_NAME_BYTES + 1];
    uint8_t nodes;
    uint64_t cycles, packets;
    uint32_t notes_length, regions;
};

/* One packet.  deps: the ids of the packets that wait for this one (Netrace's
 * dependencies point forward: a packet may be injected once every packet naming it
 * has been delivered). */
struct netrace_packet {
    uint64_t cycle;
    uint32_t id, addr;
    uint8_t type, src, dst, node_types, num_deps;
    uint32_t deps[255];
};

struct netrace_file;

/* Opens path and reads its header; terminals bounds the nodes packets may name.
 * NULL with *err on refusal (or when out of memory). */
struct netrace_file *netrace_open(const char *path, uint32_t terminals, struct cfg_error *err);
const struct netrace_header *netrace_header(const struct netrace_file *f);
enum netrace_status { NETRACE_PACKET, NETRACE_END, NETRACE_ERROR };
/* The next packet into *p; NETRACE_END after the last (the header's count checked). */
enum netrace_status netrace_next(struct netrace_file *f, struct netrace_packet *p, struct cfg_error *err);
/* Packets read so far (the last one's number). */
uint64_t netrace_count(const struct netrace_file *f);
const char *netrace_path(const struct netrace_file *f);
void netrace_close(struct netrace_file *f);

/* The size in bytes of a packet of that type (8 or 72), -1 for a type the format does
 * not define. */
int netrace_type_bytes(unsigned type);

/* Sets *err to "path: workload.trace: packet N (id I): message" (the form of every
 * refusal); "packet N: message" when id is NETRACE_NO_ID (not yet read), "message"
 * alone when number is 0 (the header, the file). */
#define NETRACE_NO_ID UINT32_MAX
void netrace_blame(struct cfg_error *err, const char *path, uint64_t number, uint32_t id, const char *message);

/* Writing, for tests and generators: a header (its notes and no region) and packets,
 * bzip2-compressed.  NULL / false when the file cannot be written. */
struct netrace_writer;
struct netrace_writer *netrace_writer_open(const char *path, const struct netrace_header *h, const char *notes);
bool netrace_write_packet(struct netrace_writer *w, const struct netrace_packet *p);
/* Raw bytes (a test's cut packet). */
bool netrace_write_raw(struct netrace_writer *w, const void *bytes, size_t n);
bool netrace_writer_close(struct netrace_writer *w);

#endif
