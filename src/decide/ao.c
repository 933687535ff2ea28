/* Scalable Ambient Obscurance on the CPU: the reference of shaders/ao_z.comp, ao.comp and
 * ao_blur.comp (decide/ao.h). Each function is written as its shader is, operation for
 * operation, so the two agree but for the GPU's sine and cosine. */
#include "decide/ao.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define GN_AO_TWO_PI 6.2831853f

/* The blur's Gaussian, sigma 1.5 taps: exp(-k^2 / 4.5) (shaders/ao_blur.comp has the same). */
static const float GN_AO_GAUSS[GN_AO_BLUR_RADIUS + 1] = {1.0f, 0.80073740f, 0.41111229f, 0.13533528f};

void gn_ao_layout_make(uint32_t width, uint32_t height, gn_ao_layout *out)
{
    memset(out, 0, sizeof *out);
    uint32_t w = width ? width : 1, h = height ? height : 1, at = 0;
    for (uint32_t k = 0; k < GN_AO_LEVELS; k++) {
        out->w[k] = w, out->h[k] = h, out->offset[k] = at;
        at += w * h;
        w = (w + 1) / 2, h = (h + 1) / 2;
    }
    out->texels = at;
}

void gn_ao_params_make(const float proj[16], float near_plane, uint32_t width, uint32_t height, float radius,
                       float bias, float intensity, float sample_x, float sample_y, gn_ao_params *out)
{
    float p00 = fabsf(proj[0]), p11 = fabsf(proj[5]);
    *out = (gn_ao_params){
        .width = width,
        .height = height,
        .radius = radius,
        .bias = bias,
        .intensity = intensity,
        .proj_scale = 0.5f * (float)height * p11,
        .inv_p00 = p00 > 0.0f ? 1.0f / p00 : 0.0f,
        .inv_p11 = p11 > 0.0f ? 1.0f / p11 : 0.0f,
        .near_plane = near_plane,
        .sample_x = sample_x,
        .sample_y = sample_y,
    };
}

static int gn_ao_clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

void gn_ao_build_z(const gn_ao_layout *l, const gn_ao_params *p, const float *depth, float *z)
{
    for (uint32_t i = 0; i < l->w[0] * l->h[0]; i++)
        z[i] = depth[i] > 0.0f ? p->near_plane / depth[i] : GN_AO_SKY_Z;
    /* level k's texel (x, y) is level k - 1's (2x + (y & 1 ^ 1), 2y + (x & 1 ^ 1)): a rotated
     * grid, so no row or column of the level below is always skipped */
    for (uint32_t k = 1; k < GN_AO_LEVELS; k++)
        for (uint32_t y = 0; y < l->h[k]; y++)
            for (uint32_t x = 0; x < l->w[k]; x++) {
                int sx = gn_ao_clampi((int)(2 * x + ((y & 1u) ^ 1u)), 0, (int)l->w[k - 1] - 1);
                int sy = gn_ao_clampi((int)(2 * y + ((x & 1u) ^ 1u)), 0, (int)l->h[k - 1] - 1);
                z[l->offset[k] + y * l->w[k] + x] =
                    z[l->offset[k - 1] + (uint32_t)sy * l->w[k - 1] + (uint32_t)sx];
            }
}

float gn_ao_rotation(uint32_t x, uint32_t y)
{
    uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return (float)(h & 1023u) / 1024.0f;
}

/* The view-space point (x right, y down, z ahead) at pixel (px, py) and camera-space Z z. */
static void gn_ao_point(const gn_ao_params *p, int px, int py, float z, float out[3])
{
    float nx = ((float)px + p->sample_x) / (float)p->width * 2.0f - 1.0f;
    float ny = ((float)py + p->sample_y) / (float)p->height * 2.0f - 1.0f;
    out[0] = nx * z * p->inv_p00;
    out[1] = ny * z * p->inv_p11;
    out[2] = z;
}

static float gn_ao_z0(const gn_ao_params *p, const float *z, int x, int y)
{
    return z[(uint32_t)y * p->width + (uint32_t)x];
}

/* The surface's normal at (x, y) from the depth, facing the camera: each way, the one-sided
 * difference whose depth changes less (across a silhouette the other side is another surface). */
static void gn_ao_normal(const gn_ao_params *p, const float *z, int x, int y, const float c[3], float n[3])
{
    float d[2][3];
    for (int axis = 0; axis < 2; axis++) {
        int lim = axis == 0 ? (int)p->width : (int)p->height;
        int at = axis == 0 ? x : y;
        float a[3], b[3];
        bool has_a = at + 1 < lim, has_b = at > 0;
        if (has_a) {
            int qx = axis == 0 ? x + 1 : x, qy = axis == 0 ? y : y + 1;
            gn_ao_point(p, qx, qy, gn_ao_z0(p, z, qx, qy), a);
        }
        if (has_b) {
            int qx = axis == 0 ? x - 1 : x, qy = axis == 0 ? y : y - 1;
            gn_ao_point(p, qx, qy, gn_ao_z0(p, z, qx, qy), b);
        }
        bool use_a = has_a && (!has_b || fabsf(a[2] - c[2]) <= fabsf(c[2] - b[2]));
        for (int i = 0; i < 3; i++) d[axis][i] = use_a ? a[i] - c[i] : has_b ? c[i] - b[i] : 0.0f;
    }
    n[0] = d[0][1] * d[1][2] - d[0][2] * d[1][1];
    n[1] = d[0][2] * d[1][0] - d[0][0] * d[1][2];
    n[2] = d[0][0] * d[1][1] - d[0][1] * d[1][0];
    float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0.0f)) {
        n[0] = 0.0f, n[1] = 0.0f, n[2] = -1.0f;
        return;
    }
    float s = n[0] * c[0] + n[1] * c[1] + n[2] * c[2] > 0.0f ? -1.0f / len : 1.0f / len;
    for (int i = 0; i < 3; i++) n[i] *= s;
}

