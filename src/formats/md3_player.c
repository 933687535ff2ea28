/* animation.cfg and .skin readers (md3_player.h), after the game's CG_ParseAnimationFile
 * (cg_players.c) and RE_RegisterSkin (tr_image.c). The text is read in place as slices of the
 * buffer, never copied whole and never assumed to be NUL-terminated; numbers are copied into a
 * small buffer only to be converted. */
#include "formats/md3_player.h"

#include "base/error.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_CAP (1u << 20)             /* larger text is not a player model's */
#define FRAME_CAP (1 << 20)             /* a frame number in the file: far past any MD3's 1024 */
#define FPS_MIN 0.001f                  /* a frame of at most 1000 s, so frame_ms fits */
#define FPS_MAX 1000.0f                 /* frameLerp = 1000 / fps must be a millisecond or more */
#define TORSO_SKIP GN_MD3_TORSO_GESTURE /* the legs' frames follow the torso's from here */

static const char *const anim_names[GN_MD3_ANIM_COUNT] = {
    "BOTH_DEATH1", "BOTH_DEAD1",    "BOTH_DEATH2",  "BOTH_DEAD2",    "BOTH_DEATH3",
    "BOTH_DEAD3",  "TORSO_GESTURE", "TORSO_ATTACK", "TORSO_ATTACK2", "TORSO_DROP",
    "TORSO_RAISE", "TORSO_STAND",   "TORSO_STAND2", "LEGS_WALKCR",   "LEGS_WALK",
    "LEGS_RUN",    "LEGS_BACK",     "LEGS_SWIM",    "LEGS_JUMP",     "LEGS_LAND",
    "LEGS_JUMPB",  "LEGS_LANDB",    "LEGS_IDLE",    "LEGS_IDLECR",   "LEGS_TURN",
};

const char *gn_md3_anim_name(gn_md3_anim a) { return (unsigned)a < GN_MD3_ANIM_COUNT ? anim_names[a] : "?"; }

