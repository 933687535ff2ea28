/* The TFX interpreter, its validator and disassembler, the Quake 3 waveforms and the render-state
 * bytes (decide/tfx.h).
 *
 * Float order: the seed notes that the game keeps exact float order in its waves and curves, so
 * a multiply followed by an add is two roundings here, never a fused multiply-add. Each product
 * is its own statement; the build's -std=c11 makes GCC contract nothing (-ffp-contract=off is
 * its ISO-mode default) and clang contracts only within one expression. The unit test holds
 * MADD to the two roundings on a case where an fma would differ. */
#include "decide/tfx.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define PI_D 3.14159265358979323846 /* math.h's M_PI is not C11 */
#define DIV_GUARD 1e-6f

/* ---- the op table ------------------------------------------------------------------------ */

enum { USES_A = 1, USES_B = 2 };

typedef struct op_info {
    const char *name; /* NULL: no such op */
    uint8_t pops, pushes;
    uint8_t uses; /* USES_A | USES_B: the operands it reads (the others must be 0) */
} op_info;

static const op_info OPS[GN_TFX_OP_COUNT] = {
    [GN_TFX_PUSH_CONST] = {"push_const", 0, 1, USES_A},
    [GN_TFX_PUSH_EXTERN_FLOAT] = {"push_extern_float", 0, 1, USES_A | USES_B},
    [GN_TFX_PUSH_EXTERN_VEC] = {"push_extern_vec", 0, 1, USES_A | USES_B},
    [GN_TFX_DUP] = {"dup", 1, 2, 0},
    [GN_TFX_SWAP] = {"swap", 2, 2, 0},
    [GN_TFX_ADD] = {"add", 2, 1, 0},
    [GN_TFX_SUB] = {"sub", 2, 1, 0},
    [GN_TFX_MUL] = {"mul", 2, 1, 0},
    [GN_TFX_DIV] = {"div", 2, 1, 0},
    [GN_TFX_MADD] = {"madd", 3, 1, 0},
    [GN_TFX_LERP] = {"lerp", 3, 1, 0},
    [GN_TFX_CLAMP] = {"clamp", 3, 1, 0},
    [GN_TFX_SATURATE] = {"saturate", 1, 1, 0},
    [GN_TFX_FLOOR] = {"floor", 1, 1, 0},
    [GN_TFX_FRACT] = {"fract", 1, 1, 0},
    [GN_TFX_MIN] = {"min", 2, 1, 0},
    [GN_TFX_MAX] = {"max", 2, 1, 0},
    [GN_TFX_NEG] = {"neg", 1, 1, 0},
    [GN_TFX_SPLAT] = {"splat", 1, 1, USES_A},
    [GN_TFX_SWIZZLE] = {"swizzle", 1, 1, USES_A},
    [GN_TFX_WAVE] = {"wave", 2, 1, USES_A},
    [GN_TFX_TEXMAT] = {"texmat", 4, 2, 0},
    [GN_TFX_TEXMAT_APPLY] = {"texmat_apply", 3, 1, 0},
    [GN_TFX_MAT4] = {"mat4", 5, 1, 0},
    [GN_TFX_POP_OUT] = {"pop_out", 1, 0, USES_A},
};

static const char *const EXTERN_NAMES[GN_TFX_EXTERN_COUNT] = {"frame", "entity", "view", "object"};
static const char *const WAVE_NAMES[GN_TFX_WAVE_COUNT] = {"sin",      "triangle",        "square",
                                                          "sawtooth", "inversesawtooth", "noise"};
static const char LANES[4] = {'x', 'y', 'z', 'w'};

static const op_info *op_info_of(uint8_t op)
{
    return op < GN_TFX_OP_COUNT && OPS[op].name ? &OPS[op] : NULL;
}

const char *gn_tfx_op_name(uint8_t op)
{
    const op_info *o = op_info_of(op);
    return o ? o->name : NULL;
}

/* ---- the Quake 3 waveforms --------------------------------------------------------------- */