/* floor(log2(v)) for v >= 1, as GLSL's findMSB. */
static int gn_ao_msb(int v)
{
    int b = -1;
    while (v > 0) v >>= 1, b++;
    return b;
}

float gn_ao_estimate(const gn_ao_layout *l, const gn_ao_params *p, const float *z, uint32_t x, uint32_t y)
{
    float zc = gn_ao_z0(p, z, (int)x, (int)y);
    if (zc >= 0.5f * GN_AO_SKY_Z) return 1.0f;
    float c[3], n[3];
    gn_ao_point(p, (int)x, (int)y, zc, c);
    gn_ao_normal(p, z, (int)x, (int)y, c, n);
    float r2 = p->radius * p->radius;
    float disc = p->proj_scale * p->radius / zc; /* the radius on screen, pixels */
    float phi = gn_ao_rotation(x, y) * GN_AO_TWO_PI;
    float sum = 0.0f;
    for (int i = 0; i < GN_AO_TAPS; i++) {
        float alpha = ((float)i + 0.5f) / (float)GN_AO_TAPS;
        float angle = alpha * ((float)GN_AO_TURNS * GN_AO_TWO_PI) + phi;
        float ssr = alpha * disc;
        int qx = gn_ao_clampi((int)x + (int)(ssr * cosf(angle)), 0, (int)p->width - 1);
        int qy = gn_ao_clampi((int)y + (int)(ssr * sinf(angle)), 0, (int)p->height - 1);
        int mip =
            ssr >= 1.0f ? gn_ao_clampi(gn_ao_msb((int)ssr) - GN_AO_LOG_MAX_OFFSET, 0, GN_AO_LEVELS - 1) : 0;
        int mx = gn_ao_clampi(qx >> mip, 0, (int)l->w[mip] - 1),
            my = gn_ao_clampi(qy >> mip, 0, (int)l->h[mip] - 1);
        float zq = z[l->offset[mip] + (uint32_t)my * l->w[mip] + (uint32_t)mx];
        /* the pixel that texel's Z came from, down the rotated grid: the point is put there, not
         * at the tap (up to 2^mip pixels away), or a slanted plane would occlude itself */
        for (int k = mip; k > 0; k--) {
            int sx = gn_ao_clampi(2 * mx + ((my & 1) ^ 1), 0, (int)l->w[k - 1] - 1);
            my = gn_ao_clampi(2 * my + ((mx & 1) ^ 1), 0, (int)l->h[k - 1] - 1);
            mx = sx;
        }
        float q[3];
        gn_ao_point(p, mx, my, zq, q);
        float v[3] = {q[0] - c[0], q[1] - c[1], q[2] - c[2]};
        float vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        float vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
        float f = fmaxf(r2 - vv, 0.0f) / r2;
        sum += f * f * f * p->radius * fmaxf(vn - p->bias, 0.0f) / (vv + 0.01f * r2);
    }
    return fmaxf(0.0f, 1.0f - p->intensity * sum / (float)GN_AO_TAPS);
}

float gn_ao_blur(const gn_ao_params *p, const float *z, const float *src, uint32_t x, uint32_t y, int dx,
                 int dy)
{
    float zc = gn_ao_z0(p, z, (int)x, (int)y);
    uint32_t at = y * p->width + x;
    if (zc >= 0.5f * GN_AO_SKY_Z) return 1.0f;
    float c[3], n[3];
    gn_ao_point(p, (int)x, (int)y, zc, c);
    gn_ao_normal(p, z, (int)x, (int)y, c, n);
    float sum = src[at] * GN_AO_GAUSS[0], weight = GN_AO_GAUSS[0];
    for (int k = -GN_AO_BLUR_RADIUS; k <= GN_AO_BLUR_RADIUS; k++) {
        if (k == 0) continue;
        int qx = (int)x + dx * k * GN_AO_BLUR_STEP, qy = (int)y + dy * k * GN_AO_BLUR_STEP;
        if (qx < 0 || qy < 0 || qx >= (int)p->width || qy >= (int)p->height) continue;
        float q[3];
        gn_ao_point(p, qx, qy, gn_ao_z0(p, z, qx, qy), q);
        /* the tap's distance from the pixel's tangent plane, over the pixel's distance */
        float off = fabsf((q[0] - c[0]) * n[0] + (q[1] - c[1]) * n[1] + (q[2] - c[2]) * n[2]) / zc;
        float w = GN_AO_GAUSS[k < 0 ? -k : k] * fmaxf(0.0f, 1.0f - GN_AO_BLUR_EDGE * off);
        sum += src[(uint32_t)qy * p->width + (uint32_t)qx] * w;
        weight += w;
    }
    return sum / weight;
}

float gn_specular_occlusion(float n_dot_v, float ao, float roughness)
{
    float s = powf(fmaxf(n_dot_v + ao, 0.0f), exp2f(-16.0f * roughness - 1.0f)) - 1.0f + ao;
    return s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
}
