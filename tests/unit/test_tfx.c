/* The TFX interpreter and the render-state bytes (decide/tfx.c): every op against values worked by
 * hand, the divide's guard, multiply-add kept as two roundings (where an fma would round once and
 * differ), the Quake 3 waveforms against the game's table definitions (points, quantisation,
 * phase wrap, negative arguments, the noise's range and continuity), a tcMod chain composed as
 * texture matrices, validation refusing each kind of bad program with a message naming the
 * instruction, the disassembler's lines, the builder, and the state override rule. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "decide/tfx.h"

#define V4(x, y, z, w) ((gn_tfx_vec4){{(x), (y), (z), (w)}})

/* The externs every run below gets: frame (time 2.5 s), entity colour, 4 view rows + eye,
 * 2 object channels. */
static const gn_tfx_vec4 FRAME[1] = {{{2.5f, 0, 0, 0}}};
static const gn_tfx_vec4 ENTITY[1] = {{{1.0f, 0.5f, 0.25f, 0.75f}}};
static const gn_tfx_vec4 VIEW[5] = {
    {{1, 2, 3, 4}}, {{5, 6, 7, 8}}, {{9, 10, 11, 12}}, {{13, 14, 15, 16}}, {{0.5f, 1.5f, 2.5f, 1}}};
static const gn_tfx_vec4 OBJECT[2] = {{{-1, -2, -3, -4}}, {{0.125f, 0, 0, 0}}};
static const gn_tfx_block EXTERNS[GN_TFX_EXTERN_COUNT] = {{FRAME, 1}, {ENTITY, 1}, {VIEW, 5}, {OBJECT, 2}};

static int same4(gn_tfx_vec4 a, gn_tfx_vec4 b)
{
    return memcmp(&a, &b, sizeof a) == 0; /* bit for bit: -0 and 0 differ */
}

static int near4(gn_tfx_vec4 a, gn_tfx_vec4 b, float tol)
{
    for (int k = 0; k < 4; k++)
        if (!(fabsf(a.v[k] - b.v[k]) <= tol)) return 0;
    return 1;
}

/* Builds: push each of the n values as a constant, the op, pop_out 0; validates and runs it. */
static gn_tfx_vec4 op_on(gn_tfx_op op, uint8_t a, const gn_tfx_vec4 *in, int n)
{
    gn_tfx_insn code[16];
    gn_tfx_vec4 consts[8];
    gn_tfx_builder b = gn_tfx_builder_make(code, 16, consts, 8);
    for (int k = 0; k < n; k++) gn_tfx_emit_const(&b, in[k].v[0], in[k].v[1], in[k].v[2], in[k].v[3]);
    gn_tfx_emit(&b, op, a, 0);
    gn_tfx_emit(&b, GN_TFX_POP_OUT, 0, 0);
    gn_tfx_program p = gn_tfx_builder_program(&b);
    gn_tfx_limits lim = gn_tfx_limits_of(EXTERNS, 1);
    char msg[256] = "";
    bool ok = gn_tfx_validate(&p, &lim, msg, sizeof msg);
    CHECK(ok && !b.full, "op %s refused: %s", gn_tfx_op_name((uint8_t)op), msg);
    gn_tfx_vec4 out[1] = {V4(99, 99, 99, 99)};
    gn_tfx_run(&p, EXTERNS, out, 1);
    return out[0];
}

#define EXPECT_OP(op, a, expect, ...)                                                                        \
    do {                                                                                                     \
        const gn_tfx_vec4 in_[] = {__VA_ARGS__};                                                             \
        gn_tfx_vec4 got_ = op_on(op, a, in_, (int)(sizeof in_ / sizeof in_[0])), want_ = (expect);           \
        CHECK(same4(got_, want_), "%s: got (%g %g %g %g), want (%g %g %g %g)", gn_tfx_op_name((uint8_t)op),  \
              (double)got_.v[0], (double)got_.v[1], (double)got_.v[2], (double)got_.v[3],                    \
              (double)want_.v[0], (double)want_.v[1], (double)want_.v[2], (double)want_.v[3]);               \
    } while (0)

static void test_lane_ops(void)
{
    const gn_tfx_vec4 a = V4(1, 2, 3, 4), b = V4(2, 4, -8, 0.5f);
    EXPECT_OP(GN_TFX_ADD, 0, V4(3, 6, -5, 4.5f), a, b);
    EXPECT_OP(GN_TFX_SUB, 0, V4(-1, -2, 11, 3.5f), a, b);
    EXPECT_OP(GN_TFX_MUL, 0, V4(2, 8, -24, 2), a, b);
    EXPECT_OP(GN_TFX_DIV, 0, V4(0.5f, 0.5f, -0.375f, 8), a, b);
    EXPECT_OP(GN_TFX_MIN, 0, V4(1, 2, -8, 0.5f), a, b);
    EXPECT_OP(GN_TFX_MAX, 0, V4(2, 4, 3, 4), a, b);
    EXPECT_OP(GN_TFX_LERP, 0, V4(0.25f, 15, 0, 2), V4(0, 10, -1, 2), V4(1, 20, 1, 2),
              V4(0.25f, 0.5f, 0.5f, 7));
    EXPECT_OP(GN_TFX_CLAMP, 0, V4(0, 0.5f, 2, 6), V4(-1, 0.5f, 3, 5), V4(0, 0, 0, 6), V4(1, 1, 2, 7));
    EXPECT_OP(GN_TFX_SATURATE, 0, V4(0, 0.25f, 1, 0), V4(-0.5f, 0.25f, 1.5f, NAN));
    EXPECT_OP(GN_TFX_FLOOR, 0, V4(1, -2, 2, -3), V4(1.5f, -1.5f, 2, -2.25f));
    EXPECT_OP(GN_TFX_FRACT, 0, V4(0.5f, 0.5f, 0, 0.75f), V4(1.5f, -1.5f, 2, -2.25f));
    EXPECT_OP(GN_TFX_NEG, 0, V4(-1, 2, -0.0f, -3), V4(1, -2, 0, 3));
    EXPECT_OP(GN_TFX_SPLAT, 2, V4(3, 3, 3, 3), a);
    EXPECT_OP(GN_TFX_SWIZZLE, 0x1B, V4(4, 3, 2, 1), a); /* selectors 3, 2, 1, 0: wzyx */
    EXPECT_OP(GN_TFX_SWIZZLE, 0xE4, a, a);              /* xyzw: the identity */
    /* mat4: (r_i . x); the rows here translate x by (5, 0, -1) and scale y by 2 */
    EXPECT_OP(GN_TFX_MAT4, 0, V4(6, 4, 2, 1), V4(1, 2, 3, 1), V4(1, 0, 0, 5), V4(0, 2, 0, 0), V4(0, 0, 1, -1),
              V4(0, 0, 0, 1));
    EXPECT_OP(GN_TFX_TEXMAT_APPLY, 0, V4(0.75f, 2.5f, 0, 0), V4(0.5f, 1, 0, 0), V4(1, 0, 0.25f, 0),
              V4(0, 2, 0.5f, 0));
}

