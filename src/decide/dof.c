/* Depth of field's blend per pixel (decide/dof.h); shaders/tonemap.comp mirrors it. */
#include "decide/dof.h"

#include <math.h>

const int gn_dof_sky_ring[GN_DOF_SKY_TAPS][2] = {{-3, 0},  {3, 0},  {0, -3}, {0, 3},
                                                 {-2, -2}, {2, -2}, {-2, 2}, {2, 2}};

static float gn_dof_saturate(float v) { return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }

float gn_dof_coc(const gn_dof_params *p, float d)
{
    if (!(p->strength > 0.0f)) return 0.0f;
    float back = isinf(d) ? 1.0f : gn_dof_saturate((d - p->focus) / p->range);
    float front = isinf(d) ? 0.0f : gn_dof_saturate((p->focus - d) / p->range);
    float t = p->mode == GN_DOF_BACK ? back : p->mode == GN_DOF_FRONT ? front : fmaxf(back, front);
    return t * p->strength;
}

float gn_dof_pixel(const gn_dof_params *p, const float *z, uint32_t width, uint32_t height, uint32_t x,
                   uint32_t y)
{
    float zc = z[y * width + x];
    if (zc > 0.0f) return gn_dof_coc(p, zc);
    if (p->blur_sky) return gn_dof_coc(p, INFINITY);
    float sum = 0.0f;
    int geometry = 0;
    for (int i = 0; i < GN_DOF_SKY_TAPS; i++) {
        int qx = (int)x + gn_dof_sky_ring[i][0], qy = (int)y + gn_dof_sky_ring[i][1];
        if (qx < 0 || qy < 0 || qx >= (int)width || qy >= (int)height) continue;
        float zq = z[(uint32_t)qy * width + (uint32_t)qx];
        if (zq > 0.0f) sum += zq, geometry++;
    }
    if (!geometry) return 0.0f;
    float sky_share = 1.0f - (float)geometry / (float)GN_DOF_SKY_TAPS;
    return gn_dof_coc(p, sum / (float)geometry) * (1.0f - 0.5f * sky_share);
}
