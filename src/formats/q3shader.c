/* The shader script reader (q3shader.h). One pass over the text with a lexer that never reads
 * past the end it is given; keywords as id's renderer reads them (tr_shader.c: ParseShader,
 * ParseStage, ParseTexMod, ParseDeform, ParseSkyParms), every argument checked, every problem
 * recorded in the library's report with the file, the line and the keyword. */
#include "formats/q3shader.h"

#include "base/alloc.h"
#include "base/array.h"
#include "base/error.h"
#include "base/number.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Q3_SHOWN 40 /* characters of a token quoted in a message */

/* ---- tokens -------------------------------------------------------------------------------- */
typedef struct q3_tok {
    const char *s;
    size_t n;
    uint32_t line;
    bool quoted; /* a quoted "{" is a name, never a brace */
} q3_tok;

typedef struct q3_parser {
    gn_q3_library *lib;
    const char *file; /* the library's copy */
    const char *p, *end;
    uint32_t line;
    bool eol;       /* a same-line read met the line's end; the next same-line read sees it too */
    q3_tok back[2]; /* pushed-back tokens, read before the text (LIFO) */
    uint32_t nback;
    bool oom;        /* an allocation failed: stop and report GN_ERROR_OUT_OF_MEMORY */
    bool cap_noted;  /* the shader cap's problem is given once a file */
    gn_q3_shader sh; /* the shader being read */
    gn_q3_stage stages[GN_Q3_MAX_STAGES];
    gn_q3_stage scratch; /* stages past the cap are read here and dropped */
} q3_parser;

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

static bool tok_is(const q3_tok *t, const char *kw)
{
    size_t n = strlen(kw);
    if (t->n != n) return false;
    for (size_t i = 0; i < n; i++)
        if (lower(t->s[i]) != lower(kw[i])) return false;
    return true;
}

static bool tok_prefix(const q3_tok *t, const char *prefix)
{
    size_t n = strlen(prefix);
    if (t->n < n) return false;
    for (size_t i = 0; i < n; i++)
        if (lower(t->s[i]) != lower(prefix[i])) return false;
    return true;
}

static bool is_open(const q3_tok *t) { return !t->quoted && t->n == 1 && t->s[0] == '{'; }
static bool is_close(const q3_tok *t) { return !t->quoted && t->n == 1 && t->s[0] == '}'; }

/* A token for a message: at most Q3_SHOWN characters, bytes outside printable ASCII as '?' so
 * that a binary file's bytes do not reach a terminal. */
typedef struct q3_shown {
    char s[Q3_SHOWN + 4];
} q3_shown;

static q3_shown shown_n(const char *s, size_t n)
{
    q3_shown t;
    size_t k = n > Q3_SHOWN ? Q3_SHOWN : n;
    for (size_t i = 0; i < k; i++)
        t.s[i] = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f ? '?' : s[i];
    if (k < n) memcpy(t.s + k, "...", 3), k += 3;
    t.s[k] = '\0';
    return t;
}
static q3_shown shown(const q3_tok *t) { return shown_n(t->s, t->n); }

/* ---- the report ---------------------------------------------------------------------------- */
static void copy_keyword(char out[GN_Q3_KEYWORD_MAX], const char *s, size_t n, bool lowercase)
{
    size_t k = n < GN_Q3_KEYWORD_MAX - 1 ? n : GN_Q3_KEYWORD_MAX - 1;
    for (size_t i = 0; i < k; i++) {
        char c = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f ? '?' : s[i];
        out[i] = lowercase ? lower(c) : c;
    }
    out[k] = '\0';
}

/* Records a problem at line about keyword kw (n bytes; NULL for none). */
static void __attribute__((format(printf, 5, 6)))
problem(q3_parser *ps, uint32_t line, const char *kw, size_t n, const char *fmt, ...)
{
    gn_q3_report *r = &ps->lib->report;
    r->problem_count++;
    if (r->problem_count > GN_Q3_MAX_PROBLEMS) return; /* counted, not kept */
    if (!gn_grow((void **)&r->problems, &ps->lib->problem_cap, (uint64_t)r->problem_count,
                 sizeof *r->problems, GN_Q3_MAX_PROBLEMS)) {
        ps->oom = true;
        r->problem_count--;
        return;
    }
    gn_q3_problem *pr = &r->problems[r->problem_count - 1];
    memset(pr, 0, sizeof *pr);
    pr->file = ps->file;
    pr->line = line;
    if (kw) copy_keyword(pr->keyword, kw, n, false);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pr->message, sizeof pr->message, fmt, ap);
    va_end(ap);
}

static void problem_at(q3_parser *ps, const q3_tok *kw, uint32_t line, const char *what)
{
    problem(ps, line, kw ? kw->s : NULL, kw ? kw->n : 0, "%s", what);
}

/* Counts an unknown keyword (prefix "surfaceparm " and the like for an unknown value of a
 * keyword that takes names), listed once by its lower-case name. */
static void unknown(q3_parser *ps, const char *prefix, const q3_tok *t)
{
    gn_q3_report *r = &ps->lib->report;
    char key[GN_Q3_KEYWORD_MAX * 2];
    size_t pl = strlen(prefix);
    memcpy(key, prefix, pl);
    size_t n = t->n < GN_Q3_KEYWORD_MAX ? t->n : GN_Q3_KEYWORD_MAX;
    memcpy(key + pl, t->s, n);
    char name[GN_Q3_KEYWORD_MAX];
    copy_keyword(name, key, pl + n, true);
    for (uint32_t i = 0; i < r->unknown_count; i++)
        if (strcmp(r->unknown[i].keyword, name) == 0) {
            r->unknown[i].count++;
            return;
        }
    if (r->unknown_count == GN_Q3_MAX_UNKNOWN) {
        r->unknown_dropped++;
        return;
    }
    if (!gn_grow((void **)&r->unknown, &ps->lib->unknown_cap, (uint64_t)r->unknown_count + 1,
                 sizeof *r->unknown, GN_Q3_MAX_UNKNOWN)) {
        ps->oom = true;
        return;
    }
    gn_q3_unknown *u = &r->unknown[r->unknown_count++];
    memcpy(u->keyword, name, sizeof name);
    u->count = 1;
    u->file = ps->file;
    u->line = t->line;
}

/* ---- the lexer ----------------------------------------------------------------------------- */
/* A line ends at "\n", "\r\n" or a lone "\r": OpenArena's cf_models.shader has classic Mac
 * line ends ("map $lightmap\r\t\tblendfunc filter\r"). The engine counts only '\n' but reads
 * keywords as a stream of tokens, so such a file still works there; here, where a keyword's
 * arguments end with its line, a lone '\r' has to end the line. */
static bool newline_at(const q3_parser *ps, const char *p)
{
    return *p == '\n' || (*p == '\r' && (p + 1 == ps->end || p[1] != '\n'));
}

static bool comment_at(const q3_parser *ps, const char *p)
{
    return p + 1 < ps->end && p[0] == '/' && (p[1] == '/' || p[1] == '*');
}

/* Skips blanks and comments. With same_line it stops at a line's end (and remembers it: eol),
 * else it crosses lines. false when there is no token (end of line or of text). */
static bool lex_skip(q3_parser *ps, bool same_line)
{
    for (;;) {
        while (ps->p < ps->end && (unsigned char)*ps->p <= ' ') {
            if (newline_at(ps, ps->p)) {
                if (same_line) {
                    ps->eol = true;
                    return false;
                }
                ps->line++;
            }
            ps->p++;
        }
        if (!comment_at(ps, ps->p)) return ps->p < ps->end;
        if (ps->p[1] == '/') {
            while (ps->p < ps->end && !newline_at(ps, ps->p)) ps->p++;
            continue;
        }
        uint32_t start = ps->line;
        bool crossed = false;
        for (ps->p += 2; ps->p < ps->end && !(ps->p + 1 < ps->end && ps->p[0] == '*' && ps->p[1] == '/');
             ps->p++)
            if (newline_at(ps, ps->p)) ps->line++, crossed = true;
        if (ps->p >= ps->end) {
            problem(ps, start, "/*", 2, "unterminated comment: no '*/' before the end of the text");
            return false;
        }
        ps->p += 2;
        if (crossed && same_line) { /* a comment over lines ends the line, as a newline would */
            ps->eol = true;
            return false;
        }
    }
}

