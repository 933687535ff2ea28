/* The script parser; see view_script.h. */
#include "view_script.h"
#include "view_keys.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GN_SCRIPT_MAX_FILE (16u << 20) /* bytes: far past any hand-written script */

static bool gn_script_fail(char *err, size_t size, const char *path, uint32_t line, const char *fmt, ...)
{
    int n = snprintf(err, size, "%s:%u: ", path, line);
    if (n < 0 || (size_t)n >= size) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, size - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

/* The next whitespace-separated word of *p into out (NUL-terminated, at most size-1 bytes);
 * false at the end of the line or for a word too long. */
static bool gn_word(const char **p, char *out, size_t size)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    size_t n = 0;
    while (s[n] && s[n] != ' ' && s[n] != '\t') n++;
    if (n == 0 || n >= size) return false;
    memcpy(out, s, n);
    out[n] = '\0';
    *p = s + n;
    return true;
}

static bool gn_at_end(const char *p)
{
    while (*p == ' ' || *p == '\t') p++;
    return *p == '\0';
}

static bool gn_count(const char *s, uint32_t *out)
{
    if (!isdigit((unsigned char)s[0])) return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < 1 || v > GN_SCRIPT_MAX_FRAMES) return false;
    *out = (uint32_t)v;
    return true;
}

static bool gn_number(const char *s, float *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || end == s || !isfinite(v) || fabs(v) > GN_SCRIPT_MAX_MOUSE) return false;
    *out = (float)v;
    return true;
}

/* One line (no newline) into c; false with a message. */
static bool gn_parse_line(const char *line, const char *path, uint32_t no, gn_script_cmd *c, char *err,
                          size_t size)
{
    const char *p = line;
    char op[32], a[256], b[64];
    if (!gn_word(&p, op, sizeof op))
        return gn_script_fail(err, size, path, no, "unknown command '%.40s'", line);
    *c = (gn_script_cmd){.line = no};
    if (strcmp(op, "frames") == 0) {
        c->op = GN_SCRIPT_FRAMES;
        if (!gn_word(&p, a, sizeof a) || !gn_count(a, &c->frames) || !gn_at_end(p))
            return gn_script_fail(err, size, path, no, "frames expects one count 1..%u",
                                  GN_SCRIPT_MAX_FRAMES);
    } else if (strcmp(op, "key") == 0 || strcmp(op, "hold") == 0) {
        bool hold = op[0] == 'h';
        c->op = hold ? GN_SCRIPT_HOLD : GN_SCRIPT_KEY;
        if (!gn_word(&p, a, sizeof a))
            return gn_script_fail(err, size, path, no, "%s expects a key name (GLFW's: W, F, GRAVE_ACCENT)",
                                  op);
        c->key = gn_key_from_name(a);
        if (c->key == GN_KEY_UNKNOWN)
            return gn_script_fail(err, size, path, no,
                                  "unknown key '%s' (GLFW's names: W, F, GRAVE_ACCENT, LEFT_SHIFT)", a);
        if (hold && (!gn_word(&p, b, sizeof b) || !gn_count(b, &c->frames)))
            return gn_script_fail(err, size, path, no, "hold expects a key and a count of frames 1..%u",
                                  GN_SCRIPT_MAX_FRAMES);
        if (!gn_at_end(p))
            return gn_script_fail(err, size, path, no, "%s: unexpected text after the %s", op,
                                  hold ? "count" : "key");
    } else if (strcmp(op, "mouse") == 0) {
        c->op = GN_SCRIPT_MOUSE;
        if (!gn_word(&p, a, sizeof a) || !gn_number(a, &c->dx) || !gn_word(&p, b, sizeof b) ||
            !gn_number(b, &c->dy) || !gn_at_end(p))
            return gn_script_fail(err, size, path, no, "mouse expects DX DY, two numbers of pixels");
    } else if (strcmp(op, "set") == 0) {
        c->op = GN_SCRIPT_SET;
        if (!gn_word(&p, c->name, sizeof c->name))
            return gn_script_fail(err, size, path, no, "set expects NAME VALUE");
        while (*p == ' ' || *p == '\t') p++;
        size_t n = strlen(p);
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t')) n--;
        if (n == 0 || n >= sizeof c->value)
            return gn_script_fail(err, size, path, no, "set %s expects a value", c->name);
        memcpy(c->value, p, n);
        c->value[n] = '\0';
    } else if (strcmp(op, "screenshot") == 0) {
        c->op = GN_SCRIPT_SCREENSHOT;
        if (!gn_word(&p, c->value, sizeof c->value) || !gn_at_end(p))
            return gn_script_fail(err, size, path, no, "screenshot expects one file name (no spaces)");
    } else if (strcmp(op, "quit") == 0) {
        c->op = GN_SCRIPT_QUIT;
        if (!gn_at_end(p)) return gn_script_fail(err, size, path, no, "quit takes nothing after it");
    } else {
        return gn_script_fail(err, size, path, no,
                              "unknown command '%s' (frames, key, hold, mouse, set, screenshot, quit)", op);
    }
    return true;
}

bool gn_script_parse(const char *text, const char *path, gn_script *out, char *err, size_t err_size)
{
    *out = (gn_script){0};
    uint32_t cap = 0, no = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        no++;
        if (no > GN_SCRIPT_MAX_LINES) {
            gn_script_free(out);
            return gn_script_fail(err, err_size, path, no, "more than %u lines", GN_SCRIPT_MAX_LINES);
        }
        char line[512];
        if (len >= sizeof line) {
            gn_script_free(out);
            return gn_script_fail(err, err_size, path, no, "line longer than %zu characters",
                                  sizeof line - 1);
        }
        memcpy(line, p, len);
        line[len] = '\0';
        if (len && line[len - 1] == '\r') line[--len] = '\0'; /* a file saved on Windows */
        p = eol ? eol + 1 : p + len;
        const char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '\0' || *s == '#') continue;
        if (out->count == cap) {
            cap = cap ? cap * 2 : 32;
            gn_script_cmd *grown = realloc(out->cmds, cap * sizeof *grown);
            if (!grown) {
                gn_script_free(out);
                return gn_script_fail(err, err_size, path, no, "out of memory");
            }
            out->cmds = grown;
        }
        if (!gn_parse_line(s, path, no, &out->cmds[out->count], err, err_size)) {
            gn_script_free(out);
            return false;
        }
        out->count++;
    }
    return true;
}

bool gn_script_load(const char *path, gn_script *out, char *err, size_t err_size)
{
    *out = (gn_script){0};
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    char *text = malloc(GN_SCRIPT_MAX_FILE + 1);
    size_t n = text ? fread(text, 1, GN_SCRIPT_MAX_FILE + 1, f) : 0;
    bool read_error = ferror(f);
    fclose(f);
    if (!text || read_error || n > GN_SCRIPT_MAX_FILE) {
        snprintf(err, err_size, "%s: %s", path,
                 !text        ? "out of memory"
                 : read_error ? "cannot be read"
                              : "larger than 16 MiB");
        free(text);
        return false;
    }
    text[n] = '\0';
    if (memchr(text, '\0', n)) {
        snprintf(err, err_size, "%s: not a text file (holds a NUL byte)", path);
        free(text);
        return false;
    }
    bool ok = gn_script_parse(text, path, out, err, err_size);
    free(text);
    return ok;
}

void gn_script_free(gn_script *s)
{
    free(s->cmds);
    *s = (gn_script){0};
}
