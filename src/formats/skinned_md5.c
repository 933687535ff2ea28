/* Doom 3's MD5 text (.md5mesh and .md5anim, version 10) checked whole against a strict grammar
 * before assimp sees it (skinned_ctx.h). assimp 5.2.5's MD5 reader sizes its arrays by the
 * counts a file declares and then trusts every index: a "tri" line it does not recognise leaves
 * a face without indices, which it then reads (fuzz_skinned found it with "tri!5"). Here every
 * line must be one statement of the format, every element of a declared count must appear
 * exactly once and every index must point inside what it names. */
#include "base/alloc.h"
#include "base/error.h"
#include "formats/skinned_ctx.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GN_MD5_MAX_TOKENS 256u         /* a line's tokens: a joint line has 12, a frame's line a joint's 6 */
#define GN_MD5_MAX_MESHES 4096u        /* a stated large limit: models have a few */
#define GN_MD5_MAX_ELEMENTS (1u << 22) /* vertices, triangles or weights of a mesh */
#define GN_MD5_MAX_FRAMES (1u << 16)   /* an animation's frames */
#define GN_MD5_MAX_COMPONENTS (1u << 16) /* animated floats a frame: 6 a joint at most */

typedef struct gn_md5_tok {
    const char *s;
    uint32_t n;
} gn_md5_tok;

typedef struct gn_md5 {
    const char *name;
    gn_error *err;
    const char *p, *end;
    uint32_t line;
    gn_md5_tok t[GN_MD5_MAX_TOKENS];
    uint32_t nt;
} gn_md5;

static gn_result __attribute__((format(printf, 2, 3))) gn_md5_bad(gn_md5 *m, const char *fmt, ...)
{
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gn_fail(m->err, GN_ERROR_BAD_DATA, "%s: line %u: %s", m->name, m->line, msg);
}

/* The next line with a token, split: quoted strings, parentheses and braces, words; "//" starts
 * a comment. Returns GN_OK with nt 0 at the end of the text. */
static gn_result gn_md5_line(gn_md5 *m)
{
    for (;;) {
        m->nt = 0;
        if (m->p >= m->end) return GN_OK;
        m->line++;
        const char *ls = m->p, *q = ls;
        while (q < m->end && *q != '\n' && *q != '\r' && *q != '\f') q++;
        const char *e = q;
        m->p = q < m->end ? q + 1 : q;
        for (const char *s = ls; s < e;) {
            unsigned char ch = (unsigned char)*s;
            if (ch == ' ' || ch == '\t') {
                s++;
                continue;
            }
            if (ch < 0x20 || ch == 0x7f) return gn_md5_bad(m, "a control character (0x%02x)", ch);
            if (ch == '/' && s + 1 < e && s[1] == '/') break;
            if (m->nt == GN_MD5_MAX_TOKENS) return gn_md5_bad(m, "more than %u tokens", GN_MD5_MAX_TOKENS);
            gn_md5_tok *t = &m->t[m->nt++];
            t->s = s;
            if (ch == '"') {
                const char *c = memchr(s + 1, '"', (size_t)(e - s - 1));
                if (!c) return gn_md5_bad(m, "a string without its closing quote");
                for (const char *k = s + 1; k < c; k++)
                    if ((unsigned char)*k < 0x20) return gn_md5_bad(m, "a control character in a string");
                t->n = (uint32_t)(c + 1 - s);
                s = c + 1;
            } else if (ch == '(' || ch == ')' || ch == '{' || ch == '}') {
                t->n = 1, s++;
            } else {
                const char *k = s;
                while (k < e && *k != ' ' && *k != '\t' && *k != '(' && *k != ')' && *k != '{' && *k != '}' &&
                       *k != '"' && !(*k == '/' && k + 1 < e && k[1] == '/'))
                    k++;
                t->n = (uint32_t)(k - s);
                s = k;
            }
        }
        if (m->nt) return GN_OK;
    }
}

static bool gn_md5_is(const gn_md5_tok *t, const char *word)
{
    return t->n == strlen(word) && memcmp(t->s, word, t->n) == 0;
}

