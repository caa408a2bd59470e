/* Which file a path names (contract in file_identity.h). */
#include "file_identity.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/config_value.h"

enum { MAX_LINKS = 40 }; /* as the kernel's own limit on a chain of symbolic links */

char *file_follow_links(const char *path)
{
    char *p = strdup(path);
    for (int hops = 0; p; hops++) {
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
            return p;
        if (hops == MAX_LINKS) {
            free(p);
            errno = ELOOP;
            return NULL;
        }
        char link[PATH_MAX];
        ssize_t n = readlink(p, link, sizeof link - 1);
        if (n < 0) {
            free(p);
            return NULL;
        }
        link[n] = '\0';
        /* A relative target is relative to the link's directory. */
        const char *slash = strrchr(p, '/');
        size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - p) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (next) {
            memcpy(next, p, dir);
            memcpy(next + dir, link, (size_t)n + 1);
        }
        free(p);
        p = next;
    }
    errno = ENOMEM;
    return NULL;
}

void file_identity_of(const char *path, struct file_identity *id)
{
    *id = (struct file_identity){ 0 };
    struct stat st;
    if (stat(path, &st) == 0) {
        *id = (struct file_identity){ .known = true, .exists = true, .dev = st.st_dev, .ino = st.st_ino };
        return;
    }
    char *target = errno == ENOENT ? file_follow_links(path) : NULL;
    if (!target)
        return;
    char *slash = strrchr(target, '/');
    const char *name = slash ? slash + 1 : target;
    char *dir = slash ? (slash == target ? strdup("/") : strndup(target, (size_t)(slash - target))) : strdup(".");
    if (dir && *name && stat(dir, &st) == 0 && (id->name = strdup(name)))
        *id = (struct file_identity){ .known = true, .dev = st.st_dev, .ino = st.st_ino, .name = id->name };
    free(dir);
    free(target);
}

bool file_identity_same(const struct file_identity *a, const struct file_identity *b)
{
    if (!a->known || !b->known || a->exists != b->exists || a->dev != b->dev || a->ino != b->ino)
        return false;
    return a->exists || strcmp(a->name, b->name) == 0;
}

void file_identity_free(struct file_identity *id)
{
    free(id->name);
    id->name = NULL;
}

static void say_same(const struct named_file *out, const struct named_file *other)
{
    fprintf(stderr, "sim: %s '", out->role);
    cfg_put_escaped(out->path, stderr);
    fprintf(stderr, "': the same file as %s%s '", other->output ? "" : "the input ", other->role);
    cfg_put_escaped(other->path, stderr);
    fputs(other->output ? "'\n" : "' (it would be replaced)\n", stderr);
}

bool files_distinct(const struct named_file *files, size_t n)
{
    struct file_identity *id = calloc(n ? n : 1, sizeof *id);
    if (!id) {
        fputs("sim: out of memory\n", stderr);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        if (files[i].path && files[i].path[0])
            file_identity_of(files[i].path, &id[i]);
    bool distinct = true;
    for (size_t i = 0; i < n && distinct; i++)
        for (size_t j = 0; j < i && distinct; j++)
            if ((files[i].output || files[j].output) && file_identity_same(&id[i], &id[j])) {
                const struct named_file *out = files[i].output ? &files[i] : &files[j];
                say_same(out, out == &files[i] ? &files[j] : &files[i]);
                distinct = false;
            }
    for (size_t i = 0; i < n; i++)
        file_identity_free(&id[i]);
    free(id);
    return distinct;
}
