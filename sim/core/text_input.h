/* Reading an external text file (a configuration, a trace) line by line, bounded and
 * interruptible.
 *
 * Promise: text_input_next() hands over one line at a time, without its line ending,
 * after checking it: a file larger than rules->max_bytes, a line longer than
 * rules->max_line, a NUL or other control byte (any byte below 0x20 but the tab, and
 * 0x7f), and a carriage return that does not end a CRLF line (CR-only files) are each
 * refused with one error naming the file, the line and rules->key ("NUL byte: a trace
 * is text").  CRLF lines read as LF lines; a UTF-8 byte order mark opening the file is
 * skipped.  The file is opened without blocking and waited on with poll(), a tenth of
 * a second at a time, so that a FIFO whose writer is late or stays open never holds
 * sim: a held stop signal (stop_signals.h) ends the reading with TEXT_INTERRUPTED.
 * Memory: one line's buffer and a 64 KiB read buffer, whatever the file's size.
 * text_input_open_memory() reads a text already in memory by the same rules (a sweep
 * reads its configuration once and hands the same text to every point).
 * Needs: POSIX I/O, stop_signals.h, config_value.h (struct cfg_error).
 */
#ifndef SIM_CORE_TEXT_INPUT_H
#define SIM_CORE_TEXT_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "config_value.h"

struct text_rules {
    const char *what; /* "configuration", "trace": named in messages */
    const char *key;  /* the error's key: "" or "workload.trace" */
    const char *unreadable; /* "cannot read", "cannot read the trace": before an errno's text */
    unsigned long long max_bytes;
    size_t max_line;  /* characters, line ending excluded */
};

enum text_status { TEXT_LINE, TEXT_END, TEXT_REFUSED, TEXT_INTERRUPTED };

struct text_input {
    const struct text_rules *rules;
    const char *path;        /* for messages */
    int fd;                  /* -1: reading from memory */
    const char *memory;      /* the text when fd is -1 */
    size_t memory_len;
    char *buffer;            /* the file's read buffer (owned) */
    const char *chunk;       /* buffer or memory: chunk[chunk_at, chunk_len) not yet taken */
    size_t chunk_at, chunk_len;
    char *line;              /* the current line (max_line + 1 bytes) */
    unsigned long long bytes;
    int number;              /* lines handed over so far */
    bool at_end;
};

/* Opens path; false with *err ("UNREADABLE: reason") when it cannot be read. */
bool text_input_open(struct text_input *in, const char *path, const struct text_rules *rules,
                     struct cfg_error *err);
/* Reads text[0, len) as if it were the file `path`; false only when out of memory. */
bool text_input_open_memory(struct text_input *in, const char *path, const char *text, size_t len,
                            const struct text_rules *rules, struct cfg_error *err);
/* The next line (NUL-terminated, owned by in, valid until the next call) and its
 * length; TEXT_END at the end of the file; TEXT_REFUSED or TEXT_INTERRUPTED with *err. */
enum text_status text_input_next(struct text_input *in, char **line, size_t *len, struct cfg_error *err);
/* Lines handed over so far: the number of the current line. */
int text_input_line_number(const struct text_input *in);
void text_input_close(struct text_input *in);

/* The whole checked text of path (its lines joined by '\n', a final '\n' after the
 * last), malloc'd, for a reader that must hand the same text on (sweeps): TEXT_END
 * when it was read whole, else TEXT_REFUSED or TEXT_INTERRUPTED with *err. */
enum text_status text_input_read_all(const char *path, const struct text_rules *rules, char **text, size_t *len,
                                     struct cfg_error *err);

#endif