/* The table index of x: (int)(x * 1024) & 1023 with the game's truncating cast, defined for every
 * finite x (fmodf of a whole number is exact, so this is the two's-complement mask of the cast). */
static uint32_t wave_index(float x)
{
    float y = x * 1024.0f;
    if (!isfinite(y)) return 0;
    int i = (int)fmodf(truncf(y), 1024.0f); /* in (-1024, 1024) */
    return (uint32_t)(i < 0 ? i + 1024 : i) & 1023u;
}

/* Entry i of the game's tables, computed as the game fills them (in float, the sine's argument
 * taken to double where the game's degrees-to-radians constant takes it). */
static float wave_entry(gn_tfx_wave_func f, uint32_t i)
{
    switch (f) {
    case GN_TFX_WAVE_SIN: {
        float degrees = (float)i * 360.0f / 1023.0f;
        return (float)sin((double)degrees * PI_D / 180.0);
    }
    case GN_TFX_WAVE_TRIANGLE:
        if (i >= 512) return -wave_entry(f, i - 512);
        if (i >= 256) return 1.0f - (float)(i - 256) / 256.0f;
        return (float)i / 256.0f;
    case GN_TFX_WAVE_SQUARE:
        return i < 512 ? 1.0f : -1.0f;
    case GN_TFX_WAVE_SAWTOOTH:
        return (float)i / 1024.0f;
    case GN_TFX_WAVE_INVERSE_SAWTOOTH:
        return 1.0f - (float)i / 1024.0f;
    default:
        return 0.0f;
    }
}

/* A lattice value in [-1, 1] for the whole number i in [0, 255]: an integer hash (murmur3's
 * finaliser), its top 24 bits mapped onto [-1, 1] exactly at both ends. */
static float noise_lattice(uint32_t i)
{
    uint32_t h = (i + 1u) * 0x9E3779B1u;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return ((float)(h >> 8) - 8388607.5f) / 8388607.5f;
}

static float noise(float x)
{
    if (!isfinite(x)) return 0.0f;
    float f = floorf(x), t = x - f;
    int i = (int)fmodf(f, 256.0f); /* in (-256, 256) */
    uint32_t i0 = (uint32_t)(i < 0 ? i + 256 : i) & 255u, i1 = (i0 + 1u) & 255u;
    float a = noise_lattice(i0), b = noise_lattice(i1);
    float d = b - a, m = d * t;
    return a + m;
}

float gn_tfx_wave(gn_tfx_wave_func f, float x)
{
    if (f == GN_TFX_WAVE_NOISE) return noise(x);
    if ((unsigned)f >= GN_TFX_WAVE_COUNT) return 0.0f;
    return wave_entry(f, wave_index(x));
}

float gn_tfx_wave_eval(gn_tfx_wave_func f, const gn_tfx_vec4 *p, float time)
{
    float base = p->v[0], amplitude = p->v[1], phase = p->v[2], frequency = p->v[3];
    float x;
    if (f == GN_TFX_WAVE_NOISE) {
        float s = time + phase;
        x = s * frequency;
    } else {
        float tf = time * frequency;
        x = phase + tf;
    }
    float scaled = gn_tfx_wave(f, x) * amplitude;
    return base + scaled;
}

/* ---- validation -------------------------------------------------------------------------- */

static bool __attribute__((format(printf, 3, 4))) refuse(char *msg, size_t cap, const char *fmt, ...)
{
    if (msg && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, cap, fmt, ap);
        va_end(ap);
    }
    return false;
}

gn_tfx_limits gn_tfx_limits_of(const gn_tfx_block *externs, uint32_t outputs)
{
    gn_tfx_limits lim = {.outputs = outputs};
    for (int e = 0; externs && e < GN_TFX_EXTERN_COUNT; e++)
        lim.extern_vecs[e] = externs[e].v ? externs[e].count : 0;
    return lim;
}

