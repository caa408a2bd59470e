/* Netrace v1 files: the streaming reader and the writer (see netrace_file.h). */
#include "netrace_file.h"

#include <bzlib.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Bytes per packet type (the format's table; -1: not a packet type). */
static const signed char type_bytes[NETRACE_TYPES] = {
    -1, 8, 72, 72, 72, 8, 72, -1, -1, -1, -1, -1, -1, 8, 8, 8, 72, -1, -1, -1, -1, -1, -1, -1, -1, 8, -1, 8, 8, 8, 72,
};

int netrace_type_bytes(unsigned type)
{
    return type < NETRACE_TYPES ? type_bytes[type] : -1;
}

struct netrace_file {
    char path[CFG_TEXT_MAX * 2];
    FILE *fp;
    BZFILE *bz;
    bool stream_end; /* the last bzip2 stream is over and the file has no more */
    int bz_error;    /* libbz2's code of the last failed read */
    char why[160];   /* why a read came short (short_read) */
    uint32_t terminals;
    struct netrace_header header;
    uint64_t count, last_cycle;
};

void netrace_blame(struct cfg_error *err, const char *path, uint64_t number, uint32_t id, const char *message)
{
    snprintf(err->file, sizeof err->file, "%.*s", (int)sizeof err->file - 1, path);
    err->line = 0;
    snprintf(err->key, sizeof err->key, "workload.trace");
    if (number == 0)
        snprintf(err->message, sizeof err->message, "%.400s", message);
    else if (id == NETRACE_NO_ID)
        snprintf(err->message, sizeof err->message, "packet %llu: %.400s", (unsigned long long)number, message);
    else
        snprintf(err->message, sizeof err->message, "packet %llu (id %u): %.400s", (unsigned long long)number, id,
                 message);
}

/* Reads up to n bytes across bzip2 streams; the bytes read, or -1 on corrupt data. */
static long get(struct netrace_file *f, unsigned char *out, size_t n)
{
    size_t got = 0;
    while (got < n && !f->stream_end) {
        int e;
        int r = BZ2_bzRead(&e, f->bz, out + got, (int)(n - got));
        if (e != BZ_OK && e != BZ_STREAM_END) {
            f->bz_error = e;
            return -1;
        }
        got += (size_t)(r > 0 ? r : 0);
        if (e == BZ_STREAM_END) { /* another stream may follow */
            void *unused;
            int n_unused;
            char keep[BZ_MAX_UNUSED];
            BZ2_bzReadGetUnused(&e, f->bz, &unused, &n_unused);
            memcpy(keep, unused, (size_t)n_unused);
            BZ2_bzReadClose(&e, f->bz);
            f->bz = NULL;
            if (n_unused == 0) {
                int c = fgetc(f->fp);
                if (c == EOF) {
                    f->stream_end = true;
                    break;
                }
                ungetc(c, f->fp);
            }
            f->bz = BZ2_bzReadOpen(&e, f->fp, 0, 0, keep, n_unused);
            if (e != BZ_OK) {
                f->bz_error = e;
                return -1;
            }
        }
    }
    return (long)got;
}

static uint32_t u32(const unsigned char *b) { return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }
static uint64_t u64(const unsigned char *b) { return u32(b) | (uint64_t)u32(b + 4) << 32; }

/* Why a read came short (got: what get() returned), naming what was being read. */
static const char *short_read(struct netrace_file *f, long got, const char *what)
{
    char *m = f->why;
    if (got >= 0)
        snprintf(m, sizeof f->why, "truncated: the file ends inside %s", what);
    else if (f->bz_error == BZ_DATA_ERROR_MAGIC)
        snprintf(m, sizeof f->why, "not bzip2 data (Netrace traces are bzip2-compressed), at %s", what);
    else if (f->bz_error == BZ_UNEXPECTED_EOF)
        snprintf(m, sizeof f->why, "truncated: the bzip2 data ends inside %s", what);
    else
        snprintf(m, sizeof f->why, "corrupt bzip2 data in %s", what);
    return m;
}

/* Reads exactly n bytes; false with *err naming what was being read. */
static bool get_all(struct netrace_file *f, unsigned char *out, size_t n, const char *what, uint64_t number, uint32_t id,
                    struct cfg_error *err)
{
    long got = get(f, out, n);
    if (got == (long)n)
        return true;
    netrace_blame(err, f->path, number, id, short_read(f, got, what));
    return false;
}

