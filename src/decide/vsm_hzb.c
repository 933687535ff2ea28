/* The VSM's casters against the pages' depth: see vsm_hzb.h. Every float operation is in the
 * order of shaders/vsm_hidden.glsl (`precise` there: no fused multiply-adds), so both sides
 * decide the same for every pair. */
#include "decide/vsm_hzb.h"

#include <math.h>

static uint32_t to_texel(float t, uint32_t texels)
{
    float f = floorf(t);
    return f <= 0.0f ? 0u : f >= (float)(texels - 1) ? texels - 1 : (uint32_t)f;
}

bool gn_vsm_footprint(const gn_vsm_page_rect *p, uint32_t texels, const float lp[3], float r,
                      uint32_t rect[4])
{
    /* the page's texel coordinates: u = (x - x0) * texels / size, v from the page's top down
     * (RENDER flips y, as vsm_page.glsl does) */
    float k = p->scale * (0.5f * (float)texels), top = p->y0 + p->size;
    float u0 = (lp[0] - r - p->x0) * k - 0.5f, u1 = (lp[0] + r - p->x0) * k + 0.5f;
    float v0 = (top - (lp[1] + r)) * k - 0.5f, v1 = (top - (lp[1] - r)) * k + 0.5f;
    if (!(u1 >= 0.0f && v1 >= 0.0f && u0 < (float)texels && v0 < (float)texels)) return false;
    rect[0] = to_texel(u0, texels), rect[1] = to_texel(v0, texels);
    rect[2] = to_texel(u1, texels), rect[3] = to_texel(v1, texels);
    return true;
}

bool gn_vsm_hidden(const gn_hzb_layout *l, const float *hzb, const gn_vsm_page_rect *p, const float lp[3],
                   float r, float depth_range)
{
    uint32_t rect[4];
    if (!gn_vsm_footprint(p, l->width, lp, r, rect)) return false;
    /* in light-space metres: the sphere's nearest z, the footprint's farthest depth as a z */
    float span = 2.0f * depth_range, margin = span * GN_VSM_HIDDEN_MARGIN;
    float nearest = lp[2] - r, farthest = gn_hzb_farthest(l, hzb, rect, true) * span - depth_range;
    return nearest - margin > farthest;
}