/* The operands of instruction i (op known): false with the message when one is out of range. */
static bool check_operands(const gn_tfx_program *p, const gn_tfx_limits *lim, uint32_t i, char *msg,
                           size_t cap)
{
    gn_tfx_insn in = p->code[i];
    const op_info *o = &OPS[in.op];
    if (!(o->uses & USES_A) && in.a)
        return refuse(msg, cap, "instruction %u (%s): operand a is %u; %s has none, it must be 0", i, o->name,
                      in.a, o->name);
    if (!(o->uses & USES_B) && in.b)
        return refuse(msg, cap, "instruction %u (%s): operand b is %u; %s has none, it must be 0", i, o->name,
                      in.b, o->name);
    if (in.c)
        return refuse(msg, cap, "instruction %u (%s): operand c is %u; it is reserved, 0", i, o->name, in.c);
    switch (in.op) {
    case GN_TFX_PUSH_CONST:
        if (in.a >= p->const_count)
            return refuse(msg, cap,
                          "instruction %u (push_const): constant %u out of range (the program has %u)", i,
                          in.a, p->const_count);
        return true;
    case GN_TFX_PUSH_EXTERN_FLOAT:
    case GN_TFX_PUSH_EXTERN_VEC: {
        if (in.a >= GN_TFX_EXTERN_COUNT)
            return refuse(msg, cap, "instruction %u (%s): unknown extern id %u (there are %d)", i, o->name,
                          in.a, GN_TFX_EXTERN_COUNT);
        uint32_t n = lim->extern_vecs[in.a];
        if (n == 0)
            return refuse(msg, cap, "instruction %u (%s): extern %u (%s) is not provided", i, o->name, in.a,
                          EXTERN_NAMES[in.a]);
        if (in.op == GN_TFX_PUSH_EXTERN_FLOAT && in.b / 4u >= n)
            return refuse(msg, cap,
                          "instruction %u (%s): float %u of extern %u (%s) out of range (it holds %u)", i,
                          o->name, in.b, in.a, EXTERN_NAMES[in.a], n * 4u);
        if (in.op == GN_TFX_PUSH_EXTERN_VEC && in.b >= n)
            return refuse(msg, cap,
                          "instruction %u (%s): vector %u of extern %u (%s) out of range (it holds %u)", i,
                          o->name, in.b, in.a, EXTERN_NAMES[in.a], n);
        return true;
    }
    case GN_TFX_SPLAT:
        if (in.a >= 4) return refuse(msg, cap, "instruction %u (splat): lane %u out of range (0-3)", i, in.a);
        return true;
    case GN_TFX_WAVE:
        if (in.a >= GN_TFX_WAVE_COUNT)
            return refuse(msg, cap, "instruction %u (wave): unknown wave function %u (there are %d)", i, in.a,
                          GN_TFX_WAVE_COUNT);
        return true;
    case GN_TFX_POP_OUT:
        if (in.a >= lim->outputs)
            return refuse(msg, cap, "instruction %u (pop_out): output %u out of range (there are %u)", i,
                          in.a, lim->outputs);
        return true;
    default:
        return true;
    }
}

bool gn_tfx_validate(const gn_tfx_program *p, const gn_tfx_limits *lim, char *msg, size_t cap)
{
    static const gn_tfx_limits none = {0};
    if (!lim) lim = &none;
    if (!p) return refuse(msg, cap, "no program");
    if (p->count && !p->code)
        return refuse(msg, cap, "the program has %u instructions but no code", p->count);
    if (p->const_count && !p->consts)
        return refuse(msg, cap, "the program has %u constants but no constant table", p->const_count);
    uint32_t depth = 0;
    for (uint32_t i = 0; i < p->count; i++) {
        const op_info *o = op_info_of(p->code[i].op);
        if (!o) return refuse(msg, cap, "instruction %u: unknown opcode %u", i, p->code[i].op);
        if (!check_operands(p, lim, i, msg, cap)) return false;
        if (depth < o->pops)
            return refuse(msg, cap, "instruction %u (%s): stack underflow: it pops %u, the stack holds %u", i,
                          o->name, o->pops, depth);
        depth = depth - o->pops + o->pushes;
        if (depth > GN_TFX_STACK_MAX)
            return refuse(msg, cap, "instruction %u (%s): stack overflow: %u values, past the limit of %d", i,
                          o->name, depth, GN_TFX_STACK_MAX);
    }
    if (depth)
        return refuse(msg, cap,
                      "instruction %u (%s), the last: the program ends with %u value(s) on the stack; "
                      "every value must be popped to an output",
                      p->count - 1, OPS[p->code[p->count - 1].op].name, depth);
    return true;
}