static bool read_header(struct netrace_file *f, struct cfg_error *err)
{
    unsigned char b[NETRACE_HEADER_BYTES];
    if (!get_all(f, b, sizeof b, "the header", 0, 0, err))
        return false;
    struct netrace_header *h = &f->header;
    h->magic = u32(b);
    uint32_t v = u32(b + 4);
    memcpy(&h->version, &v, sizeof h->version);
    memcpy(h->benchmark, b + 8, NETRACE_NAME_BYTES);
    h->benchmark[NETRACE_NAME_BYTES] = '\0';
    h->nodes = b[38];
    h->cycles = u64(b + 40);
    h->packets = u64(b + 48);
    h->notes_length = u32(b + 56);
    h->regions = u32(b + 60);
    char m[200];
    if (h->magic != NETRACE_MAGIC) {
        snprintf(m, sizeof m, "not a Netrace trace: magic 0x%08X (Netrace's is 0x%08X)", (unsigned)h->magic,
                 (unsigned)NETRACE_MAGIC);
        netrace_blame(err, f->path, 0, 0, m);
        return false;
    }
    if (h->version != 1.0f) {
        snprintf(m, sizeof m, "Netrace version %g: only version 1.0 is read", (double)h->version);
        netrace_blame(err, f->path, 0, 0, m);
        return false;
    }
    if (h->notes_length > NETRACE_MAX_NOTES || h->regions > NETRACE_MAX_REGIONS) {
        snprintf(m, sizeof m, "header: %u bytes of notes and %u regions (at most %d and %d): a corrupt header",
                 (unsigned)h->notes_length, (unsigned)h->regions, NETRACE_MAX_NOTES, NETRACE_MAX_REGIONS);
        netrace_blame(err, f->path, 0, 0, m);
        return false;
    }
    if (h->nodes > f->terminals) {
        snprintf(m, sizeof m, "the trace has %u nodes; the network has %u terminals", (unsigned)h->nodes,
                 (unsigned)f->terminals);
        netrace_blame(err, f->path, 0, 0, m);
        return false;
    }
    unsigned char skip[4096];
    for (uint64_t left = h->notes_length + 24ull * h->regions; left > 0;) { /* notes, then 24-byte region heads */
        size_t n = left < sizeof skip ? (size_t)left : sizeof skip;
        if (!get_all(f, skip, n, "the header's notes or region heads", 0, 0, err))
            return false;
        left -= n;
    }
    return true;
}

