/* Procedural textures: each kind writes a height field and a colour per texel; the normal
 * map is then the height field's slope. All noise wraps at the image edge so the textures
 * tile. */
#include "scene/texgen.h"
#include "base/alloc.h"
#include "base/gmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *gn_texgen_name(gn_texgen_kind kind)
{
    static const char *names[GN_TEX_KIND_COUNT] = {"plaster", "brick", "roof_tiles", "cobble",
                                                   "paving",  "bark",  "grass"};
    return (unsigned)kind < GN_TEX_KIND_COUNT ? names[kind] : "unknown";
}

static uint32_t gn_hash3(uint32_t x, uint32_t y, uint32_t seed)
{
    uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u ^ seed * 0xcb1ab31fu;
    h ^= h >> 16, h *= 0x7feb352du, h ^= h >> 15, h *= 0x846ca68bu, h ^= h >> 16;
    return h;
}
static float gn_hashf(uint32_t x, uint32_t y, uint32_t seed)
{
    return (float)(gn_hash3(x, y, seed) >> 8) * (1.0f / 16777216.0f);
}
static uint32_t gn_wrap(int v, int period) { return (uint32_t)(((v % period) + period) % period); }

/* Value noise with px by py lattice cells across the unit square, in [0, 1]. */
static float gn_vnoise(float u, float v, int px, int py, uint32_t seed)
{
    float x = u * (float)px, y = v * (float)py;
    int xi = (int)floorf(x), yi = (int)floorf(y);
    float fx = x - (float)xi, fy = y - (float)yi;
    fx = fx * fx * (3 - 2 * fx), fy = fy * fy * (3 - 2 * fy);
    uint32_t x0 = gn_wrap(xi, px), x1 = gn_wrap(xi + 1, px);
    uint32_t y0 = gn_wrap(yi, py), y1 = gn_wrap(yi + 1, py);
    float a = gn_hashf(x0, y0, seed), b = gn_hashf(x1, y0, seed);
    float c = gn_hashf(x0, y1, seed), d = gn_hashf(x1, y1, seed);
    return (a + (b - a) * fx) * (1 - fy) + (c + (d - c) * fx) * fy;
}

/* Octaves of value noise; py = px / stretch cells along v (stretch >= 1 makes streaks). */
static float gn_fbm2(float u, float v, int period, int stretch, int octaves, uint32_t seed)
{
    float sum = 0, amp = 0.5f, norm = 0;
    for (int o = 0; o < octaves; o++) {
        int px = period << o, py = px / stretch > 0 ? px / stretch : 1;
        sum += amp * gn_vnoise(u, v, px, py, seed + (uint32_t)o * 101u);
        norm += amp;
        amp *= 0.5f;
    }
    return sum / norm;
}

static float gn_fbm(float u, float v, int period, int octaves, uint32_t seed)
{
    return gn_fbm2(u, v, period, 1, octaves, seed);
}

/* Jittered-grid Voronoi, wrapping: distances to the nearest and second feature points
 * (in cell units) and the nearest cell's hash. */
static void gn_voronoi(float u, float v, int cells, uint32_t seed, float *f1, float *f2, uint32_t *id)
{
    float x = u * (float)cells, y = v * (float)cells;
    int xi = (int)floorf(x), yi = (int)floorf(y);
    *f1 = *f2 = 1e9f;
    *id = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            uint32_t cx = gn_wrap(xi + dx, cells), cy = gn_wrap(yi + dy, cells);
            float px = (float)(xi + dx) + 0.15f + 0.7f * gn_hashf(cx, cy, seed);
            float py = (float)(yi + dy) + 0.15f + 0.7f * gn_hashf(cx, cy, seed ^ 0x5bd1e995u);
            float d = sqrtf((px - x) * (px - x) + (py - y) * (py - y));
            if (d < *f1)
                *f2 = *f1, *f1 = d, *id = gn_hash3(cx, cy, seed + 7u);
            else if (d < *f2)
                *f2 = d;
        }
}

static float gn_smooth(float e0, float e1, float x)
{
    float t = (x - e0) / (e1 - e0);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * (3 - 2 * t);
}