/* dup and swap leave more than one value: these run the stack by hand. */
static void test_stack_ops(void)
{
    const gn_tfx_vec4 consts[2] = {V4(1, 2, 3, 4), V4(10, 20, 30, 40)};
    const gn_tfx_insn code[] = {
        {GN_TFX_PUSH_CONST, 0, 0, 0}, {GN_TFX_PUSH_CONST, 1, 0, 0}, {GN_TFX_SWAP, 0, 0, 0},
        {GN_TFX_SUB, 0, 0, 0},        {GN_TFX_DUP, 0, 0, 0},        {GN_TFX_ADD, 0, 0, 0},
        {GN_TFX_POP_OUT, 1, 0, 0},
    };
    gn_tfx_program p = {code, 7, consts, 2};
    gn_tfx_limits lim = gn_tfx_limits_of(EXTERNS, 2);
    char msg[256] = "";
    CHECK(gn_tfx_validate(&p, &lim, msg, sizeof msg), "refused: %s", msg);
    gn_tfx_vec4 out[2] = {V4(7, 7, 7, 7), V4(0, 0, 0, 0)};
    gn_tfx_run(&p, EXTERNS, out, 2);
    /* swap: (10..40) (1..4); sub: 10 - 1 ...; dup add: twice that */
    CHECK(same4(out[1], V4(18, 36, 54, 72)), "swap/sub/dup/add: (%g %g %g %g)", (double)out[1].v[0],
          (double)out[1].v[1], (double)out[1].v[2], (double)out[1].v[3]);
    CHECK(same4(out[0], V4(7, 7, 7, 7)), "an output the program does not pop keeps its value");
}

static void test_externs(void)
{
    /* frame f0 is the time; view f5 is vector 1's lane 1; object v1 the second channel */
    const gn_tfx_insn code[] = {
        {GN_TFX_PUSH_EXTERN_FLOAT, GN_TFX_EXTERN_FRAME, 0, 0}, {GN_TFX_POP_OUT, 0, 0, 0},
        {GN_TFX_PUSH_EXTERN_FLOAT, GN_TFX_EXTERN_VIEW, 5, 0},  {GN_TFX_POP_OUT, 1, 0, 0},
        {GN_TFX_PUSH_EXTERN_VEC, GN_TFX_EXTERN_OBJECT, 1, 0},  {GN_TFX_POP_OUT, 2, 0, 0},
        {GN_TFX_PUSH_EXTERN_VEC, GN_TFX_EXTERN_ENTITY, 0, 0},  {GN_TFX_POP_OUT, 3, 0, 0},
    };
    gn_tfx_program p = {code, 8, NULL, 0};
    gn_tfx_limits lim = gn_tfx_limits_of(EXTERNS, 4);
    char msg[256] = "";
    CHECK(gn_tfx_validate(&p, &lim, msg, sizeof msg), "refused: %s", msg);
    gn_tfx_vec4 out[4] = {0};
    gn_tfx_run(&p, EXTERNS, out, 4);
    CHECK(same4(out[0], V4(2.5f, 2.5f, 2.5f, 2.5f)), "frame f0 splatted: %g", (double)out[0].v[0]);
    CHECK(same4(out[1], V4(6, 6, 6, 6)), "view f5 (vector 1, lane 1): %g", (double)out[1].v[0]);
    CHECK(same4(out[2], OBJECT[1]), "object v1");
    CHECK(same4(out[3], ENTITY[0]), "entity v0");
}

/* Divide guarded near zero: |b| < 1e-6 gives 0 in that lane, the others divide. */
static void test_divide_guard(void)
{
    volatile float tiny = 1e-6f, neg = -2e-6f;
    EXPECT_OP(GN_TFX_DIV, 0, V4(0, 0, 0.0f, 0), V4(1, 1, 1, 0), V4(0, 1e-7f, -9.9e-7f, 0));
    gn_tfx_vec4 r =
        op_on(GN_TFX_DIV, 0, (const gn_tfx_vec4[]){V4(1, 1, 3, -4), V4(1e-6f, -2e-6f, -0.0f, 4)}, 2);
    CHECK(r.v[0] == 1.0f / tiny && r.v[1] == 1.0f / neg, "|b| = 1e-6 and 2e-6 divide: %g %g", (double)r.v[0],
          (double)r.v[1]);
    CHECK(r.v[2] == 0.0f && r.v[3] == -1.0f, "-0 guarded, 4 divides: %g %g", (double)r.v[2], (double)r.v[3]);
}

/* a * b + c with a = b = 1 + 2^-12, c = -1: the product 1 + 2^-11 + 2^-24 is a tie that rounds to
 * 1 + 2^-11, so mul-then-add gives 2^-11; a fused multiply-add keeps the 2^-24. */
