/* CPU decoders for the block formats of dds.h, written from the Khronos Data Format
 * Specification's "S3TC", "RGTC" and "BPTC" chapters (BPTC is BC7 and BC6H; their tables are
 * also in ARB_texture_compression_bptc, Appendix, and Microsoft's "BC6H Format" page). They are
 * the fallback where the device cannot sample a format, and the reference the GPU's own decode
 * is tested against (gpu_dds). Colour interpolation rounds to nearest in 8 bits: the
 * specification allows S3TC and RGTC decoders some latitude, BPTC's integer interpolation is
 * exact. */
#include "formats/dds.h"

#include <string.h>

/* ---- BC1-BC5 ------------------------------------------------------------------------------ */

static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }

/* RGB565 to 8 bits a channel, the high bits replicated into the low ones. */
static void rgb565(uint32_t c, uint8_t out[3])
{
    uint32_t r = c >> 11 & 31, g = c >> 5 & 63, b = c & 31;
    out[0] = (uint8_t)(r << 3 | r >> 2), out[1] = (uint8_t)(g << 2 | g >> 4),
    out[2] = (uint8_t)(b << 3 | b >> 2);
}

/* A BC1 colour block. four: BC2 and BC3 always interpolate four colours; BC1 reads
 * colour 0 <= colour 1 as three colours and transparent black. Alpha is written 255 or 0. */
static void bc1_colors(const uint8_t b[8], bool four, uint8_t rgba[64])
{
    uint32_t c0 = rd16(b), c1 = rd16(b + 2),
             idx = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
    uint8_t pal[4][4] = {{0, 0, 0, 255}, {0, 0, 0, 255}, {0, 0, 0, 255}, {0, 0, 0, 255}};
    rgb565(c0, pal[0]);
    rgb565(c1, pal[1]);
    for (int k = 0; k < 3; k++) {
        uint32_t a = pal[0][k], z = pal[1][k];
        if (four || c0 > c1) {
            pal[2][k] = (uint8_t)((2 * a + z + 1) / 3);
            pal[3][k] = (uint8_t)((a + 2 * z + 1) / 3);
        } else {
            pal[2][k] = (uint8_t)((a + z + 1) / 2);
            pal[3][k] = 0;
        }
    }
    if (!four && c0 <= c1) pal[3][3] = 0;
    for (int i = 0; i < 16; i++) memcpy(rgba + 4 * i, pal[idx >> (2 * i) & 3], 4);
}

/* A BC4 block's 16 values into channel `ch` of rgba (stride 4). */
static void bc4_channel(const uint8_t b[8], uint8_t *rgba, int ch)
{
    uint32_t r0 = b[0], r1 = b[1];
    uint8_t pal[8] = {(uint8_t)r0, (uint8_t)r1};
    if (r0 > r1) {
        for (uint32_t i = 1; i < 7; i++) pal[i + 1] = (uint8_t)(((7 - i) * r0 + i * r1 + 3) / 7);
    } else {
        for (uint32_t i = 1; i < 5; i++) pal[i + 1] = (uint8_t)(((5 - i) * r0 + i * r1 + 2) / 5);
        pal[6] = 0, pal[7] = 255;
    }
    uint64_t idx = 0; /* 48 bits of 3-bit indices, texel 0 lowest */
    for (int k = 0; k < 6; k++) idx |= (uint64_t)b[2 + k] << (8 * k);
    for (int i = 0; i < 16; i++) rgba[4 * i + ch] = pal[idx >> (3 * i) & 7];
}

void gn_bc1_decode_block(const uint8_t block[8], uint8_t rgba[64]) { bc1_colors(block, false, rgba); }

void gn_bc2_decode_block(const uint8_t block[16], uint8_t rgba[64])
{
    bc1_colors(block + 8, true, rgba);
    for (int i = 0; i < 16; i++) { /* 4 bits a texel, texel 0 in the first byte's low nibble */
        uint32_t a = block[i / 2] >> (4 * (i & 1)) & 15;
        rgba[4 * i + 3] = (uint8_t)(a * 17);
    }
}

