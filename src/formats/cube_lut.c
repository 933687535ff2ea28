/* The .cube reader (cube_lut.h), after Adobe's Cube LUT Specification 1.0: keywords first
 * (TITLE, LUT_3D_SIZE, DOMAIN_MIN, DOMAIN_MAX), then size^3 lines of "r g b", red fastest. The
 * text is not NUL-terminated, so each line is copied (at most GN_CUBE_MAX_LINE characters) into
 * a terminated local buffer before strtof reads it. strtof follows the C library's LC_NUMERIC:
 * a number must be a whole whitespace-separated token, so under a decimal-comma locale "0.5" is
 * refused ("not a number"), never misread as 0. */
#define _POSIX_C_SOURCE 200809L
#include "formats/cube_lut.h"

#include "base/alloc.h"
#include "base/error.h"
#include "base/file.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GN_CUBE_MAX_LINE 1024u  /* characters a line, without its line end: real lines are < 64 */
#define GN_CUBE_MAX_VALUE 1e4f  /* |value| cap: HDR grades pass 1, none comes near 10^4 */
#define GN_CUBE_MIN_DATA_LINE 6 /* "0 0 0" and a line end: the fewest bytes a data line takes */
#define GN_CUBE_TOKEN_SHOWN 40  /* characters of a bad token quoted in a message */

typedef enum cube_key { CUBE_TITLE, CUBE_SIZE, CUBE_DOMAIN_MIN, CUBE_DOMAIN_MAX, CUBE_KEYS } cube_key;
static const char *const cube_key_name[CUBE_KEYS] = {"TITLE", "LUT_3D_SIZE", "DOMAIN_MIN", "DOMAIN_MAX"};
static const char *const cube_channel[3] = {"red", "green", "blue"};

typedef struct cube_parser {
    const char *name;
    gn_error *err;
    gn_cube_lut *out;
    uint32_t line;                /* the line being read, from 1 (at the end: the last line) */
    uint32_t key_line[CUBE_KEYS]; /* where each keyword was given; 0: not given */
    uint32_t data_line;           /* the first data line; 0: none yet */
    uint32_t extra_line;          /* the first data line past expected; 0: none */
    uint32_t expected, found;     /* data lines: size^3, and those seen */
} cube_parser;

/* A malformed file: "name: line N: what" (no line when line is 0). */
static gn_result __attribute__((format(printf, 3, 4)))
cube_bad(const cube_parser *p, uint32_t line, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!line) return gn_fail(p->err, GN_ERROR_BAD_DATA, "%s: %s", p->name, what);
    return gn_fail(p->err, GN_ERROR_BAD_DATA, "%s: line %u: %s", p->name, line, what);
}

static const char *skip_space(const char *s)
{
    while (*s && isspace((unsigned char)*s)) s++;
    return s;
}

static size_t token_len(const char *s)
{
    size_t n = 0;
    while (s[n] && !isspace((unsigned char)s[n])) n++;
    return n;
}

/* The first n characters of s (at most GN_CUBE_TOKEN_SHOWN) for a message, control bytes as '?'
 * so that a binary file's bytes do not reach a terminal. */
typedef struct cube_shown {
    char s[GN_CUBE_TOKEN_SHOWN + 1];
} cube_shown;