gn_md3_part gn_md3_anim_part(gn_md3_anim a)
{
    if (a < GN_MD3_TORSO_GESTURE) return GN_MD3_PART_BOTH;
    return a < GN_MD3_LEGS_WALKCR ? GN_MD3_PART_TORSO : GN_MD3_PART_LEGS;
}

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* Case-insensitive equality of a slice and a NUL-terminated word (the game's Q_stricmp). */
static bool word_is(const char *s, size_t n, const char *word)
{
    size_t i = 0;
    for (; i < n && word[i]; i++)
        if (lower(s[i]) != lower(word[i])) return false;
    return i == n && !word[i];
}

int32_t gn_md3_anim_find(const char *name)
{
    for (int32_t a = 0; name && a < GN_MD3_ANIM_COUNT; a++)
        if (word_is(name, strlen(name), anim_names[a])) return a;
    return -1;
}

/* ---- tokens, as COM_Parse splits them -------------------------------------------------------- */

typedef struct lexer {
    const char *p, *end;
    uint32_t line; /* of the token last read, from 1 */
    const char *name;
    gn_error *err;
} lexer;

typedef struct token {
    const char *s;
    size_t n; /* 0: the text ended */
} token;

static gn_result __attribute__((format(printf, 2, 3))) lex_bad(const lexer *lx, const char *fmt, ...)
{
    char what[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return gn_fail(lx->err, GN_ERROR_BAD_DATA, "%s:%u: %s", lx->name, lx->line, what);
}

/* The next token: whitespace, // and block comments skipped; a quoted string is one token
 * (without its quotes). */
static token next(lexer *lx)
{
    for (;;) {
        while (lx->p < lx->end && (unsigned char)*lx->p <= ' ') {
            if (*lx->p == '\n') lx->line++;
            lx->p++;
        }
        if (lx->end - lx->p >= 2 && lx->p[0] == '/' && lx->p[1] == '/') {
            while (lx->p < lx->end && *lx->p != '\n') lx->p++;
        } else if (lx->end - lx->p >= 2 && lx->p[0] == '/' && lx->p[1] == '*') {
            lx->p += 2;
            while (lx->p < lx->end && !(lx->end - lx->p >= 2 && lx->p[0] == '*' && lx->p[1] == '/')) {
                if (*lx->p == '\n') lx->line++;
                lx->p++;
            }
            lx->p = lx->end - lx->p >= 2 ? lx->p + 2 : lx->end;
        } else {
            break;
        }
    }
    token t = {lx->p, 0};
    if (lx->p < lx->end && *lx->p == '"') {
        t.s = ++lx->p;
        while (lx->p < lx->end && *lx->p != '"' && *lx->p != '\n') lx->p++;
        t.n = (size_t)(lx->p - t.s);
        if (lx->p < lx->end && *lx->p == '"') lx->p++;
        return t;
    }
    while (lx->p < lx->end && (unsigned char)*lx->p > ' ') lx->p++;
    t.n = (size_t)(lx->p - t.s);
    return t;
}

/* A token as a C string for messages and conversions, cut to cap - 1 characters. */
static void token_text(token t, char *out, size_t cap)
{
    size_t n = t.n < cap - 1 ? t.n : cap - 1;
    memcpy(out, t.s, n);
    out[n] = '\0';
}

/* An integer token within -FRAME_CAP..FRAME_CAP (the game's atoi, but refusing what it would
 * misread: "12x", "1.5", an empty field). */
static gn_result read_int(lexer *lx, const char *what, int32_t *out)
{
    token t = next(lx);
    if (!t.n) return lex_bad(lx, "the text ends where %s was expected", what);
    char buf[32], *end;
    token_text(t, buf, sizeof buf);
    errno = 0;
    long v = t.n < sizeof buf ? strtol(buf, &end, 10) : 0;
    if (t.n >= sizeof buf || end == buf || *end || errno || v < -FRAME_CAP || v > FRAME_CAP)
        return lex_bad(lx, "%s: \"%s\" is not an integer within +-%d", what, buf, FRAME_CAP);
    *out = (int32_t)v;
    return GN_OK;
}

static gn_result read_float(lexer *lx, const char *what, float *out)
{
    token t = next(lx);
    if (!t.n) return lex_bad(lx, "the text ends where %s was expected", what);
    char buf[64], *end;
    token_text(t, buf, sizeof buf);
    double v = t.n < sizeof buf ? strtod(buf, &end) : 0.0;
    if (t.n >= sizeof buf || end == buf || *end || !isfinite(v) || fabs(v) > 1e30)
        return lex_bad(lx, "%s: \"%s\" is not a number", what, buf);
    *out = (float)v;
    return GN_OK;
}

static void note_ignored(gn_md3_anim_cfg *c, token t)
{
    if (!c->ignored++) token_text(t, c->first_ignored, sizeof c->first_ignored);
}

/* The optional keywords before the first animation line; *first is the token that starts it. */
static gn_result read_header(lexer *lx, gn_md3_anim_cfg *c, token *first)
{
    for (;;) {
        token t = next(lx);
        if (!t.n)
            return lex_bad(lx, "the text ends before the first of the %d animations", GN_MD3_ANIM_COUNT);
        /* a number starts the animations (the game looks for a digit; a sign is taken too, so a
         * negative first frame is refused by name rather than skipped as a word) */
        if ((t.s[0] >= '0' && t.s[0] <= '9') ||
            (t.s[0] == '-' && t.n > 1 && t.s[1] >= '0' && t.s[1] <= '9')) {
            *first = t;
            return GN_OK;
        }
        if (word_is(t.s, t.n, "fixedlegs")) {
            c->fixed_legs = true;
        } else if (word_is(t.s, t.n, "fixedtorso")) {
            c->fixed_torso = true;
        } else if (word_is(t.s, t.n, "sex")) {
            token v = next(lx);
            if (!v.n) return lex_bad(lx, "the text ends after \"sex\"");
            char s = lower(v.s[0]);
            c->sex = s == 'f' ? GN_MD3_SEX_FEMALE : s == 'n' ? GN_MD3_SEX_NEUTER : GN_MD3_SEX_MALE;
        } else if (word_is(t.s, t.n, "headoffset")) {
            for (int i = 0; i < 3; i++) {
                gn_result r = read_float(lx, "headoffset", &c->head_offset[i]);
                if (r) return r;
            }
        } else if (word_is(t.s, t.n, "footsteps")) {
            static const char *const kinds[] = {"normal", "boot", "flesh", "mech", "energy", "default"};
            static const gn_md3_footsteps values[] = {GN_MD3_FOOTSTEPS_NORMAL, GN_MD3_FOOTSTEPS_BOOT,
                                                      GN_MD3_FOOTSTEPS_FLESH,  GN_MD3_FOOTSTEPS_MECH,
                                                      GN_MD3_FOOTSTEPS_ENERGY, GN_MD3_FOOTSTEPS_NORMAL};
            token v = next(lx);
            if (!v.n) return lex_bad(lx, "the text ends after \"footsteps\"");
            size_t k = 0;
            while (k < 6 && !word_is(v.s, v.n, kinds[k])) k++;
            if (k < 6)
                c->footsteps = values[k];
            else
                note_ignored(c, v); /* "Bad footsteps parm": the game keeps normal */
        } else {
            note_ignored(c, t); /* "unknown token": the game warns and reads on */
        }
    }
}

static gn_result read_clip(lexer *lx, gn_md3_anim a, token first, gn_md3_clip *clip, int32_t *first_frame)
{
    const char *an = anim_names[a];
    char what[64], buf[32];
    token_text(first, buf, sizeof buf);
    char *end;
    errno = 0;
    long f = first.n < sizeof buf ? strtol(buf, &end, 10) : 0;
    if (first.n >= sizeof buf || end == buf || *end || errno || f < 0 || f > FRAME_CAP)
        return lex_bad(lx, "%s: firstFrame \"%s\" is not an integer within 0..%d", an, buf, FRAME_CAP);
    int32_t count, loop;
    float fps;
    snprintf(what, sizeof what, "%s's numFrames", an);
    gn_result r = read_int(lx, what, &count);
    snprintf(what, sizeof what, "%s's loopingFrames", an);
    if (!r) r = read_int(lx, what, &loop);
    snprintf(what, sizeof what, "%s's framesPerSecond", an);
    if (!r) r = read_float(lx, what, &fps);
    if (r) return r;
    /* a negative count plays the clip backwards (the game's "reversed") */
    bool reversed = count < 0;
    if (reversed) count = -count;
    if (loop < 0 || loop > count)
        return lex_bad(lx, "%s: loopingFrames %d outside 0..numFrames (%d)", an, loop, count);
    /* "0 0 0 0" (or any numFrames 0): a model without this animation, as OpenArena's merman
     * lacks LEGS_TURN; its fps does not matter then */
    if (count && !(fps >= FPS_MIN && fps <= FPS_MAX))
        return lex_bad(lx, "%s: framesPerSecond %g outside %g..%g", an, fps, FPS_MIN, FPS_MAX);
    *first_frame = (int32_t)f;
    *clip = (gn_md3_clip){.frame_count = (uint32_t)count,
                          .loop_frames = (uint32_t)loop,
                          .fps = count ? fps : 0.0f,
                          .frame_ms = count ? (uint32_t)(1000.0f / fps) : 0, /* int frameLerp = 1000 / fps */
                          .reversed = reversed};
    return GN_OK;
}

gn_result gn_md3_anim_cfg_parse(const char *text, size_t size, const char *name, gn_md3_anim_cfg *out,
                                gn_error *err)
{
    memset(out, 0, sizeof *out);
    name = name ? name : "animation.cfg";
    if (!text) text = "", size = 0;
    if (size > TEXT_CAP)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %zu bytes, over the cap of %u", name, size, TEXT_CAP);
    const char *nul = size ? memchr(text, 0, size) : NULL;
    lexer lx = {.p = text, .end = nul ? nul : text + size, .line = 1, .name = name, .err = err};
    token t;
    gn_result r = read_header(&lx, out, &t);
    int32_t first[GN_MD3_ANIM_COUNT] = {0};
    for (int a = 0; !r && a < GN_MD3_ANIM_COUNT; a++) {
        if (a) t = next(&lx);
        if (!t.n)
            r = lex_bad(&lx, "the text ends after %d of the %d animations (%s is missing)", a,
                        GN_MD3_ANIM_COUNT, anim_names[a]);
        else
            r = read_clip(&lx, (gn_md3_anim)a, t, &out->clips[a], &first[a]);
    }
    /* lower.md3 holds the BOTH_ frames then the LEGS_ ones, while the file numbers the LEGS_ ones
     * after the torso's: each LEGS_ first frame less LEGS_WALKCR's less TORSO_GESTURE's */
    int32_t skip = r ? 0 : first[GN_MD3_LEGS_WALKCR] - first[TORSO_SKIP];
    for (int a = 0; !r && a < GN_MD3_ANIM_COUNT; a++) {
        int32_t f = a >= GN_MD3_LEGS_WALKCR ? first[a] - skip : first[a];
        if (f < 0)
            r = gn_fail(err, GN_ERROR_BAD_DATA,
                        "%s: %s: firstFrame %d less the torso's %d frames (LEGS_WALKCR's %d less "
                        "TORSO_GESTURE's %d) is negative",
                        name, anim_names[a], first[a], skip, first[GN_MD3_LEGS_WALKCR], first[TORSO_SKIP]);
        else
            out->clips[a].first_frame = (uint32_t)f;
    }
    if (r) memset(out, 0, sizeof *out);
    return r;
}

gn_result gn_md3_anim_cfg_check(const gn_md3_anim_cfg *cfg, uint32_t lower_frames, uint32_t upper_frames,
                                const char *name, gn_error *err)
{
    name = name ? name : "animation.cfg";
    for (int a = 0; a < GN_MD3_ANIM_COUNT; a++) {
        const gn_md3_clip *c = &cfg->clips[a];
        /* an empty clip still samples its first frame */
        uint64_t end = (uint64_t)c->first_frame + (c->frame_count ? c->frame_count : 1);
        gn_md3_part part = gn_md3_anim_part((gn_md3_anim)a);
        if (part != GN_MD3_PART_TORSO && end > lower_frames)
            return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %s: frames %u..%llu, past lower.md3's %u frames",
                           name, anim_names[a], c->first_frame, (unsigned long long)end - 1, lower_frames);
        if (part != GN_MD3_PART_LEGS && end > upper_frames)
            return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %s: frames %u..%llu, past upper.md3's %u frames",
                           name, anim_names[a], c->first_frame, (unsigned long long)end - 1, upper_frames);
    }
    return GN_OK;
}