void gn_bc3_decode_block(const uint8_t block[16], uint8_t rgba[64])
{
    bc1_colors(block + 8, true, rgba);
    bc4_channel(block, rgba, 3);
}

void gn_bc4_decode_block(const uint8_t block[8], uint8_t rgba[64])
{
    for (int i = 0; i < 16; i++) rgba[4 * i + 1] = rgba[4 * i + 2] = 0, rgba[4 * i + 3] = 255;
    bc4_channel(block, rgba, 0);
}

void gn_bc5_decode_block(const uint8_t block[16], uint8_t rgba[64])
{
    for (int i = 0; i < 16; i++) rgba[4 * i + 2] = 0, rgba[4 * i + 3] = 255;
    bc4_channel(block, rgba, 0);
    bc4_channel(block + 8, rgba, 1);
}

/* ---- BC7 ---------------------------------------------------------------------------------- */

/* Table.M of the specification: one row a mode. */
typedef struct bc7_mode {
    uint8_t subsets, partition_bits, rotation_bits, selection_bits;
    uint8_t color_bits, alpha_bits, endpoint_pbits, shared_pbits, index_bits, index2_bits;
} bc7_mode;

static const bc7_mode bc7_modes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0}, {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
    {2, 6, 0, 0, 7, 0, 1, 0, 2, 0}, {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
};

/* Table.P2: bit i is texel i's subset (texel x + 4 y). */
static const uint16_t bc7_p2[64] = {
    0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80, 0xc800, 0xffec, 0xfe80, 0xe800, 0xffe8,
    0xff00, 0xfff0, 0xf000, 0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310, 0x3100, 0x8cce, 0x088c, 0x3110,
    0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c, 0xaaaa, 0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696,
    0xa55a, 0x73ce, 0x13c8, 0x324c, 0x3bdc, 0x6996, 0xc33c, 0x9966, 0x0660, 0x0272, 0x04e4, 0x4e40, 0x2720,
    0xc936, 0x936c, 0x39c6, 0x639c, 0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
};

/* Table.P3: bits 2i..2i+1 are texel i's subset. */
static const uint32_t bc7_p3[64] = {
    0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050, 0x5555a0a0, 0x5a5a5050,
    0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090, 0x94949494, 0xa4a4a4a4, 0xa9a59450, 0x2a0a4250,
    0xa5945040, 0x0a425054, 0xa5a5a500, 0x55a0a0a0, 0xa8a85454, 0x6a6a4040, 0xa4a45000, 0x1a1a0500,
    0x0050a4a4, 0xaaa59090, 0x14696914, 0x69691400, 0xa08585a0, 0xaa821414, 0x50a4a450, 0x6a5a0200,
    0xa9a58000, 0x5090a0a8, 0xa8a09050, 0x24242424, 0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50,
    0x500aa550, 0xaaaa4444, 0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600,
    0xaa444444, 0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580, 0xaa141414, 0x96960000,
    0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000, 0x40804080, 0xa9a8a9a8, 0xaaaaaa44, 0x2a4a5254,
};

/* Tables A2, A3a and A3b: the anchor texel of subset 1 of two, and of subsets 1 and 2 of three
 * (subset 0's is texel 0). ARB_texture_compression_bptc's A2 gives 8 for partition 35, as
 * Direct3D does (the Data Format Specification 1.4's Table 20.6 gives 2: its issue 28). */
static const uint8_t bc7_anchor2[64] = {15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
                                        15, 2,  8,  2,  2,  8,  8,  15, 2,  8,  2,  2,  8,  8,  2,  2,
                                        15, 15, 6,  8,  2,  8,  15, 15, 2,  8,  2,  2,  2,  15, 15, 6,
                                        6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2,  15};
static const uint8_t bc7_anchor3a[64] = {3, 3,  15, 15, 8, 3,  15, 15, 8,  8,  6,  6,  6,  5,  3,  3,
                                         3, 3,  8,  15, 3, 3,  6,  10, 5,  8,  8,  6,  8,  5,  15, 15,
                                         8, 15, 3,  5,  6, 10, 8,  15, 15, 3,  15, 5,  15, 15, 15, 15,
                                         3, 15, 5,  5,  5, 8,  5,  10, 5,  10, 8,  13, 15, 12, 3,  3};
static const uint8_t bc7_anchor3b[64] = {15, 8, 8,  3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,
                                         15, 8, 15, 3,  15, 8,  15, 8,  3,  15, 6,  10, 15, 15, 10, 8,
                                         15, 3, 15, 10, 10, 8,  9,  10, 6,  15, 8,  15, 3,  6,  6,  8,
                                         15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8};

static const uint8_t bc7_weights2[4] = {0, 21, 43, 64};
static const uint8_t bc7_weights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
static const uint8_t bc7_weights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

/* The block's 128 bits, read from bit 0 of byte 0 upwards. */
typedef struct bc7_bits {
    uint64_t lo, hi;
    uint32_t pos;
} bc7_bits;

static uint32_t bc7_read(bc7_bits *b, uint32_t n)
{
    uint32_t v = 0;
    for (uint32_t i = 0; i < n; i++, b->pos++) {
        uint64_t word = b->pos < 64 ? b->lo : b->hi;
        v |= (uint32_t)(word >> (b->pos & 63) & 1) << i;
    }
    return v;
}

static const uint8_t *bc7_weights(uint32_t bits)
{
    return bits == 2 ? bc7_weights2 : bits == 3 ? bc7_weights3 : bc7_weights4;
}

/* Texel i's subset in partition p of a mode with `subsets` subsets. */
static uint32_t bc7_subset(uint32_t subsets, uint32_t p, uint32_t i)
{
    if (subsets == 2) return bc7_p2[p] >> i & 1;
    if (subsets == 3) return bc7_p3[p] >> (2 * i) & 3;
    return 0;
}

static bool bc7_is_anchor(uint32_t subsets, uint32_t p, uint32_t i)
{
    if (i == 0) return true;
    if (subsets == 2) return i == bc7_anchor2[p];
    if (subsets == 3) return i == bc7_anchor3a[p] || i == bc7_anchor3b[p];
    return false;
}

void gn_bc7_decode_block(const uint8_t block[16], uint8_t rgba[64])
{
    bc7_bits b = {0, 0, 0};
    for (int k = 0; k < 8; k++)
        b.lo |= (uint64_t)block[k] << (8 * k), b.hi |= (uint64_t)block[8 + k] << (8 * k);
    uint32_t mode = 0;
    while (mode < 8 && !bc7_read(&b, 1)) mode++;
    if (mode == 8) { /* reserved: the low byte is 0 */
        memset(rgba, 0, 64);
        return;
    }
    const bc7_mode *m = &bc7_modes[mode];
    uint32_t partition = bc7_read(&b, m->partition_bits), rotation = bc7_read(&b, m->rotation_bits);
    uint32_t selection = bc7_read(&b, m->selection_bits);
    /* endpoints [subset][end][channel], each channel's bits for every endpoint in turn */
    uint32_t e[3][2][4] = {{{0}}};
    uint32_t ns = m->subsets;
    for (uint32_t c = 0; c < 4; c++) {
        uint32_t bits = c < 3 ? m->color_bits : m->alpha_bits;
        for (uint32_t s = 0; s < ns; s++)
            for (uint32_t k = 0; k < 2; k++) e[s][k][c] = bc7_read(&b, bits);
    }
    /* p-bits: one an endpoint, or one a subset shared by both its endpoints; each goes below
     * the stored bits of every channel of its endpoint */
    uint32_t pbit[3][2] = {{0}};
    bool has_p = m->endpoint_pbits || m->shared_pbits;
    for (uint32_t s = 0; s < ns; s++) {
        if (m->endpoint_pbits) pbit[s][0] = bc7_read(&b, 1), pbit[s][1] = bc7_read(&b, 1);
        if (m->shared_pbits) pbit[s][0] = pbit[s][1] = bc7_read(&b, 1);
    }
    uint8_t ep[3][2][4];
    for (uint32_t s = 0; s < ns; s++)
        for (uint32_t k = 0; k < 2; k++)
            for (uint32_t c = 0; c < 4; c++) {
                uint32_t bits = c < 3 ? m->color_bits : m->alpha_bits;
                if (!bits) { /* no alpha in this mode: opaque */
                    ep[s][k][c] = 255;
                    continue;
                }
                uint32_t v = e[s][k][c];
                if (has_p) v = v << 1 | pbit[s][k], bits++;
                v <<= 8 - bits; /* the stored bits on top, replicated into the low ones */
                ep[s][k][c] = (uint8_t)(v | v >> bits);
            }
    /* primary then secondary indices, texel 0 first; an anchor texel's top bit is implied 0 */
    uint8_t idx[16], idx2[16] = {0};
    for (uint32_t i = 0; i < 16; i++)
        idx[i] = (uint8_t)bc7_read(&b, m->index_bits - (bc7_is_anchor(ns, partition, i) ? 1 : 0));
    for (uint32_t i = 0; m->index2_bits && i < 16; i++)
        idx2[i] = (uint8_t)bc7_read(&b, m->index2_bits - (i == 0 ? 1 : 0));
    /* colour from the secondary indices when the selection bit is set, alpha from them when
     * there are any and it is not */
    uint32_t cbits = m->index_bits, abits = m->index_bits;
    const uint8_t *cidx = idx, *aidx = idx;
    if (m->index2_bits) {
        if (selection)
            cidx = idx2, cbits = m->index2_bits;
        else
            aidx = idx2, abits = m->index2_bits;
    }
    const uint8_t *cw = bc7_weights(cbits), *aw = bc7_weights(abits);
    for (uint32_t i = 0; i < 16; i++) {
        uint32_t s = bc7_subset(ns, partition, i);
        uint8_t *t = rgba + 4 * i;
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t w = c < 3 ? cw[cidx[i]] : aw[aidx[i]];
            t[c] = (uint8_t)(((64 - w) * ep[s][0][c] + w * ep[s][1][c] + 32) >> 6);
        }
        if (rotation) { /* 1, 2, 3: alpha swapped with red, green, blue */
            uint8_t x = t[3];
            t[3] = t[rotation - 1], t[rotation - 1] = x;
        }
    }
}