static cube_shown shown(const char *s, size_t n)
{
    cube_shown t;
    if (n > GN_CUBE_TOKEN_SHOWN) n = GN_CUBE_TOKEN_SHOWN;
    for (size_t i = 0; i < n; i++) t.s[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
    t.s[n] = '\0';
    return t;
}

/* Three numbers (r g b) from s, each a whole token that strtof reads, finite and within
 * +-GN_CUBE_MAX_VALUE. what names the line in messages ("a data line", "DOMAIN_MIN"). */
static gn_result read_rgb(const cube_parser *p, const char *s, const char *what, float v[3])
{
    int n = 0;
    for (s = skip_space(s); *s; s = skip_space(s)) {
        size_t tok = token_len(s);
        char *end;
        errno = 0;
        float x = strtof(s, &end);
        if (end != s + tok) return cube_bad(p, p->line, "%s: '%s' is not a number", what, shown(s, tok).s);
        if (n < 3) {
            const char *ch = cube_channel[n];
            /* an overflow (ERANGE) is a finite number out of range, not a NaN or "inf" */
            if (isnan(x) || (isinf(x) && errno != ERANGE))
                return cube_bad(p, p->line, "%s: the %s value '%s' is not finite", what, ch, shown(s, tok).s);
            if (!(fabsf(x) <= GN_CUBE_MAX_VALUE))
                return cube_bad(p, p->line, "%s: the %s value %s is outside [-1e4, 1e4]", what, ch,
                                shown(s, tok).s);
            v[n] = x;
        }
        n++;
        s += tok;
    }
    if (n != 3) return cube_bad(p, p->line, "%s has %d number%s, not 3 (r g b)", what, n, n == 1 ? "" : "s");
    return GN_OK;
}

static gn_result read_size(cube_parser *p, const char *s)
{
    s = skip_space(s);
    size_t tok = token_len(s);
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (!tok)
        return cube_bad(p, p->line, "LUT_3D_SIZE takes one whole number (entries per axis), and has none");
    if (end != s + tok || *skip_space(s + tok))
        return cube_bad(p, p->line, "LUT_3D_SIZE takes one whole number (entries per axis), not '%s'",
                        shown(s, strlen(s)).s);
    if (errno == ERANGE || n < 2 || n > (long)GN_CUBE_LUT_MAX_SIZE)
        return cube_bad(p, p->line,
                        "LUT_3D_SIZE %s is outside 2..%u (GN_CUBE_LUT_MAX_SIZE: a 64^3 table is a 2 MiB "
                        "rgba16f texture)",
                        shown(s, tok).s, GN_CUBE_LUT_MAX_SIZE);
    p->out->size = (uint32_t)n;
    return GN_OK;
}

static gn_result read_title(cube_parser *p, const char *s)
{
    s = skip_space(s);
    const char *close = *s == '"' ? strchr(s + 1, '"') : NULL;
    if (!close || *skip_space(close + 1))
        return cube_bad(p, p->line, "TITLE takes one \"quoted\" string, not '%s'", shown(s, strlen(s)).s);
    size_t n = (size_t)(close - s - 1);
    if (n >= sizeof p->out->title) n = sizeof p->out->title - 1; /* the title only labels: cut it */
    memcpy(p->out->title, s + 1, n);
    p->out->title[n] = '\0';
    return GN_OK;
}

/* A keyword line: the keyword is the token of tok characters at s. */
static gn_result read_keyword(cube_parser *p, const char *s, size_t tok)
{
    int k = -1;
    for (int i = 0; i < CUBE_KEYS; i++)
        if (strlen(cube_key_name[i]) == tok && memcmp(s, cube_key_name[i], tok) == 0) k = i;
    if (k < 0 && tok >= 6 && memcmp(s, "LUT_1D", 6) == 0)
        return cube_bad(p, p->line, "%s: 1D LUTs are not supported; give a 3D one (LUT_3D_SIZE)",
                        shown(s, tok).s);
    if (k < 0 && tok == 18 && memcmp(s, "LUT_3D_INPUT_RANGE", 18) == 0)
        return cube_bad(
            p, p->line,
            "LUT_3D_INPUT_RANGE (Resolve's) is not read; give the input range as DOMAIN_MIN r g b "
            "and DOMAIN_MAX r g b");
    if (k < 0)
        return cube_bad(p, p->line,
                        "unknown keyword '%s' (a .cube file has TITLE, LUT_3D_SIZE, DOMAIN_MIN and "
                        "DOMAIN_MAX, then data lines of 3 numbers)",
                        shown(s, tok).s);
    if (p->data_line)
        return cube_bad(p, p->line,
                        "%s after the data (which starts on line %u): keywords come before the data",
                        cube_key_name[k], p->data_line);
    if (p->key_line[k])
        return cube_bad(p, p->line, "a second %s (the first is on line %u)", cube_key_name[k],
                        p->key_line[k]);
    p->key_line[k] = p->line;
    s += tok;
    switch ((cube_key)k) {
    case CUBE_TITLE:
        return read_title(p, s);
    case CUBE_SIZE:
        return read_size(p, s);
    case CUBE_DOMAIN_MIN:
        return read_rgb(p, s, "DOMAIN_MIN", p->out->domain_min);
    case CUBE_DOMAIN_MAX:
        return read_rgb(p, s, "DOMAIN_MAX", p->out->domain_max);
    case CUBE_KEYS:
        break;
    }
    return GN_OK;
}

/* The keywords as a whole, once they are all read (at the first data line, or at the end of a
 * file without one): a size, and a domain that is not empty on any channel. */
static gn_result finish_keywords(cube_parser *p)
{
    gn_cube_lut *l = p->out;
    if (!p->key_line[CUBE_SIZE] && p->data_line)
        return cube_bad(p, p->line,
                        "a data line, but no LUT_3D_SIZE before it (a 3D table gives LUT_3D_SIZE N, then "
                        "N^3 data lines)");
    if (!p->key_line[CUBE_SIZE])
        return cube_bad(p, p->line,
                        "the file ends with no LUT_3D_SIZE (a 3D table gives LUT_3D_SIZE N, then N^3 data "
                        "lines)");
    uint32_t at = p->key_line[CUBE_DOMAIN_MIN] > p->key_line[CUBE_DOMAIN_MAX] ? p->key_line[CUBE_DOMAIN_MIN]
                                                                              : p->key_line[CUBE_DOMAIN_MAX];
    for (int c = 0; c < 3; c++)
        if (!(l->domain_min[c] < l->domain_max[c]))
            return cube_bad(p, at, "DOMAIN_MIN (%g) is not below DOMAIN_MAX (%g) on the %s channel",
                            (double)l->domain_min[c], (double)l->domain_max[c], cube_channel[c]);
    p->expected = l->size * l->size * l->size;
    return GN_OK;
}

/* A data line at s; left: the bytes from the line's start to the end of the text. */
static gn_result read_data(cube_parser *p, const char *s, size_t left)
{
    gn_cube_lut *l = p->out;
    if (!p->data_line) {
        p->data_line = p->line;
        gn_result res = finish_keywords(p);
        if (res) return res;
        /* k data lines take at least 6k - 1 bytes: when fewer are left the table must come out
         * short, so nothing is allocated and the lines are only counted (and checked). */
        size_t bytes = (size_t)p->expected * 3 * sizeof *l->rgb;
        if ((uint64_t)left + 1 >= (uint64_t)p->expected * GN_CUBE_MIN_DATA_LINE &&
            !(l->rgb = gn_malloc(bytes)))
            return gn_fail(p->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for a %u^3 table (%zu bytes)",
                           p->name, l->size, bytes);
    }
    float v[3];
    gn_result res = read_rgb(p, s, "a data line", v);
    if (res) return res;
    if (p->found < p->expected && l->rgb) memcpy(l->rgb + 3 * (size_t)p->found, v, sizeof v);
    if (p->found == p->expected && !p->extra_line) p->extra_line = p->line;
    p->found++;
    return GN_OK;
}

/* One line of n characters (its '\n' not counted); left: the bytes from its start to the end. */
static gn_result read_line(cube_parser *p, const char *line, size_t n, size_t left)
{
    if (n && line[n - 1] == '\r') n--; /* CRLF */
    const char *nul = memchr(line, '\0', n);
    if (nul)
        return cube_bad(p, p->line, "a NUL byte at column %zu (binary data, not .cube text)",
                        (size_t)(nul - line) + 1);
    if (n > GN_CUBE_MAX_LINE)
        return cube_bad(p, p->line, "%zu characters, over the limit of %u a line", n, GN_CUBE_MAX_LINE);
    char buf[GN_CUBE_MAX_LINE + 1];
    memcpy(buf, line, n);
    buf[n] = '\0';
    bool quoted = false; /* a '#' inside TITLE's quotes is the title's */
    for (char *c = buf; *c; c++) {
        if (*c == '"') quoted = !quoted;
        if (*c == '#' && !quoted) {
            *c = '\0';
            break;
        }
    }
    const char *s = skip_space(buf);
    if (!*s) return GN_OK;
    /* a line that starts with a number (strtof reads something) is data, "nan" and "inf" too */
    char *end;
    (void)strtof(s, &end);
    if (end != s) return read_data(p, s, left);
    return read_keyword(p, s, token_len(s));
}

/* At the end of the text: the keywords if no data came, and the count of data lines. */
static gn_result finish(cube_parser *p)
{
    gn_result res = p->data_line ? GN_OK : finish_keywords(p);
    if (res) return res;
    uint32_t n = p->out->size;
    if (p->found < p->expected)
        return cube_bad(p, p->line,
                        "expected %u data lines (%u^3, from LUT_3D_SIZE on line %u), found %u: the file ends "
                        "short",
                        p->expected, n, p->key_line[CUBE_SIZE], p->found);
    if (p->found > p->expected)
        return cube_bad(p, p->extra_line,
                        "expected %u data lines (%u^3, from LUT_3D_SIZE on line %u), found %u: this is the "
                        "first one past them",
                        p->expected, n, p->key_line[CUBE_SIZE], p->found);
    return GN_OK;
}

gn_result gn_cube_lut_parse(const char *text, size_t len, const char *name, gn_cube_lut *out, gn_error *err)
{
    if (!out) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_cube_lut_parse: no table to fill");
    memset(out, 0, sizeof *out);
    if (!name) name = "(.cube text)";
    if (!text && len)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s: no text, but a length of %zu", name, len);
    cube_parser p = {.name = name, .err = err, .out = out};
    if (len > GN_CUBE_LUT_MAX_BYTES)
        return cube_bad(&p, 0, "%zu bytes, over the cap of %u for a .cube file (GN_CUBE_LUT_MAX_BYTES)", len,
                        GN_CUBE_LUT_MAX_BYTES);
    for (int c = 0; c < 3; c++) out->domain_max[c] = 1.0f;
    gn_result res = GN_OK;
    /* lines <= len + 1 <= 2^26 + 1: p.line cannot wrap */
    for (size_t at = 0; at < len && !res;) {
        const char *line = text + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t n = nl ? (size_t)(nl - line) : len - at;
        p.line++;
        res = read_line(&p, line, n, len - at);
        at += n + (nl ? 1 : 0);
    }
    if (!res) res = finish(&p);
    if (res) gn_cube_lut_free(out);
    return res;
}

gn_result gn_cube_lut_load(const char *path, gn_cube_lut *out, gn_error *err)
{
    if (!out) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_cube_lut_load: no table to fill");
    memset(out, 0, sizeof *out);
    char *text;
    size_t got;
    gn_result res = gn_file_read_text(path, GN_CUBE_LUT_MAX_BYTES, "a .cube file (GN_CUBE_LUT_MAX_BYTES)",
                                      &text, &got, err);
    if (res) return res;
    res = gn_cube_lut_parse(text, got, path, out, err);
    free(text);
    return res;
}

gn_result gn_cube_lut_identity(uint32_t size, gn_cube_lut *out, gn_error *err)
{
    if (!out) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_cube_lut_identity: no table to fill");
    memset(out, 0, sizeof *out);
    if (size < 2 || size > GN_CUBE_LUT_MAX_SIZE)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "identity LUT: size %u is outside 2..%u", size,
                       GN_CUBE_LUT_MAX_SIZE);
    size_t bytes = (size_t)size * size * size * 3 * sizeof *out->rgb;
    float *rgb = gn_malloc(bytes);
    if (!rgb)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY,
                       "identity LUT: out of memory for a %u^3 table (%zu bytes)", size, bytes);
    float *e = rgb;
    for (uint32_t b = 0; b < size; b++)
        for (uint32_t g = 0; g < size; g++)
            for (uint32_t r = 0; r < size; r++, e += 3) {
                e[0] = (float)r / (float)(size - 1);
                e[1] = (float)g / (float)(size - 1);
                e[2] = (float)b / (float)(size - 1);
            }
    out->size = size;
    out->rgb = rgb;
    for (int c = 0; c < 3; c++) out->domain_max[c] = 1.0f;
    return GN_OK;
}

