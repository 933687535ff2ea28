/* Materials as data (issue 18; seed 002, "Render states", "Scopes and TFX", "Externs", "The TFX
 * interpreter"). A material's constant vectors are not computed by code written for it: a small
 * program, TFX, computes them from engine inputs (the time, the entity's colour, the view, object
 * channels) on a stack machine over float4 values, and the back end uploads what it pops out. The
 * Quake 3 waveforms it evaluates are the game's own tables, entry for entry. The draw's render
 * state is four packed bytes with one override rule, shared by every submitter.
 *
 * Pure: programs, constants, externs and outputs are caller arrays; nothing is allocated and no
 * state survives a call. Every program goes through gn_tfx_validate before gn_tfx_run. */
#ifndef GN_DECIDE_TFX_H
#define GN_DECIDE_TFX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- values, programs, externs ----------------------------------------------------------- */

typedef struct gn_tfx_vec4 {
    float v[4]; /* x, y, z, w */
} gn_tfx_vec4;

#define GN_TFX_STACK_MAX 16   /* values a program may hold at once (issue 18's bound) */
#define GN_TFX_CONSTS_MAX 256 /* constants a program can name: an operand is one byte */

/* An extern is a block of float4 vectors the engine fills before the draw; a program names it by
 * id. What each holds (vector by vector): */
typedef enum gn_tfx_extern_id {
    GN_TFX_EXTERN_FRAME = 0,  /* 0: x the time in seconds (the clock the waves read); y, z, w 0 (reserved) */
    GN_TFX_EXTERN_ENTITY = 1, /* 0: the entity's colour, rgba in [0, 1] (Q3's rgbGen / alphaGen entity) */
    GN_TFX_EXTERN_VIEW = 2,   /* 0-3: the view matrix's rows (world to view); 4: the eye (xyz, w 1) */
    GN_TFX_EXTERN_OBJECT = 3, /* object channels: per-object values the game sets, one vector each */
    GN_TFX_EXTERN_COUNT
} gn_tfx_extern_id;

/* One extern's block as the engine filled it: `count` vectors (v NULL reads as none). */
typedef struct gn_tfx_block {
    const gn_tfx_vec4 *v;
    uint32_t count;
} gn_tfx_block;

/* What a program may address: checked by gn_tfx_validate against the externs and the outputs the
 * caller will give gn_tfx_run. */
typedef struct gn_tfx_limits {
    uint32_t extern_vecs[GN_TFX_EXTERN_COUNT]; /* vectors each extern holds (0: not provided) */
    uint32_t outputs;                          /* output vectors */
} gn_tfx_limits;

/* The Quake 3 waveforms (shader manual: `<func> <base> <amplitude> <phase> <frequency>`). */
typedef enum gn_tfx_wave_func {
    GN_TFX_WAVE_SIN = 0, /* the default: the game reads an unknown name as sin */
    GN_TFX_WAVE_TRIANGLE = 1,
    GN_TFX_WAVE_SQUARE = 2,
    GN_TFX_WAVE_SAWTOOTH = 3,
    GN_TFX_WAVE_INVERSE_SAWTOOTH = 4,
    GN_TFX_WAVE_NOISE = 5,
    GN_TFX_WAVE_COUNT
} gn_tfx_wave_func;

/* The instructions. Stack effects read left to right, the top last: "a b -> a + b" pops b, then
 * a. Arithmetic is per lane. Operands a and b are bytes of the instruction; an operand an op does
 * not use, and c always, must be 0. The numbers are ours (the seed notes the game's own change
 * between builds); a program stored on disk is stored with these. */