/* ---- BC6H --------------------------------------------------------------------------------- */

/* The header's fields: endpoint k (0 and 1 of region 0, 2 and 3 of region 1; Microsoft's w, x,
 * y, z) of channel c is field 1 + 3 k + c. 0 ends a mode's list of runs. */
enum { E_END, R0, G0, B0, R1, G1, B1, R2, G2, B2, R3, G3, B3 };

/* left..right of a field's bits as the tables write them ("r0[9:0]"): the first bit read is
 * bit `right`, the next right + 1 (or right - 1 when right > left: modes 13 and 14 store the
 * top bits of endpoint 0 reversed, "r0[10:15]"). */
typedef struct bc6h_run {
    uint8_t field, left, right;
} bc6h_run;

typedef struct bc6h_mode {
    uint8_t value;    /* the low 2 (modes 1, 2) or 5 bits of the block */
    uint8_t regions;  /* 1: 4-bit indices; 2: 3-bit indices and a 5-bit partition */
    bool transformed; /* endpoints other than 0 are deltas from it */
    uint8_t epb;      /* endpoint 0's bits, and every endpoint's after the transform */
    uint8_t delta[3]; /* the other endpoints' stored bits, red, green, blue */
    bc6h_run run[24]; /* the fields after the mode bits, in the order they are stored */
} bc6h_mode;