gn_md3_blend gn_md3_clip_sample(const gn_md3_clip *c, double seconds)
{
    gn_md3_blend b = {c->first_frame, c->first_frame, 0.0f};
    uint32_t n = c->frame_count, loop = c->loop_frames < n ? c->loop_frames : n;
    if (n <= 1 || !c->frame_ms) return b;
    double pos = seconds * 1000.0 / c->frame_ms; /* in frames since the clip began */
    if (!(pos > 0.0)) pos = 0.0;                 /* negative or NaN */
    if (pos > 1e300) pos = 1e300;                /* +inf: fmod below needs a finite value */
    uint32_t from, to;
    double frac;
    if (!loop && pos >= n - 1) {
        from = to = n - 1; /* the game's "stuck at the end" */
        frac = 0.0;
    } else {
        /* past the first pass, frame k stands for (k - n) mod loop + n - loop */
        if (pos >= n) pos = (n - loop) + fmod(pos - n, (double)loop);
        double whole = floor(pos);
        from = whole < n ? (uint32_t)whole : n - 1;
        frac = pos - whole;
        to = from + 1 < n ? from + 1 : (loop ? n - loop : n - 1);
    }
    if (c->reversed) {
        from = n - 1 - from;
        to = n - 1 - to;
    }
    b.from = c->first_frame + from;
    b.to = c->first_frame + to;
    b.frac = (float)frac;
    return b;
}

