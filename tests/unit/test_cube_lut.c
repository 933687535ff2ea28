/* The .cube LUT reader and its trilinear sample (src/formats/cube_lut.c): identity tables give
 * back their input, a hand-made 2^3 table matches a hand computation, the domain scales and
 * clamps, CRLF and comments read as LF and nothing, and every malformed file is refused with
 * GN_ERROR_BAD_DATA and a message naming the file, the line and the fault, the table left
 * zeroed. Every parse reads from a buffer of exactly the text's length (no NUL after it), so
 * the sanitizer build catches a read past the end. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, ftruncate */
#include "formats/cube_lut.h"

#include "base/alloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define NAME "luts/test.cube"
#define EPS 1e-6f

/* The text copied into a buffer of exactly len bytes, then parsed. */
static gn_result parse_n(const char *text, size_t len, gn_cube_lut *out, gn_error *err)
{
    char *copy = malloc(len ? len : 1);
    if (!copy) return GN_ERROR_OUT_OF_MEMORY;
    memcpy(copy, text, len);
    gn_result r = gn_cube_lut_parse(copy, len, NAME, out, err);
    free(copy);
    return r;
}

static gn_result parse(const char *text, gn_cube_lut *out, gn_error *err)
{
    return parse_n(text, strlen(text), out, err);
}

static bool is_zeroed(const gn_cube_lut *l)
{
    static const gn_cube_lut zero;
    return memcmp(l, &zero, sizeof zero) == 0;
}

/* A growing string (the tests' own, so plain malloc). */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void __attribute__((format(printf, 2, 3))) put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s) abort();
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* The hand-made 2^3 table, in the file's order (red fastest): red is 1 only at corner (1,1,1),
 * green 1 only at corner (0,0,0), blue the corner's index r + 2g + 4b. */
static const char hand_cube[] = "TITLE \"hand #1\"\n"
                                "LUT_3D_SIZE 2\n"
                                "0 1 0\n"
                                "0 0 1\n"
                                "0 0 2\n"
                                "0 0 3\n"
                                "0 0 4\n"
                                "0 0 5\n"
                                "0 0 6\n"
                                "1 0 7\n";

static uint32_t rng_state = 12345u;
static float rnd(void) /* xorshift32, in [0, 1] */
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
    return (float)(rng_state >> 8) / (float)((1u << 24) - 1);
}

static void check_sample(const gn_cube_lut *l, float r, float g, float b, float er, float eg, float eb,
                         float tol, const char *what)
{
    float in[3] = {r, g, b}, out[3];
    gn_cube_lut_sample(l, in, out);
    CHECK(fabsf(out[0] - er) <= tol && fabsf(out[1] - eg) <= tol && fabsf(out[2] - eb) <= tol,
          "%s: sample(%g, %g, %g) = (%.9g, %.9g, %.9g), want (%g, %g, %g) within %g", what, r, g, b, out[0],
          out[1], out[2], er, eg, eb, tol);
}