/* The specification's table of modes 1..14 with each one's bit layout (its "Endpoint bit
 * layout"); every layout fills bits 0..76 (two regions) or 0..64 (one). Laid out by hand, a
 * mode a paragraph, so that it reads against the specification's table: clang-format is off. */
/* clang-format off */
static const bc6h_mode bc6h_modes[14] = {
    {0x00, 2, true, 10, {5, 5, 5}, {{G2, 4, 4}, {B2, 4, 4}, {B3, 4, 4}, {R0, 9, 0}, {G0, 9, 0},
        {B0, 9, 0}, {R1, 4, 0}, {G3, 4, 4}, {G2, 3, 0}, {G1, 4, 0}, {B3, 0, 0}, {G3, 3, 0},
        {B1, 4, 0}, {B3, 1, 1}, {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2}, {R3, 4, 0}, {B3, 3, 3}}},
    {0x01, 2, true, 7, {6, 6, 6}, {{G2, 5, 5}, {G3, 4, 4}, {G3, 5, 5}, {R0, 6, 0}, {B3, 0, 0},
        {B3, 1, 1}, {B2, 4, 4}, {G0, 6, 0}, {B2, 5, 5}, {B3, 2, 2}, {G2, 4, 4}, {B0, 6, 0},
        {B3, 3, 3}, {B3, 5, 5}, {B3, 4, 4}, {R1, 5, 0}, {G2, 3, 0}, {G1, 5, 0}, {G3, 3, 0},
        {B1, 5, 0}, {B2, 3, 0}, {R2, 5, 0}, {R3, 5, 0}}},
    {0x02, 2, true, 11, {5, 4, 4}, {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 4, 0}, {R0, 10, 10},
        {G2, 3, 0}, {G1, 3, 0}, {G0, 10, 10}, {B3, 0, 0}, {G3, 3, 0}, {B1, 3, 0}, {B0, 10, 10},
        {B3, 1, 1}, {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2}, {R3, 4, 0}, {B3, 3, 3}}},
    {0x06, 2, true, 11, {4, 5, 4}, {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 3, 0}, {R0, 10, 10},
        {G3, 4, 4}, {G2, 3, 0}, {G1, 4, 0}, {G0, 10, 10}, {G3, 3, 0}, {B1, 3, 0}, {B0, 10, 10},
        {B3, 1, 1}, {B2, 3, 0}, {R2, 3, 0}, {B3, 0, 0}, {B3, 2, 2}, {R3, 3, 0}, {G2, 4, 4},
        {B3, 3, 3}}},
    {0x0a, 2, true, 11, {4, 4, 5}, {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 3, 0}, {R0, 10, 10},
        {B2, 4, 4}, {G2, 3, 0}, {G1, 3, 0}, {G0, 10, 10}, {B3, 0, 0}, {G3, 3, 0}, {B1, 4, 0},
        {B0, 10, 10}, {B2, 3, 0}, {R2, 3, 0}, {B3, 1, 1}, {B3, 2, 2}, {R3, 3, 0}, {B3, 4, 4},
        {B3, 3, 3}}},
    {0x0e, 2, true, 9, {5, 5, 5}, {{R0, 8, 0}, {B2, 4, 4}, {G0, 8, 0}, {G2, 4, 4}, {B0, 8, 0},
        {B3, 4, 4}, {R1, 4, 0}, {G3, 4, 4}, {G2, 3, 0}, {G1, 4, 0}, {B3, 0, 0}, {G3, 3, 0},
        {B1, 4, 0}, {B3, 1, 1}, {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2}, {R3, 4, 0}, {B3, 3, 3}}},
    {0x12, 2, true, 8, {6, 5, 5}, {{R0, 7, 0}, {G3, 4, 4}, {B2, 4, 4}, {G0, 7, 0}, {B3, 2, 2},
        {G2, 4, 4}, {B0, 7, 0}, {B3, 3, 3}, {B3, 4, 4}, {R1, 5, 0}, {G2, 3, 0}, {G1, 4, 0},
        {B3, 0, 0}, {G3, 3, 0}, {B1, 4, 0}, {B3, 1, 1}, {B2, 3, 0}, {R2, 5, 0}, {R3, 5, 0}}},
    {0x16, 2, true, 8, {5, 6, 5}, {{R0, 7, 0}, {B3, 0, 0}, {B2, 4, 4}, {G0, 7, 0}, {G2, 5, 5},
        {G2, 4, 4}, {B0, 7, 0}, {G3, 5, 5}, {B3, 4, 4}, {R1, 4, 0}, {G3, 4, 4}, {G2, 3, 0},
        {G1, 5, 0}, {G3, 3, 0}, {B1, 4, 0}, {B3, 1, 1}, {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2},
        {R3, 4, 0}, {B3, 3, 3}}},
    {0x1a, 2, true, 8, {5, 5, 6}, {{R0, 7, 0}, {B3, 1, 1}, {B2, 4, 4}, {G0, 7, 0}, {B2, 5, 5},
        {G2, 4, 4}, {B0, 7, 0}, {B3, 5, 5}, {B3, 4, 4}, {R1, 4, 0}, {G3, 4, 4}, {G2, 3, 0},
        {G1, 4, 0}, {B3, 0, 0}, {G3, 3, 0}, {B1, 5, 0}, {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2},
        {R3, 4, 0}, {B3, 3, 3}}},
    {0x1e, 2, false, 6, {6, 6, 6}, {{R0, 5, 0}, {G3, 4, 4}, {B3, 0, 0}, {B3, 1, 1}, {B2, 4, 4},
        {G0, 5, 0}, {G2, 5, 5}, {B2, 5, 5}, {B3, 2, 2}, {G2, 4, 4}, {B0, 5, 0}, {G3, 5, 5},
        {B3, 3, 3}, {B3, 5, 5}, {B3, 4, 4}, {R1, 5, 0}, {G2, 3, 0}, {G1, 5, 0}, {G3, 3, 0},
        {B1, 5, 0}, {B2, 3, 0}, {R2, 5, 0}, {R3, 5, 0}}},
    {0x03, 1, false, 10, {10, 10, 10}, {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 9, 0}, {G1, 9, 0},
        {B1, 9, 0}}},
    {0x07, 1, true, 11, {9, 9, 9}, {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 8, 0}, {R0, 10, 10},
        {G1, 8, 0}, {G0, 10, 10}, {B1, 8, 0}, {B0, 10, 10}}},
    {0x0b, 1, true, 12, {8, 8, 8}, {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 7, 0}, {R0, 10, 11},
        {G1, 7, 0}, {G0, 10, 11}, {B1, 7, 0}, {B0, 10, 11}}},
    {0x0f, 1, true, 16, {4, 4, 4}, {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 3, 0}, {R0, 10, 15},
        {G1, 3, 0}, {G0, 10, 15}, {B1, 3, 0}, {B0, 10, 15}}},
};
/* clang-format on */