struct netrace_file *netrace_open(const char *path, uint32_t terminals, struct cfg_error *err)
{
    struct netrace_file *f = calloc(1, sizeof *f);
    if (!f) {
        netrace_blame(err, path, 0, 0, "out of memory");
        return NULL;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    f->terminals = terminals;
    f->fp = fopen(path, "rb");
    if (!f->fp) {
        char m[160];
        snprintf(m, sizeof m, "cannot read the trace: %s", strerror(errno));
        netrace_blame(err, path, 0, 0, m);
        free(f);
        return NULL;
    }
    int e;
    f->bz = BZ2_bzReadOpen(&e, f->fp, 0, 0, NULL, 0);
    if (e != BZ_OK || !read_header(f, err)) {
        if (e != BZ_OK)
            netrace_blame(err, path, 0, 0, "cannot start bzip2 decompression");
        netrace_close(f);
        return NULL;
    }
    return f;
}

const struct netrace_header *netrace_header(const struct netrace_file *f) { return &f->header; }
uint64_t netrace_count(const struct netrace_file *f) { return f->count; }
const char *netrace_path(const struct netrace_file *f) { return f->path; }

enum netrace_status netrace_next(struct netrace_file *f, struct netrace_packet *p, struct cfg_error *err)
{
    unsigned char b[NETRACE_PACKET_BYTES];
    uint64_t number = f->count + 1;
    long got = get(f, b, sizeof b);
    char m[200];
    if (got == 0) {
        if (f->count == f->header.packets)
            return NETRACE_END;
        snprintf(m, sizeof m, "the file ends after %llu packets; its header says %llu", (unsigned long long)f->count,
                 (unsigned long long)f->header.packets);
        netrace_blame(err, f->path, 0, 0, m);
        return NETRACE_ERROR;
    }
    if (got != (long)sizeof b) {
        netrace_blame(err, f->path, number, NETRACE_NO_ID, short_read(f, got, "it"));
        return NETRACE_ERROR;
    }
    p->cycle = u64(b);
    p->id = u32(b + 8);
    p->addr = u32(b + 12);
    p->type = b[16];
    p->src = b[17];
    p->dst = b[18];
    p->node_types = b[19];
    p->num_deps = b[20];
    unsigned char d[4 * 255];
    if (!get_all(f, d, 4u * p->num_deps, "its dependency ids", number, p->id, err))
        return NETRACE_ERROR;
    for (unsigned i = 0; i < p->num_deps; i++)
        p->deps[i] = u32(d + 4 * i);
    const char *bad = NULL;
    if (netrace_type_bytes(p->type) < 0)
        snprintf(m, sizeof m, "type %u is not a Netrace packet type", p->type), bad = m;
    else if (p->src >= f->terminals || p->dst >= f->terminals)
        snprintf(m, sizeof m, "%s %u is not a terminal (the network has %u)", p->src >= f->terminals ? "source"
                 : "destination", p->src >= f->terminals ? p->src : p->dst, (unsigned)f->terminals), bad = m;
    else if (f->count > 0 && p->cycle < f->last_cycle)
        snprintf(m, sizeof m, "cycle %llu goes backwards (the previous packet's is %llu)",
                 (unsigned long long)p->cycle, (unsigned long long)f->last_cycle), bad = m;
    else if (f->count == f->header.packets)
        snprintf(m, sizeof m, "more packets than the header's %llu", (unsigned long long)f->header.packets), bad = m;
    for (unsigned i = 0; !bad && i < p->num_deps; i++)
        if (p->deps[i] == p->id)
            bad = "it names itself as its dependent";
    if (bad) {
        netrace_blame(err, f->path, number, p->id, bad);
        return NETRACE_ERROR;
    }
    f->count = number;
    f->last_cycle = p->cycle;
    return NETRACE_PACKET;
}

void netrace_close(struct netrace_file *f)
{
    if (!f)
        return;
    int e;
    if (f->bz)
        BZ2_bzReadClose(&e, f->bz);
    if (f->fp)
        fclose(f->fp);
    free(f);
}

/* --- writing --- */

struct netrace_writer {
    FILE *fp;
    BZFILE *bz;
    bool ok;
};

bool netrace_write_raw(struct netrace_writer *w, const void *bytes, size_t n)
{
    int e;
    if (n > 0 && w->ok) {
        BZ2_bzWrite(&e, w->bz, (void *)bytes, (int)n);
        w->ok = e == BZ_OK;
    }
    return w->ok;
}

static void put32(unsigned char *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> 8 * i);
}

static void put64(unsigned char *b, uint64_t v)
{
    put32(b, (uint32_t)v);
    put32(b + 4, (uint32_t)(v >> 32));
}

struct netrace_writer *netrace_writer_open(const char *path, const struct netrace_header *h, const char *notes)
{
    struct netrace_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->fp = fopen(path, "wb"))) {
        free(w);
        return NULL;
    }
    int e;
    w->bz = BZ2_bzWriteOpen(&e, w->fp, 9, 0, 0);
    w->ok = e == BZ_OK;
    unsigned char b[NETRACE_HEADER_BYTES] = { 0 };
    uint32_t notes_length = notes ? (uint32_t)strlen(notes) + 1 : 0, version;
    memcpy(&version, &h->version, sizeof version);
    put32(b, h->magic);
    put32(b + 4, version);
    memcpy(b + 8, h->benchmark, strnlen(h->benchmark, NETRACE_NAME_BYTES));
    b[38] = h->nodes;
    put64(b + 40, h->cycles);
    put64(b + 48, h->packets);
    put32(b + 56, notes_length);
    put32(b + 60, 0);
    netrace_write_raw(w, b, sizeof b);
    netrace_write_raw(w, notes, notes_length);
    return w;
}

bool netrace_write_packet(struct netrace_writer *w, const struct netrace_packet *p)
{
    unsigned char b[NETRACE_PACKET_BYTES + 4 * 255];
    put64(b, p->cycle);
    put32(b + 8, p->id);
    put32(b + 12, p->addr);
    b[16] = p->type;
    b[17] = p->src;
    b[18] = p->dst;
    b[19] = p->node_types;
    b[20] = p->num_deps;
    for (unsigned i = 0; i < p->num_deps; i++)
        put32(b + NETRACE_PACKET_BYTES + 4 * i, p->deps[i]);
    return netrace_write_raw(w, b, NETRACE_PACKET_BYTES + 4u * p->num_deps);
}

bool netrace_writer_close(struct netrace_writer *w)
{
    int e;
    BZ2_bzWriteClose(&e, w->bz, !w->ok, NULL, NULL);
    bool ok = w->ok && e == BZ_OK;
    ok = fclose(w->fp) == 0 && ok;
    free(w);
    return ok;
}