typedef enum gn_tfx_op {
    GN_TFX_OP_INVALID = 0,        /* refused: zeroed memory is not a program */
    GN_TFX_PUSH_CONST = 1,        /* a constant index: -> consts[a] */
    GN_TFX_PUSH_EXTERN_FLOAT = 2, /* a extern id, b float index (vector b / 4, lane b % 4): -> it, splatted */
    GN_TFX_PUSH_EXTERN_VEC = 3,   /* a extern id, b vector index: -> it */
    GN_TFX_DUP = 4,               /* x -> x x */
    GN_TFX_SWAP = 5,              /* x y -> y x */
    GN_TFX_ADD = 6,               /* a b -> a + b */
    GN_TFX_SUB = 7,               /* a b -> a - b */
    GN_TFX_MUL = 8,               /* a b -> a * b */
    GN_TFX_DIV = 9,               /* a b -> a / b, and 0 in each lane where |b| < 1e-6 (the guard) */
    GN_TFX_MADD = 10,             /* a b c -> a * b + c: the product rounded, then the add; never an fma */
    GN_TFX_LERP = 11,             /* a b t -> a + (b - a) * t */
    GN_TFX_CLAMP = 12,            /* x lo hi -> min(max(x, lo), hi) */
    GN_TFX_SATURATE = 13,         /* x -> min(max(x, 0), 1) (NaN gives 0) */
    GN_TFX_FLOOR = 14,            /* x -> floor(x) */
    GN_TFX_FRACT = 15,            /* x -> x - floor(x) */
    GN_TFX_MIN = 16,              /* a b -> min(a, b) */
    GN_TFX_MAX = 17,              /* a b -> max(a, b) */
    GN_TFX_NEG = 18,              /* x -> -x */
    GN_TFX_SPLAT = 19,            /* a lane 0-3: x -> x[a] in every lane */
    GN_TFX_SWIZZLE = 20,      /* a four 2-bit lane selectors, lane 0's lowest (0xE4 is xyzw): x -> x.sel */
    GN_TFX_WAVE = 21,         /* a gn_tfx_wave_func: p t -> gn_tfx_wave_eval(a, p, t.x) splatted, p =
                                 (base, amplitude, phase, frequency), t the time (usually frame f0) */
    GN_TFX_TEXMAT = 22,       /* A0 A1 B0 B1 -> C0 C1: 2x3 uv matrices as two rows (m0, m1, m2, 0), C
                                 applying A then B (C = B A): tcMods compose in the order written */
    GN_TFX_TEXMAT_APPLY = 23, /* uv M0 M1 -> (M0 . (u, v, 1), M1 . (u, v, 1), 0, 0) */
    GN_TFX_MAT4 = 24,         /* x r0 r1 r2 r3 -> (r0 . x, r1 . x, r2 . x, r3 . x): M x for M's rows (a
                                 row vector times M is the same op with M's columns pushed) */
    GN_TFX_POP_OUT = 25,      /* a output index: x -> (outputs[a] = x) */
    GN_TFX_OP_COUNT
} gn_tfx_op;

typedef struct gn_tfx_insn {
    uint8_t op;   /* gn_tfx_op */
    uint8_t a, b; /* operands, as the op says */
    uint8_t c;    /* reserved: 0 */
} gn_tfx_insn;
_Static_assert(sizeof(gn_tfx_insn) == 4, "an instruction is one 32-bit word");

typedef struct gn_tfx_program {
    const gn_tfx_insn *code;
    uint32_t count; /* instructions */
    const gn_tfx_vec4 *consts;
    uint32_t const_count;
} gn_tfx_program;

/* ---- the interpreter --------------------------------------------------------------------- */

/* The limits that the externs (GN_TFX_EXTERN_COUNT blocks) and `outputs` output vectors set. */
gn_tfx_limits gn_tfx_limits_of(const gn_tfx_block *externs, uint32_t outputs);

/* Whether p may run within lim: every opcode known; every operand in range (a constant index
 * below const_count, an extern id known and provided and its float or vector inside the block,
 * a lane below 4, a wave function known, an output index below lim->outputs, unused operands 0);
 * the stack never popped empty nor holding more than GN_TFX_STACK_MAX; empty at the end. False
 * with a message ("instruction 3 (add): stack underflow: ...") in msg (cap bytes, may be NULL). */
bool gn_tfx_validate(const gn_tfx_program *p, const gn_tfx_limits *lim, char *msg, size_t cap);

/* Runs p with the externs (GN_TFX_EXTERN_COUNT blocks), writing the outputs it pops to (outputs
 * it does not pop keep their values). Call it only on a program gn_tfx_validate accepted within
 * these externs and out_count: it checks nothing then, yet never reads or writes out of bounds
 * whatever p holds (a read past a block or the stack gives 0, a write past them is dropped). */
void gn_tfx_run(const gn_tfx_program *p, const gn_tfx_block *externs, gn_tfx_vec4 *out, uint32_t out_count);

/* The op's name ("push_const"), or NULL for an unknown opcode. */
const char *gn_tfx_op_name(uint8_t op);

/* The program, one line per instruction ("2: push_extern_float frame f0\n"), into buf (cap bytes,
 * always terminated when cap > 0). Returns the length the whole text needs, as snprintf does. */
size_t gn_tfx_disassemble(const gn_tfx_program *p, char *buf, size_t cap);

/* ---- the Quake 3 waveforms --------------------------------------------------------------- */

/* A waveform's value at x (periods; 1 is a whole one), as the game evaluates it: a table of 1024
 * entries indexed by (int)(x * 1024) & 1023, the cast truncating toward zero (so the phase wraps,
 * values step every 1/1024, and a negative x lands one entry past x + 1's unless x * 1024 is a
 * whole number). Entry i is computed directly, equal to the game's table:
 *   sin       sin(2 pi i / 1023): the game divides by 1023, so entry 256 is sin(90.09 deg), not 1
 *   triangle  i / 256 over the first quarter, then 1 - (i - 256) / 256, then minus the first half
 *   square    1 for i < 512, else -1
 *   sawtooth  i / 1024;  inverse sawtooth 1 - i / 1024
 * Noise: the game's is a table of random values seeded at start-up, not reproducible; this is a
 * deterministic value noise in [-1, 1] (a hash at each whole x, interpolated linearly as the
 * game's is, repeating every 256). 0 for an unknown function or a non-finite x. */