static void test_madd_order(void)
{
    volatile float a = 1.0f + 0x1p-12f, c = -1.0f;
    volatile float product = a * a;
    float two_roundings = product + c, fused = fmaf(a, a, c);
    CHECK(two_roundings == 0x1p-11f, "mul then add: %a", (double)two_roundings);
    CHECK(fused == 0x1p-11f + 0x1p-24f, "fma: %a", (double)fused);
    CHECK(two_roundings != fused, "the chosen case separates the two");
    gn_tfx_vec4 r =
        op_on(GN_TFX_MADD, 0, (const gn_tfx_vec4[]){V4(a, 2, 3, 0.5f), V4(a, 3, 4, 4), V4(c, 1, 1, -2)}, 3);
    CHECK(r.v[0] == two_roundings && r.v[0] != fused, "madd: %a, mul then add %a, fma %a", (double)r.v[0],
          (double)two_roundings, (double)fused);
    CHECK(r.v[1] == 7.0f && r.v[2] == 13.0f && r.v[3] == 0.0f, "madd lanes: %g %g %g", (double)r.v[1],
          (double)r.v[2], (double)r.v[3]);
    /* and as the program mul then add spells it */
    gn_tfx_insn code[8];
    gn_tfx_vec4 consts[4];
    gn_tfx_builder b = gn_tfx_builder_make(code, 8, consts, 4);
    gn_tfx_emit_const(&b, a, a, a, a);
    gn_tfx_emit(&b, GN_TFX_DUP, 0, 0);
    gn_tfx_emit(&b, GN_TFX_MUL, 0, 0);
    gn_tfx_emit_const(&b, c, c, c, c);
    gn_tfx_emit(&b, GN_TFX_ADD, 0, 0);
    gn_tfx_emit(&b, GN_TFX_POP_OUT, 0, 0);
    gn_tfx_program p = gn_tfx_builder_program(&b);
    gn_tfx_vec4 out[1];
    gn_tfx_run(&p, EXTERNS, out, 1);
    CHECK(memcmp(&out[0].v[0], &r.v[0], sizeof(float)) == 0, "madd equals mul, add bit for bit: %a %a",
          (double)out[0].v[0], (double)r.v[0]);
}

/* The game's sine entry i: degrees rounded to float, then sin in double. */
static float q3_sin_entry(int i)
{
    float degrees = (float)i * 360.0f / 1023.0f;
    return (float)sin((double)degrees * 3.14159265358979323846 / 180.0);
}

static void test_waveforms(void)
{
    /* points of the tables */
    CHECK(gn_tfx_wave(GN_TFX_WAVE_SIN, 0.0f) == 0.0f, "sin 0");
    float s25 = gn_tfx_wave(GN_TFX_WAVE_SIN, 0.25f), s50 = gn_tfx_wave(GN_TFX_WAVE_SIN, 0.5f);
    CHECK(s25 == q3_sin_entry(256) && fabsf(s25 - 1.0f) < 2e-6f, "sin 0.25: %.9g (entry 256)", (double)s25);
    /* the game divides by 1023: entry 512 is sin(pi + pi / 1023), a little below 0 */
    CHECK(fabsf(s50 - (float)sin(3.14159265358979323846 * 1024.0 / 1023.0)) < 1e-6f && s50 < -0.003f,
          "sin 0.5: %.9g", (double)s50);
    CHECK(fabsf(gn_tfx_wave(GN_TFX_WAVE_SIN, 0.75f) + 1.0f) < 2e-5f, "sin 0.75: %.9g",
          (double)gn_tfx_wave(GN_TFX_WAVE_SIN, 0.75f));
    CHECK(gn_tfx_wave(GN_TFX_WAVE_SQUARE, 0.49f) == 1.0f && gn_tfx_wave(GN_TFX_WAVE_SQUARE, 0.51f) == -1.0f,
          "square 0.49, 0.51");
    CHECK(gn_tfx_wave(GN_TFX_WAVE_SQUARE, 0.0f) == 1.0f && gn_tfx_wave(GN_TFX_WAVE_SQUARE, 0.5f) == -1.0f,
          "square 0, 0.5");
    const float tri_x[] = {0.0f, 0.125f, 0.25f, 0.375f, 0.5f, 0.625f, 0.75f, 0.875f};
    const float tri_v[] = {0.0f, 0.5f, 1.0f, 0.5f, 0.0f, -0.5f, -1.0f, -0.5f};
    for (int k = 0; k < 8; k++)
        CHECK(gn_tfx_wave(GN_TFX_WAVE_TRIANGLE, tri_x[k]) == tri_v[k], "triangle %g: %g, want %g",
              (double)tri_x[k], (double)gn_tfx_wave(GN_TFX_WAVE_TRIANGLE, tri_x[k]), (double)tri_v[k]);
    CHECK(gn_tfx_wave(GN_TFX_WAVE_TRIANGLE, 1023.0f / 1024.0f) == -1.0f / 256.0f, "triangle's last entry");
    CHECK(gn_tfx_wave(GN_TFX_WAVE_SAWTOOTH, 0.5f) == 0.5f && gn_tfx_wave(GN_TFX_WAVE_SAWTOOTH, 0.0f) == 0.0f,
          "sawtooth");
    CHECK(gn_tfx_wave(GN_TFX_WAVE_INVERSE_SAWTOOTH, 0.25f) == 0.75f &&
              gn_tfx_wave(GN_TFX_WAVE_INVERSE_SAWTOOTH, 0.0f) == 1.0f,
          "inverse sawtooth");

    for (int f = GN_TFX_WAVE_SIN; f <= GN_TFX_WAVE_INVERSE_SAWTOOTH; f++) {
        const float xs[] = {0.3f, 0.375f, 0.8125f, 0.05f};
        for (int k = 0; k < 4; k++) {
            float x = xs[k], v = gn_tfx_wave((gn_tfx_wave_func)f, x);
            /* quantised: within one entry the value holds */
            CHECK(gn_tfx_wave((gn_tfx_wave_func)f, x + 0.5f / 1024.0f) == v,
                  "func %d at %g: steps within 1/1024", f, (double)x);
            /* the phase wraps */
            CHECK(gn_tfx_wave((gn_tfx_wave_func)f, x + 1.0f) == v &&
                      gn_tfx_wave((gn_tfx_wave_func)f, x + 5.0f) == v,
                  "func %d at %g: wraps at 1", f, (double)x);
        }
        /* a negative whole-entry x lands on x + 1's entry */
        CHECK(gn_tfx_wave((gn_tfx_wave_func)f, -0.25f) == gn_tfx_wave((gn_tfx_wave_func)f, 0.75f),
              "func %d at -0.25 is its value at 0.75", f);
    }
    CHECK(gn_tfx_wave(GN_TFX_WAVE_SAWTOOTH, 1.0f / 1024.0f) == 1.0f / 1024.0f, "sawtooth steps at 1/1024");
    /* the cast truncates toward zero: -0.1 * 1024 = -102.4 -> -102 -> entry 922, one past 0.9's 921 */
    CHECK(gn_tfx_wave(GN_TFX_WAVE_SAWTOOTH, -0.1f) == 922.0f / 1024.0f, "sawtooth -0.1: entry %g",
          (double)gn_tfx_wave(GN_TFX_WAVE_SAWTOOTH, -0.1f) * 1024.0);
    CHECK(gn_tfx_wave(GN_TFX_WAVE_SAWTOOTH, 0.9f) == 921.0f / 1024.0f, "sawtooth 0.9");
    CHECK(gn_tfx_wave(GN_TFX_WAVE_SIN, -0.25f) == q3_sin_entry(768), "sin -0.25 is entry 768");
    CHECK(gn_tfx_wave(GN_TFX_WAVE_SIN, INFINITY) == 0.0f && gn_tfx_wave(GN_TFX_WAVE_SIN, NAN) == 0.0f,
          "non-finite x gives entry 0");
    CHECK(gn_tfx_wave(GN_TFX_WAVE_SAWTOOTH, 3e9f) == 0.0f, "a huge x (whole) is entry 0, defined");
    CHECK(gn_tfx_wave((gn_tfx_wave_func)17, 0.3f) == 0.0f, "an unknown function gives 0");

    /* base + table(phase + t freq) amplitude, in the game's order */
    gn_tfx_vec4 p = V4(0.5f, 2.0f, 0.25f, 1.5f);
    float t = 0.3f, x = 0.25f + 0.3f * 1.5f;
    CHECK(gn_tfx_wave_eval(GN_TFX_WAVE_SIN, &p, t) == 0.5f + gn_tfx_wave(GN_TFX_WAVE_SIN, x) * 2.0f,
          "wave eval");
    gn_tfx_vec4 sq = V4(1, 0.5f, 0, 2);
    CHECK(gn_tfx_wave_eval(GN_TFX_WAVE_SQUARE, &sq, 0.3f) == 0.5f, "square at 0.6: 1 - 0.5");
}