/* The block's mode from its low 2 bits (modes 1 and 2) or 5; NULL: one of the four reserved
 * 5-bit values (0x13, 0x17, 0x1b, 0x1f). */
static const bc6h_mode *bc6h_mode_of(bc7_bits *b)
{
    uint32_t v = bc7_read(b, 2);
    if (v >= 2) v |= bc7_read(b, 3) << 2;
    for (uint32_t i = 0; i < sizeof bc6h_modes / sizeof bc6h_modes[0]; i++)
        if (bc6h_modes[i].value == v) return &bc6h_modes[i];
    return NULL;
}

/* v's low n bits as a two's complement number. */
static int32_t bc6h_sext(int32_t v, uint32_t n)
{
    uint32_t top = 1u << (n - 1), u = (uint32_t)v & ((top << 1) - 1);
    return (int32_t)(u ^ top) - (int32_t)top;
}

/* Sign extension and the inverse transform ("Sign Extension for Endpoint Values", "Transform
 * Inversion"): endpoint 0 is signed only in SF16; the deltas always are, and the untransformed
 * endpoints of SF16; a delta is added to endpoint 0 and wrapped to epb bits. e[k][c] as read. */
static void bc6h_endpoints(const bc6h_mode *m, bool sgn, int32_t e[4][3])
{
    uint32_t n = 2u * m->regions, mask = (1u << m->epb) - 1;
    for (uint32_t c = 0; c < 3; c++) {
        if (sgn) e[0][c] = bc6h_sext(e[0][c], m->epb);
        for (uint32_t k = 1; k < n; k++) {
            if (m->transformed || sgn) e[k][c] = bc6h_sext(e[k][c], m->delta[c]);
            if (!m->transformed) continue;
            e[k][c] = (int32_t)((uint32_t)(e[0][c] + e[k][c]) & mask);
            if (sgn) e[k][c] = bc6h_sext(e[k][c], m->epb);
        }
    }
}