/* ---- the interpreter --------------------------------------------------------------------- */

typedef struct tfx_stack {
    gn_tfx_vec4 v[GN_TFX_STACK_MAX];
    uint32_t n;
} tfx_stack;

static gn_tfx_vec4 pop(tfx_stack *s) { return s->n ? s->v[--s->n] : (gn_tfx_vec4){{0, 0, 0, 0}}; }
static void push(tfx_stack *s, gn_tfx_vec4 x)
{
    if (s->n < GN_TFX_STACK_MAX) s->v[s->n++] = x;
}
static gn_tfx_vec4 splat(float x) { return (gn_tfx_vec4){{x, x, x, x}}; }

/* Extern e's vector k, or 0 past the block. */
static gn_tfx_vec4 extern_vec(const gn_tfx_block *externs, uint32_t e, uint32_t k)
{
    if (!externs || e >= GN_TFX_EXTERN_COUNT || !externs[e].v || k >= externs[e].count) return splat(0.0f);
    return externs[e].v[k];
}

/* The binary lane ops: a op b. */
static gn_tfx_vec4 lanes2(uint8_t op, gn_tfx_vec4 a, gn_tfx_vec4 b)
{
    gn_tfx_vec4 r;
    for (int k = 0; k < 4; k++) {
        float x = a.v[k], y = b.v[k];
        switch (op) {
        case GN_TFX_ADD:
            r.v[k] = x + y;
            break;
        case GN_TFX_SUB:
            r.v[k] = x - y;
            break;
        case GN_TFX_MUL:
            r.v[k] = x * y;
            break;
        case GN_TFX_DIV:
            r.v[k] = fabsf(y) < DIV_GUARD ? 0.0f : x / y;
            break;
        case GN_TFX_MIN:
            r.v[k] = fminf(x, y);
            break;
        default:
            r.v[k] = fmaxf(x, y);
            break; /* GN_TFX_MAX */
        }
    }
    return r;
}

/* The unary lane ops. */
static gn_tfx_vec4 lanes1(uint8_t op, gn_tfx_vec4 a)
{
    gn_tfx_vec4 r;
    for (int k = 0; k < 4; k++) {
        float x = a.v[k];
        switch (op) {
        case GN_TFX_SATURATE:
            r.v[k] = fminf(fmaxf(x, 0.0f), 1.0f);
            break;
        case GN_TFX_FLOOR:
            r.v[k] = floorf(x);
            break;
        case GN_TFX_FRACT:
            r.v[k] = x - floorf(x);
            break;
        default:
            r.v[k] = -x;
            break; /* GN_TFX_NEG */
        }
    }
    return r;
}

/* The three-operand lane ops: a b c (madd: a * b + c; lerp: a + (b - a) * c; clamp c the top). */
static gn_tfx_vec4 lanes3(uint8_t op, gn_tfx_vec4 a, gn_tfx_vec4 b, gn_tfx_vec4 c)
{
    gn_tfx_vec4 r;
    for (int k = 0; k < 4; k++) {
        if (op == GN_TFX_MADD) {
            float m = a.v[k] * b.v[k];
            r.v[k] = m + c.v[k];
        } else if (op == GN_TFX_LERP) {
            float d = b.v[k] - a.v[k];
            float m = d * c.v[k];
            r.v[k] = a.v[k] + m;
        } else { /* GN_TFX_CLAMP: x lo hi */
            r.v[k] = fminf(fmaxf(a.v[k], b.v[k]), c.v[k]);
        }
    }
    return r;
}

