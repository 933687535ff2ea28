/* The .dds reader and the block decoders (src/formats/dds.c, bc.c): one hand-built block a
 * format with its decode worked out by hand from the Khronos Data Format Specification (BC1
 * in both its four- and three-colour modes, BC2's explicit alpha and BC3's interpolated one,
 * BC4 in both its modes, BC5, and BC7 in each of its eight modes: partitions, anchors, p-bits,
 * rotation and index selection); whole levels with edge blocks; the swizzle; valid files of
 * each kind; every malformed header field refused with GN_ERROR_BAD_DATA and a message naming
 * the field, and every truncation of a valid file refused. With an argument, a folder: every
 * .dds there (Sponza's roughness maps) parses and decodes, or 77 (skipped) when it is absent. */
#define _DEFAULT_SOURCE /* dirent's d_type */
#include "formats/dds.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define NAME "tex/test.dds"

/* ---- building blocks ------------------------------------------------------------------------ */

/* A block's bits written from bit 0 of byte 0 upwards, as BC7 reads them. */
typedef struct bits {
    uint8_t b[16];
    unsigned pos;
} bits;

static void put(bits *w, unsigned n, unsigned v)
{
    for (unsigned i = 0; i < n; i++, w->pos++)
        if (v >> i & 1) w->b[w->pos / 8] |= (uint8_t)(1u << (w->pos % 8));
}

static void check_texel(const uint8_t *rgba, int i, int r, int g, int b, int a, const char *what)
{
    const uint8_t *t = rgba + 4 * i;
    CHECK(t[0] == r && t[1] == g && t[2] == b && t[3] == a, "%s texel %d: (%d %d %d %d), want (%d %d %d %d)",
          what, i, t[0], t[1], t[2], t[3], r, g, b, a);
}

/* 16 2-bit indices, texel i's at bits 2i (BC1's colour indices). */
static void bc1_indices(uint8_t *out, const int idx[16])
{
    uint32_t v = 0;
    for (int i = 0; i < 16; i++) v |= (uint32_t)idx[i] << (2 * i);
    for (int k = 0; k < 4; k++) out[k] = (uint8_t)(v >> (8 * k));
}

/* 16 3-bit indices, texel i's at bits 3i (BC4's). */
static void bc4_indices(uint8_t *out, const int idx[16])
{
    uint64_t v = 0;
    for (int i = 0; i < 16; i++) v |= (uint64_t)idx[i] << (3 * i);
    for (int k = 0; k < 6; k++) out[k] = (uint8_t)(v >> (8 * k));
}

static const int ramp4[16] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
static const int ramp8[16] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7};

/* ---- BC1-BC5 -------------------------------------------------------------------------------- */

static void test_bc1(void)
{
    uint8_t b[8], px[64];
    /* four colours: c0 = 0xf800 (red 31: 255) > c1 = 0x001f (blue 31: 255); c2 = (2 c0 + c1) / 3
     * = (170, 0, 85), c3 = (c0 + 2 c1) / 3 = (85, 0, 170), rounded to nearest */
    b[0] = 0x00, b[1] = 0xf8, b[2] = 0x1f, b[3] = 0x00;
    bc1_indices(b + 4, ramp4);
    gn_bc1_decode_block(b, px);
    check_texel(px, 0, 255, 0, 0, 255, "bc1 4-colour");
    check_texel(px, 1, 0, 0, 255, 255, "bc1 4-colour");
    check_texel(px, 2, 170, 0, 85, 255, "bc1 4-colour");
    check_texel(px, 15, 85, 0, 170, 255, "bc1 4-colour");
    /* three colours: c0 = blue <= c1 = red; c2 = (c0 + c1) / 2 = (128, 0, 128), c3 transparent */
    b[0] = 0x1f, b[1] = 0x00, b[2] = 0x00, b[3] = 0xf8;
    gn_bc1_decode_block(b, px);
    check_texel(px, 0, 0, 0, 255, 255, "bc1 3-colour");
    check_texel(px, 1, 255, 0, 0, 255, "bc1 3-colour");
    check_texel(px, 2, 128, 0, 128, 255, "bc1 3-colour");
    check_texel(px, 3, 0, 0, 0, 0, "bc1 3-colour");
    /* equal colours are the three-colour mode too; green 0x07e0 is (0, 255, 0), 0x0400 is
     * g = 32: (32 << 2 | 32 >> 4) = 130 */
    b[0] = 0xe0, b[1] = 0x07, b[2] = 0xe0, b[3] = 0x07;
    gn_bc1_decode_block(b, px);
    check_texel(px, 2, 0, 255, 0, 255, "bc1 equal");
    check_texel(px, 3, 0, 0, 0, 0, "bc1 equal");
    b[0] = 0x00, b[1] = 0x04;
    gn_bc1_decode_block(b, px);
    check_texel(px, 0, 0, 130, 0, 255, "bc1 565 expansion");
}