/* An epb-bit endpoint to 16 bits ("Unquantization of Color Endpoints"): 0 and the largest
 * value map to the ends of the range, others to the middle of their step. Signed values keep
 * their sign, magnitude to 15 bits. */
static int32_t bc6h_unquantize(int32_t v, uint32_t epb, bool sgn)
{
    if (!sgn) {
        if (epb >= 15 || v == 0) return v;
        if (v == (int32_t)((1u << epb) - 1)) return 0xffff;
        return (int32_t)((((uint32_t)v << 16) + 0x8000u) >> epb);
    }
    if (epb >= 16) return v;
    uint32_t a = (uint32_t)(v < 0 ? -v : v), u;
    if (a == 0)
        u = 0;
    else if (a >= (1u << (epb - 1)) - 1)
        u = 0x7fff;
    else
        u = ((a << 15) + 0x4000u) >> (epb - 1);
    return v < 0 ? -(int32_t)u : (int32_t)u;
}

/* An interpolated 16-bit value to half float bits: scaled by 31/64 (UF16: 0..0xffff onto the
 * finite halves, 0x7bff at most) or 31/32 on the magnitude (SF16), the sign in bit 15. */
static uint16_t bc6h_finish(int32_t v, bool sgn)
{
    if (!sgn) return (uint16_t)(((uint32_t)v * 31u) >> 6);
    uint32_t a = (uint32_t)(v < 0 ? -v : v);
    return (uint16_t)((v < 0 ? 0x8000u : 0u) | (a * 31u) >> 5);
}