/* Per texel: height in [0, 1] and an sRGB colour. Returns the normal strength: how many
 * texels of relief a full 0..1 height step stands for. */
static float gn_texel(gn_texgen_kind kind, float u, float v, uint32_t seed, float *h, float rgb[3])
{
    switch (kind) {
    case GN_TEX_PLASTER: {
        float m = gn_fbm(u, v, 4, 4, seed), g = gn_fbm(u, v, 64, 2, seed + 9);
        float c = 0.80f + 0.12f * m + 0.05f * (g - 0.5f);
        rgb[0] = c, rgb[1] = c * 0.985f, rgb[2] = c * 0.96f;
        *h = 0.6f * g + 0.4f * m;
        return 1.5f;
    }
    case GN_TEX_BRICK: {
        /* Running bond: 16 courses and 4 bricks per metre, odd courses shifted by half. */
        float y = v * 16.0f;
        int row = (int)floorf(y);
        float x = u * 4.0f + (row & 1 ? 0.5f : 0.0f);
        int col = (int)floorf(x);
        float fx = x - (float)col, fy = y - (float)row;
        float ex = fminf(fx, 1 - fx) * 0.25f, ey = fminf(fy, 1 - fy) * 0.0625f; /* metres */
        float edge = fminf(ex, ey);
        float brick = gn_smooth(0.006f, 0.012f, edge);
        uint32_t idb = gn_hash3(gn_wrap(col, 4), gn_wrap(row, 16), seed);
        float t = (float)(idb & 255) / 255.0f, n = gn_fbm(u, v, 32, 3, seed + 3);
        float br[3] = {0.50f + 0.16f * t, 0.22f + 0.08f * t, 0.15f + 0.05f * t};
        for (int k = 0; k < 3; k++) br[k] *= 0.85f + 0.3f * n;
        const float mortar[3] = {0.68f, 0.65f, 0.60f};
        for (int k = 0; k < 3; k++) rgb[k] = mortar[k] + (br[k] - mortar[k]) * brick;
        *h = brick * (0.85f + 0.15f * n);
        return 3.0f;
    }
    case GN_TEX_ROOF_TILES: {
        /* Four rows of eight pan tiles per metre; each row laps over the next one down, so
         * the height climbs down a row and drops at its lower edge. */
        float y = v * 4.0f;
        int row = (int)floorf(y);
        float x = u * 8.0f + (row & 1 ? 0.5f : 0.0f);
        int col = (int)floorf(x);
        float fx = x - (float)col, fy = y - (float)row;
        float arch = sqrtf(fmaxf(0.0f, sinf(3.14159265f * fx)));
        uint32_t idt = gn_hash3(gn_wrap(col, 8), gn_wrap(row, 4), seed);
        float t = (float)(idt & 255) / 255.0f, n = gn_fbm(u, v, 16, 3, seed + 5);
        *h = 0.55f * arch + 0.45f * fy;
        float c = (0.70f + 0.22f * t) * (0.55f + 0.45f * arch) * (0.9f + 0.2f * n);
        c *= 1.0f - 0.35f * gn_smooth(0.85f, 1.0f, fy); /* the shadowed lip */
        rgb[0] = c, rgb[1] = c * 0.97f, rgb[2] = c * 0.95f;
        return 4.0f;
    }
    case GN_TEX_COBBLE: {
        float f1, f2;
        uint32_t id;
        gn_voronoi(u, v, 9, seed, &f1, &f2, &id);
        float gap = gn_smooth(0.02f, 0.16f, f2 - f1), n = gn_fbm(u, v, 32, 3, seed + 11);
        float t = (float)(id & 255) / 255.0f;
        float stone[3] = {0.36f + 0.16f * t, 0.34f + 0.14f * t, 0.31f + 0.12f * t};
        const float joint[3] = {0.16f, 0.15f, 0.13f};
        for (int k = 0; k < 3; k++) rgb[k] = joint[k] + (stone[k] * (0.85f + 0.3f * n) - joint[k]) * gap;
        *h = gap * (0.7f + 0.3f * (1.0f - f1)) + 0.1f * n;
        return 4.0f;
    }
    case GN_TEX_PAVING: {
        float y = v * 2.0f;
        int row = (int)floorf(y);
        float x = u * 2.0f + (row & 1 ? 0.5f : 0.0f);
        int col = (int)floorf(x);
        float fx = x - (float)col, fy = y - (float)row;
        float edge = fminf(fminf(fx, 1 - fx), fminf(fy, 1 - fy)) * 0.5f;
        float slab = gn_smooth(0.004f, 0.012f, edge), n = gn_fbm(u, v, 16, 4, seed + 13);
        float t = (float)(gn_hash3(gn_wrap(col, 2), gn_wrap(row, 2), seed) & 255) / 255.0f;
        float c = (0.62f + 0.1f * t) * (0.88f + 0.24f * n);
        float j = 0.35f;
        rgb[0] = j + (c * 1.02f - j) * slab, rgb[1] = j + (c - j) * slab, rgb[2] = j + (c * 0.94f - j) * slab;
        *h = slab * (0.9f + 0.1f * n);
        return 2.5f;
    }
    case GN_TEX_BARK: {
        /* Furrows run along v (up the trunk): noise stretched 8:1. */
        float n = gn_fbm2(u, v, 16, 8, 4, seed);
        float ridge = 1.0f - fabsf(2.0f * n - 1.0f);
        float f = gn_fbm(u, v, 32, 2, seed + 17);
        *h = ridge * 0.85f + 0.15f * f;
        float c = 0.55f + 0.45f * *h;
        rgb[0] = 0.34f * c, rgb[1] = 0.25f * c, rgb[2] = 0.18f * c;
        return 5.0f;
    }
    case GN_TEX_GRASS:
    default: {
        float m = gn_fbm(u, v, 4, 3, seed), f = gn_fbm(u, v, 64, 2, seed + 23);
        rgb[0] = 0.26f + 0.10f * m + 0.06f * f;
        rgb[1] = 0.36f + 0.08f * m + 0.08f * f;
        rgb[2] = 0.13f + 0.04f * m;
        *h = 0.7f * f + 0.3f * m;
        return 1.5f;
    }
    }
}