/* Token i as an integer in [lo, hi] (digits, a '-' before them only where lo < 0). */
static gn_result gn_md5_int(gn_md5 *m, uint32_t i, long lo, long hi, const char *what, long *out)
{
    const gn_md5_tok *t = &m->t[i];
    uint32_t k = t->n && t->s[0] == '-' ? 1 : 0;
    long v = 0;
    if (k == t->n || t->n > 12) return gn_md5_bad(m, "%s is not an integer", what);
    for (; k < t->n; k++) {
        if (t->s[k] < '0' || t->s[k] > '9') return gn_md5_bad(m, "%s is not an integer", what);
        v = v * 10 + (t->s[k] - '0');
    }
    if (t->s[0] == '-') v = -v;
    if (v < lo || v > hi) return gn_md5_bad(m, "%s is %ld, not %ld to %ld", what, v, lo, hi);
    *out = v;
    return GN_OK;
}

/* Token i as a finite float in plain decimal notation. */
static gn_result gn_md5_float(gn_md5 *m, uint32_t i, const char *what)
{
    const gn_md5_tok *t = &m->t[i];
    char buf[48];
    if (!t->n || t->n >= sizeof buf) return gn_md5_bad(m, "%s is not a number", what);
    for (uint32_t k = 0; k < t->n; k++)
        if (!strchr("0123456789+-.eE", t->s[k])) return gn_md5_bad(m, "%s is not a number", what);
    memcpy(buf, t->s, t->n), buf[t->n] = 0;
    char *end;
    double v = strtod(buf, &end);
    if (*end || !isfinite(v) || fabs(v) > 1e30) return gn_md5_bad(m, "%s is not a finite number", what);
    return GN_OK;
}

/* The line is exactly the pattern: w a word to match, s a quoted string, i an integer (checked
 * by the caller), f a float, ( and ) themselves. */
static gn_result gn_md5_shape(gn_md5 *m, const char *pattern, const char *word, const char *what)
{
    size_t n = strlen(pattern);
    if (m->nt != n) return gn_md5_bad(m, "%s: %u tokens where %zu belong", what, m->nt, n);
    for (uint32_t i = 0; i < n; i++) {
        const gn_md5_tok *t = &m->t[i];
        switch (pattern[i]) {
        case 'w':
            if (!gn_md5_is(t, word)) return gn_md5_bad(m, "%s: \"%s\" expected", what, word);
            break;
        case 's':
            if (t->s[0] != '"') return gn_md5_bad(m, "%s: a quoted string expected", what);
            break;
        case 'f': {
            gn_result r = gn_md5_float(m, i, what);
            if (r != GN_OK) return r;
            break;
        }
        case 'i':
            if (t->s[0] != '-' && (t->s[0] < '0' || t->s[0] > '9'))
                return gn_md5_bad(m, "%s: a number expected", what);
            break;
        default:
            if (t->n != 1 || t->s[0] != pattern[i])
                return gn_md5_bad(m, "%s: '%c' expected", what, pattern[i]);
        }
    }
    return GN_OK;
}

/* "key N" at the top level: a count declared once, before what it counts. */
static gn_result gn_md5_count(gn_md5 *m, long max, long *out, const char *key)
{
    if (*out >= 0) return gn_md5_bad(m, "%s given twice", key);
    gn_result r = gn_md5_shape(m, "wi", key, key);
    return r == GN_OK ? gn_md5_int(m, 1, 0, max, key, out) : r;
}

/* Marks element `i` of a declared count seen; twice is refused. */
static gn_result gn_md5_mark(gn_md5 *m, uint8_t *seen, long count, long i, const char *what)
{
    if (!seen || i >= count)
        return gn_md5_bad(m, "%s %ld is past the %ld declared", what, i, count < 0 ? 0 : count);
    if (seen[i]) return gn_md5_bad(m, "%s %ld given twice", what, i);
    seen[i] = 1;
    return GN_OK;
}

/* ---- .md5mesh -------------------------------------------------------------------------------- */