/* r . (x, y, 1) of a 2x3 row: (r0 x + r1 y) + r2, each product rounded. */
static float row3(const gn_tfx_vec4 *r, float x, float y)
{
    float px = r->v[0] * x, py = r->v[1] * y;
    float s = px + py;
    return s + r->v[2];
}

/* C = B A for 2x3 affine rows (a third row (0, 0, 1) implied). */
static void texmat(const gn_tfx_vec4 a[2], const gn_tfx_vec4 b[2], gn_tfx_vec4 c[2])
{
    for (int r = 0; r < 2; r++) {
        for (int j = 0; j < 2; j++) {
            float p0 = b[r].v[0] * a[0].v[j], p1 = b[r].v[1] * a[1].v[j];
            c[r].v[j] = p0 + p1;
        }
        c[r].v[2] = row3(&b[r], a[0].v[2], a[1].v[2]);
        c[r].v[3] = 0.0f;
    }
}

static float dot4(const gn_tfx_vec4 *r, const gn_tfx_vec4 *x)
{
    float s = r->v[0] * x->v[0];
    for (int k = 1; k < 4; k++) {
        float m = r->v[k] * x->v[k];
        s = s + m;
    }
    return s;
}

/* One instruction on the stack. */
static void step(const gn_tfx_program *p, gn_tfx_insn in, const gn_tfx_block *externs, tfx_stack *s,
                 gn_tfx_vec4 *out, uint32_t out_count)
{
    gn_tfx_vec4 x, y, z;
    switch (in.op) {
    case GN_TFX_PUSH_CONST:
        push(s, in.a < p->const_count && p->consts ? p->consts[in.a] : splat(0.0f));
        break;
    case GN_TFX_PUSH_EXTERN_FLOAT:
        push(s, splat(extern_vec(externs, in.a, in.b / 4u).v[in.b % 4u]));
        break;
    case GN_TFX_PUSH_EXTERN_VEC:
        push(s, extern_vec(externs, in.a, in.b));
        break;
    case GN_TFX_DUP:
        x = pop(s);
        push(s, x);
        push(s, x);
        break;
    case GN_TFX_SWAP:
        y = pop(s), x = pop(s);
        push(s, y);
        push(s, x);
        break;
    case GN_TFX_ADD:
    case GN_TFX_SUB:
    case GN_TFX_MUL:
    case GN_TFX_DIV:
    case GN_TFX_MIN:
    case GN_TFX_MAX:
        y = pop(s), x = pop(s);
        push(s, lanes2(in.op, x, y));
        break;
    case GN_TFX_MADD:
    case GN_TFX_LERP:
    case GN_TFX_CLAMP:
        z = pop(s), y = pop(s), x = pop(s);
        push(s, lanes3(in.op, x, y, z));
        break;
    case GN_TFX_SATURATE:
    case GN_TFX_FLOOR:
    case GN_TFX_FRACT:
    case GN_TFX_NEG:
        push(s, lanes1(in.op, pop(s)));
        break;
    case GN_TFX_SPLAT:
        push(s, splat(pop(s).v[in.a & 3u]));
        break;
    case GN_TFX_SWIZZLE:
        x = pop(s);
        for (unsigned k = 0; k < 4; k++) y.v[k] = x.v[(in.a >> (2u * k)) & 3u];
        push(s, y);
        break;
    case GN_TFX_WAVE:
        y = pop(s), x = pop(s);
        push(s, splat(gn_tfx_wave_eval((gn_tfx_wave_func)in.a, &x, y.v[0])));
        break;
    case GN_TFX_TEXMAT: {
        gn_tfx_vec4 a[2], b[2], c[2];
        b[1] = pop(s), b[0] = pop(s), a[1] = pop(s), a[0] = pop(s);
        texmat(a, b, c);
        push(s, c[0]);
        push(s, c[1]);
        break;
    }
    case GN_TFX_TEXMAT_APPLY:
        z = pop(s), y = pop(s), x = pop(s);
        push(s, (gn_tfx_vec4){{row3(&y, x.v[0], x.v[1]), row3(&z, x.v[0], x.v[1]), 0.0f, 0.0f}});
        break;
    case GN_TFX_MAT4: {
        gn_tfx_vec4 r[4];
        for (int k = 3; k >= 0; k--) r[k] = pop(s);
        x = pop(s);
        push(s, (gn_tfx_vec4){{dot4(&r[0], &x), dot4(&r[1], &x), dot4(&r[2], &x), dot4(&r[3], &x)}});
        break;
    }
    case GN_TFX_POP_OUT:
        x = pop(s);
        if (out && in.a < out_count) out[in.a] = x;
        break;
    default:
        break; /* unknown: validation refuses it; nothing happens here */
    }
}