static void test_bc2_bc3(void)
{
    uint8_t b[16], px[64];
    /* BC2: texel i's alpha is i (4 bits, x17); the colour block orders c0 <= c1 yet, in BC2,
     * interpolates four colours: c2 = (85, 0, 170), c3 = (170, 0, 85) */
    static const uint8_t alpha[8] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe};
    memcpy(b, alpha, 8);
    b[8] = 0x1f, b[9] = 0x00, b[10] = 0x00, b[11] = 0xf8;
    bc1_indices(b + 12, ramp4);
    gn_bc2_decode_block(b, px);
    check_texel(px, 0, 0, 0, 255, 0, "bc2");
    check_texel(px, 1, 255, 0, 0, 17, "bc2");
    check_texel(px, 2, 85, 0, 170, 34, "bc2");
    check_texel(px, 3, 170, 0, 85, 51, "bc2");
    check_texel(px, 15, 170, 0, 85, 255, "bc2");
    /* BC3: alpha 255 > 0, eight values: 255, 0, then 255 (7 - i) / 7 rounded: 219 182 146 109
     * 73 36 */
    b[0] = 255, b[1] = 0;
    bc4_indices(b + 2, ramp8);
    gn_bc3_decode_block(b, px);
    static const int a8[8] = {255, 0, 219, 182, 146, 109, 73, 36};
    for (int i = 0; i < 8; i++)
        CHECK(px[4 * i + 3] == a8[i], "bc3 alpha %d: %d, want %d", i, px[4 * i + 3], a8[i]);
    check_texel(px, 2, 85, 0, 170, 219, "bc3");
}

static void test_bc4_bc5(void)
{
    uint8_t b[16], px[64];
    /* 200 > 100: six between, (200 (7 - i) + 100 i) / 7 rounded: 186 171 157 143 129 114 */
    b[0] = 200, b[1] = 100;
    bc4_indices(b + 2, ramp8);
    gn_bc4_decode_block(b, px);
    static const int six[8] = {200, 100, 186, 171, 157, 143, 129, 114};
    for (int i = 0; i < 8; i++) check_texel(px, i, six[i], 0, 0, 255, "bc4 6-value");
    /* 0 <= 255: four between (51 102 153 204), then 0 and 255 */
    b[0] = 0, b[1] = 255;
    gn_bc4_decode_block(b, px);
    static const int four[8] = {0, 255, 51, 102, 153, 204, 0, 255};
    for (int i = 0; i < 8; i++) check_texel(px, i, four[i], 0, 0, 255, "bc4 4-value");
    /* BC5: the first block red, the second green */
    b[0] = 200, b[1] = 100;
    bc4_indices(b + 2, ramp8);
    b[8] = 0, b[9] = 255;
    bc4_indices(b + 10, ramp8);
    gn_bc5_decode_block(b, px);
    for (int i = 0; i < 8; i++) check_texel(px, i, six[i], four[i], 0, 255, "bc5");
}

/* ---- BC7: one block a mode --------------------------------------------------------------- */

/* Each channel's endpoints, endpoint after endpoint and subset after subset (the order the
 * mode stores them in), n of them with `width` bits. */
static void put_all(bits *w, unsigned width, unsigned n, const unsigned *v)
{
    for (unsigned i = 0; i < n; i++) put(w, width, v[i]);
}

/* Indices of `width` bits, one fewer at the anchor texels. */
static void put_indices(bits *w, unsigned width, const int *idx, int a1, int a2)
{
    for (int i = 0; i < 16; i++) put(w, width - (i == 0 || i == a1 || i == a2 ? 1u : 0u), (unsigned)idx[i]);
}