float gn_tfx_wave(gn_tfx_wave_func f, float x);

/* base + wave(phase + time * frequency) * amplitude for p = (base, amplitude, phase, frequency),
 * in the game's float order; noise is read at (time + phase) * frequency, as the game reads it. */
float gn_tfx_wave_eval(gn_tfx_wave_func f, const gn_tfx_vec4 *p, float time);

/* ---- building programs ------------------------------------------------------------------- */

/* Emits a program into caller arrays (the material compiler's way in: no hand encoding). */
typedef struct gn_tfx_builder {
    gn_tfx_insn *code;
    uint32_t code_cap, count;
    gn_tfx_vec4 *consts;
    uint32_t const_cap, const_count;
    bool full; /* something did not fit: the program is incomplete and must not be used */
} gn_tfx_builder;

/* A builder over code (code_cap instructions) and consts (const_cap vectors). */
gn_tfx_builder gn_tfx_builder_make(gn_tfx_insn *code, uint32_t code_cap, gn_tfx_vec4 *consts,
                                   uint32_t const_cap);
/* Appends op with operands a and b; false (and full set) when the code is full. */
bool gn_tfx_emit(gn_tfx_builder *bld, gn_tfx_op op, uint8_t a, uint8_t b);
/* The index of the constant (x, y, z, w), reusing a bit-identical one; -1 (and full set) when
 * neither it nor room for it (at most GN_TFX_CONSTS_MAX) is there. */
int32_t gn_tfx_constant(gn_tfx_builder *bld, float x, float y, float z, float w);
/* A push_const of (x, y, z, w); false when either the constant or the instruction did not fit. */
bool gn_tfx_emit_const(gn_tfx_builder *bld, float x, float y, float z, float w);
/* The program built so far (pointing into the builder's arrays). */
gn_tfx_program gn_tfx_builder_program(const gn_tfx_builder *bld);

/* ---- render state ------------------------------------------------------------------------ */

/* A draw's render state is four bytes, blend in the lowest, then depth, raster and bias. In each
 * byte the low seven bits are the state and the high bit says the byte overrides (seed 002,
 * "Render states"): the pass's byte holds unless the material's has its high bit set, which
 * holds unless the forced byte has its high bit set. The pass's own high bit means nothing; the
 * result is the seven bits, high bit clear. Byte 0 of each kind is Quake 3's opaque default
 * (one, zero; depth lequal, written; front-sided; no alpha test; no polygon offset). */
#define GN_STATE_OVERRIDE 0x80u
#define GN_STATE_BLEND_SHIFT 0
#define GN_STATE_DEPTH_SHIFT 8
#define GN_STATE_RASTER_SHIFT 16
#define GN_STATE_BIAS_SHIFT 24
#define GN_STATE_PACK(blend, depth, raster, bias)                                                            \
    ((uint32_t)(uint8_t)(blend) | (uint32_t)(uint8_t)(depth) << 8 | (uint32_t)(uint8_t)(raster) << 16 |      \
     (uint32_t)(uint8_t)(bias) << 24)

/* Blend: source factor in bits 3-6, destination in bits 0-2: the factors Quake 3's blendFunc
 * accepts, 9 sources and 8 destinations, fill the seven bits (4 + 3). What it refuses is not
 * encodable: src_color and one_minus_src_color as a source, dst_color and one_minus_dst_color as a
 * destination, src_alpha_saturate as a destination. Sources 9-15 are invalid. */
