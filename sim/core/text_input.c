/* Bounded, interruptible reading of an external text file (contract in text_input.h). */
#include "text_input.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stop_signals.h"

enum { CHUNK = 1 << 16, WAIT_MS = 100 };

static enum text_status refuse(const struct text_input *in, int line, struct cfg_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static enum text_status refuse(const struct text_input *in, int line, struct cfg_error *err, const char *fmt, ...)
{
    snprintf(err->file, sizeof err->file, "%s", in->path);
    err->line = line;
    snprintf(err->key, sizeof err->key, "%s", in->rules->key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return TEXT_REFUSED;
}

static enum text_status interrupted(const struct text_input *in, struct cfg_error *err)
{
    refuse(in, in->number, err, "interrupted while reading the %s", in->rules->what);
    return TEXT_INTERRUPTED;
}

static bool start(struct text_input *in, const char *path, const struct text_rules *rules)
{
    *in = (struct text_input){ .rules = rules, .path = path, .fd = -1 };
    in->line = malloc(rules->max_line + 1);
    return in->line != NULL;
}

bool text_input_open(struct text_input *in, const char *path, const struct text_rules *rules, struct cfg_error *err)
{
    if (!start(in, path, rules) || !(in->buffer = malloc(CHUNK))) {
        refuse(in, 0, err, "%s: %s", rules->unreadable, strerror(ENOMEM));
        text_input_close(in);
        return false;
    }
    /* Without O_NONBLOCK, opening a FIFO waits for its writer in the kernel, where no
     * held signal can reach it. */
    in->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    int why = in->fd < 0 ? errno : fstat(in->fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (why) {
        refuse(in, 0, err, "%s: %s", rules->unreadable, strerror(why));
        text_input_close(in);
        return false;
    }
    return true;
}

bool text_input_open_memory(struct text_input *in, const char *path, const char *text, size_t len,
                            const struct text_rules *rules, struct cfg_error *err)
{
    if (!start(in, path, rules)) {
        refuse(in, 0, err, "%s: %s", rules->unreadable, strerror(ENOMEM));
        return false;
    }
    in->memory = text;
    in->memory_len = len;
    return true;
}

/* Refills the read buffer: false at the end of the file (or on TEXT_REFUSED or
 * TEXT_INTERRUPTED in *status).  poll() first, so that a FIFO with no data (or no
 * writer yet) is waited on a tenth of a second at a time, looking for a held signal. */
static bool refill(struct text_input *in, enum text_status *status, struct cfg_error *err)
{
    if (in->at_end)
        return false;
    if (in->fd < 0) { /* from memory: the whole text is one chunk */
        in->chunk = in->memory;
        in->chunk_at = 0;
        in->chunk_len = in->memory_len;
        in->at_end = true;
        in->memory = NULL;
        return in->chunk_len > 0;
    }
    for (;;) {
        if (stop_signal_held()) {
            *status = interrupted(in, err);
            return false;
        }
        struct pollfd ready = { .fd = in->fd, .events = POLLIN };
        int got = poll(&ready, 1, WAIT_MS);
        if (got < 0 && errno != EINTR) {
            *status = refuse(in, in->number + 1, err, "%s: %s", in->rules->unreadable, strerror(errno));
            return false;
        }
        if (got <= 0)
            continue;
        ssize_t n = read(in->fd, in->buffer, CHUNK);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            continue;
        if (n < 0) {
            *status = refuse(in, in->number + 1, err, "%s: %s", in->rules->unreadable, strerror(errno));
            return false;
        }
        in->chunk = in->buffer;
        in->chunk_at = 0;
        in->chunk_len = (size_t)n;
        in->at_end = n == 0;
        return n > 0;
    }
}

/* The next byte, or EOF; *status set when reading stopped short. */
static int next_byte(struct text_input *in, enum text_status *status, struct cfg_error *err)
{
    if (in->chunk_at == in->chunk_len && !refill(in, status, err))
        return EOF;
    return (unsigned char)in->chunk[in->chunk_at++];
}

enum text_status text_input_next(struct text_input *in, char **line, size_t *len, struct cfg_error *err)
{
    const struct text_rules *rules = in->rules;
    int number = in->number + 1;
    size_t n = 0;
    bool ended = false; /* by a line feed */
    for (;;) {
        enum text_status status = TEXT_LINE;
        int c = next_byte(in, &status, err);
        if (status != TEXT_LINE)
            return status;
        if (c == EOF)
            break;
        if (++in->bytes > rules->max_bytes)
            return refuse(in, number, err, "file larger than %llu bytes: not a %s", rules->max_bytes, rules->what);
        if (c == '\r') { /* CRLF reads as LF; a lone CR (old Mac endings) would hide lines */
            c = next_byte(in, &status, err);
            if (status != TEXT_LINE)
                return status;
            if (c != '\n')
                return refuse(in, number, err,
                              "carriage return not followed by a line feed: use LF or CRLF line endings");
            in->bytes++;
        }
        if (c == '\n') {
            ended = true;
            break;
        }
        if (c == '\0')
            return refuse(in, number, err, "NUL byte: a %s is text", rules->what);
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return refuse(in, number, err, "control character \\x%02x: a %s is text", (unsigned)c, rules->what);
        if (n == rules->max_line)
            return refuse(in, number, err, "line longer than %zu characters", rules->max_line);
        in->line[n++] = (char)c;
    }
    if (n == 0 && !ended)
        return TEXT_END;
    in->line[n] = '\0';
    in->number = number;
    /* A UTF-8 byte order mark opening the file is no part of its text. */
    size_t skip = number == 1 && n >= 3 && memcmp(in->line, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    *line = in->line + skip;
    *len = n - skip;
    return TEXT_LINE;
}

int text_input_line_number(const struct text_input *in) { return in->number; }

void text_input_close(struct text_input *in)
{
    if (in->fd >= 0)
        close(in->fd);
    free(in->buffer);
    free(in->line);
    *in = (struct text_input){ .fd = -1 };
}

enum text_status text_input_read_all(const char *path, const struct text_rules *rules, char **text, size_t *len,
                                     struct cfg_error *err)
{
    *text = NULL;
    *len = 0;
    struct text_input in;
    if (!text_input_open(&in, path, rules, err))
        return stop_signal_held() ? TEXT_INTERRUPTED : TEXT_REFUSED;
    FILE *joined = open_memstream(text, len);
    enum text_status status = joined ? TEXT_LINE : refuse(&in, 0, err, "%s: %s", rules->unreadable, strerror(ENOMEM));
    char *line;
    size_t n;
    while (status == TEXT_LINE && (status = text_input_next(&in, &line, &n, err)) == TEXT_LINE)
        if (fwrite(line, 1, n, joined) != n || fputc('\n', joined) == EOF)
            status = refuse(&in, in.number, err, "%s: %s", rules->unreadable, strerror(ENOMEM));
    if (joined && fclose(joined) != 0 && status == TEXT_END)
        status = refuse(&in, 0, err, "%s: %s", rules->unreadable, strerror(ENOMEM));
    text_input_close(&in);
    if (status == TEXT_END)
        return TEXT_END;
    free(*text);
    *text = NULL;
    *len = 0;
    return status;
}