typedef struct gn_md5_mesh {
    long verts, tris, weights;
    uint8_t *vseen, *tseen, *wseen;
    uint32_t *vfirst, *vcount, (*tri)[3];
} gn_md5_mesh;

static void gn_md5_mesh_free(gn_md5_mesh *me)
{
    free(me->vseen), free(me->tseen), free(me->wseen), free(me->vfirst), free(me->vcount), free(me->tri);
    memset(me, 0, sizeof *me);
}

/* numverts, numtris and numweights: each sizes its arrays once. */
static gn_result gn_md5_mesh_count(gn_md5 *m, gn_md5_mesh *me, const char *key)
{
    long *n = key[3] == 'v' ? &me->verts : key[3] == 't' ? &me->tris : &me->weights;
    gn_result r = gn_md5_count(m, GN_MD5_MAX_ELEMENTS, n, key);
    if (r != GN_OK) return r;
    size_t c = (size_t)*n + 1;
    bool ok = true;
    if (n == &me->verts) {
        me->vseen = gn_calloc(c, 1), me->vfirst = gn_calloc(c, 4), me->vcount = gn_calloc(c, 4);
        ok = me->vseen && me->vfirst && me->vcount;
    } else if (n == &me->tris) {
        me->tseen = gn_calloc(c, 1), me->tri = gn_calloc(c, sizeof *me->tri);
        ok = me->tseen && me->tri;
    } else {
        me->wseen = gn_calloc(c, 1);
        ok = me->wseen != NULL;
    }
    return ok ? GN_OK : gn_fail(m->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", m->name);
}

static gn_result gn_md5_mesh_block(gn_md5 *m, long joints)
{
    gn_md5_mesh me = {.verts = -1, .tris = -1, .weights = -1};
    gn_result r = GN_OK;
    long v, a, b, c;
    bool shader = false;
    for (;;) {
        r = gn_md5_line(m);
        if (r != GN_OK) break;
        if (!m->nt) {
            r = gn_md5_bad(m, "the text ends inside a mesh");
            break;
        }
        const gn_md5_tok *k = &m->t[0];
        if (gn_md5_is(k, "}") && m->nt == 1) break;
        if (gn_md5_is(k, "shader") && !shader) {
            r = gn_md5_shape(m, "ws", "shader", "shader"), shader = true;
        } else if (gn_md5_is(k, "numverts") || gn_md5_is(k, "numtris") || gn_md5_is(k, "numweights")) {
            char key[16];
            snprintf(key, sizeof key, "%.*s", (int)k->n, k->s);
            r = gn_md5_mesh_count(m, &me, key);
        } else if (gn_md5_is(k, "vert")) {
            r = gn_md5_shape(m, "wi(ff)ii", "vert", "vert");
            if (r == GN_OK) r = gn_md5_int(m, 1, 0, GN_MD5_MAX_ELEMENTS, "a vertex index", &v);
            if (r == GN_OK) r = gn_md5_mark(m, me.vseen, me.verts, v, "vertex");
            if (r == GN_OK) r = gn_md5_int(m, 6, 0, GN_MD5_MAX_ELEMENTS, "a first weight", &a);
            if (r == GN_OK) r = gn_md5_int(m, 7, 0, GN_MD5_MAX_ELEMENTS, "a weight count", &b);
            if (r == GN_OK) me.vfirst[v] = (uint32_t)a, me.vcount[v] = (uint32_t)b;
        } else if (gn_md5_is(k, "tri")) {
            r = gn_md5_shape(m, "wiiii", "tri", "tri");
            if (r == GN_OK) r = gn_md5_int(m, 1, 0, GN_MD5_MAX_ELEMENTS, "a triangle index", &v);
            if (r == GN_OK) r = gn_md5_mark(m, me.tseen, me.tris, v, "triangle");
            for (uint32_t i = 0; r == GN_OK && i < 3; i++) {
                r = gn_md5_int(m, 2 + i, 0, GN_MD5_MAX_ELEMENTS, "a triangle's vertex", &c);
                if (r == GN_OK) me.tri[v][i] = (uint32_t)c;
            }
        } else if (gn_md5_is(k, "weight")) {
            r = gn_md5_shape(m, "wiif(fff)", "weight", "weight");
            if (r == GN_OK) r = gn_md5_int(m, 1, 0, GN_MD5_MAX_ELEMENTS, "a weight index", &v);
            if (r == GN_OK) r = gn_md5_mark(m, me.wseen, me.weights, v, "weight");
            if (r == GN_OK) r = gn_md5_int(m, 2, 0, joints - 1, "a weight's joint", &a);
        } else {
            r = gn_md5_bad(m, "\"%.*s\" is no statement of a mesh", (int)(k->n < 32 ? k->n : 32), k->s);
        }
        if (r != GN_OK) break;
    }
    if (r == GN_OK && (me.verts < 0 || me.tris < 0 || me.weights < 0))
        r = gn_md5_bad(m, "a mesh without numverts, numtris or numweights");
    for (long i = 0; r == GN_OK && i < me.verts; i++) {
        if (!me.vseen[i])
            r = gn_md5_bad(m, "the mesh ending here lacks vertex %ld", i);
        else if ((uint64_t)me.vfirst[i] + me.vcount[i] > (uint64_t)me.weights)
            r = gn_md5_bad(m, "vertex %ld uses weights %u..%u of %ld", i, me.vfirst[i],
                           me.vfirst[i] + me.vcount[i], me.weights);
    }
    for (long i = 0; r == GN_OK && i < me.tris; i++) {
        if (!me.tseen[i]) r = gn_md5_bad(m, "the mesh ending here lacks triangle %ld", i);
        for (int k = 0; r == GN_OK && k < 3; k++)
            if (me.tri[i][k] >= (uint64_t)me.verts)
                r = gn_md5_bad(m, "triangle %ld uses vertex %u of %ld", i, me.tri[i][k], me.verts);
    }
    for (long i = 0; r == GN_OK && i < me.weights; i++)
        if (!me.wseen[i]) r = gn_md5_bad(m, "the mesh ending here lacks weight %ld", i);
    gn_md5_mesh_free(&me);
    return r;
}

static gn_result gn_md5_mesh_file(gn_md5 *m)
{
    long joints = -1, meshes = -1, seen_meshes = 0;
    bool had_joints = false;
    gn_result r;
    while ((r = gn_md5_line(m)) == GN_OK && m->nt) {
        const gn_md5_tok *k = &m->t[0];
        if (gn_md5_is(k, "commandline")) {
            r = gn_md5_shape(m, "ws", "commandline", "commandline");
        } else if (gn_md5_is(k, "numJoints")) {
            r = gn_md5_count(m, GN_SKIN_MAX_JOINTS - 1, &joints, "numJoints");
        } else if (gn_md5_is(k, "numMeshes")) {
            r = gn_md5_count(m, GN_MD5_MAX_MESHES, &meshes, "numMeshes");
        } else if (gn_md5_is(k, "joints")) {
            r = gn_md5_shape(m, "w{", "joints", "joints");
            if (r == GN_OK && (joints < 0 || had_joints))
                r = gn_md5_bad(m, "joints before numJoints, or twice");
            had_joints = true;
            long n = 0, parent;
            while (r == GN_OK && (r = gn_md5_line(m)) == GN_OK) {
                if (!m->nt) r = gn_md5_bad(m, "the text ends inside the joints");
                if (r != GN_OK || (m->nt == 1 && gn_md5_is(&m->t[0], "}"))) break;
                r = gn_md5_shape(m, "si(fff)(fff)", NULL, "a joint");
                if (r == GN_OK && n >= joints) r = gn_md5_bad(m, "more joints than the %ld declared", joints);
                if (r == GN_OK)
                    r = gn_md5_int(m, 1, -1, n - 1, "a joint's parent (an earlier joint)", &parent);
                n++;
            }
            if (r == GN_OK && n != joints) r = gn_md5_bad(m, "%ld joints, %ld declared", n, joints);
        } else if (gn_md5_is(k, "mesh")) {
            r = gn_md5_shape(m, "w{", "mesh", "mesh");
            if (r == GN_OK && (!had_joints || meshes < 0 || seen_meshes >= meshes))
                r = gn_md5_bad(m, "a mesh before the joints or numMeshes, or past the %ld declared", meshes);
            if (r == GN_OK) r = gn_md5_mesh_block(m, joints);
            seen_meshes++;
        } else {
            r = gn_md5_bad(m, "\"%.*s\" is no statement of an .md5mesh", (int)(k->n < 32 ? k->n : 32), k->s);
        }
        if (r != GN_OK) return r;
    }
    if (r == GN_OK && (seen_meshes != meshes || !had_joints))
        r = gn_md5_bad(m, "%ld meshes of the %ld declared, %s", seen_meshes, meshes,
                       had_joints ? "joints" : "no joints");
    return r;
}

/* ---- .md5anim -------------------------------------------------------------------------------- */

typedef struct gn_md5_anim {
    long frames, joints, rate, components;
    bool hierarchy, bounds, base;
    uint8_t *fseen;
} gn_md5_anim;

/* A block of `want` lines of the given shape ("bounds", "baseframe"). */
static gn_result gn_md5_rows(gn_md5 *m, long want, const char *shape, const char *what)
{
    long n = 0;
    gn_result r;
    while ((r = gn_md5_line(m)) == GN_OK) {
        if (!m->nt) return gn_md5_bad(m, "the text ends inside %s", what);
        if (m->nt == 1 && gn_md5_is(&m->t[0], "}")) break;
        if (++n > want) return gn_md5_bad(m, "%s: more lines than the %ld declared", what, want);
        r = gn_md5_shape(m, shape, NULL, what);
        if (r != GN_OK) return r;
    }
    if (r == GN_OK && n != want) r = gn_md5_bad(m, "%s: %ld lines, %ld declared", what, n, want);
    return r;
}

static gn_result gn_md5_anim_block(gn_md5 *m, gn_md5_anim *a)
{
    const gn_md5_tok *k = &m->t[0];
    gn_result r = GN_OK;
    if (a->frames < 0 || a->joints < 0 || a->rate < 0 || a->components < 0)
        return gn_md5_bad(m, "a block before numFrames, numJoints, frameRate and numAnimatedComponents");
    if (gn_md5_is(k, "hierarchy") && !a->hierarchy) {
        a->hierarchy = true;
        r = gn_md5_shape(m, "w{", "hierarchy", "hierarchy");
        long n = 0, parent, flags, start;
        while (r == GN_OK && (r = gn_md5_line(m)) == GN_OK) {
            if (!m->nt) r = gn_md5_bad(m, "the text ends inside the hierarchy");
            if (r != GN_OK || (m->nt == 1 && gn_md5_is(&m->t[0], "}"))) break;
            r = gn_md5_shape(m, "siii", NULL, "a joint");
            if (r == GN_OK && n >= a->joints)
                r = gn_md5_bad(m, "more joints than the %ld declared", a->joints);
            if (r == GN_OK) r = gn_md5_int(m, 1, -1, n - 1, "a joint's parent (an earlier joint)", &parent);
            if (r == GN_OK) r = gn_md5_int(m, 2, 0, 63, "a joint's flags", &flags);
            if (r == GN_OK) r = gn_md5_int(m, 3, 0, a->components, "a joint's first component", &start);
            if (r == GN_OK && start + __builtin_popcountl(flags) > a->components)
                r = gn_md5_bad(m, "the joint's components end past the %ld a frame", a->components);
            n++;
        }
        if (r == GN_OK && n != a->joints) r = gn_md5_bad(m, "%ld joints, %ld declared", n, a->joints);
    } else if (gn_md5_is(k, "bounds") && !a->bounds) {
        a->bounds = true;
        r = gn_md5_shape(m, "w{", "bounds", "bounds");
        if (r == GN_OK) r = gn_md5_rows(m, a->frames, "(fff)(fff)", "the bounds");
    } else if (gn_md5_is(k, "baseframe") && !a->base) {
        a->base = true;
        r = gn_md5_shape(m, "w{", "baseframe", "baseframe");
        if (r == GN_OK) r = gn_md5_rows(m, a->joints, "(fff)(fff)", "the base frame");
    } else if (gn_md5_is(k, "frame")) {
        long f, n = 0;
        r = gn_md5_shape(m, "wi{", "frame", "frame");
        if (r == GN_OK) r = gn_md5_int(m, 1, 0, GN_MD5_MAX_FRAMES, "a frame index", &f);
        if (r == GN_OK) r = gn_md5_mark(m, a->fseen, a->frames, f, "frame");
        while (r == GN_OK && (r = gn_md5_line(m)) == GN_OK) {
            if (!m->nt) r = gn_md5_bad(m, "the text ends inside frame %ld", f);
            if (r != GN_OK || (m->nt == 1 && gn_md5_is(&m->t[0], "}"))) break;
            for (uint32_t i = 0; r == GN_OK && i < m->nt; i++) r = gn_md5_float(m, i, "a frame's component");
            n += m->nt;
        }
        if (r == GN_OK && n != a->components)
            r = gn_md5_bad(m, "frame %ld: %ld components, %ld declared", f, n, a->components);
    } else {
        r = gn_md5_bad(m, "\"%.*s\" is no block of an .md5anim, or is there twice",
                       (int)(k->n < 32 ? k->n : 32), k->s);
    }
    return r;
}

static gn_result gn_md5_anim_file(gn_md5 *m)
{
    gn_md5_anim a = {.frames = -1, .joints = -1, .rate = -1, .components = -1};
    gn_result r;
    while ((r = gn_md5_line(m)) == GN_OK && m->nt) {
        const gn_md5_tok *k = &m->t[0];
        if (gn_md5_is(k, "commandline"))
            r = gn_md5_shape(m, "ws", "commandline", "commandline");
        else if (gn_md5_is(k, "numFrames")) {
            r = gn_md5_count(m, GN_MD5_MAX_FRAMES, &a.frames, "numFrames");
            if (r == GN_OK && !(a.fseen = gn_calloc((size_t)a.frames + 1, 1)))
                r = gn_fail(m->err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", m->name);
        } else if (gn_md5_is(k, "numJoints"))
            r = gn_md5_count(m, GN_SKIN_MAX_JOINTS - 1, &a.joints, "numJoints");
        else if (gn_md5_is(k, "frameRate"))
            r = gn_md5_count(m, 1000, &a.rate, "frameRate");
        else if (gn_md5_is(k, "numAnimatedComponents"))
            r = gn_md5_count(m, GN_MD5_MAX_COMPONENTS, &a.components, "numAnimatedComponents");
        else
            r = gn_md5_anim_block(m, &a);
        if (r != GN_OK) break;
    }
    if (r == GN_OK && !(a.hierarchy && a.bounds && a.base))
        r = gn_md5_bad(m, "no hierarchy, bounds or baseframe block");
    for (long f = 0; r == GN_OK && f < a.frames; f++)
        if (!a.fseen[f]) r = gn_md5_bad(m, "frame %ld is missing", f);
    free(a.fseen);
    return r;
}

gn_result gn_sk_md5_check(const uint8_t *data, size_t size, bool anim, const char *name, gn_error *err)
{
    gn_md5 m = {.name = name, .err = err, .p = (const char *)data, .end = (const char *)data + size};
    if (memchr(data, 0, size)) return gn_fail(err, GN_ERROR_BAD_DATA, "%s: a NUL byte in MD5 text", name);
    gn_result r = gn_md5_line(&m);
    long version;
    if (r == GN_OK) r = gn_md5_shape(&m, "wi", "MD5Version", "the first line");
    if (r == GN_OK) r = gn_md5_int(&m, 1, 10, 10, "MD5Version (Doom 3's is 10)", &version);
    if (r != GN_OK) return r;
    return anim ? gn_md5_anim_file(&m) : gn_md5_mesh_file(&m);
}