static uint8_t gn_u8(float x)
{
    x = x < 0 ? 0 : x > 1 ? 1 : x;
    return (uint8_t)(x * 255.0f + 0.5f);
}

bool gn_texgen(gn_texgen_kind kind, uint32_t size, uint32_t seed, uint8_t *color, uint8_t *normal)
{
    if ((unsigned)kind >= GN_TEX_KIND_COUNT || size < 16 || (size & (size - 1)) || !color || !normal)
        return false;
    float *h = gn_malloc((size_t)size * size * sizeof *h);
    if (!h) return false;
    float strength = 1.0f;
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++) {
            float rgb[3], u = ((float)x + 0.5f) / (float)size, v = ((float)y + 0.5f) / (float)size;
            size_t i = (size_t)y * size + x;
            strength = gn_texel(kind, u, v, seed, &h[i], rgb);
            for (int k = 0; k < 3; k++) color[i * 4 + k] = gn_u8(rgb[k]);
            color[i * 4 + 3] = 255;
        }
    /* Relief is specified per 256 texels, so a larger image keeps the same look. */
    strength *= (float)size / 256.0f;
    uint32_t m = size - 1;
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++) {
            float dx = 0.5f * (h[y * size + ((x + 1) & m)] - h[y * size + ((x + m) & m)]);
            float dy = 0.5f * (h[((y + 1) & m) * size + x] - h[((y + m) & m) * size + x]);
            /* Rows grow downwards while tangent-space +Y is image up, hence +dy. */
            float n[3] = {-dx * strength, dy * strength, 1.0f};
            gn_vec3_normalize_len(n, 0.0f); /* at least 1 long: z is 1 */
            size_t i = ((size_t)y * size + x) * 4;
            for (int k = 0; k < 3; k++) normal[i + k] = gn_u8(n[k] * 0.5f + 0.5f);
            normal[i + 3] = 255;
        }
    free(h);
    return true;
}
