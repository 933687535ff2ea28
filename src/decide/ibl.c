/* The octahedral map, its building from six faces, its GGX prefilter and the spherical harmonics
 * of image-based light (decide/ibl.h); the shaders (octa.glsl, ibl_levels.glsl, ibl_sh.comp,
 * ibl_prefilter.comp) do the same arithmetic. */
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

/* The bilinear mean of the four texels around (px, py), in texel units with texel centres at
 * integers, clamped to the image's edge (a VK_FILTER_LINEAR sampler with CLAMP_TO_EDGE, but
 * with exact weights where the GPU keeps 8 bits of the fraction). */
static void gn_ibl_bilinear(const float *rgba, uint32_t w, uint32_t h, float px, float py, float out[4])
{
    /* Clamping the coordinate first gives the same result as clamping the texel indices, and
     * keeps a far-off coordinate from overflowing the index. */
    px = fminf(fmaxf(px, 0.0f), (float)(w - 1)), py = fminf(fmaxf(py, 0.0f), (float)(h - 1));
    uint32_t x0 = (uint32_t)px, y0 = (uint32_t)py;
    uint32_t x1 = x0 + 1 < w ? x0 + 1 : x0, y1 = y0 + 1 < h ? y0 + 1 : y0;
    float fx = px - (float)x0, fy = py - (float)y0;
    const float *a = rgba + ((size_t)y0 * w + x0) * 4, *b = rgba + ((size_t)y0 * w + x1) * 4;
    const float *c = rgba + ((size_t)y1 * w + x0) * 4, *d = rgba + ((size_t)y1 * w + x1) * 4;
    for (int k = 0; k < 4; k++) {
        float top = a[k] + (b[k] - a[k]) * fx, bottom = c[k] + (d[k] - c[k]) * fx;
        out[k] = top + (bottom - top) * fy;
    }
}

/* The unit direction of an octahedral map's texel (x, y) of size^2. */
static void gn_ibl_texel_dir(uint32_t x, uint32_t y, uint32_t size, float d[3])
{
    float uv[2] = {((float)x + 0.5f) / (float)size, ((float)y + 0.5f) / (float)size};
    gn_oct_point(uv, d);
    gn_vec3_normalize(d);
}

void gn_oct_from_faces(const float *const faces[6], uint32_t face_size, const float view_proj[6][16],
                       uint32_t size, float *out)
{
    float n = (float)face_size;
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++) {
            float d[3], *o = out + ((size_t)y * size + x) * 4;
            gn_ibl_texel_dir(x, y, size, d);
            int best = -1;
            float best_m = INFINITY, best_ndc[2] = {0.0f, 0.0f};
            for (int f = 0; f < 6 && face_size > 0; f++) {
                /* (d, 0): a direction, so the face's translation drops out; w = -z_view. */
                const float *m = view_proj[f];
                float cx = m[0] * d[0] + m[4] * d[1] + m[8] * d[2];
                float cy = m[1] * d[0] + m[5] * d[1] + m[9] * d[2];
                float cw = m[3] * d[0] + m[7] * d[1] + m[11] * d[2];
                if (!(cw > 0.0f)) continue;
                float nx = cx / cw, ny = cy / cw, c = fmaxf(fabsf(nx), fabsf(ny));
                if (c < best_m) best = f, best_m = c, best_ndc[0] = nx, best_ndc[1] = ny;
            }
            if (best < 0) {
                o[0] = o[1] = o[2] = o[3] = 0.0f;
                continue;
            }
            /* ndc -1 is the left edge and the top row (Vulkan's y points down the image). */
            float px = (best_ndc[0] * 0.5f + 0.5f) * n - 0.5f, py = (best_ndc[1] * 0.5f + 0.5f) * n - 0.5f;
            gn_ibl_bilinear(faces[best], face_size, face_size, px, py, o);
        }
}

/* Van der Corput's radical inverse of i in base 2 (the bits of i reversed after the binary
 * point), as the shader's radical_inverse computes it. */
static float gn_ibl_radical_inverse(uint32_t i)
{
    i = (i << 16u) | (i >> 16u);
    i = ((i & 0x55555555u) << 1u) | ((i & 0xaaaaaaaau) >> 1u);
    i = ((i & 0x33333333u) << 2u) | ((i & 0xccccccccu) >> 2u);
    i = ((i & 0x0f0f0f0fu) << 4u) | ((i & 0xf0f0f0f0u) >> 4u);
    i = ((i & 0x00ff00ffu) << 8u) | ((i & 0xff00ff00u) >> 8u);
    return (float)i * 2.3283064365386963e-10f;
}

void gn_ibl_prefilter(const float *src, uint32_t src_size, float roughness, uint32_t out_size, float *out)
{
    float alpha = roughness * roughness, a2 = alpha * alpha;
    /* gn_ibl_sample0: the uv kept half a texel inside the map, so no lookup wraps across the
     * octahedron's folded edges. */
    float half_texel = 0.5f / (float)src_size, ss = (float)src_size;
    for (uint32_t y = 0; y < out_size; y++)
        for (uint32_t x = 0; x < out_size; x++) {
            float nrm[3], *o = out + ((size_t)y * out_size + x) * 4;
            gn_ibl_texel_dir(x, y, out_size, nrm);
            float up[3] = {0.0f, 1.0f, 0.0f}, tx[3], ty[3];
            if (!(fabsf(nrm[1]) < 0.999f)) up[0] = 1.0f, up[1] = 0.0f;
            gn_vec3_cross(tx, up, nrm);
            gn_vec3_normalize(tx);
            gn_vec3_cross(ty, nrm, tx);
            float sum[3] = {0.0f, 0.0f, 0.0f}, weight = 0.0f;
            for (uint32_t i = 0; i < GN_IBL_PREFILTER_SAMPLES && src_size > 0; i++) {
                float u1 = ((float)i + 0.5f) / (float)GN_IBL_PREFILTER_SAMPLES,
                      u2 = gn_ibl_radical_inverse(i);
                float phi = 2.0f * GN_PI * u2;
                /* The GGX distribution's inverse CDF in cos(theta_h) (Karis 2013,
                 * ImportanceSampleGGX); the max keeps sin real should rounding push cos past 1. */
                float cos_t = sqrtf((1.0f - u1) / (1.0f + (a2 - 1.0f) * u1));
                float sin_t = sqrtf(fmaxf(0.0f, 1.0f - cos_t * cos_t));
                float sx = sin_t * cosf(phi), sy = sin_t * sinf(phi), h[3], l[3];
                for (int k = 0; k < 3; k++) h[k] = tx[k] * sx + ty[k] * sy + nrm[k] * cos_t;
                float n_dot_h = gn_vec3_dot(nrm, h);
                for (int k = 0; k < 3; k++) l[k] = 2.0f * n_dot_h * h[k] - nrm[k];
                float n_dot_l = gn_vec3_dot(nrm, l);
                if (n_dot_l <= 0.0f) continue;
                float uv[2], c[4];
                gn_oct_encode(l, uv);
                uv[0] = fminf(fmaxf(uv[0], half_texel), 1.0f - half_texel);
                uv[1] = fminf(fmaxf(uv[1], half_texel), 1.0f - half_texel);
                gn_ibl_bilinear(src, src_size, src_size, uv[0] * ss - 0.5f, uv[1] * ss - 0.5f, c);
                for (int k = 0; k < 3; k++) sum[k] += c[k] * n_dot_l;
                weight += n_dot_l;
            }
            for (int k = 0; k < 3; k++) o[k] = weight > 0.0f ? sum[k] / weight : 0.0f;
            o[3] = 1.0f;
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