void gn_tfx_run(const gn_tfx_program *p, const gn_tfx_block *externs, gn_tfx_vec4 *out, uint32_t out_count)
{
    if (!p || !p->code) return;
    tfx_stack s = {.n = 0};
    for (uint32_t i = 0; i < p->count; i++) step(p, p->code[i], externs, &s, out, out_count);
}

/* ---- the disassembler -------------------------------------------------------------------- */

typedef struct text {
    char *buf;
    size_t cap, len; /* len: what the whole text needs, past cap too */
} text;

static void __attribute__((format(printf, 2, 3))) put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->len < t->cap ? t->cap - t->len : 0;
    int n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) t->len += (size_t)n;
}

static void disassemble_one(const gn_tfx_program *p, uint32_t i, text *t)
{
    gn_tfx_insn in = p->code[i];
    const op_info *o = op_info_of(in.op);
    if (!o) {
        put(t, "%u: op %u (unknown) %u %u %u\n", i, in.op, in.a, in.b, in.c);
        return;
    }
    put(t, "%u: %s", i, o->name);
    const char *ext = in.a < GN_TFX_EXTERN_COUNT ? EXTERN_NAMES[in.a] : "extern?";
    switch (in.op) {
    case GN_TFX_PUSH_CONST:
        put(t, " k%u", in.a);
        if (in.a < p->const_count && p->consts) {
            const float *v = p->consts[in.a].v;
            put(t, " (%g, %g, %g, %g)", (double)v[0], (double)v[1], (double)v[2], (double)v[3]);
        }
        break;
    case GN_TFX_PUSH_EXTERN_FLOAT:
        put(t, " %s f%u", ext, in.b);
        break;
    case GN_TFX_PUSH_EXTERN_VEC:
        put(t, " %s v%u", ext, in.b);
        break;
    case GN_TFX_SPLAT:
        put(t, " %c", in.a < 4 ? LANES[in.a] : '?');
        break;
    case GN_TFX_SWIZZLE:
        put(t, " %c%c%c%c", LANES[in.a & 3u], LANES[(in.a >> 2) & 3u], LANES[(in.a >> 4) & 3u],
            LANES[(in.a >> 6) & 3u]);
        break;
    case GN_TFX_WAVE:
        put(t, " %s", in.a < GN_TFX_WAVE_COUNT ? WAVE_NAMES[in.a] : "?");
        break;
    case GN_TFX_POP_OUT:
        put(t, " out%u", in.a);
        break;
    default:
        break;
    }
    put(t, "\n");
}

size_t gn_tfx_disassemble(const gn_tfx_program *p, char *buf, size_t cap)
{
    text t = {.buf = buf, .cap = cap, .len = 0};
    if (buf && cap) buf[0] = '\0';
    for (uint32_t i = 0; p && p->code && i < p->count; i++) disassemble_one(p, i, &t);
    return t.len;
}

/* ---- the builder ------------------------------------------------------------------------- */

gn_tfx_builder gn_tfx_builder_make(gn_tfx_insn *code, uint32_t code_cap, gn_tfx_vec4 *consts,
                                   uint32_t const_cap)
{
    return (gn_tfx_builder){.code = code,
                            .code_cap = code ? code_cap : 0,
                            .consts = consts,
                            .const_cap =
                                consts ? (const_cap < GN_TFX_CONSTS_MAX ? const_cap : GN_TFX_CONSTS_MAX) : 0};
}