/* The next token; same_line: only one on the current line (false at its end). */
static bool lex_next(q3_parser *ps, bool same_line, q3_tok *t)
{
    if (ps->nback) {
        if (same_line) return false; /* a pushed-back token starts a statement of its own */
        *t = ps->back[--ps->nback];
        return true;
    }
    if (same_line && ps->eol) return false;
    if (!same_line) ps->eol = false;
    if (!lex_skip(ps, same_line)) return false;
    t->line = ps->line;
    if (*ps->p == '"') {
        const char *s = ++ps->p;
        /* to the closing quote; a line end or another control byte (a tab aside) ends it too,
           so a name holds no byte that would not read back the same (gn_q3_describe) */
        while (ps->p < ps->end && *ps->p != '"' && ((unsigned char)*ps->p >= ' ' || *ps->p == '\t')) ps->p++;
        t->s = s, t->n = (size_t)(ps->p - s), t->quoted = true;
        if (ps->p < ps->end && *ps->p == '"')
            ps->p++;
        else
            problem(ps, t->line, s - 1, 1, "unterminated quoted string \"%s\"", shown(t).s);
        return true;
    }
    const char *s = ps->p;
    while (ps->p < ps->end && (unsigned char)*ps->p > ' ' && !comment_at(ps, ps->p)) ps->p++;
    t->s = s, t->n = (size_t)(ps->p - s), t->quoted = false;
    if (same_line && (is_open(t) || is_close(t))) { /* a brace ends a statement: "{ map a.tga }" */
        ps->back[ps->nback++] = *t;
        return false;
    }
    return true;
}

static void push_back(q3_parser *ps, const q3_tok *t)
{
    if (ps->nback < 2) ps->back[ps->nback++] = *t;
}

/* Skips the rest of the line (not a brace on it: lex_next leaves that to be read). */
static void skip_line(q3_parser *ps)
{
    q3_tok t;
    while (lex_next(ps, true, &t)) {
    }
}

/* Past the '}' that closes a block whose '{' (on open_line) was just read; false at the end. */
static bool skip_block(q3_parser *ps, const q3_tok *kw, uint32_t open_line)
{
    uint32_t depth = 1;
    q3_tok t;
    while (lex_next(ps, false, &t)) {
        if (is_open(&t)) depth++;
        if (is_close(&t) && --depth == 0) return true;
    }
    problem(ps, open_line, kw->s, kw->n, "the text ends before the '}' of the '{' on line %u", open_line);
    return false;
}

/* ---- arguments ----------------------------------------------------------------------------- */
/* A number filling the whole token (base/number.h: not the user's locale): "0.5f" or "1,5" are
 * problems, where atof would read 0.5 and 1. */
static bool parse_number(const char *s, size_t n, float *out)
{
    float v;
    if (gn_parse_float(s, s + n, &v) != s + n)
        return false; /* out untouched: a bad value keeps the default */
    *out = v;
    return true;
}

/* The next token on kw's line; false, with a problem naming what was wanted, when there is none. */
static bool arg(q3_parser *ps, const q3_tok *kw, const char *what, q3_tok *t)
{
    if (lex_next(ps, true, t)) return true;
    problem(ps, kw->line, kw->s, kw->n, "missing %s", what);
    return false;
}

static bool arg_number(q3_parser *ps, const q3_tok *kw, const char *what, float *out)
{
    q3_tok t;
    if (!arg(ps, kw, what, &t)) return false;
    if (parse_number(t.s, t.n, out)) return true;
    problem(ps, t.line, kw->s, kw->n, "%s: '%s' is not a number", what, shown(&t).s);
    return false;
}

/* A name or path argument (at most GN_Q3_NAME_MAX - 1 characters) into out. */
static bool arg_name(q3_parser *ps, const q3_tok *kw, const char *what, char out[GN_Q3_NAME_MAX])
{
    q3_tok t;
    if (!arg(ps, kw, what, &t)) return false;
    if (t.n >= GN_Q3_NAME_MAX) {
        problem(ps, t.line, kw->s, kw->n, "%s '%s' is %zu characters long, over the %d a name may have", what,
                shown(&t).s, t.n, GN_Q3_NAME_MAX - 1);
        return false;
    }
    memcpy(out, t.s, t.n);
    out[t.n] = '\0';
    return true;
}

/* "( a b c )": parentheses as tokens of their own, as the engine's ParseVector wants them. */
static bool arg_vector(q3_parser *ps, const q3_tok *kw, uint32_t count, float *v)
{
    q3_tok t;
    if (!arg(ps, kw, "'('", &t)) return false;
    if (!tok_is(&t, "(")) {
        problem(ps, t.line, kw->s, kw->n, "expected '(' (a parenthesis with spaces around it), found '%s'",
                shown(&t).s);
        return false;
    }
    for (uint32_t i = 0; i < count; i++)
        if (!arg_number(ps, kw, "a vector element", &v[i])) return false;
    if (!arg(ps, kw, "')'", &t)) return false;
    if (!tok_is(&t, ")")) {
        problem(ps, t.line, kw->s, kw->n, "expected ')' after %u numbers, found '%s'", count, shown(&t).s);
        return false;
    }
    return true;
}

typedef struct q3_name {
    const char *name;
    int value;
} q3_name;

static const q3_name q3_wave_names[] = {
    {"sin", GN_Q3_WAVE_SIN},
    {"triangle", GN_Q3_WAVE_TRIANGLE},
    {"square", GN_Q3_WAVE_SQUARE},
    {"sawtooth", GN_Q3_WAVE_SAWTOOTH},
    {"inversesawtooth", GN_Q3_WAVE_INVERSE_SAWTOOTH},
    {"noise", GN_Q3_WAVE_NOISE},
};
#define Q3_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int name_value(const q3_name *names, size_t count, const q3_tok *t)
{
    for (size_t i = 0; i < count; i++)
        if (tok_is(t, names[i].name)) return names[i].value;
    return -1;
}

static const char *value_name(const q3_name *names, size_t count, int value)
{
    for (size_t i = 0; i < count; i++)
        if (names[i].value == value) return names[i].name;
    return "?";
}

/* func base amp phase freq */
static bool arg_wave(q3_parser *ps, const q3_tok *kw, gn_q3_wave *w)
{
    q3_tok t;
    if (!arg(ps, kw, "a wave function (sin, triangle, square, sawtooth, inversesawtooth, noise)", &t))
        return false;
    int f = name_value(q3_wave_names, Q3_COUNT(q3_wave_names), &t);
    if (f < 0) {
        problem(ps, t.line, kw->s, kw->n, "'%s' is not a wave function", shown(&t).s);
        return false;
    }
    w->func = (gn_q3_wave_func)f;
    return arg_number(ps, kw, "the wave's base", &w->base) &&
           arg_number(ps, kw, "the wave's amplitude", &w->amp) &&
           arg_number(ps, kw, "the wave's phase", &w->phase) &&
           arg_number(ps, kw, "the wave's frequency", &w->freq);
}

/* ---- tables -------------------------------------------------------------------------------- */
static const char *const q3_surf_names[32] = {
    "water",      "slime",      "lava",        "playerclip",  "monsterclip", "nodrop",        "nonsolid",
    "origin",     "trans",      "detail",      "structural",  "areaportal",  "clusterportal", "donotenter",
    "fog",        "sky",        "lightfilter", "alphashadow", "hint",        "slick",         "noimpact",
    "nomarks",    "ladder",     "nodamage",    "metalsteps",  "flesh",       "nosteps",       "nodraw",
    "pointlight", "nolightmap", "nodlight",    "dust",
};

const char *gn_q3_surf_name(uint32_t bit_index) { return bit_index < 32 ? q3_surf_names[bit_index] : NULL; }