static void test_identity(void)
{
    static const uint32_t sizes[] = {2, 3, 17, 33, 64};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        gn_cube_lut l;
        gn_error err = {0};
        gn_result r = gn_cube_lut_identity(sizes[k], &l, &err);
        CHECK(r == GN_OK && l.size == sizes[k] && l.rgb, "identity %u: %s", sizes[k], err.message);
        if (r) continue;
        float worst = 0;
        for (int i = 0; i < 1000; i++) {
            float in[3] = {rnd(), rnd(), rnd()}, out[3];
            gn_cube_lut_sample(&l, in, out);
            for (int c = 0; c < 3; c++) worst = fmaxf(worst, fabsf(out[c] - in[c]));
        }
        CHECK(worst <= EPS, "identity %u: a sample is %g from its input (tolerance %g)", sizes[k], worst,
              EPS);
        check_sample(&l, 1.5f, -0.5f, 0.5f, 1, 0, 0.5f, EPS, "identity, clamped to 0..1");
        check_sample(&l, NAN, 1, 0, 0, 1, 0, EPS, "identity, NaN samples the first entry");
        gn_cube_lut_free(&l);
        CHECK(is_zeroed(&l), "free leaves the table zeroed");
    }
    gn_cube_lut l;
    gn_error err = {0};
    CHECK(gn_cube_lut_identity(1, &l, &err) == GN_ERROR_INVALID_ARGUMENT && is_zeroed(&l), "size 1: %s",
          err.message);
    CHECK(gn_cube_lut_identity(65, &l, &err) == GN_ERROR_INVALID_ARGUMENT && strstr(err.message, "2..64"),
          "size 65: %s", err.message);

    /* an identity written as text reads back as gn_cube_lut_identity's (%.9g round-trips a float) */
    gn_cube_lut want, got;
    text t = {0};
    put(&t, "LUT_3D_SIZE 3\n");
    gn_cube_lut_identity(3, &want, &err);
    for (uint32_t i = 0; i < 27; i++)
        put(&t, "%.9g %.9g %.9g\n", want.rgb[3 * i], want.rgb[3 * i + 1], want.rgb[3 * i + 2]);
    gn_result r = parse_n(t.s, t.len, &got, &err);
    CHECK(r == GN_OK && got.size == 3 && memcmp(got.rgb, want.rgb, 27 * 3 * sizeof(float)) == 0,
          "identity 3 as text: %s", err.message);
    gn_cube_lut_free(&got);
    gn_cube_lut_free(&want);
    free(t.s);
}

static void test_hand(void)
{
    gn_cube_lut l;
    gn_error err = {0};
    gn_result r = parse(hand_cube, &l, &err);
    CHECK(r == GN_OK, "hand table: %s", err.message);
    if (r) return;
    CHECK(l.size == 2 && strcmp(l.title, "hand #1") == 0, "size %u title '%s'", l.size, l.title);
    CHECK(l.domain_min[0] == 0 && l.domain_min[2] == 0 && l.domain_max[0] == 1 && l.domain_max[2] == 1,
          "default domain %g..%g", l.domain_min[0], l.domain_max[0]);
    CHECK(l.rgb[1] == 1 && l.rgb[3 * 1 + 2] == 1 && l.rgb[3 * 6 + 2] == 6 && l.rgb[3 * 7] == 1,
          "entries out of the file's order");
    /* (0.25, 0.5, 0.875): red x*y*z = 0.25 * 0.5 * 0.875 = 0.109375; green (1-x)(1-y)(1-z) =
     * 0.75 * 0.5 * 0.125 = 0.046875; blue x + 2y + 4z = 0.25 + 1 + 3.5 = 4.75 */
    check_sample(&l, 0.25f, 0.5f, 0.875f, 0.109375f, 0.046875f, 4.75f, EPS, "hand 2^3");
    /* (0.5, 0.5, 0.5): every corner weighs 1/8 */
    check_sample(&l, 0.5f, 0.5f, 0.5f, 0.125f, 0.125f, 3.5f, EPS, "hand 2^3, centre");
    check_sample(&l, 1, 1, 1, 1, 0, 7, 0, "hand 2^3, last corner exactly");
    check_sample(&l, 0, 1, 0, 0, 0, 2, 0, "hand 2^3, corner (0,1,0) exactly");
    gn_cube_lut_free(&l);

    /* a random 5^3 table: exact at its grid points, the mean of two neighbours halfway */
    text t = {0};
    put(&t, "LUT_3D_SIZE 5\n");
    for (int i = 0; i < 125; i++) put(&t, "%.9g %.9g %.9g\n", rnd() * 4 - 2, rnd(), rnd() * 100);
    r = parse_n(t.s, t.len, &l, &err);
    free(t.s);
    CHECK(r == GN_OK, "random 5^3: %s", err.message);
    if (r) return;
    for (int b = 0; b < 5; b++)
        for (int g = 0; g < 5; g++)
            for (int i = 0; i < 5; i++) {
                const float *e = l.rgb + 3 * (i + 5 * g + 25 * b);
                check_sample(&l, i / 4.0f, g / 4.0f, b / 4.0f, e[0], e[1], e[2], 1e-5f, "random 5^3, grid");
                if (g == 4) continue;
                const float *up = e + 3 * 5; /* one green step */
                check_sample(&l, i / 4.0f, (g + 0.5f) / 4.0f, b / 4.0f, (e[0] + up[0]) / 2,
                             (e[1] + up[1]) / 2, (e[2] + up[2]) / 2, 1e-5f,
                             "random 5^3, halfway along green");
            }
    gn_cube_lut_free(&l);
}

