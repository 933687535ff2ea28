/* The BC6H block decoder (src/formats/bc.c): hand-built blocks whose half floats were worked out
 * by hand from the Khronos Data Format Specification's BC6H section (and Microsoft's "BC6H
 * Format" page, whose mode table and arithmetic it follows): mode 11 (one region, 10-bit
 * endpoints stored as they are); mode 1 (two regions, 5-bit deltas that wrap through the
 * transform, partition 17 with its anchor at texel 2); mode 14 (16-bit endpoint 0 whose top bits
 * are stored reversed, a delta that wraps past 0xffff); SF16 with negative endpoints, rounding
 * down in the interpolation; the reserved modes; the half-to-float conversion; and the RGBA8
 * fallback of gn_dds_decode (linear, clamped to 0..1). Each expected value carries its
 * arithmetic in a comment: unquantize, interpolate with the BC7 weights, scale by 31/64 (UF16)
 * or 31/32 (SF16). */
#include "formats/dds.h"

#include <math.h>
#include <string.h>

#include "check.h"

/* A block's bits written from bit 0 of byte 0 upwards, as the decoder reads them. */
typedef struct bits {
    uint8_t b[16];
    unsigned pos;
} bits;

/* v's bits lo..hi, lo first (the tables' "v[hi:lo]"). */
static void put(bits *w, uint32_t v, unsigned hi, unsigned lo)
{
    for (unsigned i = lo; i <= hi; i++, w->pos++)
        if (v >> i & 1) w->b[w->pos / 8] |= (uint8_t)(1u << (w->pos % 8));
}

/* v's bits hi..lo, hi first (the tables' reversed "v[lo:hi]" of modes 13 and 14). */
static void put_reversed(bits *w, uint32_t v, unsigned lo, unsigned hi)
{
    for (unsigned i = hi + 1; i-- > lo;) put(w, v, i, i);
}

static void check_half(const uint16_t *rgba, int texel, uint16_t r, uint16_t g, uint16_t b, const char *what)
{
    const uint16_t *t = rgba + 4 * texel;
    CHECK(t[0] == r && t[1] == g && t[2] == b && t[3] == 0x3c00,
          "%s texel %d: (0x%04x 0x%04x 0x%04x 0x%04x), want (0x%04x 0x%04x 0x%04x 0x3c00)", what, texel, t[0],
          t[1], t[2], t[3], r, g, b);
}

/* 16 indices from bit pos on: n bits each, one fewer at texel 0 and at `anchor` (its region's
 * first texel; 0: none but texel 0). */
static void put_indices(bits *w, const int idx[16], unsigned n, int anchor)
{
    for (int i = 0; i < 16; i++) put(w, (uint32_t)idx[i], n - 1 - (i == 0 || i == anchor), 0);
}

/* Mode 11: bits 0..4 = 0x03, then r0 g0 b0 r1 g1 b1 of 10 bits each, then 4-bit indices. */
static bits mode11_block(const uint32_t e0[3], const uint32_t e1[3], const int idx[16])
{
    bits w = {{0}, 0};
    put(&w, 0x03, 4, 0);
    for (int c = 0; c < 3; c++) put(&w, e0[c], 9, 0);
    for (int c = 0; c < 3; c++) put(&w, e1[c], 9, 0);
    CHECK(w.pos == 65, "mode 11 header ends at bit %u", w.pos);
    put_indices(&w, idx, 4, 0);
    CHECK(w.pos == 128, "mode 11 block ends at bit %u", w.pos);
    return w;
}

