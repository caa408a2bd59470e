/* output: the files `-o` and `--write-trace` write, and stdout's final check.
 *
 * Promises: a regular file (or a new one) is written through a temporary file in the
 * same directory, synced and renamed into place, so it holds either the whole output or
 * its old content; the new file gets an existing file's mode, else 0666 & ~umask.  A
 * path that is not a regular file (a device, a FIFO) is written in place and never
 * replaced; a symbolic link is followed to its target, which is written as above, and the
 * link is kept.  output_open checks writability before anything runs, so a bad path is
 * refused as input (exit 2) without a run.  Every message is one line on stderr, with
 * control characters of the path escaped.
 * Needs: nothing but POSIX; the caller writes the file itself at output_write_path. */
#ifndef SIM_CLI_OUTPUT_H
#define SIM_CLI_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

struct output_file {
    const char *path; /* as given on the command line (for messages) */
    const char *what; /* "output" or "trace": named in messages */
    char *target;     /* the file finally written: path, or a symbolic link's target */
    char *tmp;        /* NULL: written in place; else the temporary renamed onto target */
};

/* Resolves `path`, checks it can be written and creates the temporary file (empty, with
 * its final mode).  False: one line `PATH: cannot write the WHAT: reason` printed, nothing
 * left behind. */
bool output_open(struct output_file *o, const char *path, const char *what);
/* The file the writer opens (with fopen "w"): the temporary file or the target. */
const char *output_write_path(const struct output_file *o);
/* Opens output_write_path for writing; NULL (message printed) on failure. */
FILE *output_stream(struct output_file *o);
/* Closes a stream from output_stream (if f is not NULL), syncs the temporary file and
 * renames it into place; `ok` false (the writing failed) or any failure here: the
 * temporary file is removed, a message printed, false returned.  Frees o either way. */
bool output_commit(struct output_file *o, FILE *f, bool ok);
/* Removes the temporary file (a run that produced nothing) and frees o. */
void output_discard(struct output_file *o);

/* Flushes and closes stdout; false (after one line `sim: cannot write the output:
 * reason`) if any write to it failed. */
bool output_close_stdout(void);

#endif