static void test_domain(void)
{
    gn_cube_lut l;
    gn_error err = {0};
    text t = {0};
    put(&t, "DOMAIN_MIN 0 0 0\nDOMAIN_MAX 2 2 2\n%s", hand_cube);
    gn_result r = parse_n(t.s, t.len, &l, &err);
    free(t.s);
    CHECK(r == GN_OK && l.domain_max[1] == 2, "domain 0..2: %s", err.message);
    if (r) return;
    check_sample(&l, 2, 2, 2, 1, 0, 7, 0, "domain 0..2: 2.0 is the last entry");
    check_sample(&l, 0.5f, 1, 1.75f, 0.109375f, 0.046875f, 4.75f, EPS, "domain 0..2, scaled");
    check_sample(&l, 3, -1, 5, 0, 0, 5, 0, "domain 0..2, clamped to corner (1,0,1)");
    gn_cube_lut_free(&l);

    r = parse("LUT_3D_SIZE 2\nDOMAIN_MIN -1 0 0.5\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n",
              &l, &err);
    CHECK(r == GN_OK && l.domain_min[0] == -1 && l.domain_min[2] == 0.5f, "domain -1..1: %s", err.message);
    if (r) return;
    check_sample(&l, -1, 0, 0.5f, 0, 0, 0, 0, "domain min (-1, 0, 0.5) is the first entry");
    check_sample(&l, 0, 0.5f, 0.75f, 0.5f, 0.5f, 0.5f, EPS, "domain min (-1, 0, 0.5), the middle");
    gn_cube_lut_free(&l);
}

static void test_text_forms(void)
{
    gn_cube_lut want, got;
    gn_error err = {0};
    gn_result r = parse(hand_cube, &want, &err);
    CHECK(r == GN_OK, "hand: %s", err.message);
    if (r) return;

    /* CRLF, and the last line without a line end */
    text t = {0};
    for (const char *c = hand_cube; *c; c++) {
        if (*c == '\n')
            put(&t, "\r\n");
        else
            put(&t, "%c", *c);
    }
    t.len -= 2;
    r = parse_n(t.s, t.len, &got, &err);
    CHECK(r == GN_OK && got.size == 2 && strcmp(got.title, "hand #1") == 0 &&
              memcmp(got.rgb, want.rgb, 8 * 3 * sizeof(float)) == 0,
          "CRLF: %s", err.message);
    gn_cube_lut_free(&got);
    free(t.s);

    /* comments, blank lines, tabs and spaces, other spellings of the same numbers */
    static const char spaced[] = "# written by hand\n"
                                 "\n"
                                 "  TITLE   \"hand #1\"   # a '#' in the quotes is the title's\n"
                                 "\t\n"
                                 "LUT_3D_SIZE 2 # two per axis\n"
                                 "# the data\n"
                                 "0.0 1e0 .0\n"
                                 "\t0 0 +1\n"
                                 "0 0 2.000   \n"
                                 "\n"
                                 "0 0 3 #three\n"
                                 "   # a comment between data lines\n"
                                 "0 0 4\n"
                                 "0\t0\t5\n"
                                 "0 0 0.6e1\n"
                                 "1 0 7#";
    r = parse(spaced, &got, &err);
    CHECK(r == GN_OK && got.size == 2 && strcmp(got.title, "hand #1") == 0 &&
              memcmp(got.rgb, want.rgb, 8 * 3 * sizeof(float)) == 0,
          "comments and spacing: %s", err.message);
    gn_cube_lut_free(&got);
    gn_cube_lut_free(&want);

    /* a long title is cut to 127 bytes; an empty one is empty */
    t = (text){0};
    put(&t, "TITLE \"");
    for (int i = 0; i < 200; i++) put(&t, "%c", 'a' + i % 26);
    put(&t, "\"\n%s", strchr(hand_cube, '\n') + 1);
    r = parse_n(t.s, t.len, &got, &err);
    CHECK(r == GN_OK && strlen(got.title) == 127 &&
              strncmp(got.title, "abcdefghijklmnopqrstuvwxyzabc", 29) == 0,
          "long title: %s (%zu bytes)", err.message, strlen(got.title));
    gn_cube_lut_free(&got);
    free(t.s);
    r = parse("TITLE \"\"\nLUT_3D_SIZE 2\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n", &got,
              &err);
    CHECK(r == GN_OK && got.title[0] == '\0', "empty title: %s", err.message);
    gn_cube_lut_free(&got);

    /* the cap itself is read: 64^3 data lines */
    t = (text){0};
    put(&t, "LUT_3D_SIZE 64\n");
    for (int i = 0; i < 64 * 64 * 64; i++) put(&t, "0 %d 0\n", i % 7);
    r = parse_n(t.s, t.len, &got, &err);
    CHECK(r == GN_OK && got.size == 64 && got.rgb[3 * (64 * 64 * 64 - 1) + 1] == (64 * 64 * 64 - 1) % 7,
          "a 64^3 table: %s", err.message);
    gn_cube_lut_free(&got);
    free(t.s);

    /* a line of exactly 1024 characters is read (with its CR not counted) */
    t = (text){0};
    put(&t, "#");
    for (int i = 1; i < 1024; i++) put(&t, "x");
    put(&t, "\r\n%s", hand_cube);
    r = parse_n(t.s, t.len, &got, &err);
    CHECK(r == GN_OK, "a 1024-character line: %s", err.message);
    gn_cube_lut_free(&got);
    free(t.s);
}