static const q3_name q3_sort_names[] = {
    {"portal", 1}, {"sky", 2},        {"opaque", 3},    {"decal", 4},    {"seeThrough", 5},
    {"banner", 6}, {"underwater", 8}, {"additive", 10}, {"nearest", 16},
};

static const q3_name q3_src_blend[] = {
    {"GL_ONE", GN_Q3_BLEND_ONE},
    {"GL_ZERO", GN_Q3_BLEND_ZERO},
    {"GL_DST_COLOR", GN_Q3_BLEND_DST_COLOR},
    {"GL_ONE_MINUS_DST_COLOR", GN_Q3_BLEND_ONE_MINUS_DST_COLOR},
    {"GL_SRC_ALPHA", GN_Q3_BLEND_SRC_ALPHA},
    {"GL_ONE_MINUS_SRC_ALPHA", GN_Q3_BLEND_ONE_MINUS_SRC_ALPHA},
    {"GL_DST_ALPHA", GN_Q3_BLEND_DST_ALPHA},
    {"GL_ONE_MINUS_DST_ALPHA", GN_Q3_BLEND_ONE_MINUS_DST_ALPHA},
    {"GL_SRC_ALPHA_SATURATE", GN_Q3_BLEND_SRC_ALPHA_SATURATE},
};
static const q3_name q3_dst_blend[] = {
    {"GL_ONE", GN_Q3_BLEND_ONE},
    {"GL_ZERO", GN_Q3_BLEND_ZERO},
    {"GL_SRC_ALPHA", GN_Q3_BLEND_SRC_ALPHA},
    {"GL_ONE_MINUS_SRC_ALPHA", GN_Q3_BLEND_ONE_MINUS_SRC_ALPHA},
    {"GL_DST_ALPHA", GN_Q3_BLEND_DST_ALPHA},
    {"GL_ONE_MINUS_DST_ALPHA", GN_Q3_BLEND_ONE_MINUS_DST_ALPHA},
    {"GL_SRC_COLOR", GN_Q3_BLEND_SRC_COLOR},
    {"GL_ONE_MINUS_SRC_COLOR", GN_Q3_BLEND_ONE_MINUS_SRC_COLOR},
};
/* every factor by name, for gn_q3_describe */
static const q3_name q3_blend_names[] = {
    {"GL_ONE", GN_Q3_BLEND_ONE},
    {"GL_ZERO", GN_Q3_BLEND_ZERO},
    {"GL_DST_COLOR", GN_Q3_BLEND_DST_COLOR},
    {"GL_ONE_MINUS_DST_COLOR", GN_Q3_BLEND_ONE_MINUS_DST_COLOR},
    {"GL_SRC_COLOR", GN_Q3_BLEND_SRC_COLOR},
    {"GL_ONE_MINUS_SRC_COLOR", GN_Q3_BLEND_ONE_MINUS_SRC_COLOR},
    {"GL_SRC_ALPHA", GN_Q3_BLEND_SRC_ALPHA},
    {"GL_ONE_MINUS_SRC_ALPHA", GN_Q3_BLEND_ONE_MINUS_SRC_ALPHA},
    {"GL_DST_ALPHA", GN_Q3_BLEND_DST_ALPHA},
    {"GL_ONE_MINUS_DST_ALPHA", GN_Q3_BLEND_ONE_MINUS_DST_ALPHA},
    {"GL_SRC_ALPHA_SATURATE", GN_Q3_BLEND_SRC_ALPHA_SATURATE},
};

static const q3_name q3_alpha_funcs[] = {
    {"GT0", GN_Q3_ALPHA_FUNC_GT0}, {"LT128", GN_Q3_ALPHA_FUNC_LT128}, {"GE128", GN_Q3_ALPHA_FUNC_GE128}};

/* rgbGen and alphaGen values that take no argument */
static const q3_name q3_rgb_gens[] = {
    {"identity", GN_Q3_RGB_IDENTITY},
    {"identityLighting", GN_Q3_RGB_IDENTITY_LIGHTING},
    {"vertex", GN_Q3_RGB_VERTEX},
    {"exactVertex", GN_Q3_RGB_EXACT_VERTEX},
    {"oneMinusVertex", GN_Q3_RGB_ONE_MINUS_VERTEX},
    {"entity", GN_Q3_RGB_ENTITY},
    {"oneMinusEntity", GN_Q3_RGB_ONE_MINUS_ENTITY},
    {"lightingDiffuse", GN_Q3_RGB_LIGHTING_DIFFUSE},
};
static const q3_name q3_alpha_gens[] = {
    {"identity", GN_Q3_ALPHA_IDENTITY},
    {"vertex", GN_Q3_ALPHA_VERTEX},
    {"oneMinusVertex", GN_Q3_ALPHA_ONE_MINUS_VERTEX},
    {"entity", GN_Q3_ALPHA_ENTITY},
    {"oneMinusEntity", GN_Q3_ALPHA_ONE_MINUS_ENTITY},
    {"lightingSpecular", GN_Q3_ALPHA_LIGHTING_SPECULAR},
};

/* ---- stage keywords ------------------------------------------------------------------------ */
typedef enum { KW_OK, KW_BAD, KW_ENDED } kw_result;

static kw_result kw_map(q3_parser *ps, const q3_tok *kw, gn_q3_stage *st, bool clamp)
{
    q3_tok t;
    if (!lex_next(ps, true, &t)) {
        problem_at(ps, kw, kw->line, "missing the image to map");
        return KW_BAD;
    }
    if (!clamp && (tok_is(&t, "$lightmap") || tok_is(&t, "$whiteimage"))) {
        st->map_kind = tok_is(&t, "$lightmap") ? GN_Q3_MAP_LIGHTMAP : GN_Q3_MAP_WHITE;
        st->clamp = false;
        return KW_OK;
    }
    if (t.n >= GN_Q3_NAME_MAX) {
        problem(ps, t.line, kw->s, kw->n,
                "the image path '%s' is %zu characters long, over the %d a path may have", shown(&t).s, t.n,
                GN_Q3_NAME_MAX - 1);
        return KW_BAD;
    }
    memcpy(st->map, t.s, t.n);
    st->map[t.n] = '\0';
    st->map_kind = GN_Q3_MAP_IMAGE;
    st->clamp = clamp;
    return KW_OK;
}

static kw_result kw_anim_map(q3_parser *ps, const q3_tok *kw, gn_q3_stage *st)
{
    float freq;
    if (!arg_number(ps, kw, "the frame rate", &freq)) return KW_BAD;
    char frames[GN_Q3_MAX_ANIM_FRAMES][GN_Q3_NAME_MAX];
    uint32_t count = 0, extra = 0;
    q3_tok t;
    while (lex_next(ps, true, &t)) {
        if (count == GN_Q3_MAX_ANIM_FRAMES) {
            extra++;
            continue;
        }
        if (t.n >= GN_Q3_NAME_MAX) {
            problem(ps, t.line, kw->s, kw->n,
                    "the frame '%s' is %zu characters long, over the %d a path may have", shown(&t).s, t.n,
                    GN_Q3_NAME_MAX - 1);
            return KW_BAD;
        }
        memcpy(frames[count], t.s, t.n);
        frames[count++][t.n] = '\0';
    }
    if (!count) {
        problem_at(ps, kw, kw->line, "no frames after the frame rate");
        return KW_BAD;
    }
    if (extra)
        problem(ps, kw->line, kw->s, kw->n, "%u frames past the %d an animMap may have: ignored", extra,
                GN_Q3_MAX_ANIM_FRAMES);
    st->map_kind = GN_Q3_MAP_ANIM;
    st->clamp = false;
    st->anim_freq = freq;
    st->anim_frame_count = count;
    memcpy(st->anim_frames, frames, count * sizeof frames[0]);
    return KW_OK;
}

