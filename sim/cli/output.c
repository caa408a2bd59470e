#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/config_value.h"
#include "file_identity.h"
#include "../core/stop_signals.h"

static void fail(const struct output_file *o, int err)
{
    if (err == EPIPE && stop_signals_pipe_closed())
        return; /* a FIFO whose reader has gone: sim ends by the held SIGPIPE, quietly */
    cfg_put_escaped(o->path, stderr);
    fprintf(stderr, ": cannot write the %s: %s\n", o->what, strerror(err));
}

static char *copy(const char *s)
{
    char *c = malloc(strlen(s) + 1);
    return c ? strcpy(c, s) : NULL;
}

/* The mode a new file gets from open(..., 0666).  umask() can only be read by setting
 * it, so it is set back at once (sim has a single thread here). */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

bool output_open(struct output_file *o, const char *path, const char *what)
{
    *o = (struct output_file){ path, what, NULL, NULL };
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (!exists && errno != ENOENT) {
        fail(o, errno);
        return false;
    }
    /* A device or FIFO is opened by the path given (/dev/stderr is a link whose target
     * names no file); only a regular file's place is needed, for its temporary file. */
    o->target = exists && !S_ISREG(st.st_mode) ? copy(path) : file_follow_links(path);
    if (!o->target) {
        fail(o, errno);
        return false;
    }
    if (exists && !S_ISREG(st.st_mode)) { /* a device or FIFO: written in place, never replaced */
        if (S_ISDIR(st.st_mode) || access(o->target, W_OK) != 0) {
            fail(o, S_ISDIR(st.st_mode) ? EISDIR : errno);
            goto fail;
        }
        return true;
    }
    /* An existing file that may not be written is refused, as writing it in place would
     * be, although the directory would let it be replaced. */
    if (exists && access(o->target, W_OK) != 0) {
        fail(o, errno);
        goto fail;
    }
    size_t len = strlen(o->target) + sizeof ".tmp.XXXXXX";
    if (!(o->tmp = malloc(len))) {
        fail(o, ENOMEM);
        goto fail;
    }
    snprintf(o->tmp, len, "%s.tmp.XXXXXX", o->target);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        fail(o, errno);
        free(o->tmp);
        o->tmp = NULL;
        goto fail;
    }
    /* mkstemp makes 0600: give the file the mode it keeps once renamed. */
    int ok = fchmod(fd, exists ? st.st_mode & 07777 : new_file_mode());
    int err = errno;
    close(fd);
    if (ok != 0) {
        fail(o, err);
        output_discard(o);
        return false;
    }
    return true;
fail:
    free(o->target);
    o->target = NULL;
    return false;
}

const char *output_write_path(const struct output_file *o) { return o->tmp ? o->tmp : o->target; }

FILE *output_stream(struct output_file *o)
{
    FILE *f = fopen(output_write_path(o), "w");
    if (!f)
        fail(o, errno);
    return f;
}

bool output_commit(struct output_file *o, FILE *f, bool ok)
{
    int err = ok ? 0 : errno;
    if (f) {
        if (ok && (fflush(f) != 0 || ferror(f)))
            ok = false, err = errno ? errno : EIO;
        /* A device or FIFO has nothing to sync (and says EINVAL). */
        if (ok && o->tmp && fsync(fileno(f)) != 0)
            ok = false, err = errno;
        if (fclose(f) != 0 && ok)
            ok = false, err = errno;
    } else if (ok && o->tmp) { /* written by someone else (the trace): sync it here */
        int fd = open(o->tmp, O_WRONLY);
        if (fd < 0 || fsync(fd) != 0)
            ok = false, err = errno;
        if (fd >= 0)
            close(fd);
    }
    if (ok && o->tmp && rename(o->tmp, o->target) != 0)
        ok = false, err = errno;
    if (!ok)
        fail(o, err ? err : EIO);
    output_discard(o);
    return ok;
}

void output_discard(struct output_file *o)
{
    if (o->tmp)
        unlink(o->tmp);
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
}

bool output_close_stdout(void)
{
    /* A write error may have happened at an earlier flush: errno, set by the failed
     * write and by nothing since (the writers only format), tells why. */
    bool ok = !ferror(stdout);
    int err = ok ? 0 : errno;
    if (fflush(stdout) != 0 && ok)
        ok = false, err = errno;
    if (fclose(stdout) != 0 && ok)
        ok = false, err = errno;
    if (!ok && !(err == EPIPE && stop_signals_pipe_closed())) /* a closed pipe: sim ends by SIGPIPE */
        fprintf(stderr, "sim: cannot write the output: %s\n", strerror(err ? err : EIO));
    return ok;
}