/* Each entry: the text and words its message must hold (after "luts/test.cube: "). */
typedef struct bad_case {
    const char *text;
    const char *words[3];
} bad_case;

#define DATA8 "0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n"

static const bad_case bad_cases[] = {
    /* 1D tables */
    {"LUT_1D_SIZE 16\n0 0 0\n", {"line 1:", "1D LUTs are not supported", "give a 3D one"}},
    {"TITLE \"x\"\nLUT_1D_INPUT_RANGE 0 1\n", {"line 2:", "1D LUTs are not supported"}},
    /* no size */
    {"0 0 0\n", {"line 1:", "no LUT_3D_SIZE"}},
    {"TITLE \"only a title\"\n# and a comment\n", {"line 2:", "no LUT_3D_SIZE"}},
    {"", {"no LUT_3D_SIZE"}},
    {"DOMAIN_MIN 0 0 0\n0 0 0\nLUT_3D_SIZE 2\n", {"line 2:", "no LUT_3D_SIZE before it"}},
    /* the size */
    {"LUT_3D_SIZE 1\n", {"line 1:", "LUT_3D_SIZE 1 is outside 2..64"}},
    {"LUT_3D_SIZE 65\n", {"LUT_3D_SIZE 65 is outside 2..64"}},
    {"LUT_3D_SIZE 0\n", {"outside 2..64"}},
    {"LUT_3D_SIZE -3\n", {"outside 2..64"}},
    {"LUT_3D_SIZE 99999999999999999999\n", {"LUT_3D_SIZE 99999999999999999999 is outside 2..64"}},
    {"LUT_3D_SIZE 2.5\n", {"whole number", "'2.5'"}},
    {"LUT_3D_SIZE two\n", {"whole number", "'two'"}},
    {"LUT_3D_SIZE\n", {"whole number"}},
    {"LUT_3D_SIZE 2 2\n", {"whole number", "'2 2'"}},
    /* repeated keywords */
    {"LUT_3D_SIZE 2\nLUT_3D_SIZE 2\n" DATA8, {"line 2:", "a second LUT_3D_SIZE", "first is on line 1"}},
    {"TITLE \"a\"\n\nTITLE \"b\"\nLUT_3D_SIZE 2\n" DATA8, {"line 3:", "a second TITLE", "line 1"}},
    {"DOMAIN_MIN 0 0 0\nDOMAIN_MIN 0 0 0\nLUT_3D_SIZE 2\n" DATA8, {"line 2:", "a second DOMAIN_MIN"}},
    {"DOMAIN_MAX 1 1 1\nLUT_3D_SIZE 2\nDOMAIN_MAX 1 1 1\n" DATA8, {"line 3:", "a second DOMAIN_MAX"}},
    /* unknown keywords */
    {"LUT_3D_SIZE 2\nFOO 1\n" DATA8, {"line 2:", "unknown keyword 'FOO'"}},
    {"lut_3d_size 2\n" DATA8, {"unknown keyword 'lut_3d_size'"}},
    {"LUT_3D_SIZE 2\n- 0 0\n", {"unknown keyword '-'"}},
    {"LUT_3D_INPUT_RANGE 0 1\nLUT_3D_SIZE 2\n" DATA8, {"line 1:", "not read", "DOMAIN_MIN"}},
    /* keywords after the data */
    {"LUT_3D_SIZE 2\n" DATA8 "TITLE \"late\"\n",
     {"line 10:", "TITLE after the data", "come before the data"}},
    {"LUT_3D_SIZE 2\n0 0 0\nDOMAIN_MAX 2 2 2\n", {"line 3:", "DOMAIN_MAX after the data", "line 2"}},
    /* TITLE */
    {"TITLE warm\nLUT_3D_SIZE 2\n" DATA8, {"line 1:", "\"quoted\""}},
    {"TITLE \"warm\" grade\nLUT_3D_SIZE 2\n" DATA8, {"\"quoted\""}},
    {"TITLE \"warm\nLUT_3D_SIZE 2\n" DATA8, {"\"quoted\""}},
    /* data lines of other than 3 numbers */
    {"LUT_3D_SIZE 2\n0 0\n", {"line 2:", "a data line has 2 numbers, not 3"}},
    {"LUT_3D_SIZE 2\n0 0 0\n0\n", {"line 3:", "a data line has 1 number, not 3"}},
    {"LUT_3D_SIZE 2\n0 0 0 0\n", {"a data line has 4 numbers, not 3"}},
    {"LUT_3D_SIZE 2\n0 0 x\n", {"line 2:", "'x' is not a number"}},
    {"LUT_3D_SIZE 2\n0,0,0\n", {"'0,0,0' is not a number"}},
    {"LUT_3D_SIZE 2\n0.5f 0 0\n", {"'0.5f' is not a number"}},
    {"DOMAIN_MIN 0 0\nLUT_3D_SIZE 2\n" DATA8, {"line 1:", "DOMAIN_MIN has 2 numbers, not 3"}},
    /* non-finite values */
    {"LUT_3D_SIZE 2\nnan 0 0\n", {"line 2:", "red value 'nan' is not finite"}},
    {"LUT_3D_SIZE 2\n0 0 0\n0 inf 0\n", {"line 3:", "green value 'inf' is not finite"}},
    {"LUT_3D_SIZE 2\n0 0 -INFINITY\n", {"blue value '-INFINITY' is not finite"}},
    {"DOMAIN_MAX 1 NAN 1\nLUT_3D_SIZE 2\n" DATA8, {"DOMAIN_MAX", "green value 'NAN' is not finite"}},
    /* values out of range */
    {"LUT_3D_SIZE 2\n0 0 10001\n", {"line 2:", "blue value 10001 is outside [-1e4, 1e4]"}},
    {"LUT_3D_SIZE 2\n-2e4 0 0\n", {"red value -2e4 is outside [-1e4, 1e4]"}},
    {"LUT_3D_SIZE 2\n1e39 0 0\n", {"red value 1e39 is outside [-1e4, 1e4]"}},
    {"DOMAIN_MAX 1 1 1e5\nLUT_3D_SIZE 2\n" DATA8, {"DOMAIN_MAX", "blue value 1e5 is outside"}},
    /* an empty domain */
    {"DOMAIN_MIN 0 0.5 0\nLUT_3D_SIZE 2\nDOMAIN_MAX 1 0.5 1\n" DATA8,
     {"line 3:", "DOMAIN_MIN (0.5) is not below DOMAIN_MAX (0.5)", "green channel"}},
    {"LUT_3D_SIZE 2\nDOMAIN_MIN 2 0 0\n" DATA8,
     {"line 2:", "DOMAIN_MIN (2) is not below DOMAIN_MAX (1)", "red"}},
    {"DOMAIN_MAX 1 1 -1\nLUT_3D_SIZE 2\n", {"line 1:", "blue channel"}},
    /* too few or too many data lines */
    {"LUT_3D_SIZE 2\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n",
     {"line 8:", "expected 8 data lines", "found 7"}},
    {"LUT_3D_SIZE 2\n", {"expected 8 data lines", "found 0"}},
    {"LUT_3D_SIZE 2\n" DATA8 "# then\n0 0 0\n\n0 0 0\n", {"line 11:", "expected 8 data lines", "found 10"}},
    {"LUT_3D_SIZE 64\n0 0 0\n", {"expected 262144 data lines (64^3", "found 1"}},
};