static const int ramp16[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* UF16 endpoints (0, 512, 1023) and (1023, 0, 256). Unquantized (10 bits): 0 -> 0, 1023 (the
 * largest) -> 0xffff, others (v << 16 | 0x8000) >> 10: 512 -> 32800, 256 -> 16416. */
static void test_mode11(void)
{
    static const uint32_t e0[3] = {0, 512, 1023}, e1[3] = {1023, 0, 256};
    bits w = mode11_block(e0, e1, ramp16);
    uint16_t h[64];
    gn_bc6h_decode_block(w.b, false, h);
    /* index 0: endpoint 0. 32800 * 31 >> 6 = 15887 = 0x3e0f; 0xffff * 31 >> 6 = 0x7bff */
    check_half(h, 0, 0x0000, 0x3e0f, 0x7bff, "mode 11");
    /* index 15 (weight 64): endpoint 1. 16416 * 31 >> 6 = 7951 = 0x1f0f */
    check_half(h, 15, 0x7bff, 0x0000, 0x1f0f, "mode 11");
    /* index 8, weight 34: r (0 * 30 + 65535 * 34 + 32) >> 6 = 34815, * 31 >> 6 = 16863 = 0x41df;
     * g (32800 * 30 + 32) >> 6 = 15375, * 31 >> 6 = 7447 = 0x1d17;
     * b (65535 * 30 + 16416 * 34 + 32) >> 6 = 39441, * 31 >> 6 = 19104 = 0x4aa0 */
    check_half(h, 8, 0x41df, 0x1d17, 0x4aa0, "mode 11");
    /* index 1, weight 4: r (65535 * 4 + 32) >> 6 = 4096, * 31 >> 6 = 1984 = 0x07c0;
     * g (32800 * 60 + 32) >> 6 = 30750, * 31 >> 6 = 14894 = 0x3a2e;
     * b (65535 * 60 + 16416 * 4 + 32) >> 6 = 62465, * 31 >> 6 = 30256 = 0x7630 */
    check_half(h, 1, 0x07c0, 0x3a2e, 0x7630, "mode 11");
}

/* Mode 1 (bits 0..1 = 00), UF16: endpoint 0 (100, 200, 300) of 10 bits, the others 5-bit signed
 * deltas from it: x (+10, -5, +15) = (110, 195, 315), y (-16, -7, -1) = (84, 193, 299), z (+5,
 * -10, -3) = (105, 190, 297). Unquantized: (v << 6) + 32. Partition 17 (Table.P2 0x008e): texels
 * 1, 2, 3 and 7 are region 1, whose anchor is texel 2 (Table.A2). */
static void test_mode1(void)
{
    uint32_t r0 = 100, g0 = 200, b0 = 300;
    uint32_t r1 = 10, g1 = 32 - 5, b1 = 15;      /* 5-bit two's complement */
    uint32_t r2 = 32 - 16, g2 = 32 - 7, b2 = 31; /* b2 = -1 */
    uint32_t r3 = 5, g3 = 32 - 10, b3 = 32 - 3;
    bits w = {{0}, 0};
    put(&w, 0, 1, 0); /* the mode, then the specification's layout of mode 1 */
    put(&w, g2, 4, 4), put(&w, b2, 4, 4), put(&w, b3, 4, 4);
    put(&w, r0, 9, 0), put(&w, g0, 9, 0), put(&w, b0, 9, 0);
    put(&w, r1, 4, 0), put(&w, g3, 4, 4), put(&w, g2, 3, 0);
    put(&w, g1, 4, 0), put(&w, b3, 0, 0), put(&w, g3, 3, 0);
    put(&w, b1, 4, 0), put(&w, b3, 1, 1), put(&w, b2, 3, 0);
    put(&w, r2, 4, 0), put(&w, b3, 2, 2), put(&w, r3, 4, 0), put(&w, b3, 3, 3);
    CHECK(w.pos == 77, "mode 1 endpoints end at bit %u", w.pos);
    put(&w, 17, 4, 0);
    static const int idx[16] = {0, 7, 3, 5, 1, 2, 4, 6, 7, 0, 1, 2, 3, 4, 5, 6};
    put_indices(&w, idx, 3, 2);
    CHECK(w.pos == 128, "mode 1 block ends at bit %u", w.pos);
    uint16_t h[64];
    gn_bc6h_decode_block(w.b, false, h);
    /* texel 0, region 0, weight 0: w = (6432, 12832, 19232), * 31 >> 6 = (3115, 6215, 9315) */
    check_half(h, 0, 0x0c2b, 0x1847, 0x2463, "mode 1");
    /* texel 1, region 1, index 7 (weight 64): z = (6752, 12192, 19040) -> (3270, 5905, 9222) */
    check_half(h, 1, 0x0cc6, 0x1711, 0x2406, "mode 1");
    /* texel 2, region 1's anchor, index 3 (2 bits; weight 27) between y = (5408, 12384, 19168)
     * and z: r (5408 * 37 + 6752 * 27 + 32) >> 6 = 5975 -> 2894; g 12303 -> 5959; b 19114 ->
     * 9258 */
    check_half(h, 2, 0x0b4e, 0x1747, 0x242a, "mode 1");
    /* texel 4, region 0, index 1 (weight 9) between w and x = (7072, 12512, 20192): r (6432 * 55
     * + 7072 * 9 + 32) >> 6 = 6522 -> 3159; g 12787 -> 6193; b 19367 -> 9380 */
    check_half(h, 4, 0x0c57, 0x1831, 0x24a4, "mode 1");
    /* texel 15, region 0, index 6 (weight 55): r 6982 -> 3381; g 12557 -> 6082; b 20057 -> 9715 */
    check_half(h, 15, 0x0d35, 0x17c2, 0x25f3, "mode 1");
    /* texel 7, region 1, index 6 (weight 55) between y and z: r (5408 * 9 + 6752 * 55 + 32) >> 6
     * = 6563 -> 3178; g (12384 * 9 + 12192 * 55 + 32) >> 6 = 12219 -> 5918; b (19168 * 9 +
     * 19040 * 55 + 32) >> 6 = 19058 -> 9231 */
    check_half(h, 7, 0x0c6a, 0x171e, 0x240f, "mode 1");
}

/* Mode 14 (0x0f), UF16: 16-bit endpoint 0 (0xc123, 0x0200, 0xffff), 4-bit deltas (+3, -1, +1);
 * the delta of blue wraps to 0. Unquantize leaves 16 bits as they are. */
static void test_mode14(void)
{
    uint32_t e0[3] = {0xc123, 0x0200, 0xffff}, d[3] = {3, 15, 1};
    bits w = {{0}, 0};
    put(&w, 0x0f, 4, 0);
    for (int c = 0; c < 3; c++) put(&w, e0[c], 9, 0);
    for (int c = 0; c < 3; c++) put(&w, d[c], 3, 0), put_reversed(&w, e0[c], 10, 15);
    CHECK(w.pos == 65, "mode 14 header ends at bit %u", w.pos);
    put_indices(&w, ramp16, 4, 0);
    uint16_t h[64];
    gn_bc6h_decode_block(w.b, false, h);
    /* 0xc123 * 31 >> 6 = 23948 = 0x5d8c; 0x200 * 31 >> 6 = 248; 0xffff -> 0x7bff */
    check_half(h, 0, 0x5d8c, 0x00f8, 0x7bff, "mode 14");
    /* 0xc126 * 31 >> 6 = 23950 = 0x5d8e; 0x1ff * 31 >> 6 = 247; (0xffff + 1) & 0xffff = 0 */
    check_half(h, 15, 0x5d8e, 0x00f7, 0x0000, "mode 14");
}

/* Mode 11, SF16: endpoints (-512, -1, 0) and (511, -256, 100), 10-bit two's complement.
 * Unquantized (signed, 10 bits): magnitude >= 511 -> 0x7fff, else ((m << 15) + 0x4000) >> 9,
 * sign kept: -32767, -96, 0 and 32767, -16416, 6432. Final: magnitude * 31 >> 5, sign bit 15. */
static void test_signed(void)
{
    static const uint32_t e0[3] = {1024 - 512, 1023, 0}, e1[3] = {511, 1024 - 256, 100};
    bits w = mode11_block(e0, e1, ramp16);
    uint16_t h[64];
    gn_bc6h_decode_block(w.b, true, h);
    /* 32767 * 31 >> 5 = 31743 = 0x7bff (-65504 with the sign); 96 * 31 >> 5 = 93 (a subnormal) */
    check_half(h, 0, 0xfbff, 0x805d, 0x0000, "SF16");
    /* 16416 * 31 >> 5 = 15903 = 0x3e1f; 6432 * 31 >> 5 = 6231 = 0x1857 */
    check_half(h, 15, 0x7bff, 0xbe1f, 0x1857, "SF16");
    /* index 8 (weight 34): r (-32767 * 30 + 32767 * 34 + 32) >> 6 = 2048 -> 1984 = 0x07c0;
     * g (-96 * 30 - 16416 * 34 + 32) / 64 = -8765.5, rounded down to -8766 -> 8492 = 0x212c;
     * b (6432 * 34 + 32) >> 6 = 3417 -> 3310 = 0x0cee */
    check_half(h, 8, 0x07c0, 0xa12c, 0x0cee, "SF16");
    CHECK(gn_half_to_float(h[4 * 15 + 1]) < -1.53f && gn_half_to_float(h[4 * 15 + 1]) > -1.531f,
          "SF16 texel 15 green %g, want -1.5303", gn_half_to_float(h[4 * 15 + 1]));
    /* the same bits as UF16: endpoint 0's red 512 is no longer negative */
    gn_bc6h_decode_block(w.b, false, h);
    check_half(h, 0, 0x3e0f, 0x7bff, 0x0000, "SF16 bits read as UF16");
}

/* The four reserved 5-bit modes decode to (0, 0, 0, 1), whatever follows them. */
static void test_reserved(void)
{
    static const uint8_t modes[4] = {0x13, 0x17, 0x1b, 0x1f};
    for (int m = 0; m < 4; m++) {
        uint8_t block[16];
        memset(block, 0xa5, sizeof block);
        block[0] = (uint8_t)((block[0] & 0xe0) | modes[m]);
        for (int sgn = 0; sgn < 2; sgn++) {
            uint16_t h[64];
            memset(h, 0xff, sizeof h);
            gn_bc6h_decode_block(block, sgn, h);
            for (int i = 0; i < 16; i++) check_half(h, i, 0, 0, 0, "reserved mode");
        }
    }
}

static void test_half(void)
{
    static const struct {
        uint16_t h;
        float f;
    } t[] = {{0x0000, 0.0f},        {0x3c00, 1.0f},          {0xc000, -2.0f},
             {0x7bff, 65504.0f},    {0xfbff, -65504.0f},     {0x0001, 5.9604645e-8f},
             {0x3555, 0.33325195f}, {0x0400, 6.1035156e-5f}, {0x03ff, 6.0975552e-5f}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        CHECK(fabsf(gn_half_to_float(t[i].h) - t[i].f) <= fabsf(t[i].f) * 1e-6f, "half 0x%04x: %g, want %g",
              t[i].h, gn_half_to_float(t[i].h), t[i].f);
    CHECK(isinf(gn_half_to_float(0x7c00)) && gn_half_to_float(0xfc00) < 0 && isnan(gn_half_to_float(0x7e00)),
          "half infinities and NaN");
}

/* gn_dds_decode's RGBA8 fallback: linear, clamped to 0..1, alpha 255; a 5x3 level of one block
 * (edge texels dropped). Mode 11 UF16 texel 15 = (65504, 0, 0x1f0f = 2^-8 * (1 + 783/1024) =
 * 0.006893): (255, 0, round(1.758) = 2); texel 0 = (0, 1.515, 65504) -> (0, 255, 255). SF16's
 * negatives are 0. */
static void test_rgba8(void)
{
    static const uint32_t e0[3] = {0, 512, 1023}, e1[3] = {1023, 0, 256};
    bits w = mode11_block(e0, e1, ramp16);
    uint8_t px[4 * 4 * 4];
    memset(px, 0x77, sizeof px);
    CHECK(gn_dds_decode(GN_DDS_BC6H_UF16, w.b, 4, 4, px), "BC6H UF16 decode failed");
    CHECK(px[0] == 0 && px[1] == 255 && px[2] == 255 && px[3] == 255, "texel 0 (%d %d %d %d)", px[0], px[1],
          px[2], px[3]);
    CHECK(px[60] == 255 && px[61] == 0 && px[62] == 2 && px[63] == 255, "texel 15 (%d %d %d %d)", px[60],
          px[61], px[62], px[63]);
    static const uint32_t s0[3] = {1024 - 512, 1023, 0}, s1[3] = {511, 1024 - 256, 100};
    w = mode11_block(s0, s1, ramp16);
    uint8_t edge[5 * 3 * 4];
    CHECK(gn_dds_level_bytes(GN_DDS_BC6H_SF16, 5, 3) == 32, "5x3 BC6H takes %llu bytes, want 32",
          (unsigned long long)gn_dds_level_bytes(GN_DDS_BC6H_SF16, 5, 3));
    uint8_t two[32];
    memcpy(two, w.b, 16), memcpy(two + 16, w.b, 16);
    CHECK(gn_dds_decode(GN_DDS_BC6H_SF16, two, 5, 3, edge), "BC6H SF16 decode failed");
    /* texel 0: (-65504, -tiny, 0) -> (0, 0, 0); texel (4, 0) is the second block's texel 0 */
    CHECK(edge[0] == 0 && edge[1] == 0 && edge[2] == 0 && edge[3] == 255, "SF16 texel 0 (%d %d %d %d)",
          edge[0], edge[1], edge[2], edge[3]);
    CHECK(edge[16] == 0 && edge[17] == 0 && edge[18] == 0, "SF16 texel (4, 0)");
    /* texel (3, 2) is index 11 (weight 47): b (6432 * 47 + 32) >> 6 = 4724 -> 4576 = 0x11e0 =
     * 2^-11 * (1 + 480/1024) = 0.000717 -> 0; r (-32767 * 17 + 32767 * 47 + 32) >> 6 = 15360 ->
     * 14880 = 0x3a20 = 0.7656 -> round(195.2) = 195 */
    const uint8_t *t = edge + 4 * (2 * 5 + 3);
    CHECK(t[0] == 195 && t[2] == 0, "SF16 texel (3, 2): (%d %d %d)", t[0], t[1], t[2]);
}

int main(void)
{
    test_mode11();
    test_mode1();
    test_mode14();
    test_signed();
    test_reserved();
    test_half();
    test_rgba8();
    return gn_check_exit();
}