static void test_noise(void)
{
    float lo = 2.0f, hi = -2.0f, worst_step = 0.0f;
    int finite = 1;
    for (int k = 0; k < 60000; k++) {
        float x = -300.0f + (float)k * 0.01f, v = gn_tfx_wave(GN_TFX_WAVE_NOISE, x);
        finite &= isfinite(v);
        lo = fminf(lo, v), hi = fmaxf(hi, v);
        float step = fabsf(gn_tfx_wave(GN_TFX_WAVE_NOISE, x + 1e-3f) - v);
        worst_step = fmaxf(worst_step, step);
    }
    CHECK(finite && lo >= -1.0f && hi <= 1.0f, "noise in [-1, 1]: [%g, %g]", (double)lo, (double)hi);
    CHECK(hi - lo > 1.5f, "noise spans its range: [%g, %g]", (double)lo, (double)hi);
    /* linear between lattice values in [-1, 1]: slope at most 2 */
    CHECK(worst_step <= 2.1e-3f, "noise is continuous: worst step %g over 1e-3", (double)worst_step);
    CHECK(gn_tfx_wave(GN_TFX_WAVE_NOISE, 0.5f) == gn_tfx_wave(GN_TFX_WAVE_NOISE, 256.5f) &&
              gn_tfx_wave(GN_TFX_WAVE_NOISE, -7.25f) == gn_tfx_wave(GN_TFX_WAVE_NOISE, 248.75f),
          "noise repeats every 256");
    CHECK(gn_tfx_wave(GN_TFX_WAVE_NOISE, 3.0f) != gn_tfx_wave(GN_TFX_WAVE_NOISE, 4.0f),
          "lattice values differ");
    /* the game reads noise at (time + phase) * frequency */
    gn_tfx_vec4 p = V4(0.25f, 0.5f, 0.5f, 2.0f);
    CHECK(gn_tfx_wave_eval(GN_TFX_WAVE_NOISE, &p, 1.0f) ==
              0.25f + gn_tfx_wave(GN_TFX_WAVE_NOISE, 3.0f) * 0.5f,
          "noise argument");
}

/* The wave op in a program, as a material's `rgbGen wave sin 0.5 0.5 0 1` compiles: the frame's
 * time, the wave, clamped to [0, 1]. */