static void check_refused(const char *what, gn_result r, const gn_cube_lut *l, const gn_error *err,
                          const char *const words[3])
{
    CHECK(r == GN_ERROR_BAD_DATA, "%s: %s, want GN_ERROR_BAD_DATA (%s)", what, gn_result_name(r),
          err->message);
    CHECK(strncmp(err->message, NAME ": ", strlen(NAME) + 2) == 0,
          "%s: the message does not name the file: %s", what, err->message);
    for (int w = 0; w < 3 && words[w]; w++)
        CHECK(strstr(err->message, words[w]), "%s: '%s' is not in the message: %s", what, words[w],
              err->message);
    CHECK(is_zeroed(l), "%s: the table is not left zeroed", what);
}

static void test_refused(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        gn_cube_lut l;
        memset(&l, 0xab, sizeof l); /* whatever was there before */
        gn_error err = {0};
        gn_result r = parse(bad_cases[i].text, &l, &err);
        char what[64];
        snprintf(what, sizeof what, "bad case %zu", i);
        check_refused(what, r, &l, &err, bad_cases[i].words);
        gn_cube_lut_free(&l); /* fine on a zeroed table */
    }

    /* a table too short for its size is counted, not allocated */
    gn_cube_lut l;
    gn_error err = {0};
    gn_alloc_record();
    gn_result r = parse("LUT_3D_SIZE 64\n0 0 0\n0 0 0\n", &l, &err);
    gn_alloc_disarm();
    CHECK(r == GN_ERROR_BAD_DATA && gn_alloc_calls() == 0, "a short 64^3 table: %s after %llu allocations",
          gn_result_name(r), (unsigned long long)gn_alloc_calls());

    /* a NUL byte, on line 2 at column 3 */
    static const char nul[] = "LUT_3D_SIZE 2\n0 \0 0\n" DATA8;
    r = parse_n(nul, sizeof nul - 1, &l, &err);
    check_refused("NUL", r, &l, &err, (const char *const[3]){"line 2:", "a NUL byte at column 3"});

    /* a line of 1025 characters (a comment: every line counts) */
    text t = {0};
    put(&t, "LUT_3D_SIZE 2\n#");
    for (int i = 1; i < 1025; i++) put(&t, "x");
    put(&t, "\n" DATA8);
    r = parse_n(t.s, t.len, &l, &err);
    check_refused("long line", r, &l, &err,
                  (const char *const[3]){"line 2:", "1025 characters, over the limit of 1024"});
    free(t.s);

    /* over the byte cap: refused before a byte is read (calloc's pages stay untouched) */
    char *big = calloc(GN_CUBE_LUT_MAX_BYTES + 1u, 1);
    if (big) {
        r = gn_cube_lut_parse(big, GN_CUBE_LUT_MAX_BYTES + 1u, NAME, &l, &err);
        check_refused("byte cap", r, &l, &err, (const char *const[3]){"67108865 bytes", "over the cap"});
        free(big);
    }
}