static kw_result kw_blend_func(q3_parser *ps, const q3_tok *kw, gn_q3_stage *st)
{
    q3_tok t;
    if (!arg(ps, kw, "the blend (add, filter, blend or two GL_ factors)", &t)) return KW_BAD;
    if (tok_is(&t, "add")) {
        st->blend_src = GN_Q3_BLEND_ONE, st->blend_dst = GN_Q3_BLEND_ONE;
        return KW_OK;
    }
    if (tok_is(&t, "filter")) {
        st->blend_src = GN_Q3_BLEND_DST_COLOR, st->blend_dst = GN_Q3_BLEND_ZERO;
        return KW_OK;
    }
    if (tok_is(&t, "blend")) {
        st->blend_src = GN_Q3_BLEND_SRC_ALPHA, st->blend_dst = GN_Q3_BLEND_ONE_MINUS_SRC_ALPHA;
        return KW_OK;
    }
    /* an unknown factor is GL_ONE, as the engine substitutes it (with its warning) */
    int src = name_value(q3_src_blend, Q3_COUNT(q3_src_blend), &t);
    if (src < 0) {
        problem(ps, t.line, kw->s, kw->n,
                "'%s' is not a source blend factor: GL_ONE used, as the engine does", shown(&t).s);
        src = GN_Q3_BLEND_ONE;
    }
    if (!arg(ps, kw, "the destination blend factor", &t)) return KW_BAD;
    int dst = name_value(q3_dst_blend, Q3_COUNT(q3_dst_blend), &t);
    if (dst < 0) {
        problem(ps, t.line, kw->s, kw->n,
                "'%s' is not a destination blend factor: GL_ONE used, as the engine does", shown(&t).s);
        dst = GN_Q3_BLEND_ONE;
    }
    st->blend_src = (gn_q3_blend)src, st->blend_dst = (gn_q3_blend)dst;
    return KW_OK;
}

static kw_result kw_rgb_gen(q3_parser *ps, const q3_tok *kw, gn_q3_stage *st)
{
    q3_tok t;
    if (!arg(ps, kw, "the colour source", &t)) return KW_BAD;
    int v = name_value(q3_rgb_gens, Q3_COUNT(q3_rgb_gens), &t);
    if (v >= 0) {
        st->rgb_gen = (gn_q3_rgb_gen)v;
        return KW_OK;
    }
    if (tok_is(&t, "wave")) {
        gn_q3_wave w;
        if (!arg_wave(ps, kw, &w)) return KW_BAD;
        st->rgb_gen = GN_Q3_RGB_WAVE, st->rgb_wave = w;
        return KW_OK;
    }
    if (tok_is(&t, "const")) {
        float c[3];
        if (!arg_vector(ps, kw, 3, c)) return KW_BAD;
        st->rgb_gen = GN_Q3_RGB_CONST;
        memcpy(st->rgb_const, c, sizeof c);
        return KW_OK;
    }
    unknown(ps, "rgbgen ", &t);
    return KW_BAD;
}

static kw_result kw_alpha_gen(q3_parser *ps, const q3_tok *kw, gn_q3_stage *st)
{
    q3_tok t;
    if (!arg(ps, kw, "the alpha source", &t)) return KW_BAD;
    int v = name_value(q3_alpha_gens, Q3_COUNT(q3_alpha_gens), &t);
    if (v >= 0) {
        st->alpha_gen = (gn_q3_alpha_gen)v;
        return KW_OK;
    }
    if (tok_is(&t, "wave")) {
        gn_q3_wave w;
        if (!arg_wave(ps, kw, &w)) return KW_BAD;
        st->alpha_gen = GN_Q3_ALPHA_WAVE, st->alpha_wave = w;
        return KW_OK;
    }
    if (tok_is(&t, "const")) {
        float a;
        if (!arg_number(ps, kw, "the constant alpha", &a)) return KW_BAD;
        st->alpha_gen = GN_Q3_ALPHA_CONST, st->alpha_const = a;
        return KW_OK;
    }
    if (tok_is(&t, "portal")) {
        float d = 256.0f; /* the engine's default, with its warning */
        q3_tok dt;
        if (!lex_next(ps, true, &dt))
            problem_at(ps, kw, kw->line, "missing the portal's distance (256 used, as the engine does)");
        else if (!parse_number(dt.s, dt.n, &d)) {
            problem(ps, dt.line, kw->s, kw->n, "the portal's distance: '%s' is not a number", shown(&dt).s);
            return KW_BAD;
        }
        st->alpha_gen = GN_Q3_ALPHA_PORTAL, st->alpha_portal = d;
        return KW_OK;
    }
    unknown(ps, "alphagen ", &t);
    return KW_BAD;
}

static kw_result kw_tc_gen(q3_parser *ps, const q3_tok *kw, gn_q3_stage *st)
{
    q3_tok t;
    if (!arg(ps, kw, "the texture coordinate source", &t)) return KW_BAD;
    if (tok_is(&t, "base") || tok_is(&t, "texture"))
        st->tc_gen = GN_Q3_TC_TEXTURE;
    else if (tok_is(&t, "lightmap"))
        st->tc_gen = GN_Q3_TC_LIGHTMAP;
    else if (tok_is(&t, "environment"))
        st->tc_gen = GN_Q3_TC_ENVIRONMENT;
    else if (tok_is(&t, "vector")) {
        float v[2][3];
        if (!arg_vector(ps, kw, 3, v[0]) || !arg_vector(ps, kw, 3, v[1])) return KW_BAD;
        st->tc_gen = GN_Q3_TC_VECTOR;
        memcpy(st->tc_vector, v, sizeof v);
    } else {
        unknown(ps, "tcgen ", &t);
        return KW_BAD;
    }
    return KW_OK;
}

static kw_result kw_tc_mod(q3_parser *ps, const q3_tok *kw, gn_q3_stage *st)
{
    q3_tok t;
    if (!arg(ps, kw, "the kind of tcMod", &t)) return KW_BAD;
    gn_q3_tcmod m = {0};
    bool ok = true;
    if (tok_is(&t, "scroll")) {
        m.type = GN_Q3_TCMOD_SCROLL;
        ok = arg_number(ps, kw, "the s speed", &m.v[0]) && arg_number(ps, kw, "the t speed", &m.v[1]);
    } else if (tok_is(&t, "scale")) {
        m.type = GN_Q3_TCMOD_SCALE;
        ok = arg_number(ps, kw, "the s scale", &m.v[0]) && arg_number(ps, kw, "the t scale", &m.v[1]);
    } else if (tok_is(&t, "rotate")) {
        m.type = GN_Q3_TCMOD_ROTATE;
        ok = arg_number(ps, kw, "the rotation speed", &m.v[0]);
    } else if (tok_is(&t, "turb")) {
        m.type = GN_Q3_TCMOD_TURB;
        ok = arg_number(ps, kw, "the turbulence's base", &m.wave.base) &&
             arg_number(ps, kw, "the turbulence's amplitude", &m.wave.amp) &&
             arg_number(ps, kw, "the turbulence's phase", &m.wave.phase) &&
             arg_number(ps, kw, "the turbulence's frequency", &m.wave.freq);
    } else if (tok_is(&t, "stretch")) {
        m.type = GN_Q3_TCMOD_STRETCH;
        ok = arg_wave(ps, kw, &m.wave);
    } else if (tok_is(&t, "transform")) {
        m.type = GN_Q3_TCMOD_TRANSFORM;
        static const char *const what[6] = {"m00", "m01", "m10", "m11", "t0", "t1"};
        for (int i = 0; ok && i < 6; i++) ok = arg_number(ps, kw, what[i], &m.v[i]);
    } else if (tok_is(&t, "entityTranslate")) {
        m.type = GN_Q3_TCMOD_ENTITY_TRANSLATE;
    } else {
        unknown(ps, "tcmod ", &t);
        return KW_BAD;
    }
    if (!ok) return KW_BAD;
    if (st->tcmod_count == GN_Q3_MAX_TCMODS) {
        problem(ps, kw->line, kw->s, kw->n, "more than %d tcMods in a stage: this one is dropped",
                GN_Q3_MAX_TCMODS);
        return KW_BAD;
    }
    st->tcmods[st->tcmod_count++] = m;
    return KW_OK;
}