static void test_wave_program(void)
{
    gn_tfx_insn code[8];
    gn_tfx_vec4 consts[2];
    gn_tfx_builder b = gn_tfx_builder_make(code, 8, consts, 2);
    gn_tfx_emit_const(&b, 0.5f, 0.5f, 0.0f, 1.0f);
    gn_tfx_emit(&b, GN_TFX_PUSH_EXTERN_FLOAT, GN_TFX_EXTERN_FRAME, 0);
    gn_tfx_emit(&b, GN_TFX_WAVE, GN_TFX_WAVE_SIN, 0);
    gn_tfx_emit(&b, GN_TFX_SATURATE, 0, 0);
    gn_tfx_emit(&b, GN_TFX_POP_OUT, 0, 0);
    gn_tfx_program p = gn_tfx_builder_program(&b);
    gn_tfx_limits lim = gn_tfx_limits_of(EXTERNS, 1);
    char msg[256] = "";
    CHECK(gn_tfx_validate(&p, &lim, msg, sizeof msg), "refused: %s", msg);
    const float times[] = {0.0f, 0.25f, 0.6f, 2.5f, 100.125f};
    for (int k = 0; k < 5; k++) {
        gn_tfx_vec4 frame = V4(times[k], 0, 0, 0), out[1];
        gn_tfx_block ext[GN_TFX_EXTERN_COUNT] = {{&frame, 1}};
        gn_tfx_run(&p, ext, out, 1);
        float want = 0.5f + gn_tfx_wave(GN_TFX_WAVE_SIN, 0.0f + times[k] * 1.0f) * 0.5f;
        want = fminf(fmaxf(want, 0.0f), 1.0f);
        CHECK(same4(out[0], V4(want, want, want, want)), "rgbGen wave at t %g: %g, want %g", (double)times[k],
              (double)out[0].v[0], (double)want);
    }
    gn_tfx_vec4 sq[] = {V4(0, 1, 0.25f, 1), V4(0.1f, 0, 0, 0)};
    EXPECT_OP(GN_TFX_WAVE, GN_TFX_WAVE_SAWTOOTH, V4(0.349609375f, 0.349609375f, 0.349609375f, 0.349609375f),
              sq[0], sq[1]); /* 0.25 + 0.1 = 0.35: entry 358 */
}

/* tcMod scroll 0.25 0.5, then scale 2 3, then rotate by 90 degrees about (0.5, 0.5) as the game
 * builds it (rows (cos, -sin, 0.5 - 0.5 cos + 0.5 sin) and (sin, cos, 0.5 - 0.5 sin - 0.5 cos)),
 * composed with texmat in that order and applied to (0.1, 0.2): scroll (0.35, 0.7), scale (0.7,
 * 2.1), rotate (0.5 - (2.1 - 0.5), 0.5 + (0.7 - 0.5)) = (-1.1, 0.7). */
static void emit_tcmods(gn_tfx_builder *b)
{
    gn_tfx_emit_const(b, 1, 0, 0.25f, 0); /* scroll */
    gn_tfx_emit_const(b, 0, 1, 0.5f, 0);
    gn_tfx_emit_const(b, 2, 0, 0, 0); /* scale */
    gn_tfx_emit_const(b, 0, 3, 0, 0);
    gn_tfx_emit(b, GN_TFX_TEXMAT, 0, 0); /* scale after scroll */
    gn_tfx_emit_const(b, 0, -1, 1, 0);   /* rotate 90: cos 0, sin 1 */
    gn_tfx_emit_const(b, 1, 0, 0, 0);
    gn_tfx_emit(b, GN_TFX_TEXMAT, 0, 0); /* rotate after both */
}

static void test_texmat(void)
{
    gn_tfx_limits lim = gn_tfx_limits_of(EXTERNS, 3);
    char msg[256] = "";
    gn_tfx_insn code[16];
    gn_tfx_vec4 consts[8];
    /* the composed rows, as the back end would upload them */
    gn_tfx_builder b = gn_tfx_builder_make(code, 16, consts, 8);
    emit_tcmods(&b);
    gn_tfx_emit(&b, GN_TFX_POP_OUT, 2, 0);
    gn_tfx_emit(&b, GN_TFX_POP_OUT, 1, 0);
    gn_tfx_program p = gn_tfx_builder_program(&b);
    CHECK(!b.full && gn_tfx_validate(&p, &lim, msg, sizeof msg), "refused: %s", msg);
    gn_tfx_vec4 out[3] = {0};
    gn_tfx_run(&p, EXTERNS, out, 3);
    /* scroll then scale: (2, 0, 0.5), (0, 3, 1.5); then the rotation: (0, -3, -0.5), (2, 0, 0.5) */
    CHECK(same4(out[1], V4(0, -3, -0.5f, 0)) && same4(out[2], V4(2, 0, 0.5f, 0)),
          "composed rows (%g %g %g) (%g %g %g)", (double)out[1].v[0], (double)out[1].v[1],
          (double)out[1].v[2], (double)out[2].v[0], (double)out[2].v[1], (double)out[2].v[2]);
    /* and applied to the point in the program */
    b = gn_tfx_builder_make(code, 16, consts, 8);
    gn_tfx_emit_const(&b, 0.1f, 0.2f, 0, 0);
    emit_tcmods(&b);
    gn_tfx_emit(&b, GN_TFX_TEXMAT_APPLY, 0, 0);
    gn_tfx_emit(&b, GN_TFX_POP_OUT, 0, 0);
    p = gn_tfx_builder_program(&b);
    CHECK(!b.full && gn_tfx_validate(&p, &lim, msg, sizeof msg), "refused: %s", msg);
    gn_tfx_run(&p, EXTERNS, out, 3);
    CHECK(near4(out[0], V4(-1.1f, 0.7f, 0, 0), 1e-6f), "uv (0.1, 0.2) -> (%.7g, %.7g), want (-1.1, 0.7)",
          (double)out[0].v[0], (double)out[0].v[1]);
    /* the order matters: scale after the rotation alone is (0, -2, 2), (3, 0, 0) */
    const gn_tfx_vec4 rows[] = {V4(0, -1, 1, 0), V4(1, 0, 0, 0), V4(2, 0, 0, 0), V4(0, 3, 0, 0)};
    const gn_tfx_insn c2[] = {{GN_TFX_PUSH_CONST, 0, 0, 0}, {GN_TFX_PUSH_CONST, 1, 0, 0},
                              {GN_TFX_PUSH_CONST, 2, 0, 0}, {GN_TFX_PUSH_CONST, 3, 0, 0},
                              {GN_TFX_TEXMAT, 0, 0, 0},     {GN_TFX_POP_OUT, 1, 0, 0},
                              {GN_TFX_POP_OUT, 0, 0, 0}};
    gn_tfx_program p2 = {c2, 7, rows, 4};
    CHECK(gn_tfx_validate(&p2, &lim, msg, sizeof msg), "refused: %s", msg);
    gn_tfx_run(&p2, EXTERNS, out, 3);
    CHECK(same4(out[0], V4(0, -2, 2, 0)) && same4(out[1], V4(3, 0, 0, 0)),
          "rotate then scale (%g %g %g) (%g %g %g)", (double)out[0].v[0], (double)out[0].v[1],
          (double)out[0].v[2], (double)out[1].v[0], (double)out[1].v[1], (double)out[1].v[2]);
}