/* Each allocation of a parse, an identity and a load fails in turn: an error, a zeroed table. */
static void test_alloc_faults(const char *path)
{
    for (int what = 0; what < 3; what++) {
        gn_cube_lut l;
        gn_error err = {0};
        gn_alloc_record();
        gn_result r = what == 0   ? parse(hand_cube, &l, &err)
                      : what == 1 ? gn_cube_lut_identity(8, &l, &err)
                                  : gn_cube_lut_load(path, &l, &err);
        gn_alloc_disarm();
        uint64_t calls = gn_alloc_calls();
        CHECK(r == GN_OK && calls == (what == 2 ? 2u : 1u), "case %d: %s, %llu allocations", what,
              err.message, (unsigned long long)calls);
        gn_cube_lut_free(&l);
        for (uint64_t n = 1; n <= calls; n++) {
            memset(&l, 0xab, sizeof l);
            gn_alloc_fail_nth(n);
            r = what == 0   ? parse(hand_cube, &l, &err)
                : what == 1 ? gn_cube_lut_identity(8, &l, &err)
                            : gn_cube_lut_load(path, &l, &err);
            gn_alloc_disarm();
            CHECK(r == GN_ERROR_OUT_OF_MEMORY && strstr(err.message, "out of memory") && is_zeroed(&l),
                  "case %d, allocation %llu failed: %s (%s)", what, (unsigned long long)n, gn_result_name(r),
                  err.message);
        }
    }
}