/* ---- .skin ------------------------------------------------------------------------------------- */

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static void trim(const char **s, const char **e)
{
    while (*s < *e && is_space(**s)) (*s)++;
    while (*e > *s && is_space((*e)[-1])) (*e)--;
}

/* Whether the slice contains "tag_" (the game's strstr(token, "tag_")). */
static bool has_tag(const char *s, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++)
        if (memcmp(s + i, "tag_", 4) == 0) return true;
    return false;
}

gn_result gn_md3_skin_parse(const char *text, size_t size, const char *name, gn_md3_skin *out, gn_error *err)
{
    out->count = 0;
    name = name ? name : "skin";
    if (!text) text = "", size = 0;
    if (size > TEXT_CAP)
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s: %zu bytes, over the cap of %u", name, size, TEXT_CAP);
    const char *nul = size ? memchr(text, 0, size) : NULL, *end = nul ? nul : text + size;
    uint32_t line = 0;
    for (const char *p = text; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end, *s = p;
        p = nl ? nl + 1 : end;
        line++;
        trim(&s, &le);
        if (s == le || (le - s >= 2 && s[0] == '/' && s[1] == '/')) continue;
        const char *comma = memchr(s, ',', (size_t)(le - s));
        const char *se = comma ? comma : le, *is = comma ? comma + 1 : le, *ie = le;
        trim(&s, &se);
        trim(&is, &ie);
        size_t sn = (size_t)(se - s), in = (size_t)(ie - is);
        if (has_tag(s, sn)) continue; /* a tag's line: tags take no image */
        if (!comma || !sn) {
            char shown[81]; /* control bytes as '?': the message stays one line */
            size_t n = (size_t)(le - s) < 80 ? (size_t)(le - s) : 80;
            for (size_t i = 0; i < n; i++) shown[i] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
            shown[n] = '\0';
            return gn_fail(err, GN_ERROR_BAD_DATA, "%s:%u: \"%s\": not \"surface,path\"", name, line, shown);
        }
        if (sn >= GN_MD3_NAME_MAX || in >= GN_MD3_NAME_MAX)
            return gn_fail(err, GN_ERROR_BAD_DATA, "%s:%u: a name or path of %zu characters (at most %u)",
                           name, line, sn > in ? sn : in, GN_MD3_NAME_MAX - 1);
        if (out->count == GN_MD3_SKIN_MAX)
            return gn_fail(err, GN_ERROR_BAD_DATA, "%s:%u: more than %u surfaces", name, line,
                           GN_MD3_SKIN_MAX);
        gn_md3_skin_entry *e = &out->entries[out->count++];
        for (size_t i = 0; i < sn; i++) e->surface[i] = lower(s[i]);
        e->surface[sn] = '\0';
        memcpy(e->image, is, in);
        e->image[in] = '\0';
    }
    return GN_OK;
}

const char *gn_md3_skin_image(const gn_md3_skin *s, const char *surface)
{
    char key[GN_MD3_NAME_MAX];
    size_t n = 0;
    for (; surface && surface[n] && n < GN_MD3_NAME_MAX - 1; n++) key[n] = lower(surface[n]);
    if (n > 2 && key[n - 2] == '_') n -= 2; /* "u_torso_1" -> "u_torso" */
    key[n] = '\0';
    for (uint32_t i = 0; s && i < s->count; i++)
        if (strcmp(s->entries[i].surface, key) == 0) return s->entries[i].image;
    return NULL;
}