/* A validation case: the code, expecting refusal with every needle in the message. */
static void expect_refused(const char *what, const gn_tfx_insn *code, uint32_t n, uint32_t consts,
                           const char *needle1, const char *needle2)
{
    static const gn_tfx_vec4 K[4] = {{{0}}};
    gn_tfx_program p = {code, n, K, consts};
    gn_tfx_limits lim = gn_tfx_limits_of(EXTERNS, 2);
    char msg[256] = "";
    bool ok = gn_tfx_validate(&p, &lim, msg, sizeof msg);
    CHECK(!ok, "%s: accepted", what);
    CHECK(strstr(msg, needle1) && strstr(msg, needle2), "%s: message \"%s\" lacks \"%s\" / \"%s\"", what, msg,
          needle1, needle2);
    /* never run, but running it anyway stays in bounds (the sanitizer build checks that) */
    gn_tfx_vec4 out[2] = {V4(5, 5, 5, 5), V4(5, 5, 5, 5)};
    gn_tfx_run(&p, EXTERNS, out, 2);
}

static void test_validation(void)
{
    const gn_tfx_insn underflow[] = {
        {GN_TFX_PUSH_CONST, 0, 0, 0}, {GN_TFX_ADD, 0, 0, 0}, {GN_TFX_POP_OUT, 0, 0, 0}};
    expect_refused("underflow", underflow, 3, 1, "instruction 1 (add)", "underflow");
    gn_tfx_insn deep[40];
    for (int k = 0; k < 17; k++) deep[k] = (gn_tfx_insn){GN_TFX_PUSH_CONST, 0, 0, 0};
    expect_refused("overflow", deep, 17, 1, "instruction 16 (push_const)", "overflow");
    /* exactly 16 is allowed: 16 pushes, 15 adds, one pop */
    for (int k = 16; k < 31; k++) deep[k] = (gn_tfx_insn){GN_TFX_ADD, 0, 0, 0};
    deep[31] = (gn_tfx_insn){GN_TFX_POP_OUT, 0, 0, 0};
    {
        static const gn_tfx_vec4 one[1] = {{{1, 1, 1, 1}}};
        gn_tfx_program p = {deep, 32, one, 1};
        gn_tfx_limits lim = gn_tfx_limits_of(EXTERNS, 1);
        char msg[256] = "";
        CHECK(gn_tfx_validate(&p, &lim, msg, sizeof msg), "16 deep refused: %s", msg);
        gn_tfx_vec4 out[1];
        gn_tfx_run(&p, EXTERNS, out, 1);
        CHECK(same4(out[0], V4(16, 16, 16, 16)), "16 ones summed: %g", (double)out[0].v[0]);
    }
    const gn_tfx_insn left[] = {
        {GN_TFX_PUSH_CONST, 0, 0, 0}, {GN_TFX_PUSH_CONST, 0, 0, 0}, {GN_TFX_POP_OUT, 0, 0, 0}};
    expect_refused("non-empty end", left, 3, 1, "instruction 2 (pop_out)", "1 value(s) on the stack");
    const gn_tfx_insn kbad[] = {{GN_TFX_PUSH_CONST, 5, 0, 0}, {GN_TFX_POP_OUT, 0, 0, 0}};
    expect_refused("constant index", kbad, 2, 2, "instruction 0 (push_const)", "constant 5 out of range");
    const gn_tfx_insn ebad[] = {{GN_TFX_PUSH_CONST, 0, 0, 0}, {GN_TFX_PUSH_EXTERN_VEC, 9, 0, 0}};
    expect_refused("extern id", ebad, 2, 1, "instruction 1 (push_extern_vec)", "unknown extern id 9");
    const gn_tfx_insn fbad[] = {{GN_TFX_PUSH_EXTERN_FLOAT, GN_TFX_EXTERN_FRAME, 4, 0},
                                {GN_TFX_POP_OUT, 0, 0, 0}};
    expect_refused("extern float", fbad, 2, 0, "instruction 0 (push_extern_float)",
                   "float 4 of extern 0 (frame)");
    const gn_tfx_insn vbad[] = {{GN_TFX_PUSH_EXTERN_VEC, GN_TFX_EXTERN_VIEW, 5, 0},
                                {GN_TFX_POP_OUT, 0, 0, 0}};
    expect_refused("extern vector", vbad, 2, 0, "instruction 0 (push_extern_vec)",
                   "vector 5 of extern 2 (view)");
    const gn_tfx_insn obad[] = {{GN_TFX_PUSH_CONST, 0, 0, 0}, {GN_TFX_POP_OUT, 2, 0, 0}};
    expect_refused("output index", obad, 2, 1, "instruction 1 (pop_out)", "output 2 out of range");
    const gn_tfx_insn opbad[] = {{GN_TFX_PUSH_CONST, 0, 0, 0}, {200, 0, 0, 0}, {GN_TFX_POP_OUT, 0, 0, 0}};
    expect_refused("unknown opcode", opbad, 3, 1, "instruction 1:", "unknown opcode 200");
    const gn_tfx_insn zero[] = {{0, 0, 0, 0}};
    expect_refused("opcode 0", zero, 1, 0, "instruction 0:", "unknown opcode 0");
    const gn_tfx_insn wbad[] = {
        {GN_TFX_PUSH_CONST, 0, 0, 0}, {GN_TFX_PUSH_CONST, 0, 0, 0}, {GN_TFX_WAVE, 6, 0, 0}};
    expect_refused("wave function", wbad, 3, 1, "instruction 2 (wave)", "unknown wave function 6");
    const gn_tfx_insn lbad[] = {{GN_TFX_PUSH_CONST, 0, 0, 0}, {GN_TFX_SPLAT, 4, 0, 0}};
    expect_refused("splat lane", lbad, 2, 1, "instruction 1 (splat)", "lane 4");
    const gn_tfx_insn ubad[] = {{GN_TFX_PUSH_CONST, 0, 0, 0}, {GN_TFX_NEG, 0, 3, 0}};
    expect_refused("unused operand", ubad, 2, 1, "instruction 1 (neg)", "operand b is 3");
    const gn_tfx_insn cbad[] = {{GN_TFX_PUSH_CONST, 0, 0, 1}};
    expect_refused("reserved operand", cbad, 1, 1, "instruction 0 (push_const)", "operand c");
    /* an extern the caller does not provide */
    {
        const gn_tfx_insn code[] = {{GN_TFX_PUSH_EXTERN_VEC, GN_TFX_EXTERN_OBJECT, 0, 0},
                                    {GN_TFX_POP_OUT, 0, 0, 0}};
        gn_tfx_program p = {code, 2, NULL, 0};
        gn_tfx_block none[GN_TFX_EXTERN_COUNT] = {{FRAME, 1}};
        gn_tfx_limits lim = gn_tfx_limits_of(none, 1);
        char msg[256] = "";
        CHECK(!gn_tfx_validate(&p, &lim, msg, sizeof msg) && strstr(msg, "extern 3 (object) is not provided"),
              "absent extern: \"%s\"", msg);
        gn_tfx_vec4 out[1] = {V4(5, 5, 5, 5)};
        gn_tfx_run(&p, none, out, 1);
        CHECK(same4(out[0], V4(0, 0, 0, 0)), "a read past the externs gives 0");
    }
    /* the empty program is valid and does nothing; no program and a count with no code are not */
    gn_tfx_program empty = {0}, broken = {NULL, 3, NULL, 0};
    char msg[256] = "";
    CHECK(gn_tfx_validate(&empty, NULL, msg, sizeof msg), "empty refused: %s", msg);
    CHECK(!gn_tfx_validate(NULL, NULL, msg, sizeof msg), "no program accepted");
    CHECK(!gn_tfx_validate(&broken, NULL, msg, sizeof msg) && strstr(msg, "no code"), "no code: %s", msg);
    CHECK(!gn_tfx_validate(&broken, NULL, NULL, 0), "no message buffer: still refused");
}

