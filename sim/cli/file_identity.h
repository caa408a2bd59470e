/* Which file a path names, so that no output replaces another output or an input.
 *
 * Promise: file_identity_of() resolves a path as the system would open it: an existing
 * file (symbolic links followed) is its device and inode; a path that does not exist yet
 * is where it would be created, after following a chain of symbolic links (a dangling
 * link names its target), as its directory's device and inode and its last name.  So
 * `d/x`, `d/./x`, `d/sub/../x`, a hard link and a symbolic link to `d/x` are one file,
 * whether x exists or not.  files_distinct() compares every output with every other
 * output and every input of a command, and refuses the first pair that is one file with
 * one line on stderr (`sim: --channels 'd/l': the same file as -o 'd/y.csv'`).  A path
 * whose place cannot be found (a directory that does not exist) is compared with none:
 * opening it fails on its own, with its own message.
 * Needs: POSIX stat, lstat and readlink.
 */
#ifndef SIM_CLI_FILE_IDENTITY_H
#define SIM_CLI_FILE_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct file_identity {
    bool known;   /* false: the place could not be found; the same as nothing */
    bool exists;
    dev_t dev;    /* the file's, or its directory's when it does not exist */
    ino_t ino;
    char *name;   /* the last name, when it does not exist (malloc'd) */
};

/* The path a chain of symbolic links ends at (malloc'd; the path itself when it is no
 * link); NULL with errno set on a loop (ELOOP, 40 links, as the kernel) or no memory. */
char *file_follow_links(const char *path);

void file_identity_of(const char *path, struct file_identity *id);
bool file_identity_same(const struct file_identity *a, const struct file_identity *b);
void file_identity_free(struct file_identity *id);

struct named_file {
    const char *role; /* "-o", "--channels", "the configuration", "workload.trace" */
    const char *path; /* NULL or "": none */
    bool output;      /* written (false: read) */
};

/* False (one line said) when an output is the same file as another output or an input. */
bool files_distinct(const struct named_file *files, size_t n);

#endif