bool gn_tfx_emit(gn_tfx_builder *bld, gn_tfx_op op, uint8_t a, uint8_t b)
{
    if (bld->count >= bld->code_cap) {
        bld->full = true;
        return false;
    }
    bld->code[bld->count++] = (gn_tfx_insn){.op = (uint8_t)op, .a = a, .b = b, .c = 0};
    return true;
}

int32_t gn_tfx_constant(gn_tfx_builder *bld, float x, float y, float z, float w)
{
    gn_tfx_vec4 v = {{x, y, z, w}};
    for (uint32_t k = 0; k < bld->const_count; k++)
        if (memcmp(&bld->consts[k], &v, sizeof v) == 0) return (int32_t)k;
    if (bld->const_count >= bld->const_cap) {
        bld->full = true;
        return -1;
    }
    bld->consts[bld->const_count] = v;
    return (int32_t)bld->const_count++;
}

bool gn_tfx_emit_const(gn_tfx_builder *bld, float x, float y, float z, float w)
{
    int32_t k = gn_tfx_constant(bld, x, y, z, w);
    return k >= 0 && gn_tfx_emit(bld, GN_TFX_PUSH_CONST, (uint8_t)k, 0);
}

gn_tfx_program gn_tfx_builder_program(const gn_tfx_builder *bld)
{
    return (gn_tfx_program){
        .code = bld->code, .count = bld->count, .consts = bld->consts, .const_count = bld->const_count};
}

/* ---- render state ------------------------------------------------------------------------ */

uint8_t gn_state_resolve_byte(uint8_t pass, uint8_t material, uint8_t forced)
{
    uint8_t b = pass;
    if (material & GN_STATE_OVERRIDE) b = material;
    if (forced & GN_STATE_OVERRIDE) b = forced;
    return (uint8_t)(b & 0x7Fu);
}

uint32_t gn_state_resolve(uint32_t pass, uint32_t material, uint32_t forced)
{
    uint32_t r = 0;
    for (unsigned k = 0; k < 32; k += 8)
        r |= (uint32_t)gn_state_resolve_byte((uint8_t)(pass >> k), (uint8_t)(material >> k),
                                             (uint8_t)(forced >> k))
             << k;
    return r;
}

bool gn_state_valid(uint32_t state, char *msg, size_t cap)
{
    static const char *const BYTES[4] = {"blend", "depth", "raster", "bias"};
    for (unsigned k = 0; k < 4; k++)
        if ((state >> (8u * k)) & GN_STATE_OVERRIDE)
            return refuse(msg, cap, "state 0x%08x: %s byte has its override bit set (not resolved)",
                          (unsigned)state, BYTES[k]);
    uint8_t blend = (uint8_t)(state >> GN_STATE_BLEND_SHIFT),
            depth = (uint8_t)(state >> GN_STATE_DEPTH_SHIFT);
    uint8_t raster = (uint8_t)(state >> GN_STATE_RASTER_SHIFT);
    if (GN_STATE_BLEND_SRC(blend) >= GN_BLEND_SRC_COUNT)
        return refuse(msg, cap, "state 0x%08x: blend source factor %u unknown (there are %d)",
                      (unsigned)state, GN_STATE_BLEND_SRC(blend), GN_BLEND_SRC_COUNT);
    if (GN_STATE_DEPTH_FUNC(depth) >= GN_DEPTH_FUNC_COUNT || (depth & 0x78u))
        return refuse(msg, cap, "state 0x%08x: depth byte 0x%02x has an unknown test or unused bits set",
                      (unsigned)state, depth);
    if (GN_STATE_RASTER_CULL(raster) >= GN_CULL_COUNT || (raster & 0x70u))
        return refuse(msg, cap, "state 0x%08x: raster byte 0x%02x has an unknown cull or unused bits set",
                      (unsigned)state, raster);
    return true;
}