/* (a (64 - w) + b w + 32) / 64 rounded down, as the specification's arithmetic shift does for
 * SF16's negative values. */
static int32_t bc6h_lerp(int32_t a, int32_t b, uint32_t w)
{
    int32_t v = a * (int32_t)(64 - w) + b * (int32_t)w + 32;
    return v >= 0 ? v / 64 : -((-v + 63) / 64);
}

void gn_bc6h_decode_block(const uint8_t block[16], bool is_signed, uint16_t rgba[64])
{
    bc7_bits b = {0, 0, 0};
    for (int k = 0; k < 8; k++)
        b.lo |= (uint64_t)block[k] << (8 * k), b.hi |= (uint64_t)block[8 + k] << (8 * k);
    const bc6h_mode *m = bc6h_mode_of(&b);
    if (!m) { /* reserved: black, as the specification asks of a decoder */
        for (int i = 0; i < 16; i++)
            rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = 0, rgba[4 * i + 3] = 0x3c00;
        return;
    }
    int32_t e[4][3] = {{0}};
    for (const bc6h_run *r = m->run; r->field != E_END; r++) {
        int32_t *f = &e[(r->field - 1) / 3][(r->field - 1) % 3];
        int step = r->left >= r->right ? 1 : -1;
        for (int k = r->right;; k += step) {
            *f |= (int32_t)(bc7_read(&b, 1) << k);
            if (k == r->left) break;
        }
    }
    /* two regions: a BC7 two-subset partition (the first 32 of Table.P2) and its anchor */
    uint32_t partition = m->regions == 2 ? bc7_read(&b, 5) : 0;
    bc6h_endpoints(m, is_signed, e);
    for (uint32_t k = 0; k < 2u * m->regions; k++)
        for (uint32_t c = 0; c < 3; c++) e[k][c] = bc6h_unquantize(e[k][c], m->epb, is_signed);
    /* bits 65 (one region, 4-bit indices) or 82 (two, 3-bit) on; each region's anchor texel
     * stores one bit fewer, its top bit implied 0 */
    uint32_t ibits = m->regions == 2 ? 3 : 4;
    const uint8_t *weights = bc7_weights(ibits);
    for (uint32_t i = 0; i < 16; i++) {
        uint32_t s = bc7_subset(m->regions, partition, i);
        uint32_t w = weights[bc7_read(&b, ibits - (bc7_is_anchor(m->regions, partition, i) ? 1 : 0))];
        for (uint32_t c = 0; c < 3; c++)
            rgba[4 * i + c] = bc6h_finish(bc6h_lerp(e[2 * s][c], e[2 * s + 1][c], w), is_signed);
        rgba[4 * i + 3] = 0x3c00;
    }
}

