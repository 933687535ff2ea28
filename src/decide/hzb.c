/* Occlusion culling's HZB and sphere test: see hzb.h. Every float operation is written in the
 * order the GPU's shaders use (they are `precise`: no fused multiply-adds), so that both
 * sides decide the same for every sphere. */
#include "decide/hzb.h"

#include <math.h>
#include <stddef.h>

void gn_hzb_layout_make(uint32_t width, uint32_t height, gn_hzb_layout *out)
{
    out->width = width, out->height = height;
    uint32_t w = (width + 1) / 2, h = (height + 1) / 2, at = 0, k = 0;
    for (;;) {
        out->w[k] = w ? w : 1, out->h[k] = h ? h : 1, out->offset[k] = at;
        at += out->w[k] * out->h[k];
        k++;
        if ((out->w[k - 1] == 1 && out->h[k - 1] == 1) || k == GN_HZB_MAX_LEVELS) break;
        w = (out->w[k - 1] + 1) / 2, h = (out->h[k - 1] + 1) / 2;
    }
    out->levels = k, out->texels = at;
}

static float min4(float a, float b, float c, float d)
{
    float m = a < b ? a : b, n = c < d ? c : d;
    return m < n ? m : n;
}

static float max4(float a, float b, float c, float d)
{
    float m = a > b ? a : b, n = c > d ? c : d;
    return m > n ? m : n;
}

/* keep: the farthest of two depths in the image's sense */
static float keep(bool max, float a, float b) { return max ? (a > b ? a : b) : (a < b ? a : b); }

static void build(const gn_hzb_layout *l, const float *depth, uint32_t samples, bool max, float *out)
{
    for (uint32_t y = 0; y < l->h[0]; y++)
        for (uint32_t x = 0; x < l->w[0]; x++) {
            float m = max ? -INFINITY : INFINITY;
            for (uint32_t dy = 0; dy < 2; dy++)
                for (uint32_t dx = 0; dx < 2; dx++) {
                    uint32_t px = 2 * x + dx, py = 2 * y + dy;
                    if (px >= l->width || py >= l->height) continue;
                    for (uint32_t s = 0; s < samples; s++)
                        m = keep(max, depth[((size_t)py * l->width + px) * samples + s], m);
                }
            out[y * l->w[0] + x] = m;
        }
    for (uint32_t k = 1; k < l->levels; k++) {
        const float *src = out + l->offset[k - 1];
        float *dst = out + l->offset[k];
        uint32_t sw = l->w[k - 1], sh = l->h[k - 1];
        for (uint32_t y = 0; y < l->h[k]; y++)
            for (uint32_t x = 0; x < l->w[k]; x++) {
                /* a texel past the edge repeats one that exists: the extreme is unchanged */
                uint32_t x1 = 2 * x + 1 < sw ? 2 * x + 1 : 2 * x, y1 = 2 * y + 1 < sh ? 2 * y + 1 : 2 * y;
                float a = src[2 * y * sw + 2 * x], b = src[2 * y * sw + x1], c = src[y1 * sw + 2 * x],
                      d = src[y1 * sw + x1];
                dst[y * l->w[k] + x] = max ? max4(a, b, c, d) : min4(a, b, c, d);
            }
    }
}

void gn_hzb_build(const gn_hzb_layout *l, const float *depth, uint32_t samples, float *out)
{
    build(l, depth, samples, false, out);
}

void gn_hzb_build_max(const gn_hzb_layout *l, const float *depth, float *out)
{
    build(l, depth, 1, true, out);
}

float gn_hzb_farthest(const gn_hzb_layout *l, const float *hzb, const uint32_t rect[4], bool max)
{
    /* the finest level whose texels cover the rectangle with at most 2 a side */
    uint32_t k = 0;
    while (k + 1 < l->levels && ((rect[2] >> (k + 1)) - (rect[0] >> (k + 1)) > 1 ||
                                 (rect[3] >> (k + 1)) - (rect[1] >> (k + 1)) > 1))
        k++;
    const float *lv = hzb + l->offset[k];
    uint32_t tx0 = rect[0] >> (k + 1), tx1 = rect[2] >> (k + 1), ty0 = rect[1] >> (k + 1),
             ty1 = rect[3] >> (k + 1);
    float a = lv[ty0 * l->w[k] + tx0], b = lv[ty0 * l->w[k] + tx1], c = lv[ty1 * l->w[k] + tx0],
          d = lv[ty1 * l->w[k] + tx1];
    return max ? max4(a, b, c, d) : min4(a, b, c, d);
}

/* The projected extent of [lo, hi] (view units across) over distances [dn, df] (dn > 0): the
 * largest and smallest value of coordinate / distance over the box that holds the sphere. */
static void extent(float lo, float hi, float dn, float df, float scale, float *a, float *b)
{
    float top = hi / (hi > 0.0f ? dn : df), bottom = lo / (lo < 0.0f ? dn : df);
    float p = scale * top, q = scale * bottom;
    *a = p < q ? p : q;
    *b = p < q ? q : p;
}

static uint32_t to_pixel(float ndc, uint32_t size)
{
    float px = (ndc + 1.0f) * 0.5f * (float)size;
    float f = floorf(px);
    return f <= 0.0f ? 0u : f >= (float)(size - 1) ? size - 1 : (uint32_t)f;
}

bool gn_hzb_sphere_rect(const gn_hzb_layout *l, const gn_hzb_camera *c, const float sphere[4],
                        uint32_t rect[4], float *nearest)
{
    const float *m = c->view;
    float cx = sphere[0], cy = sphere[1], cz = sphere[2], r = sphere[3];
    float vx = m[0] * cx, vy = m[1] * cx, vz = m[2] * cx;
    vx = vx + m[4] * cy, vy = vy + m[5] * cy, vz = vz + m[6] * cy;
    vx = vx + m[8] * cz, vy = vy + m[9] * cz, vz = vz + m[10] * cz;
    vx = vx + m[12], vy = vy + m[13], vz = vz + m[14];
    float dn = -vz - r, df = -vz + r;
    if (!(dn > c->near_plane)) return false; /* reaches the near plane (or behind the camera) */
    float x0, x1, y0, y1;
    extent(vx - r, vx + r, dn, df, c->p00, &x0, &x1);
    extent(vy - r, vy + r, dn, df, c->p11, &y0, &y1);
    if (x1 < -1.0f || x0 > 1.0f || y1 < -1.0f || y0 > 1.0f) return false;
    rect[0] = to_pixel(x0, l->width), rect[1] = to_pixel(y0, l->height);
    rect[2] = to_pixel(x1, l->width), rect[3] = to_pixel(y1, l->height);
    *nearest = c->near_plane / dn;
    return true;
}

bool gn_hzb_occluded(const gn_hzb_layout *l, const float *hzb, const gn_hzb_camera *c, const float sphere[4])
{
    uint32_t rect[4];
    float nearest;
    if (!gn_hzb_sphere_rect(l, c, sphere, rect, &nearest)) return false;
    float farthest = gn_hzb_farthest(l, hzb, rect, false);
    /* a margin of 2^-14 of the depth for the rasteriser's rounding: nearer is never culled */
    float margin = nearest * 0x1p-14f;
    return nearest + margin < farthest;
}
