/* Internal to the loader: reading a configuration file.
 *
 * Promise: cfg_read_file() reads the file through inih, setting each key with cfg_set(),
 * and stops at the first error, reading nothing after it.  Besides inih's own syntax it
 * refuses, each on the line at fault: a line over 198 characters, a NUL or other control
 * byte (the tab aside), a carriage return that does not end a CRLF line (CR-only
 * files), an indented line, text after the `]` of a section header, an unknown section
 * that has no keys, a file larger than CFG_FILE_MAX_BYTES (so that /dev/zero or a pipe
 * that never ends fails).  CRLF lines are read as LF lines, and a UTF-8 byte order mark
 * is skipped.  The file is read by sim/core/text_input.h: a FIFO that never ends a line
 * is given up on a held stop signal ("interrupted while reading the configuration").
 * cfg_read_text() reads a text already read (cfg_read_whole_file(): a sweep checks one
 * text and hands the same to every point) by the same rules, path naming it.
 */
#ifndef SIM_CONFIG_INI_FILE_H
#define SIM_CONFIG_INI_FILE_H

#include <stdbool.h>

#include "config.h"

enum { CFG_FILE_MAX_BYTES = 1 << 20 };

bool cfg_read_file(struct config *cfg, const char *path, struct cfg_error *err);
bool cfg_read_text(struct config *cfg, const char *path, const char *text, size_t len, struct cfg_error *err);

/* Fills *err (config.c); the message is cut to fit and kept on one line. */
void cfg_error_set(struct cfg_error *err, const char *file, int line, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