static void test_disassembler(void)
{
    gn_tfx_insn code[8];
    gn_tfx_vec4 consts[2];
    gn_tfx_builder b = gn_tfx_builder_make(code, 8, consts, 2);
    gn_tfx_emit_const(&b, 0.5f, 0.5f, 0, 1);
    gn_tfx_emit(&b, GN_TFX_PUSH_EXTERN_FLOAT, GN_TFX_EXTERN_FRAME, 0);
    gn_tfx_emit(&b, GN_TFX_WAVE, GN_TFX_WAVE_TRIANGLE, 0);
    gn_tfx_emit(&b, GN_TFX_SWIZZLE, 0x1B, 0);
    gn_tfx_emit(&b, GN_TFX_POP_OUT, 1, 0);
    gn_tfx_program p = gn_tfx_builder_program(&b);
    char text[512];
    size_t need = gn_tfx_disassemble(&p, text, sizeof text);
    int lines = 0;
    for (const char *c = text; *c; c++) lines += *c == '\n';
    CHECK(lines == 5 && need == strlen(text), "5 instructions, %d lines (%zu chars):\n%s", lines, need, text);
    const char *want[] = {"0: push_const k0 (0.5, 0.5, 0, 1)\n", "1: push_extern_float frame f0\n",
                          "2: wave triangle\n", "3: swizzle wzyx\n", "4: pop_out out1\n"};
    for (int k = 0; k < 5; k++) CHECK(strstr(text, want[k]), "line \"%s\" missing from:\n%s", want[k], text);
    char small[10];
    size_t need2 = gn_tfx_disassemble(&p, small, sizeof small);
    CHECK(need2 == need && strlen(small) == 9, "truncated: needs %zu, holds \"%s\"", need2, small);
    const gn_tfx_insn odd[] = {{99, 1, 2, 3}};
    gn_tfx_program q = {odd, 1, NULL, 0};
    gn_tfx_disassemble(&q, text, sizeof text);
    CHECK(strcmp(text, "0: op 99 (unknown) 1 2 3\n") == 0, "unknown op: %s", text);
    CHECK(gn_tfx_op_name(GN_TFX_MADD) && strcmp(gn_tfx_op_name(GN_TFX_MADD), "madd") == 0 &&
              !gn_tfx_op_name(0) && !gn_tfx_op_name(GN_TFX_OP_COUNT),
          "op names");
    for (int op = 1; op < GN_TFX_OP_COUNT; op++) CHECK(gn_tfx_op_name((uint8_t)op), "op %d has no name", op);
}

static void test_builder(void)
{
    gn_tfx_insn code[3];
    gn_tfx_vec4 consts[2];
    gn_tfx_builder b = gn_tfx_builder_make(code, 3, consts, 2);
    int32_t k0 = gn_tfx_constant(&b, 1, 2, 3, 4), k1 = gn_tfx_constant(&b, 0, 0, 0, 0);
    int32_t again = gn_tfx_constant(&b, 1, 2, 3, 4), negzero = gn_tfx_constant(&b, -0.0f, 0, 0, 0);
    CHECK(k0 == 0 && k1 == 1 && again == 0, "constants %d %d, the same again %d", k0, k1, again);
    CHECK(negzero == -1 && b.full && b.const_count == 2, "-0 is another constant, and there is no room: %d",
          negzero);
    b.full = false;
    CHECK(gn_tfx_emit(&b, GN_TFX_PUSH_CONST, 0, 0) && gn_tfx_emit(&b, GN_TFX_NEG, 0, 0) &&
              gn_tfx_emit(&b, GN_TFX_POP_OUT, 0, 0) && !b.full,
          "three fit");
    CHECK(!gn_tfx_emit(&b, GN_TFX_DUP, 0, 0) && b.full && b.count == 3, "a fourth does not");
    gn_tfx_program p = gn_tfx_builder_program(&b);
    CHECK(p.count == 3 && p.const_count == 2 && p.code == code && p.consts == consts, "the program");
}