static void test_bc7(void)
{
    uint8_t px[64];
    { /* mode 0: partition 0 of three (0011 0011 0221 2222), anchors 0, 3 and 15. 4-bit colour
         and a p-bit an endpoint: subset 0 red 0 -> (0 << 1 | 0) and 15 -> (15 << 1 | 1) = 31,
         5 bits, 255; its green and blue 0 with p-bit 1 on endpoint 1: 1 -> (1 << 3) = 8.
         Subset 1 red 8 (p 0): 16 -> 132. Subset 2 red 4, blue 15, p-bits 1: (74, 8, 255). */
        bits w = {{0}, 0};
        put(&w, 1, 1);
        put(&w, 4, 0);
        const unsigned r[6] = {0, 15, 8, 8, 4, 4}, g[6] = {0}, bl[6] = {0, 0, 0, 0, 15, 15};
        put_all(&w, 4, 6, r), put_all(&w, 4, 6, g), put_all(&w, 4, 6, bl);
        const unsigned p[6] = {0, 1, 0, 0, 1, 1};
        put_all(&w, 1, 6, p);
        const int idx[16] = {0, 7, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        put_indices(&w, 3, idx, 3, 15);
        CHECK(w.pos == 128, "mode 0 block is %u bits", w.pos);
        gn_bc7_decode_block(w.b, px);
        check_texel(px, 0, 0, 0, 0, 255, "bc7 mode 0");
        check_texel(px, 1, 255, 8, 8, 255, "bc7 mode 0");
        /* index 3, weight 27: (27 * 255 + 32) >> 6 = 108, (27 * 8 + 32) >> 6 = 3 */
        check_texel(px, 4, 108, 3, 3, 255, "bc7 mode 0");
        check_texel(px, 2, 132, 0, 0, 255, "bc7 mode 0");
        check_texel(px, 15, 74, 8, 255, 255, "bc7 mode 0");
    }
    { /* mode 1: partition 13 of two (rows 0-1 subset 0, rows 2-3 subset 1), anchor 15. 6-bit
         colour and a p-bit shared by a subset's endpoints: subset 0 (p 1) red 63 -> 127 (7 bits)
         -> 255 and 0 -> 1 -> 2, green 0 -> 2 and 63 -> 255, blue 2; subset 1 (p 0) red 32 -> 64
         -> 129 */
        bits w = {{0}, 0};
        put(&w, 2, 2);
        put(&w, 6, 13);
        const unsigned r[4] = {63, 0, 32, 32}, g[4] = {0, 63, 0, 0}, bl[4] = {0};
        put_all(&w, 6, 4, r), put_all(&w, 6, 4, g), put_all(&w, 6, 4, bl);
        put(&w, 1, 1), put(&w, 1, 0);
        const int idx[16] = {0, 7, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        put_indices(&w, 3, idx, 15, -1);
        CHECK(w.pos == 128, "mode 1 block is %u bits", w.pos);
        gn_bc7_decode_block(w.b, px);
        check_texel(px, 0, 255, 2, 2, 255, "bc7 mode 1");
        check_texel(px, 1, 2, 255, 2, 255, "bc7 mode 1");
        /* index 4, weight 37: (27 * 255 + 37 * 2 + 32) >> 6 = 109, (27 * 2 + 37 * 255 + 32) >> 6
         * = 148, (27 * 2 + 37 * 2 + 32) >> 6 = 2 */
        check_texel(px, 2, 109, 148, 2, 255, "bc7 mode 1");
        check_texel(px, 8, 129, 0, 0, 255, "bc7 mode 1");
    }
    { /* mode 2: partition 5 of three (0011 0011 0022 0022), anchors 0, 3, 15; 5-bit colour,
         no p-bits: 31 -> 255, 16 -> 132 */
        bits w = {{0}, 0};
        put(&w, 3, 4);
        put(&w, 6, 5);
        const unsigned r[6] = {31, 0, 16, 16, 0, 0}, g[6] = {0, 0, 0, 0, 31, 31}, bl[6] = {0};
        put_all(&w, 5, 6, r), put_all(&w, 5, 6, g), put_all(&w, 5, 6, bl);
        const int idx[16] = {0, 3, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        put_indices(&w, 2, idx, 3, 15);
        CHECK(w.pos == 128, "mode 2 block is %u bits", w.pos);
        gn_bc7_decode_block(w.b, px);
        check_texel(px, 0, 255, 0, 0, 255, "bc7 mode 2");
        check_texel(px, 1, 0, 0, 0, 255, "bc7 mode 2");
        check_texel(px, 4, 171, 0, 0, 255, "bc7 mode 2"); /* weight 21: (43 * 255 + 32) >> 6 */
        check_texel(px, 2, 132, 0, 0, 255, "bc7 mode 2");
        check_texel(px, 15, 0, 255, 0, 255, "bc7 mode 2");
    }
    { /* mode 3: partition 1 of two (column 3 is subset 1), anchor 15; 7-bit colour, a p-bit an
         endpoint (1, 0, 0, 1): subset 0 e0 (255, 1, 1), e1 0; subset 1 e0 (0, 254, 0), e1
         (1, 255, 1) */
        bits w = {{0}, 0};
        put(&w, 4, 8);
        put(&w, 6, 1);
        const unsigned r[4] = {127, 0, 0, 0}, g[4] = {0, 0, 127, 127}, bl[4] = {0};
        put_all(&w, 7, 4, r), put_all(&w, 7, 4, g), put_all(&w, 7, 4, bl);
        const unsigned p[4] = {1, 0, 0, 1};
        put_all(&w, 1, 4, p);
        const int idx[16] = {0, 3, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
        put_indices(&w, 2, idx, 15, -1);
        CHECK(w.pos == 128, "mode 3 block is %u bits", w.pos);
        gn_bc7_decode_block(w.b, px);
        check_texel(px, 0, 255, 1, 1, 255, "bc7 mode 3");
        check_texel(px, 1, 0, 0, 0, 255, "bc7 mode 3");
        check_texel(px, 2, 84, 0, 0, 255, "bc7 mode 3"); /* weight 43: (21 * 255 + 32) >> 6 */
        check_texel(px, 3, 1, 255, 1, 255, "bc7 mode 3");
        /* weight 21: (43 * 254 + 21 * 255 + 32) >> 6 = 254, (21 + 32) >> 6 = 0 */
        check_texel(px, 15, 0, 254, 0, 255, "bc7 mode 3");
    }
    { /* mode 4: rotation 1 (alpha and red swap), selection 0 (colour from the 2-bit indices,
         alpha from the 3-bit ones); colour 5 bits, alpha 6: e0 (255, 0, 0, 255), e1 (0, 255, 0,
         0) */
        bits w = {{0}, 0};
        put(&w, 5, 16);
        put(&w, 2, 1), put(&w, 1, 0);
        put(&w, 5, 31), put(&w, 5, 0), put(&w, 5, 0), put(&w, 5, 31), put(&w, 5, 0), put(&w, 5, 0);
        put(&w, 6, 63), put(&w, 6, 0);
        const int idx[16] = {0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        const int idx2[16] = {0, 0, 7, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
        put_indices(&w, 2, idx, -1, -1);
        put_indices(&w, 3, idx2, -1, -1);
        CHECK(w.pos == 128, "mode 4 block is %u bits", w.pos);
        gn_bc7_decode_block(w.b, px);
        check_texel(px, 1, 255, 255, 0, 0, "bc7 mode 4"); /* (0, 255, 0, 255) rotated */
        /* colour weight 21: (171, 84, 0); alpha index 7: 0; rotated */
        check_texel(px, 2, 0, 84, 0, 171, "bc7 mode 4");
        /* alpha index 4, weight 37: (27 * 255 + 32) >> 6 = 108 */
        check_texel(px, 3, 108, 84, 0, 171, "bc7 mode 4");
        /* selection 1: colour from the 3-bit indices, alpha from the 2-bit ones, no rotation */
        bits s = {{0}, 0};
        put(&s, 5, 16);
        put(&s, 2, 0), put(&s, 1, 1);
        put(&s, 5, 31), put(&s, 5, 0), put(&s, 5, 0), put(&s, 5, 31), put(&s, 5, 0), put(&s, 5, 0);
        put(&s, 6, 63), put(&s, 6, 0);
        put_indices(&s, 2, idx, -1, -1);
        put_indices(&s, 3, idx2, -1, -1);
        gn_bc7_decode_block(s.b, px);
        check_texel(px, 1, 255, 0, 0, 0, "bc7 mode 4 selection 1");
        check_texel(px, 2, 0, 255, 0, 171, "bc7 mode 4 selection 1");
        check_texel(px, 3, 108, 147, 0, 171, "bc7 mode 4 selection 1"); /* weight 37 */
    }
    { /* mode 5: no rotation; colour 7 bits, alpha 8: e0 (255, 0, 0, 255), e1 (0, 0, 255, 0) */
        bits w = {{0}, 0};
        put(&w, 6, 32);
        put(&w, 2, 0);
        put(&w, 7, 127), put(&w, 7, 0), put(&w, 7, 0), put(&w, 7, 0), put(&w, 7, 0), put(&w, 7, 127);
        put(&w, 8, 255), put(&w, 8, 0);
        const int idx[16] = {0, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
        const int idx2[16] = {1, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
        put_indices(&w, 2, idx, -1, -1);
        put_indices(&w, 2, idx2, -1, -1);
        CHECK(w.pos == 128, "mode 5 block is %u bits", w.pos);
        gn_bc7_decode_block(w.b, px);
        check_texel(px, 0, 255, 0, 0, 171, "bc7 mode 5"); /* alpha weight 21 */
        check_texel(px, 1, 0, 0, 255, 255, "bc7 mode 5");
        check_texel(px, 2, 84, 0, 171, 0, "bc7 mode 5"); /* colour weight 43 */
    }
    { /* mode 6: one subset, RGBA 7 bits and a p-bit an endpoint (1, 0), 4-bit indices: e0
         (255, 129, 1, 255), e1 (0, 128, 254, 0) */
        bits w = {{0}, 0};
        put(&w, 7, 64);
        put(&w, 7, 127), put(&w, 7, 0), put(&w, 7, 64), put(&w, 7, 64), put(&w, 7, 0), put(&w, 7, 127);
        put(&w, 7, 127), put(&w, 7, 0);
        put(&w, 1, 1), put(&w, 1, 0);
        const int idx[16] = {0, 15, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        put_indices(&w, 4, idx, -1, -1);
        CHECK(w.pos == 128, "mode 6 block is %u bits", w.pos);
        gn_bc7_decode_block(w.b, px);
        check_texel(px, 0, 255, 129, 1, 255, "bc7 mode 6");
        check_texel(px, 1, 0, 128, 254, 0, "bc7 mode 6");
        /* index 8, weight 34: (30 * 255 + 32) >> 6 = 120, (30 * 129 + 34 * 128 + 32) >> 6 = 128,
         * (30 + 34 * 254 + 32) >> 6 = 135 */
        check_texel(px, 2, 120, 128, 135, 120, "bc7 mode 6");
    }
    { /* mode 7: partition 13 of two, anchor 15; RGBA 5 bits and a p-bit an endpoint (1, 0, 0,
         1): subset 0 e0 (255, 4, 4, 255), e1 (0, 0, 0, 251); subset 1 e0 (0, 0, 251, 0), e1
         (4, 4, 255, 255) */
        bits w = {{0}, 0};
        put(&w, 8, 128);
        put(&w, 6, 13);
        const unsigned r[4] = {31, 0, 0, 0}, g[4] = {0}, bl[4] = {0, 0, 31, 31}, a[4] = {31, 31, 0, 31};
        put_all(&w, 5, 4, r), put_all(&w, 5, 4, g), put_all(&w, 5, 4, bl), put_all(&w, 5, 4, a);
        const unsigned p[4] = {1, 0, 0, 1};
        put_all(&w, 1, 4, p);
        const int idx[16] = {0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
        put_indices(&w, 2, idx, 15, -1);
        CHECK(w.pos == 128, "mode 7 block is %u bits", w.pos);
        gn_bc7_decode_block(w.b, px);
        check_texel(px, 0, 255, 4, 4, 255, "bc7 mode 7");
        check_texel(px, 1, 0, 0, 0, 251, "bc7 mode 7");
        /* weight 21: 171, (43 * 4 + 32) >> 6 = 3, (43 * 255 + 21 * 251 + 32) >> 6 = 254 */
        check_texel(px, 2, 171, 3, 3, 254, "bc7 mode 7");
        check_texel(px, 8, 0, 0, 251, 0, "bc7 mode 7");
        /* weight 21: (21 * 4 + 32) >> 6 = 1, (43 * 251 + 21 * 255 + 32) >> 6 = 252, 84 */
        check_texel(px, 15, 1, 1, 252, 84, "bc7 mode 7");
    }
    { /* a reserved block (low byte 0) is transparent black */
        uint8_t z[16] = {0};
        z[5] = 0xff;
        gn_bc7_decode_block(z, px);
        check_texel(px, 7, 0, 0, 0, 0, "bc7 reserved");
    }
}

/* A 5x3 BC1 level: two blocks across, one down; the texels past the level are dropped. */
static void test_levels_and_swizzle(void)
{
    uint8_t blocks[16] = {0x00, 0xf8, 0x00, 0xf8, 0, 0, 0, 0, 0x1f, 0x00, 0x1f, 0x00, 0, 0, 0, 0};
    uint8_t px[5 * 3 * 4 + 4];
    memset(px, 0xaa, sizeof px);
    CHECK(gn_dds_level_bytes(GN_DDS_BC1, 5, 3) == 16, "5x3 BC1 takes %llu bytes, want 16",
          (unsigned long long)gn_dds_level_bytes(GN_DDS_BC1, 5, 3));
    CHECK(gn_dds_level_bytes(GN_DDS_BC7, 1, 1) == 16 && gn_dds_level_bytes(GN_DDS_RGBA8, 3, 2) == 24,
          "level sizes");
    CHECK(gn_dds_decode(GN_DDS_BC1, blocks, 5, 3, px), "decode failed");
    check_texel(px, 3, 255, 0, 0, 255, "5x3 level (3, 0)");
    check_texel(px, 4, 0, 0, 255, 255, "5x3 level (4, 0)");
    check_texel(px, 2 * 5 + 4, 0, 0, 255, 255, "5x3 level (4, 2)");
    CHECK(px[60] == 0xaa, "wrote past the level");
    CHECK(!gn_dds_decode(GN_DDS_NONE, blocks, 4, 4, px), "decoded format none");
    uint8_t t[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    gn_dds_swizzle(t, 2, "rr11");
    CHECK(t[0] == 10 && t[1] == 10 && t[2] == 255 && t[3] == 255 && t[4] == 50 && t[5] == 50,
          "swizzle rr11: %d %d %d %d", t[0], t[1], t[2], t[3]);
    gn_dds_swizzle(t, 1, "a0gr");
    CHECK(t[0] == 255 && t[1] == 0 && t[2] == 10 && t[3] == 10, "swizzle a0gr: %d %d %d %d", t[0], t[1], t[2],
          t[3]);
}

/* ---- files ----------------------------------------------------------------------------------- */

static void wr32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

/* A valid file: w x h, `levels` levels, DX10 with dxgi (0: the legacy FourCC cc). */
static size_t make_file(uint8_t *f, size_t cap, uint32_t w, uint32_t h, uint32_t levels, uint32_t dxgi,
                        const char *cc, gn_dds_format fmt)
{
    memset(f, 0, cap);
    memcpy(f, "DDS ", 4);
    uint8_t *hd = f + 4;
    wr32(hd, 124);
    wr32(hd + 4, 0x1 | 0x2 | 0x4 | 0x1000 | 0x20000 | 0x80000);
    wr32(hd + 8, h), wr32(hd + 12, w);
    wr32(hd + 16, (uint32_t)gn_dds_level_bytes(fmt, w, h));
    wr32(hd + 24, levels);
    wr32(hd + 72, 32), wr32(hd + 76, 0x4);
    memcpy(hd + 80, dxgi ? "DX10" : cc, 4);
    wr32(hd + 104, 0x1000 | 0x8 | 0x400000);
    size_t at = 128;
    if (dxgi) {
        wr32(f + 128, dxgi), wr32(f + 132, 3), wr32(f + 136, 0), wr32(f + 140, 1), wr32(f + 144, 0);
        at += 20;
    }
    for (uint32_t l = 0; l < levels; l++)
        at += gn_dds_level_bytes(fmt, w >> l ? w >> l : 1, h >> l ? h >> l : 1);
    for (size_t i = 148; i < at && i < cap; i++) f[i] = (uint8_t)(i * 7);
    return at;
}

static uint8_t file[4096], copy_buf[4096];

/* The file with one 32-bit field at `offset` set to v must be refused naming `want`. */
static void refused(size_t size, size_t offset, uint32_t v, const char *want)
{
    memcpy(copy_buf, file, size);
    if (offset != (size_t)-1) wr32(copy_buf + offset, v);
    uint8_t *exact = malloc(size ? size : 1); /* exactly size bytes: a read past them is ASan's */
    memcpy(exact, copy_buf, size);
    gn_dds_image im;
    gn_error err = {0};
    gn_result r = gn_dds_parse(exact, size, NAME, &im, &err);
    CHECK(r == GN_ERROR_BAD_DATA, "field at %zu = 0x%x: %s, want refused (%s)", offset, v, gn_result_name(r),
          want);
    CHECK(strstr(err.message, want) && strncmp(err.message, NAME ": ", strlen(NAME) + 2) == 0,
          "field at %zu = 0x%x: message \"%s\" lacks \"%s\"", offset, v, err.message, want);
    CHECK(im.format == GN_DDS_NONE && im.data == NULL, "a refused file left the image filled");
    free(exact);
}

static void test_files(void)
{
    gn_dds_image im;
    gn_error err = {0};
    /* BC7 sRGB, 8x4, the full chain of 4 levels: 2 + 1 + 1 + 1 blocks */
    size_t n = make_file(file, sizeof file, 8, 4, 4, 99, NULL, GN_DDS_BC7);
    CHECK(n == 148 + 5 * 16, "file size %zu", n);
    CHECK(gn_dds_parse(file, n, NAME, &im, &err) == GN_OK, "valid BC7: %s", err.message);
    CHECK(im.format == GN_DDS_BC7 && im.srgb && im.width == 8 && im.height == 4 && im.levels == 4 &&
              im.size == 80 && im.data == file + 148 && im.level_offset[1] == 32 && im.level_offset[3] == 64,
          "BC7 parsed as %s srgb %d %ux%u %u levels %llu bytes", gn_dds_format_name(im.format), im.srgb,
          im.width, im.height, im.levels, (unsigned long long)im.size);
    /* every truncation is refused, never read past */
    for (size_t k = 0; k < n; k++) {
        uint8_t *cut = malloc(k ? k : 1);
        memcpy(cut, file, k);
        CHECK(gn_dds_parse(cut, k, NAME, &im, &err) == GN_ERROR_BAD_DATA, "%zu of %zu bytes parsed", k, n);
        free(cut);
    }
    /* the legacy FourCCs */
    static const struct {
        const char *cc;
        gn_dds_format f;
    } legacy[] = {{"DXT1", GN_DDS_BC1}, {"DXT3", GN_DDS_BC2}, {"DXT5", GN_DDS_BC3}, {"ATI1", GN_DDS_BC4},
                  {"BC4U", GN_DDS_BC4}, {"ATI2", GN_DDS_BC5}, {"BC5U", GN_DDS_BC5}};
    for (size_t i = 0; i < sizeof legacy / sizeof legacy[0]; i++) {
        size_t m = make_file(file, sizeof file, 16, 16, 5, 0, legacy[i].cc, legacy[i].f);
        CHECK(gn_dds_parse(file, m, NAME, &im, &err) == GN_OK && im.format == legacy[i].f && !im.srgb &&
                  im.levels == 5,
              "%s: %s", legacy[i].cc, err.message);
    }
    /* DXGI formats, and a missing mip count read as one level */
    static const struct {
        uint32_t dxgi;
        gn_dds_format f;
        bool srgb;
    } dx[] = {{28, GN_DDS_RGBA8, false}, {29, GN_DDS_RGBA8, true},      {71, GN_DDS_BC1, false},
              {72, GN_DDS_BC1, true},    {74, GN_DDS_BC2, false},       {75, GN_DDS_BC2, true},
              {77, GN_DDS_BC3, false},   {78, GN_DDS_BC3, true},        {80, GN_DDS_BC4, false},
              {83, GN_DDS_BC5, false},   {95, GN_DDS_BC6H_UF16, false}, {96, GN_DDS_BC6H_SF16, false},
              {98, GN_DDS_BC7, false}};
    for (size_t i = 0; i < sizeof dx / sizeof dx[0]; i++) {
        size_t m = make_file(file, sizeof file, 4, 4, 1, dx[i].dxgi, NULL, dx[i].f);
        wr32(file + 4 + 24, 0);
        CHECK(gn_dds_parse(file, m, NAME, &im, &err) == GN_OK && im.format == dx[i].f &&
                  im.srgb == dx[i].srgb && im.levels == 1,
              "DXGI %u: %s", dx[i].dxgi, err.message);
    }

    /* every malformed field, one at a time, on the BC7 file (offsets into the file) */
    n = make_file(file, sizeof file, 8, 4, 4, 98, NULL, GN_DDS_BC7);
    refused(n, 0, 0x20534443, "no 'DDS ' magic");
    refused(100, (size_t)-1, 0, "the header ends at byte 128, past the end of the file (100)");
    refused(n, 4, 100, "header dwSize 100, expected 124");
    refused(n, 76, 24, "pixel format dwSize 24, expected 32");
    refused(n, 8, 0x1 | 0x2 | 0x4 | 0x1000 | 0x10, "dwFlags 0x1017 has unknown bits 0x10");
    refused(n, 8, 0x1 | 0x2 | 0x1000, "lack width, height or pixel format");
    refused(n, 8, 0x1 | 0x2 | 0x4 | 0x1000 | 0x800000, "a volume texture");
    refused(n, 24, 4, "a volume texture (depth 4)");
    refused(n, 112, 0x200 | 0xfc00, "a cube map");
    refused(n, 112, 0x200000, "a volume texture");
    refused(n, 16, 0, "size 0x4 is outside 1..8192");
    refused(n, 12, 8193, "size 8x8193 is outside 1..8192");
    refused(n, 28, 5, "dwMipMapCount 5, more than the 4 levels of a 8x4 chain");
    refused(n, 80, 0x40, "no FourCC");
    refused(n, 80, 0x44, "a FourCC with masks or luminance");
    refused(n, 84, 0x32545844, "FourCC 'DXT2'");
    refused(140, (size_t)-1, 0, "the DX10 header ends at byte 148");
    refused(n, 132, 4, "resourceDimension 4, expected 3");
    refused(n, 136, 0x4, "miscFlag 0x4: a cube map");
    refused(n, 136, 0x2, "miscFlag 0x2 has unknown bits");
    refused(n, 140, 6, "arraySize 6: only single textures");
    refused(n, 140, 0, "arraySize 0");
    refused(n, 144, 5, "miscFlags2 0x5 is not an alpha mode");
    refused(n, 128, 94, "DXGI format 94 is not read"); /* BC6H_TYPELESS: signed or not? */
    refused(n, 128, 81, "DXGI format 81 is not read");
    refused(n - 1, (size_t)-1, 0, "level 3 (1x1, BC7) ends at byte 228, past the end of the file (227)");
    refused(160, (size_t)-1, 0, "level 0 (8x4, BC7) ends at byte 180");
    /* a legacy file's levels are checked too */
    n = make_file(file, sizeof file, 16, 8, 2, 0, "DXT1", GN_DDS_BC1);
    refused(n - 8, (size_t)-1, 0, "level 1 (8x4, BC1) ends at byte");
}

/* Every .dds in dir parses and decodes, its level 0 not all one value (real images). */
static int test_folder(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        printf("%s: absent, skipped\n", dir);
        return 77;
    }
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".dds") != 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        uint8_t *data = malloc((size_t)size);
        size_t got = fread(data, 1, (size_t)size, f);
        fclose(f);
        gn_dds_image im;
        gn_error err = {0};
        gn_result r = gn_dds_parse(data, got, path, &im, &err);
        CHECK(r == GN_OK, "%s", err.message);
        if (r == GN_OK) {
            uint8_t *px = malloc((size_t)im.width * im.height * 4);
            CHECK(gn_dds_decode(im.format, im.data, im.width, im.height, px), "%s: not decoded", path);
            uint8_t lo = 255, hi = 0;
            for (size_t i = 0; i < (size_t)im.width * im.height; i++) {
                lo = px[4 * i] < lo ? px[4 * i] : lo;
                hi = px[4 * i] > hi ? px[4 * i] : hi;
            }
            CHECK(hi > lo, "%s: level 0's red is all %d", path, lo);
            printf("%s: %ux%u %s, %u levels, red %d..%d\n", e->d_name, im.width, im.height,
                   gn_dds_format_name(im.format), im.levels, lo, hi);
            free(px);
            files++;
        }
        free(data);
    }
    closedir(d);
    CHECK(files > 0, "%s: no .dds files", dir);
    return gn_check_exit();
}

int main(int argc, char **argv)
{
    if (argc > 1) return test_folder(argv[1]);
    test_bc1();
    test_bc2_bc3();
    test_bc4_bc5();
    test_bc7();
    test_levels_and_swizzle();
    test_files();
    return gn_check_exit();
}
