#include "decide/atlas.h"

#include <math.h>
#include <stdlib.h>

/* Insertion sort by decreasing height, ties by index: stable and deterministic (the counts are
 * small: a map has tens of lightmaps). */
static void order(const gn_atlas_rect *r, uint32_t n, uint32_t *idx)
{
    for (uint32_t i = 0; i < n; i++) idx[i] = i;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t k = idx[i], j = i;
        while (j > 0 && (r[idx[j - 1]].h < r[k].h || (r[idx[j - 1]].h == r[k].h && idx[j - 1] > k))) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = k;
    }
}

static bool try_pack(gn_atlas_rect *r, const uint32_t *idx, uint32_t n, uint32_t pad, uint32_t w, uint32_t h)
{
    uint32_t x = 0, y = 0, shelf = 0;
    for (uint32_t i = 0; i < n; i++) {
        gn_atlas_rect *q = &r[idx[i]];
        uint32_t pw = q->w + 2 * pad, ph = q->h + 2 * pad;
        if (pw > w) return false;
        if (x + pw > w) { /* next shelf */
            y += shelf;
            x = 0;
            shelf = 0;
        }
        if (y + ph > h) return false;
        q->x = x + pad;
        q->y = y + pad;
        x += pw;
        shelf = ph > shelf ? ph : shelf;
    }
    return true;
}

bool gn_atlas_pack(gn_atlas_rect *rects, uint32_t count, uint32_t padding, uint32_t max_side, uint32_t *width,
                   uint32_t *height, uint32_t *scratch)
{
    order(rects, count, scratch);
    for (uint32_t side = 16; side <= max_side; side *= 2) {
        /* a square first, then twice as wide: the smaller atlas of the two that fits */
        if (try_pack(rects, scratch, count, padding, side, side / 2 ? side / 2 : 1)) {
            *width = side, *height = side / 2;
            return true;
        }
        if (try_pack(rects, scratch, count, padding, side, side)) {
            *width = side, *height = side;
            return true;
        }
    }
    return false;
}

void gn_atlas_uv(const gn_atlas_rect *r, uint32_t width, uint32_t height, float u, float v, float out[2])
{
    /* the texel centres of the rectangle's first and last texels bound the lookups */
    float x = (float)r->x + (float)r->w * u, y = (float)r->y + (float)r->h * v;
    float x0 = (float)r->x + 0.5f, x1 = (float)(r->x + r->w) - 0.5f;
    float y0 = (float)r->y + 0.5f, y1 = (float)(r->y + r->h) - 0.5f;
    out[0] = (x < x0 ? x0 : x > x1 ? x1 : x) / (float)width;
    out[1] = (y < y0 ? y0 : y > y1 ? y1 : y) / (float)height;
}

/* The shared exponent format as the Vulkan spec defines it (N = 9 mantissa bits, B = 15). */
uint32_t gn_rgb9e5_encode(const float rgb[3])
{
    const float max_value = (float)(511.0 / 512.0 * 65536.0); /* (2^9 - 1) / 2^9 * 2^(31 - 15) */
    float c[3];
    for (int i = 0; i < 3; i++) {
        float x = rgb[i];
        c[i] = !(x > 0.0f) ? 0.0f : x > max_value ? max_value : x;
    }
    float m = fmaxf(c[0], fmaxf(c[1], c[2]));
    int exp_shared = (int)floorf(log2f(fmaxf(m, 1e-30f)));
    if (exp_shared < -16) exp_shared = -16;
    exp_shared += 1 + 15;
    float scale = exp2f((float)(exp_shared - 15 - 9));
    if ((uint32_t)floorf(m / scale + 0.5f) == 512u) {
        scale *= 2.0f;
        exp_shared++;
    }
    uint32_t out = (uint32_t)exp_shared << 27;
    for (int i = 0; i < 3; i++) {
        uint32_t v = (uint32_t)floorf(c[i] / scale + 0.5f);
        out |= (v > 511u ? 511u : v) << (9 * i);
    }
    return out;
}

void gn_rgb9e5_decode(uint32_t packed, float rgb[3])
{
    int e = (int)(packed >> 27) - 15 - 9;
    for (int i = 0; i < 3; i++) rgb[i] = (float)((packed >> (9 * i)) & 511u) * exp2f((float)e);
}