static kw_result stage_keyword(q3_parser *ps, const q3_tok *kw, gn_q3_stage *st)
{
    q3_tok t;
    if (tok_is(kw, "map")) return kw_map(ps, kw, st, false);
    if (tok_is(kw, "clampMap")) return kw_map(ps, kw, st, true);
    if (tok_is(kw, "animMap")) return kw_anim_map(ps, kw, st);
    if (tok_is(kw, "videoMap")) {
        if (!arg_name(ps, kw, "the video", st->map)) return KW_BAD;
        st->map_kind = GN_Q3_MAP_VIDEO;
        return KW_OK;
    }
    if (tok_is(kw, "blendFunc")) return kw_blend_func(ps, kw, st);
    if (tok_is(kw, "alphaFunc")) {
        if (!arg(ps, kw, "the alpha test (GT0, LT128, GE128)", &t)) return KW_BAD;
        int v = name_value(q3_alpha_funcs, Q3_COUNT(q3_alpha_funcs), &t);
        if (v < 0) {
            problem(ps, t.line, kw->s, kw->n, "'%s' is not an alpha test (GT0, LT128, GE128)", shown(&t).s);
            return KW_BAD;
        }
        st->alpha_func = (gn_q3_alpha_func)v;
        return KW_OK;
    }
    if (tok_is(kw, "depthWrite")) {
        st->depth_write = true;
        return KW_OK;
    }
    if (tok_is(kw, "depthFunc")) {
        if (!arg(ps, kw, "the depth test (lequal, equal)", &t)) return KW_BAD;
        if (tok_is(&t, "lequal"))
            st->depth_func = GN_Q3_DEPTH_LEQUAL;
        else if (tok_is(&t, "equal"))
            st->depth_func = GN_Q3_DEPTH_EQUAL;
        else {
            problem(ps, t.line, kw->s, kw->n, "'%s' is not a depth test (lequal, equal)", shown(&t).s);
            return KW_BAD;
        }
        return KW_OK;
    }
    if (tok_is(kw, "detail")) {
        st->detail = true;
        return KW_OK;
    }
    if (tok_is(kw, "rgbGen")) return kw_rgb_gen(ps, kw, st);
    if (tok_is(kw, "alphaGen")) return kw_alpha_gen(ps, kw, st);
    if (tok_is(kw, "tcGen") || tok_is(kw, "texGen")) return kw_tc_gen(ps, kw, st);
    if (tok_is(kw, "tcMod")) return kw_tc_mod(ps, kw, st);
    unknown(ps, "", kw);
    return KW_BAD;
}

/* ---- shader keywords ----------------------------------------------------------------------- */
static kw_result kw_deform(q3_parser *ps, const q3_tok *kw, gn_q3_shader *sh)
{
    q3_tok t;
    if (!arg(ps, kw, "the kind of deformation", &t)) return KW_BAD;
    gn_q3_deform d = {0};
    bool ok = true;
    if (tok_is(&t, "wave")) {
        d.type = GN_Q3_DEFORM_WAVE;
        ok = arg_number(ps, kw, "the wave's spread (div)", &d.div) && arg_wave(ps, kw, &d.wave);
        if (ok && d.div == 0.0f)
            problem_at(ps, kw, kw->line, "a wave's spread (div) of 0: the engine uses 100 in its place");
    } else if (tok_is(&t, "normal")) {
        d.type = GN_Q3_DEFORM_NORMAL;
        ok = arg_number(ps, kw, "the amplitude", &d.wave.amp) &&
             arg_number(ps, kw, "the frequency", &d.wave.freq);
    } else if (tok_is(&t, "bulge")) {
        d.type = GN_Q3_DEFORM_BULGE;
        ok = arg_number(ps, kw, "the bulge's width", &d.bulge[0]) &&
             arg_number(ps, kw, "the bulge's height", &d.bulge[1]) &&
             arg_number(ps, kw, "the bulge's speed", &d.bulge[2]);
    } else if (tok_is(&t, "move")) {
        d.type = GN_Q3_DEFORM_MOVE;
        ok = arg_number(ps, kw, "the move's x", &d.move[0]) &&
             arg_number(ps, kw, "the move's y", &d.move[1]) &&
             arg_number(ps, kw, "the move's z", &d.move[2]) && arg_wave(ps, kw, &d.wave);
    } else if (tok_is(&t, "autosprite")) {
        d.type = GN_Q3_DEFORM_AUTOSPRITE;
    } else if (tok_is(&t, "autosprite2")) {
        d.type = GN_Q3_DEFORM_AUTOSPRITE2;
    } else if (tok_is(&t, "projectionShadow")) {
        d.type = GN_Q3_DEFORM_PROJECTION_SHADOW;
    } else if (t.n == 5 && tok_prefix(&t, "text") && t.s[4] >= '0' && t.s[4] <= '7') {
        d.type = GN_Q3_DEFORM_TEXT;
        d.text_index = (uint32_t)(t.s[4] - '0');
    } else {
        unknown(ps, "deformvertexes ", &t);
        return KW_BAD;
    }
    if (!ok) return KW_BAD;
    if (sh->deform_count == GN_Q3_MAX_DEFORMS) {
        ps->lib->report.deforms_dropped++;
        problem(ps, kw->line, kw->s, kw->n, "more than %d deformVertexes in %s: this one is dropped",
                GN_Q3_MAX_DEFORMS, sh->name);
        return KW_BAD;
    }
    sh->deforms[sh->deform_count++] = d;
    return KW_OK;
}

static kw_result kw_sky(q3_parser *ps, const q3_tok *kw, gn_q3_shader *sh)
{
    char far[GN_Q3_NAME_MAX], near[GN_Q3_NAME_MAX];
    q3_tok t;
    if (!arg_name(ps, kw, "the far box (a name or '-')", far)) return KW_BAD;
    if (!arg(ps, kw, "the cloud height (a number or '-')", &t)) return KW_BAD;
    float height = 0.0f;
    if (!tok_is(&t, "-") && !parse_number(t.s, t.n, &height)) {
        problem(ps, t.line, kw->s, kw->n, "the cloud height: '%s' is neither a number nor '-'", shown(&t).s);
        return KW_BAD;
    }
    if (!arg_name(ps, kw, "the near box (a name or '-')", near)) return KW_BAD;
    sh->has_sky = true;
    strcpy(sh->sky_far, strcmp(far, "-") ? far : "");
    strcpy(sh->sky_near, strcmp(near, "-") ? near : "");
    sh->sky_cloud_height = height;
    return KW_OK;
}

static kw_result kw_fog(q3_parser *ps, const q3_tok *kw, gn_q3_shader *sh)
{
    float rgb[3], dist;
    if (!arg_vector(ps, kw, 3, rgb) || !arg_number(ps, kw, "the distance to opaque", &dist)) return KW_BAD;
    sh->has_fog = true;
    memcpy(sh->fog_color, rgb, sizeof rgb);
    sh->fog_distance = dist;
    skip_line(ps); /* the engine skips an old gradient direction after the distance */
    return KW_OK;
}

/* A token that is surely a shader name, not a keyword: a path. */
static bool looks_like_name(const q3_tok *t) { return memchr(t->s, '/', t->n) != NULL; }

/* Whether kw, an unknown keyword, is rather the name of the next shader: a path alone on its
 * line and a '{' after it (its block, then, lacks its '}'). If so both are pushed back for the
 * file's loop to read; if not, what was looked at is left as it was, but for a token after kw
 * on its line, which is skipped with the rest of it. */
static bool starts_next_shader(q3_parser *ps, const q3_tok *kw)
{
    q3_tok next;
    if (!looks_like_name(kw) || lex_next(ps, true, &next) || !lex_next(ps, false, &next)) return false;
    push_back(ps, &next);
    if (!is_open(&next)) return false;
    push_back(ps, kw);
    return true;
}