static void test_state(void)
{
    /* the packings fit seven bits */
    CHECK(GN_STATE_BLEND_OPAQUE == 0 && GN_STATE_BLEND_ADD == 1 && GN_STATE_BLEND_FILTER == 16 &&
              GN_STATE_BLEND_ALPHA == 37,
          "blend bytes %u %u %u %u", GN_STATE_BLEND_OPAQUE, GN_STATE_BLEND_ADD, GN_STATE_BLEND_FILTER,
          GN_STATE_BLEND_ALPHA);
    CHECK(GN_STATE_BLEND(GN_BLEND_SRC_ALPHA_SATURATE, GN_BLEND_DST_ONE_MINUS_DST_ALPHA) < 0x80,
          "largest blend");
    CHECK(GN_STATE_BLEND_SRC(GN_STATE_BLEND_ALPHA) == GN_BLEND_SRC_SRC_ALPHA &&
              GN_STATE_BLEND_DST(GN_STATE_BLEND_ALPHA) == GN_BLEND_DST_ONE_MINUS_SRC_ALPHA,
          "blend decodes");

    uint8_t depth_blended = GN_STATE_DEPTH(GN_DEPTH_LEQUAL, 1),
            depth_equal = GN_STATE_DEPTH(GN_DEPTH_EQUAL, 0);
    uint8_t two_sided = GN_STATE_RASTER(GN_CULL_TWO_SIDED, GN_ALPHA_TEST_GE128);
    uint32_t pass = GN_STATE_PACK(GN_STATE_BLEND_ADD, depth_blended, two_sided, GN_STATE_BIAS_NONE);
    /* pass only: the material's and the forced bytes lack the high bit */
    CHECK(gn_state_resolve(pass, 0, 0) == pass, "pass only: 0x%08x", gn_state_resolve(pass, 0, 0));
    uint32_t weak = GN_STATE_PACK(GN_STATE_BLEND_FILTER, depth_equal, 0, GN_STATE_BIAS_POLYGON_OFFSET);
    CHECK(gn_state_resolve(pass, weak, weak) == pass, "bytes without the high bit override nothing: 0x%08x",
          gn_state_resolve(pass, weak, weak));
    /* the material overrides blend and bias */
    uint32_t material = GN_STATE_PACK(GN_STATE_OVERRIDE | GN_STATE_BLEND_ALPHA, depth_equal, 0,
                                      GN_STATE_OVERRIDE | GN_STATE_BIAS_POLYGON_OFFSET);
    uint32_t m = gn_state_resolve(pass, material, 0);
    CHECK(m == GN_STATE_PACK(GN_STATE_BLEND_ALPHA, depth_blended, two_sided, GN_STATE_BIAS_POLYGON_OFFSET),
          "material overrides blend and bias: 0x%08x", m);
    /* forced overrides both: blend back to opaque over the material's, depth over the pass's */
    uint32_t forced =
        GN_STATE_PACK(GN_STATE_OVERRIDE | GN_STATE_BLEND_OPAQUE, GN_STATE_OVERRIDE | depth_equal, 0, 0);
    uint32_t f = gn_state_resolve(pass, material, forced);
    CHECK(f == GN_STATE_PACK(GN_STATE_BLEND_OPAQUE, depth_equal, two_sided, GN_STATE_BIAS_POLYGON_OFFSET),
          "forced overrides both: 0x%08x", f);
    /* the pass's own high bit means nothing and is cleared */
    CHECK(gn_state_resolve(0x80808080u | pass, 0, 0) == pass, "pass high bits cleared");
    CHECK(gn_state_resolve_byte(0x85, 0x03, 0x7F) == 0x05, "byte: pass 0x85 stays 0x05");

    /* every byte triple against the rule read as priorities: forced, else material, else pass */
    uint32_t wrong = 0;
    for (uint32_t x = 0; x < (1u << 24); x++) {
        uint8_t pb = (uint8_t)x, mb = (uint8_t)(x >> 8), fb = (uint8_t)(x >> 16);
        uint8_t want = (uint8_t)(((fb & 0x80) ? fb : (mb & 0x80) ? mb : pb) & 0x7F);
        wrong += gn_state_resolve_byte(pb, mb, fb) != want;
    }
    CHECK(wrong == 0, "%u of 2^24 byte triples break the rule", wrong);

    char msg[160] = "";
    CHECK(gn_state_valid(f, msg, sizeof msg), "resolved state refused: %s", msg);
    CHECK(!gn_state_valid(GN_STATE_PACK(GN_STATE_BLEND(9, 0), 0, 0, 0), msg, sizeof msg) &&
              strstr(msg, "blend"),
          "source 9: %s", msg);
    CHECK(!gn_state_valid(GN_STATE_PACK(0, GN_STATE_DEPTH(3, 0), 0, 0), msg, sizeof msg) &&
              strstr(msg, "depth"),
          "depth test 3: %s", msg);
    CHECK(!gn_state_valid(GN_STATE_PACK(0, 0, 3, 0), msg, sizeof msg) && strstr(msg, "raster"), "cull 3: %s",
          msg);
    CHECK(!gn_state_valid(material, msg, sizeof msg) && strstr(msg, "override"), "unresolved: %s", msg);
}

int main(void)
{
    test_lane_ops();
    test_stack_ops();
    test_externs();
    test_divide_guard();
    test_madd_order();
    test_waveforms();
    test_noise();
    test_wave_program();
    test_texmat();
    test_validation();
    test_disassembler();
    test_builder();
    test_state();
    return gn_check_exit();
}