float gn_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = h >> 10 & 31, mant = h & 0x3ffu, bits;
    if (exp == 0) { /* zero and subnormals: mant 2^-24, exact in float */
        float v = (float)mant * (1.0f / 16777216.0f);
        return sign ? -v : v;
    }
    if (exp == 31)
        bits = sign | 0x7f800000u | mant << 13; /* infinity, or NaN with its payload */
    else
        bits = sign | (exp - 15 + 127) << 23 | mant << 13;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* A BC6H block to RGBA8 for the fallback (dds.h, gn_dds_decode): linear, clamped to 0..1. */
static void bc6h_rgba8(const uint8_t block[16], bool is_signed, uint8_t rgba[64])
{
    uint16_t half[64];
    gn_bc6h_decode_block(block, is_signed, half);
    for (int i = 0; i < 64; i++) {
        float v = gn_half_to_float(half[i]);
        rgba[i] = (uint8_t)(v > 0.0f ? v < 1.0f ? v * 255.0f + 0.5f : 255.0f : 0.0f); /* NaN: 0 */
    }
}

static void bc6h_uf16_rgba8(const uint8_t *block, uint8_t *rgba) { bc6h_rgba8(block, false, rgba); }
static void bc6h_sf16_rgba8(const uint8_t *block, uint8_t *rgba) { bc6h_rgba8(block, true, rgba); }

void gn_dds_swizzle(uint8_t *rgba, size_t count, const char swizzle[4])
{
    for (size_t i = 0; i < count; i++) {
        uint8_t *t = rgba + 4 * i, in[4] = {t[0], t[1], t[2], t[3]};
        for (int c = 0; c < 4; c++) {
            const char *at = strchr("rgba", swizzle[c]);
            t[c] = swizzle[c] == '1'   ? 255
                   : at && swizzle[c]  ? in[at - "rgba"]
                   : swizzle[c] == '0' ? 0
                                       : in[c];
        }
    }
}

/* ---- whole levels ------------------------------------------------------------------------- */

bool gn_dds_decode(gn_dds_format f, const uint8_t *blocks, uint32_t w, uint32_t h, uint8_t *rgba)
{
    void (*dec)(const uint8_t *, uint8_t *) = NULL;
    switch (f) {
    case GN_DDS_BC1:
        dec = gn_bc1_decode_block;
        break;
    case GN_DDS_BC2:
        dec = gn_bc2_decode_block;
        break;
    case GN_DDS_BC3:
        dec = gn_bc3_decode_block;
        break;
    case GN_DDS_BC4:
        dec = gn_bc4_decode_block;
        break;
    case GN_DDS_BC5:
        dec = gn_bc5_decode_block;
        break;
    case GN_DDS_BC6H_UF16:
        dec = bc6h_uf16_rgba8;
        break;
    case GN_DDS_BC6H_SF16:
        dec = bc6h_sf16_rgba8;
        break;
    case GN_DDS_BC7:
        dec = gn_bc7_decode_block;
        break;
    case GN_DDS_RGBA8:
        memcpy(rgba, blocks, (size_t)w * h * 4);
        return true;
    default:
        return false;
    }
    uint32_t bx = (w + 3) / 4, by = (h + 3) / 4, bytes = gn_dds_block_bytes(f);
    uint8_t texels[64];
    for (uint32_t y = 0; y < by; y++)
        for (uint32_t x = 0; x < bx; x++) {
            dec(blocks + ((size_t)y * bx + x) * bytes, texels);
            for (uint32_t ty = 0; ty < 4 && y * 4 + ty < h; ty++) {
                uint32_t n = w - x * 4 < 4 ? w - x * 4 : 4;
                memcpy(rgba + (((size_t)(y * 4 + ty) * w) + x * 4) * 4, texels + ty * 16, (size_t)n * 4);
            }
        }
    return true;
}