static kw_result shader_keyword(q3_parser *ps, const q3_tok *kw, gn_q3_shader *sh)
{
    q3_tok t;
    if (tok_prefix(kw, "q3map") || tok_prefix(kw, "qer") || tok_is(kw, "tessSize") || tok_is(kw, "light")) {
        ps->lib->report.tool_keywords++;
        skip_line(ps);
        return KW_OK;
    }
    if (tok_is(kw, "surfaceParm")) {
        if (!arg(ps, kw, "the surface parameter", &t)) return KW_BAD;
        for (uint32_t i = 0; i < 32; i++)
            if (tok_is(&t, q3_surf_names[i])) {
                sh->surface_flags |= 1u << i;
                return KW_OK;
            }
        unknown(ps, "surfaceparm ", &t);
        return KW_BAD;
    }
    if (tok_is(kw, "cull")) {
        if (!arg(ps, kw, "the faces to cull (front, back, none)", &t)) return KW_BAD;
        if (tok_is(&t, "front"))
            sh->cull = GN_Q3_CULL_FRONT;
        else if (tok_is(&t, "back") || tok_is(&t, "backside") || tok_is(&t, "backsided"))
            sh->cull = GN_Q3_CULL_BACK;
        else if (tok_is(&t, "none") || tok_is(&t, "twosided") || tok_is(&t, "disable"))
            sh->cull = GN_Q3_CULL_NONE;
        else {
            problem(ps, t.line, kw->s, kw->n, "'%s' is not a cull mode (front, back, none)", shown(&t).s);
            return KW_BAD;
        }
        return KW_OK;
    }
    if (tok_is(kw, "sort")) {
        if (!arg(ps, kw, "the sort (a name or a number)", &t)) return KW_BAD;
        int v = name_value(q3_sort_names, Q3_COUNT(q3_sort_names), &t);
        if (v >= 0)
            sh->sort = (float)v;
        else if (!parse_number(t.s, t.n, &sh->sort)) {
            problem(ps, t.line, kw->s, kw->n, "'%s' is neither a sort name nor a number", shown(&t).s);
            return KW_BAD;
        }
        return KW_OK;
    }
    if (tok_is(kw, "polygonOffset")) return sh->polygon_offset = true, KW_OK;
    if (tok_is(kw, "nomipmaps")) return sh->no_mipmaps = true, KW_OK;
    if (tok_is(kw, "nopicmip")) return sh->no_picmip = true, KW_OK;
    if (tok_is(kw, "portal")) return sh->portal = true, KW_OK;
    if (tok_is(kw, "entityMergable")) return sh->entity_mergable = true, KW_OK;
    if (tok_is(kw, "skyParms")) return kw_sky(ps, kw, sh);
    if (tok_is(kw, "fogParms")) return kw_fog(ps, kw, sh);
    if (tok_is(kw, "deformVertexes")) return kw_deform(ps, kw, sh);
    if (tok_is(kw, "clampTime")) {
        float v;
        return arg_number(ps, kw, "the time", &v) ? KW_OK : KW_BAD;
    }
    if (starts_next_shader(ps, kw)) {
        problem(ps, kw->line, kw->s, kw->n, "%s (from line %u) has no closing '}' before the shader %s",
                sh->name, sh->line, shown(kw).s);
        return KW_ENDED;
    }
    unknown(ps, "", kw);
    return KW_BAD;
}

/* Reports what is left on kw's line and skips it. */
static void end_of_statement(q3_parser *ps, const q3_tok *kw, kw_result r)
{
    q3_tok t;
    if (r == KW_OK && lex_next(ps, true, &t))
        problem(ps, t.line, kw->s, kw->n, "'%s' after the arguments: the rest of the line is ignored",
                shown(&t).s);
    skip_line(ps);
}

/* ---- blocks -------------------------------------------------------------------------------- */
typedef enum { STAGE_OK, STAGE_EOF, STAGE_SHADER_ENDED } stage_result;

/* After a stage's '{' (on line). */
static stage_result parse_stage(q3_parser *ps, gn_q3_stage *st, uint32_t line)
{
    memset(st, 0, sizeof *st);
    st->line = line;
    q3_tok t;
    while (!ps->oom && lex_next(ps, false, &t)) {
        if (is_close(&t)) return STAGE_OK;
        if (is_open(&t)) {
            problem(ps, t.line, "{", 1, "a '{' inside a stage: the stage from line %u has no '}'", line);
            push_back(ps, &t);
            return STAGE_OK;
        }
        if (starts_next_shader(ps, &t)) {
            problem(ps, t.line, t.s, t.n,
                    "the stage from line %u and its shader have no '}' before the shader %s", line,
                    shown(&t).s);
            return STAGE_SHADER_ENDED;
        }
        end_of_statement(ps, &t, stage_keyword(ps, &t, st));
    }
    if (!ps->oom) problem(ps, line, "{", 1, "the text ends inside the stage that starts on line %u", line);
    return STAGE_EOF;
}

static uint32_t key_of(const char *name, size_t n, char key[GN_Q3_NAME_MAX])
{
    if (n >= GN_Q3_NAME_MAX) return 0;
    size_t cut = n;
    for (size_t i = 0; i < n; i++) {
        char c = name[i] == '\\' ? '/' : lower(name[i]);
        key[i] = c;
        if (c == '.') cut = i;
        if (c == '/') cut = n;
    }
    if (cut == 0) cut = n; /* ".x" stays a name */
    key[cut] = '\0';
    return (uint32_t)cut;
}

static uint32_t key_hash(const char *key)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *key; key++) h = (h ^ (uint8_t)*key) * 16777619u;
    return h;
}

/* The slot of key: its shader's, or the empty one where it would go. */
static uint32_t *slot_of(const gn_q3_library *lib, const char *key)
{
    uint32_t mask = lib->slot_count - 1;
    for (uint32_t i = key_hash(key) & mask;; i = (i + 1) & mask) {
        uint32_t *s = &lib->slots[i];
        if (!*s) return s;
        char other[GN_Q3_NAME_MAX];
        const gn_q3_shader *sh = &lib->shaders[*s - 1];
        key_of(sh->name, strlen(sh->name), other);
        if (strcmp(other, key) == 0) return s;
    }
}

/* Room for one more name: the table stays at most half full. */
static bool slots_reserve(gn_q3_library *lib)
{
    if ((uint64_t)(lib->shader_count + 1) * 2 <= lib->slot_count) return true;
    uint32_t count = lib->slot_count ? lib->slot_count * 2 : 256;
    uint32_t *slots = gn_calloc(count, sizeof *slots);
    if (!slots) return false;
    free(lib->slots);
    lib->slots = slots;
    lib->slot_count = count;
    for (uint32_t i = 0; i < lib->shader_count; i++) {
        char key[GN_Q3_NAME_MAX];
        key_of(lib->shaders[i].name, strlen(lib->shaders[i].name), key);
        *slot_of(lib, key) = i + 1;
    }
    return true;
}

/* The shader read whole into the library, by the override rule of q3shader.h. */
static void commit(q3_parser *ps)
{
    gn_q3_library *lib = ps->lib;
    gn_q3_shader *sh = &ps->sh;
    char key[GN_Q3_NAME_MAX];
    key_of(sh->name, strlen(sh->name), key);
    uint32_t *slot = lib->slot_count ? slot_of(lib, key) : NULL;
    gn_q3_shader *old = slot && *slot ? &lib->shaders[*slot - 1] : NULL;
    lib->report.definitions++;
    lib->report.stages += sh->stage_count;
    if (old && old->file == ps->file) {
        lib->report.duplicates++;
        return;
    }
    if (!old && lib->shader_count == GN_Q3_MAX_SHADERS) {
        if (!ps->cap_noted)
            problem(ps, sh->line, sh->name, strlen(sh->name),
                    "more than %u shaders: this one and the rest of the file's new names are dropped",
                    GN_Q3_MAX_SHADERS);
        ps->cap_noted = true;
        return;
    }
    gn_q3_stage *stages = NULL;
    if (sh->stage_count) {
        stages = gn_malloc(sh->stage_count * sizeof *stages);
        if (!stages) {
            ps->oom = true;
            return;
        }
        memcpy(stages, ps->stages, sh->stage_count * sizeof *stages);
    }
    sh->stages = stages;
    if (old) {
        lib->report.overridden++;
        free(old->stages);
        *old = *sh;
        return;
    }
    if (!gn_grow((void **)&lib->shaders, &lib->shader_cap, (uint64_t)lib->shader_count + 1,
                 sizeof *lib->shaders, GN_Q3_MAX_SHADERS) ||
        !slots_reserve(lib)) {
        free(stages);
        ps->oom = true;
        return;
    }
    lib->shaders[lib->shader_count++] = *sh;
    *slot_of(lib, key) = lib->shader_count;
}

