/* The octahedral map and the spherical harmonics of image-based light (decide/ibl.h); the
 * shaders (octa.glsl, ibl_levels.glsl, ibl_sh.comp) do the same arithmetic. */
#include "decide/ibl.h"
#include "base/gmath.h"

#include <math.h>

static float gn_ibl_sign_nz(float v) { return v >= 0.0f ? 1.0f : -1.0f; }

void gn_oct_encode(const float d[3], float uv[2])
{
    float s = fabsf(d[0]) + fabsf(d[1]) + fabsf(d[2]);
    float x = d[0] / s, y = d[1] / s, z = d[2] / s;
    float ex = y >= 0.0f ? x : (1.0f - fabsf(z)) * gn_ibl_sign_nz(x);
    float ez = y >= 0.0f ? z : (1.0f - fabsf(x)) * gn_ibl_sign_nz(z);
    uv[0] = ex * 0.5f + 0.5f;
    uv[1] = ez * 0.5f + 0.5f;
}

void gn_oct_point(const float uv[2], float p[3])
{
    float ex = uv[0] * 2.0f - 1.0f, ez = uv[1] * 2.0f - 1.0f;
    p[0] = ex, p[1] = 1.0f - fabsf(ex) - fabsf(ez), p[2] = ez;
    if (p[1] < 0.0f) {
        p[0] = (1.0f - fabsf(ez)) * gn_ibl_sign_nz(ex);
        p[2] = (1.0f - fabsf(ex)) * gn_ibl_sign_nz(ez);
    }
}

void gn_sh9_basis(const float d[3], float out[GN_SH9])
{
    float x = d[0], y = d[1], z = d[2];
    out[0] = 0.282095f;
    out[1] = 0.488603f * y, out[2] = 0.488603f * z, out[3] = 0.488603f * x;
    out[4] = 1.092548f * x * y, out[5] = 1.092548f * y * z, out[6] = 0.315392f * (3.0f * z * z - 1.0f);
    out[7] = 1.092548f * x * z, out[8] = 0.546274f * (x * x - y * y);
}

void gn_sh9_project(const float *rgba, uint32_t size, float out[GN_SH9][3])
{
    double acc[GN_SH9][3] = {{0}}, wsum = 0.0;
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++) {
            float uv[2] = {((float)x + 0.5f) / (float)size, ((float)y + 0.5f) / (float)size}, p[3], b[GN_SH9];
            gn_oct_point(uv, p);
            float len = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
            float d[3] = {p[0] / len, p[1] / len, p[2] / len};
            double w = 1.0 / ((double)len * len * len); /* the texel's solid angle, up to a constant */
            gn_sh9_basis(d, b);
            const float *l = rgba + ((size_t)y * size + x) * 4;
            for (int i = 0; i < GN_SH9; i++)
                for (int c = 0; c < 3; c++) acc[i][c] += w * l[c] * b[i];
            wsum += w;
        }
    for (int i = 0; i < GN_SH9; i++)
        for (int c = 0; c < 3; c++) out[i][c] = (float)(acc[i][c] * 4.0 * (double)GN_PI / wsum);
}

void gn_sh9_irradiance(const float sh[GN_SH9][3], const float n[3], float out[3])
{
    const float a0 = 3.14159265f, a1 = 2.09439510f, a2 = 0.78539816f;
    float b[GN_SH9];
    gn_sh9_basis(n, b);
    for (int c = 0; c < 3; c++) {
        float e = a0 * b[0] * sh[0][c];
        for (int i = 1; i < 4; i++) e += a1 * b[i] * sh[i][c];
        for (int i = 4; i < GN_SH9; i++) e += a2 * b[i] * sh[i][c];
        out[c] = e > 0.0f ? e : 0.0f;
    }
}
