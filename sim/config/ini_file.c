#include "ini_file.h"
#include "suggest.h"

#include <ctype.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>

#include "../core/text_input.h"

/* inih's own limit on a line (INI_MAX_LINE, 200) less the '\n' and '\0' it keeps. */
enum { CFG_LINE_MAX = 198 };

static const struct text_rules config_rules = { "configuration", "", "cannot read", CFG_FILE_MAX_BYTES, CFG_LINE_MAX };

/* inih reads through read_line, which sees each whole line first (bounded and checked
 * for control bytes by text_input): it knows the line number (Debian's inih is built
 * without INI_HANDLER_LINENO), checks what inih would ignore or misread, and ends the
 * stream (returns NULL) at the first error. */
struct reader_state {
    struct text_input *input;
    const char *path;
    int line;     /* lines handed to inih so far */
    int pending;  /* header line of an unknown section that has had no key yet, or 0 */
    char pending_name[64];
    struct config *cfg;
    struct cfg_error *err;
    bool failed;  /* *err is filled: read nothing more */
};

static char *fail(struct reader_state *rs, int line, const char *message)
{
    cfg_error_set(rs->err, rs->path, line, "", "%s", message);
    rs->failed = true;
    return NULL;
}

/* An unknown section is refused at its first key (cfg_set names the key); one that never
 * gets a key is refused here, at the next header or the end of the file. */
static char *fail_on_empty_unknown_section(struct reader_state *rs)
{
    if (!rs->pending)
        return NULL;
    char why[CFG_TEXT_MAX];
    cfg_unknown_section(rs->cfg, rs->pending_name, why, sizeof why);
    return fail(rs, rs->pending, why);
}

/* inih's find_chars_or_comment: the first of `chars`, an inline ';' after a blank, or the end. */
static const char *find_chars_or_comment(const char *s, const char *chars)
{
    bool was_space = false;
    while (*s && !strchr(chars, *s) && !(was_space && *s == ';')) {
        was_space = isspace((unsigned char)*s);
        s++;
    }
    return s;
}

/* Checks one whole line (ending in '\n' unless it is the last) as inih will read it. */
static char *check_line(struct reader_state *rs, char *buf)
{
    const char *p = buf; /* text_input has skipped a byte order mark */
    const char *start = p;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p || *p == ';' || *p == '#')
        return buf; /* blank or comment */
    if (p != start) /* inih would take it as a continuation of the previous value */
        return fail(rs, rs->line, "indented line: start keys and sections in the first column");
    if (*p != '[') {
        const char *end = find_chars_or_comment(p, "=:");
        if (*end != '=' && *end != ':')
            return fail(rs, rs->line, "syntax error: expected [section], key = value, or a ; comment");
        return buf;
    }
    const char *end = find_chars_or_comment(p + 1, "]");
    if (*end != ']')
        return fail(rs, rs->line, "syntax error: expected [section], key = value, or a ; comment");
    /* inih ignores whatever follows the ']': refuse it, but for blanks and a ; comment. */
    const char *rest = end + 1;
    while (isspace((unsigned char)*rest))
        rest++;
    if (*rest && !(*rest == ';' && rest > end + 1)) {
        char why[CFG_TEXT_MAX];
        snprintf(why, sizeof why, "text after [%.*s]: a section header must be alone on its line", (int)(end - p - 1),
                 p + 1);
        return fail(rs, rs->line, why);
    }
    fail_on_empty_unknown_section(rs);
    if (rs->failed)
        return NULL;
    snprintf(rs->pending_name, sizeof rs->pending_name, "%.*s", (int)(end - p - 1), p + 1);
    rs->pending = cfg_known_section(rs->cfg, rs->pending_name) ? 0 : rs->line;
    return buf;
}

static char *read_line(char *buf, int size, void *stream)
{
    struct reader_state *rs = stream;
    if (rs->failed)
        return NULL;
    char *line;
    size_t len;
    switch (text_input_next(rs->input, &line, &len, rs->err)) {
    case TEXT_LINE:
        break;
    case TEXT_END:
        return fail_on_empty_unknown_section(rs);
    default: /* *err is filled */
        rs->failed = true;
        return NULL;
    }
    rs->line = text_input_line_number(rs->input);
    if (len > (size_t)size - 2) { /* inih's buffer is smaller than CFG_LINE_MAX: a build of another inih */
        char why[64];
        snprintf(why, sizeof why, "line longer than %d characters", size - 2);
        return fail(rs, rs->line, why);
    }
    memcpy(buf, line, len);
    buf[len] = '\n';
    buf[len + 1] = '\0';
    return check_line(rs, buf);
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
    struct reader_state *rs = user;
    if (rs->failed)
        return 1;
    if (!section[0]) {
        char hint[192];
        const char *near = cfg_key_elsewhere(rs->cfg, name, hint, sizeof hint);
        cfg_error_set(rs->err, rs->path, rs->line, name, "key outside any [section]%s%s%s",
                      near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
        rs->failed = true;
        return 1;
    }
    if (!cfg_set(rs->cfg, section, name, value, rs->cfg->path, rs->line, rs->err))
        rs->failed = true;
    return 1;
}

/* Parses the lines of `input` into cfg (see cfg_read_file). */
static bool parse(struct config *cfg, struct text_input *input, struct cfg_error *err)
{
    struct reader_state rs = { .input = input, .path = cfg->path, .cfg = cfg, .err = err };
    int status = ini_parse_stream(read_line, &rs, on_key, &rs);
    text_input_close(input);
    if (rs.failed)
        return false;
    if (status != 0) { /* read_line refuses every line inih would: a backstop */
        cfg_error_set(err, cfg->path, status > 0 ? status : 0, "",
                      "syntax error: expected [section], key = value, or a ; comment");
        return false;
    }
    return true;
}

bool cfg_read_file(struct config *cfg, const char *path, struct cfg_error *err)
{
    snprintf(cfg->path, sizeof cfg->path, "%s", path);
    struct text_input input;
    return text_input_open(&input, cfg->path, &config_rules, err) && parse(cfg, &input, err);
}

bool cfg_read_text(struct config *cfg, const char *path, const char *text, size_t len, struct cfg_error *err)
{
    snprintf(cfg->path, sizeof cfg->path, "%s", path);
    struct text_input input;
    return text_input_open_memory(&input, cfg->path, text, len, &config_rules, err) && parse(cfg, &input, err);
}

enum text_status cfg_read_whole_file(const char *path, char **text, size_t *len, struct cfg_error *err)
{
    return text_input_read_all(path, &config_rules, text, len, err);
}