static void test_load(const char *path)
{
    gn_cube_lut l;
    gn_error err = {0};
    gn_result r = gn_cube_lut_load(path, &l, &err);
    CHECK(r == GN_OK && l.size == 2 && l.rgb && l.rgb[3 * 7 + 2] == 7, "load: %s", err.message);
    gn_cube_lut_free(&l);

    r = gn_cube_lut_load("/nonexistent/gnomon/warm.cube", &l, &err);
    CHECK(r == GN_ERROR_IO && strstr(err.message, "/nonexistent/gnomon/warm.cube") && is_zeroed(&l),
          "a missing file: %s", err.message);
    r = gn_cube_lut_load("/tmp", &l, &err);
    CHECK(r == GN_ERROR_IO && strstr(err.message, "directory"), "a directory: %s", err.message);

    /* over the cap (a sparse file): refused from its size, nothing allocated or read */
    FILE *f = fopen(path, "r+b");
    CHECK(f && ftruncate(fileno(f), (off_t)GN_CUBE_LUT_MAX_BYTES + 1) == 0, "cannot grow %s", path);
    if (f) fclose(f);
    gn_alloc_record();
    r = gn_cube_lut_load(path, &l, &err);
    gn_alloc_disarm();
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, "over the cap") && strstr(err.message, path) &&
              gn_alloc_calls() == 0,
          "a file over the cap: %s after %llu allocations", err.message,
          (unsigned long long)gn_alloc_calls());

    /* a malformed file names its path */
    f = fopen(path, "wb");
    if (f) fputs("LUT_3D_SIZE 2\n0 0\n", f), fclose(f);
    r = gn_cube_lut_load(path, &l, &err);
    CHECK(r == GN_ERROR_BAD_DATA && strstr(err.message, path) && strstr(err.message, "line 2:"),
          "a malformed file: %s", err.message);
}

int main(void)
{
    gn_cube_lut_free(NULL);
    float in[3] = {0.25f, 2, -1}, out[3];
    gn_cube_lut zero = {0};
    gn_cube_lut_sample(&zero, in, out);
    CHECK(out[0] == in[0] && out[1] == in[1] && out[2] == in[2], "a zeroed table does not give out = in");

    test_identity();
    test_hand();
    test_domain();
    test_text_forms();
    test_refused();

    char path[] = "/tmp/gnomon_unit_cube_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "cannot make a temporary file");
    if (fd >= 0) {
        FILE *f = fdopen(fd, "wb");
        if (f) fputs(hand_cube, f), fclose(f);
        test_alloc_faults(path);
        test_load(path);
        unlink(path);
    }
    return gn_check_exit();
}