/* After a shader's name and '{' (on line). */
static void parse_shader(q3_parser *ps, const q3_tok *name, uint32_t line)
{
    if (name->n >= GN_Q3_NAME_MAX) {
        problem(
            ps, name->line, name->s, name->n,
            "the shader name '%s' is %zu characters long, over the %d a name may have: the shader is skipped",
            shown(name).s, name->n, GN_Q3_NAME_MAX - 1);
        skip_block(ps, name, line);
        return;
    }
    gn_q3_shader *sh = &ps->sh;
    memset(sh, 0, sizeof *sh);
    memcpy(sh->name, name->s, name->n);
    sh->file = ps->file;
    sh->line = line;
    uint32_t skipped = 0, first_skipped = 0;
    q3_tok t;
    for (;;) {
        if (ps->oom) return;
        if (!lex_next(ps, false, &t)) {
            problem(ps, line, name->s, name->n, "the text ends inside %s: no '}' for the '{' on line %u",
                    sh->name, line);
            return;
        }
        if (is_close(&t)) break;
        if (is_open(&t)) {
            bool kept = sh->stage_count < GN_Q3_MAX_STAGES;
            if (!kept && !skipped++) first_skipped = t.line;
            stage_result r = parse_stage(ps, kept ? &ps->stages[sh->stage_count] : &ps->scratch, t.line);
            if (r == STAGE_EOF) return;
            if (kept) sh->stage_count++;
            if (r == STAGE_SHADER_ENDED) break;
            continue;
        }
        kw_result r = shader_keyword(ps, &t, sh);
        if (r == KW_ENDED) break;
        end_of_statement(ps, &t, r);
    }
    if (skipped)
        problem(ps, first_skipped, name->s, name->n, "more than %d stages in %s: %u skipped from line %u",
                GN_Q3_MAX_STAGES, sh->name, skipped, first_skipped);
    commit(ps);
}

/* The file: `name { ... }` blocks. A name with no '{' after it is read as if the '{' were
 * there (the token after it starts the body), unless that token is a path alone before a '{',
 * the stray name standing before the next shader, which starts_next_shader sees to. */
static void parse_file(q3_parser *ps)
{
    q3_tok t;
    while (!ps->oom && lex_next(ps, false, &t)) {
        if (is_close(&t)) {
            problem(ps, t.line, "}", 1, "a '}' outside any shader");
            continue;
        }
        if (is_open(&t)) {
            problem(ps, t.line, "{", 1, "a '{' without a shader name before it: the block is skipped");
            skip_block(ps, &t, t.line);
            continue;
        }
        q3_tok brace;
        if (!lex_next(ps, false, &brace)) {
            problem(ps, t.line, t.s, t.n, "the text ends after the shader name '%s', before its '{'",
                    shown(&t).s);
            return;
        }
        if (!is_open(&brace)) {
            problem(ps, brace.line, t.s, t.n,
                    "no '{' after the shader name '%s' (found '%s'): read as if it were there", shown(&t).s,
                    shown(&brace).s);
            push_back(ps, &brace);
            parse_shader(ps, &t, t.line);
            continue;
        }
        parse_shader(ps, &t, brace.line);
    }
}

/* ---- the library --------------------------------------------------------------------------- */
gn_result gn_q3_library_add_file(gn_q3_library *lib, const char *text, size_t len, const char *file,
                                 gn_error *err)
{
    if (!lib || (!text && len) || !file)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "gn_q3_library_add_file: no library, text or file name");
    if (lib->file_count >= GN_Q3_MAX_FILES)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: more than %u shader scripts: not read", file,
                       GN_Q3_MAX_FILES);
    q3_parser *ps = gn_calloc(1, sizeof *ps); /* about 9 KB: the stages being read */
    char *name = gn_strdup(file);
    if (!ps || !name ||
        !gn_grow((void **)&lib->files, &lib->file_cap, (uint64_t)lib->file_count + 1, sizeof *lib->files,
                 GN_Q3_MAX_FILES)) {
        free(ps);
        free(name);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory reading the shader script", file);
    }
    ps->lib = lib;
    ps->file = name;
    if (len > GN_Q3_MAX_FILE_BYTES) { /* its name stays, for the problem's file */
        lib->files[lib->file_count++] = name;
        problem(ps, 0, NULL, 0, "%zu bytes, over the %u a shader script may have: not read", len,
                GN_Q3_MAX_FILE_BYTES);
        free(ps);
        return gn_fail(err, GN_ERROR_BAD_DATA,
                       "%s: %zu bytes, over the %u a shader script may have: not read", file, len,
                       GN_Q3_MAX_FILE_BYTES);
    }
    lib->files[lib->file_count++] = name;
    lib->report.files++;
    if (!text) text = ""; /* len is 0: no arithmetic on a null pointer */
    ps->p = text;
    ps->end = text + len;
    ps->line = 1;
    parse_file(ps);
    bool oom = ps->oom;
    free(ps);
    if (oom) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory reading the shader script", file);
    return GN_OK;
}

const gn_q3_shader *gn_q3_library_find(const gn_q3_library *lib, const char *name)
{
    if (!lib || !name || !lib->slot_count) return NULL;
    char key[GN_Q3_NAME_MAX];
    size_t n = strlen(name);
    if (n >= GN_Q3_NAME_MAX) return NULL;
    key_of(name, n, key);
    uint32_t *s = slot_of(lib, key);
    return *s ? &lib->shaders[*s - 1] : NULL;
}

void gn_q3_library_free(gn_q3_library *lib)
{
    if (!lib) return;
    for (uint32_t i = 0; i < lib->shader_count; i++) free(lib->shaders[i].stages);
    for (uint32_t i = 0; i < lib->file_count; i++) free(lib->files[i]);
    free(lib->shaders);
    free(lib->files);
    free(lib->slots);
    free(lib->report.problems);
    free(lib->report.unknown);
    memset(lib, 0, sizeof *lib);
}

/* ---- describe ------------------------------------------------------------------------------ */
typedef struct q3_out {
    char *buf;
    size_t cap, len;
} q3_out;

static void __attribute__((format(printf, 2, 3))) out(q3_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = o->len < o->cap ? o->buf + o->len : NULL;
    int n = vsnprintf(at, at ? o->cap - o->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0) o->len += (size_t)n;
}

/* A name as a token that reads back as itself: quoted when it holds a blank or a comment's
 * start, or is empty or a brace (only a quoted token can be any of those). */
static void out_name(q3_out *o, const char *name)
{
    bool quote =
        !name[0] || strstr(name, "//") || strstr(name, "/*") || !strcmp(name, "{") || !strcmp(name, "}");
    for (const char *c = name; *c && !quote; c++) quote = (unsigned char)*c <= ' ';
    out(o, quote ? "\"%s\"" : "%s", name);
}

static void out_wave(q3_out *o, const gn_q3_wave *w)
{
    out(o, " %s %g %g %g %g", value_name(q3_wave_names, Q3_COUNT(q3_wave_names), (int)w->func), w->base,
        w->amp, w->phase, w->freq);
}