typedef enum gn_blend_src {
    GN_BLEND_SRC_ONE = 0,
    GN_BLEND_SRC_ZERO = 1,
    GN_BLEND_SRC_DST_COLOR = 2,
    GN_BLEND_SRC_ONE_MINUS_DST_COLOR = 3,
    GN_BLEND_SRC_SRC_ALPHA = 4,
    GN_BLEND_SRC_ONE_MINUS_SRC_ALPHA = 5,
    GN_BLEND_SRC_DST_ALPHA = 6,
    GN_BLEND_SRC_ONE_MINUS_DST_ALPHA = 7,
    GN_BLEND_SRC_ALPHA_SATURATE = 8,
    GN_BLEND_SRC_COUNT
} gn_blend_src;
typedef enum gn_blend_dst {
    GN_BLEND_DST_ZERO = 0,
    GN_BLEND_DST_ONE = 1,
    GN_BLEND_DST_SRC_COLOR = 2,
    GN_BLEND_DST_ONE_MINUS_SRC_COLOR = 3,
    GN_BLEND_DST_SRC_ALPHA = 4,
    GN_BLEND_DST_ONE_MINUS_SRC_ALPHA = 5,
    GN_BLEND_DST_DST_ALPHA = 6,
    GN_BLEND_DST_ONE_MINUS_DST_ALPHA = 7,
} gn_blend_dst;
#define GN_STATE_BLEND(src, dst) ((uint8_t)(((unsigned)(src)&15u) << 3 | ((unsigned)(dst)&7u)))
#define GN_STATE_BLEND_SRC(byte) (((unsigned)(byte) >> 3) & 15u)
#define GN_STATE_BLEND_DST(byte) ((unsigned)(byte)&7u)
#define GN_STATE_BLEND_OPAQUE GN_STATE_BLEND(GN_BLEND_SRC_ONE, GN_BLEND_DST_ZERO)       /* 0 */
#define GN_STATE_BLEND_ADD GN_STATE_BLEND(GN_BLEND_SRC_ONE, GN_BLEND_DST_ONE)           /* blendFunc add */
#define GN_STATE_BLEND_FILTER GN_STATE_BLEND(GN_BLEND_SRC_DST_COLOR, GN_BLEND_DST_ZERO) /* filter */
#define GN_STATE_BLEND_ALPHA                                                                                 \
    GN_STATE_BLEND(GN_BLEND_SRC_SRC_ALPHA, GN_BLEND_DST_ONE_MINUS_SRC_ALPHA) /* blendFunc blend */

/* Depth: bit 0 set when the stage does not write depth, bits 1-2 the test as Quake 3 states it
 * (a reversed-depth back end flips the comparison); 3 and bits 3-6 are invalid. */
#define GN_STATE_DEPTH_NO_WRITE 0x01u
typedef enum gn_depth_func {
    GN_DEPTH_LEQUAL = 0, /* the default */
    GN_DEPTH_EQUAL = 1,  /* depthFunc equal */
    GN_DEPTH_ALWAYS = 2, /* no test (Q3's GLS_DEPTHTEST_DISABLE) */
    GN_DEPTH_FUNC_COUNT
} gn_depth_func;
#define GN_STATE_DEPTH(func, no_write) ((uint8_t)(((unsigned)(func)&3u) << 1 | ((no_write) ? 1u : 0u)))
#define GN_STATE_DEPTH_FUNC(byte) (((unsigned)(byte) >> 1) & 3u)

/* Raster: bits 0-1 the faces drawn (Q3's cull), bits 2-3 the alpha test; 3 and bits 4-6 invalid. */
typedef enum gn_cull {
    GN_CULL_FRONT_SIDED = 0, /* "cull front", the default: faces turned to the viewer only */
    GN_CULL_BACK_SIDED = 1,  /* "cull back": faces turned away only */
    GN_CULL_TWO_SIDED = 2,   /* "cull none" / "twosided" / "disable" */
    GN_CULL_COUNT
} gn_cull;
typedef enum gn_alpha_test {
    GN_ALPHA_TEST_NONE = 0,
    GN_ALPHA_TEST_GT0 = 1,   /* keep alpha > 0 */
    GN_ALPHA_TEST_LT128 = 2, /* keep alpha < 0.5 */
    GN_ALPHA_TEST_GE128 = 3, /* keep alpha >= 0.5 */
} gn_alpha_test;
#define GN_STATE_RASTER(cull, alpha_test)                                                                    \
    ((uint8_t)(((unsigned)(alpha_test)&3u) << 2 | ((unsigned)(cull)&3u)))
#define GN_STATE_RASTER_CULL(byte) ((unsigned)(byte)&3u)
#define GN_STATE_RASTER_ALPHA_TEST(byte) (((unsigned)(byte) >> 2) & 3u)

/* Bias: a level in the seven bits; 0 none, 1 Quake 3's polygonOffset, 2-127 steeper levels the
 * back end defines (a shadow caster's slope-scaled bias). */
#define GN_STATE_BIAS_NONE 0u
#define GN_STATE_BIAS_POLYGON_OFFSET 1u
#define GN_STATE_BIAS_CASTER 2u /* a shadow caster's slope-scaled bias, the pass's own values */

/* One byte by the override rule above: the seven state bits. */
uint8_t gn_state_resolve_byte(uint8_t pass, uint8_t material, uint8_t forced);
/* All four bytes, each by gn_state_resolve_byte. */
uint32_t gn_state_resolve(uint32_t pass, uint32_t material, uint32_t forced);
/* Whether a resolved state decodes (no high bit, no invalid field); false with a message naming
 * the byte and the field. */
bool gn_state_valid(uint32_t state, char *msg, size_t cap);

#endif