void gn_cube_lut_free(gn_cube_lut *l)
{
    if (!l) return;
    free(l->rgb);
    memset(l, 0, sizeof *l);
}

/* a*(1-w) + b*w rather than a + (b-a)*w: exactly a at w = 0 and exactly b at w = 1 */
static float lerp(float a, float b, float w) { return a * (1.0f - w) + b * w; }

/* Entry i of an axis sits at t = i / (size - 1) of the domain, as a texture sampled at
 * (t * (size - 1) + 0.5) / size with linear filtering places its texel centres. */
void gn_cube_lut_sample(const gn_cube_lut *l, const float in[3], float out[3])
{
    if (!l || !l->rgb || l->size < 2) {
        for (int c = 0; c < 3; c++) out[c] = in[c];
        return;
    }
    uint32_t n = l->size, i0[3];
    float w[3];
    for (int c = 0; c < 3; c++) {
        float t = (in[c] - l->domain_min[c]) / (l->domain_max[c] - l->domain_min[c]);
        t = fminf(fmaxf(t, 0.0f), 1.0f); /* fmaxf drops a NaN: it samples the first entry */
        float f = t * (float)(n - 1);
        uint32_t i = (uint32_t)f;
        if (i > n - 2) i = n - 2; /* t = 1: the last cell, at its far corner (w = 1) */
        i0[c] = i;
        w[c] = f - (float)i;
    }
    size_t sg = 3 * (size_t)n, sb = 3 * (size_t)n * n; /* floats from one green, blue step to the next */
    const float *e = l->rgb + 3 * (size_t)i0[0] + sg * i0[1] + sb * i0[2];
    for (int c = 0; c < 3; c++) {
        const float *p = e + c;
        float x00 = lerp(p[0], p[3], w[0]), x10 = lerp(p[sg], p[sg + 3], w[0]);
        float x01 = lerp(p[sb], p[sb + 3], w[0]), x11 = lerp(p[sb + sg], p[sb + sg + 3], w[0]);
        out[c] = lerp(lerp(x00, x10, w[1]), lerp(x01, x11, w[1]), w[2]);
    }
}