static void out_stage(q3_out *o, const gn_q3_stage *st)
{
    out(o, "\t{\n");
    switch (st->map_kind) {
    case GN_Q3_MAP_IMAGE:
        out(o, "\t\t%s ", st->clamp ? "clampMap" : "map");
        out_name(o, st->map);
        out(o, "\n");
        break;
    case GN_Q3_MAP_LIGHTMAP:
        out(o, "\t\tmap $lightmap\n");
        break;
    case GN_Q3_MAP_WHITE:
        out(o, "\t\tmap $whiteimage\n");
        break;
    case GN_Q3_MAP_VIDEO:
        out(o, "\t\tvideoMap ");
        out_name(o, st->map);
        out(o, "\n");
        break;
    case GN_Q3_MAP_ANIM:
        out(o, "\t\tanimMap %g", st->anim_freq);
        for (uint32_t i = 0; i < st->anim_frame_count; i++) {
            out(o, " ");
            out_name(o, st->anim_frames[i]);
        }
        out(o, "\n");
        break;
    case GN_Q3_MAP_NONE:
        break;
    }
    if (st->blend_src)
        out(o, "\t\tblendFunc %s %s\n",
            value_name(q3_blend_names, Q3_COUNT(q3_blend_names), (int)st->blend_src),
            value_name(q3_blend_names, Q3_COUNT(q3_blend_names), (int)st->blend_dst));
    if (st->alpha_func)
        out(o, "\t\talphaFunc %s\n",
            value_name(q3_alpha_funcs, Q3_COUNT(q3_alpha_funcs), (int)st->alpha_func));
    if (st->depth_write) out(o, "\t\tdepthWrite\n");
    if (st->depth_func == GN_Q3_DEPTH_EQUAL) out(o, "\t\tdepthFunc equal\n");
    if (st->rgb_gen == GN_Q3_RGB_WAVE) {
        out(o, "\t\trgbGen wave");
        out_wave(o, &st->rgb_wave);
        out(o, "\n");
    } else if (st->rgb_gen == GN_Q3_RGB_CONST) {
        out(o, "\t\trgbGen const ( %g %g %g )\n", st->rgb_const[0], st->rgb_const[1], st->rgb_const[2]);
    } else if (st->rgb_gen) {
        out(o, "\t\trgbGen %s\n", value_name(q3_rgb_gens, Q3_COUNT(q3_rgb_gens), (int)st->rgb_gen));
    }
    if (st->alpha_gen == GN_Q3_ALPHA_WAVE) {
        out(o, "\t\talphaGen wave");
        out_wave(o, &st->alpha_wave);
        out(o, "\n");
    } else if (st->alpha_gen == GN_Q3_ALPHA_CONST) {
        out(o, "\t\talphaGen const %g\n", st->alpha_const);
    } else if (st->alpha_gen == GN_Q3_ALPHA_PORTAL) {
        out(o, "\t\talphaGen portal %g\n", st->alpha_portal);
    } else if (st->alpha_gen) {
        out(o, "\t\talphaGen %s\n", value_name(q3_alpha_gens, Q3_COUNT(q3_alpha_gens), (int)st->alpha_gen));
    }
    static const char *const tc_names[] = {"", "texture", "lightmap", "environment", "vector"};
    if (st->tc_gen == GN_Q3_TC_VECTOR)
        out(o, "\t\ttcGen vector ( %g %g %g ) ( %g %g %g )\n", st->tc_vector[0][0], st->tc_vector[0][1],
            st->tc_vector[0][2], st->tc_vector[1][0], st->tc_vector[1][1], st->tc_vector[1][2]);
    else if (st->tc_gen)
        out(o, "\t\ttcGen %s\n", tc_names[st->tc_gen]);
    for (uint32_t i = 0; i < st->tcmod_count; i++) {
        const gn_q3_tcmod *m = &st->tcmods[i];
        const float *v = m->v;
        switch (m->type) {
        case GN_Q3_TCMOD_SCROLL:
            out(o, "\t\ttcMod scroll %g %g\n", v[0], v[1]);
            break;
        case GN_Q3_TCMOD_SCALE:
            out(o, "\t\ttcMod scale %g %g\n", v[0], v[1]);
            break;
        case GN_Q3_TCMOD_ROTATE:
            out(o, "\t\ttcMod rotate %g\n", v[0]);
            break;
        case GN_Q3_TCMOD_TURB:
            out(o, "\t\ttcMod turb %g %g %g %g\n", m->wave.base, m->wave.amp, m->wave.phase, m->wave.freq);
            break;
        case GN_Q3_TCMOD_STRETCH:
            out(o, "\t\ttcMod stretch");
            out_wave(o, &m->wave);
            out(o, "\n");
            break;
        case GN_Q3_TCMOD_TRANSFORM:
            out(o, "\t\ttcMod transform %g %g %g %g %g %g\n", v[0], v[1], v[2], v[3], v[4], v[5]);
            break;
        case GN_Q3_TCMOD_ENTITY_TRANSLATE:
            out(o, "\t\ttcMod entityTranslate\n");
            break;
        }
    }
    if (st->detail) out(o, "\t\tdetail\n");
    out(o, "\t}\n");
}

static void out_deform(q3_out *o, const gn_q3_deform *d)
{
    out(o, "\tdeformVertexes ");
    switch (d->type) {
    case GN_Q3_DEFORM_WAVE:
        out(o, "wave %g", d->div);
        out_wave(o, &d->wave);
        break;
    case GN_Q3_DEFORM_NORMAL:
        out(o, "normal %g %g", d->wave.amp, d->wave.freq);
        break;
    case GN_Q3_DEFORM_BULGE:
        out(o, "bulge %g %g %g", d->bulge[0], d->bulge[1], d->bulge[2]);
        break;
    case GN_Q3_DEFORM_MOVE:
        out(o, "move %g %g %g", d->move[0], d->move[1], d->move[2]);
        out_wave(o, &d->wave);
        break;
    case GN_Q3_DEFORM_AUTOSPRITE:
        out(o, "autosprite");
        break;
    case GN_Q3_DEFORM_AUTOSPRITE2:
        out(o, "autosprite2");
        break;
    case GN_Q3_DEFORM_PROJECTION_SHADOW:
        out(o, "projectionShadow");
        break;
    case GN_Q3_DEFORM_TEXT:
        out(o, "text%u", d->text_index);
        break;
    }
    out(o, "\n");
}

/* Written as script text (a shader's dump reads back as the same shader), keywords in a fixed
 * order; numbers with %g, which the "C" locale gnomon runs in writes with a '.'. */
size_t gn_q3_describe(const gn_q3_shader *s, char *buf, size_t cap)
{
    q3_out o = {buf, cap, 0};
    if (buf && cap) buf[0] = '\0';
    if (!s) return 0;
    out_name(&o, s->name);
    out(&o, " // %s:%u\n{\n", s->file ? s->file : "?", s->line);
    for (uint32_t i = 0; i < 32; i++)
        if (s->surface_flags & (1u << i)) out(&o, "\tsurfaceparm %s\n", q3_surf_names[i]);
    if (s->cull == GN_Q3_CULL_BACK) out(&o, "\tcull back\n");
    if (s->cull == GN_Q3_CULL_NONE) out(&o, "\tcull none\n");
    if (s->sort != 0.0f) out(&o, "\tsort %g\n", s->sort);
    if (s->polygon_offset) out(&o, "\tpolygonOffset\n");
    if (s->no_mipmaps) out(&o, "\tnomipmaps\n");
    if (s->no_picmip) out(&o, "\tnopicmip\n");
    if (s->portal) out(&o, "\tportal\n");
    if (s->entity_mergable) out(&o, "\tentityMergable\n");
    if (s->has_sky) {
        out(&o, "\tskyParms ");
        out_name(&o, s->sky_far[0] ? s->sky_far : "-");
        out(&o, " ");
        if (s->sky_cloud_height != 0.0f)
            out(&o, "%g", s->sky_cloud_height);
        else
            out(&o, "-");
        out(&o, " ");
        out_name(&o, s->sky_near[0] ? s->sky_near : "-");
        out(&o, "\n");
    }
    if (s->has_fog)
        out(&o, "\tfogParms ( %g %g %g ) %g\n", s->fog_color[0], s->fog_color[1], s->fog_color[2],
            s->fog_distance);
    for (uint32_t i = 0; i < s->deform_count; i++) out_deform(&o, &s->deforms[i]);
    for (uint32_t i = 0; i < s->stage_count; i++) out_stage(&o, &s->stages[i]);
    out(&o, "}\n");
    return o.len;
}
