/* The froxel grid and the reference light binning. Keep every formula identical to
 * shaders/clusters.glsl, operation for operation: the binning must match the GPU's bit for bit,
 * so it uses only +, -, *, min/max and comparisons (correctly rounded in Vulkan, and `precise`
 * in the GLSL stops fusing and reordering) on inputs the CPU computed. That is why slice
 * boundaries are near * ratio^k by repeated multiplication rather than exp2, tile edges are
 * (column - x/2) * step rather than a division, and the cone test compares squares rather than
 * taking square roots. */
#include "decide/clusters.h"

#include <math.h>
#include <stddef.h>

/* Relative slack of the cone test: covers the rounding of the light's view-space axis and of
 * the fragment's own spot term (angles off by ~1e-7 rad) with room to spare. */
#define GN_CLUSTER_CONE_SLACK (1.0f / 4096.0f)
/* The sqrt-free bounding radius below is grown by this fraction for its own rounding. */
#define GN_CLUSTER_RADIUS_SLACK (1.0f / 64.0f)

void gn_cluster_grid_init(uint32_t x, uint32_t y, uint32_t z, uint32_t max_lights, float near_depth,
                          float far_depth, const float proj[16], gn_cluster_grid *out)
{
    out->x = x ? x : GN_CLUSTER_X;
    out->y = y ? y : GN_CLUSTER_Y;
    out->z = z ? z : GN_CLUSTER_Z;
    out->max_lights = max_lights ? max_lights : GN_CLUSTER_MAX_LIGHTS;
    float d_near = near_depth > 0.0f ? near_depth : GN_CLUSTER_DEFAULT_NEAR;
    float d_far = far_depth > 0.0f ? far_depth : GN_CLUSTER_DEFAULT_FAR;
    /* The last slice's bounds must reach past far; a grid thinner than a factor 2 is useless. */
    d_near = fminf(d_near, GN_CLUSTER_HORIZON / 32.0f);
    d_far = fminf(fmaxf(d_far, 2.0f * d_near), GN_CLUSTER_HORIZON / 16.0f);
    out->near_depth = d_near;
    out->far_depth = d_far;
    /* log2(near) * scale + bias = 0 exactly and log2(far) * scale + bias = z. */
    out->scale = (float)out->z / log2f(d_far / d_near);
    out->bias = -(log2f(d_near) * out->scale);
    out->ratio = exp2f(1.0f / out->scale);
    out->proj_x = proj[0];
    out->proj_y = fabsf(proj[5]);
    out->step_x = 2.0f / ((float)out->x * out->proj_x);
    out->step_y = 2.0f / ((float)out->y * out->proj_y);
}

void gn_cluster_frame_params(const gn_cluster_grid *g, uint32_t grid[4], float depth[4], float proj[4])
{
    grid[0] = g->x, grid[1] = g->y, grid[2] = g->z, grid[3] = g->max_lights;
    depth[0] = g->scale, depth[1] = g->bias, depth[2] = g->near_depth, depth[3] = g->far_depth;
    proj[0] = g->step_x, proj[1] = g->step_y, proj[2] = g->ratio, proj[3] = 0.0f;
}

uint32_t gn_cluster_count(const gn_cluster_grid *g) { return g->x * g->y * g->z; }

/* floor(v) clamped to 0..n-1; NaN goes to 0. */
static uint32_t gn_cluster_cell(float v, uint32_t n)
{
    float c = floorf(v);
    if (!(c >= 0.0f)) return 0;
    return c > (float)(n - 1) ? n - 1 : (uint32_t)c;
}

uint32_t gn_cluster_slice(const gn_cluster_grid *g, float view_depth)
{
    return gn_cluster_cell(log2f(fmaxf(view_depth, GN_CLUSTER_MIN_DEPTH)) * g->scale + g->bias, g->z);
}

uint32_t gn_cluster_index(const gn_cluster_grid *g, float frag_x_01, float frag_y_01, float view_depth)
{
    uint32_t col = gn_cluster_cell(frag_x_01 * (float)g->x, g->x);
    uint32_t row = gn_cluster_cell(frag_y_01 * (float)g->y, g->y);
    return (gn_cluster_slice(g, view_depth) * g->y + row) * g->x + col;
}

void gn_cluster_froxel(const gn_cluster_grid *g, uint32_t index, gn_froxel *out)
{
    uint32_t col = index % g->x, row = (index / g->x) % g->y, slice = index / (g->x * g->y);
    float d0 = g->near_depth;
    for (uint32_t k = 0; k < slice; k++) d0 = d0 * g->ratio;
    float d1 = d0 * g->ratio;
    /* Depths below near fall in slice 0 and beyond far in the last: their froxels reach on. */
    out->near_depth = slice == 0 ? 0.0f : d0 * (1.0f - GN_CLUSTER_PAD_DEPTH);
    out->far_depth = slice + 1 >= g->z ? GN_CLUSTER_HORIZON : d1 * (1.0f + GN_CLUSTER_PAD_DEPTH);
    /* Screen rows run down, view +Y up. */
    out->x0 = ((float)col - 0.5f * (float)g->x - GN_CLUSTER_PAD_TILE) * g->step_x;
    out->x1 = ((float)col + 1.0f - 0.5f * (float)g->x + GN_CLUSTER_PAD_TILE) * g->step_x;
    out->y0 = (0.5f * (float)g->y - (float)row - 1.0f - GN_CLUSTER_PAD_TILE) * g->step_y;
    out->y1 = (0.5f * (float)g->y - (float)row + GN_CLUSTER_PAD_TILE) * g->step_y;
}

void gn_cluster_froxel_bounds(const gn_froxel *f, float d_near, float d_far, float mn[3], float mx[3])
{
    /* A slope reaches furthest from the axis at the far depth, closest at the near one. */
    mn[0] = f->x0 * (f->x0 < 0.0f ? d_far : d_near);
    mx[0] = f->x1 * (f->x1 > 0.0f ? d_far : d_near);
    mn[1] = f->y0 * (f->y0 < 0.0f ? d_far : d_near);
    mx[1] = f->y1 * (f->y1 > 0.0f ? d_far : d_near);
    mn[2] = -d_far;
    mx[2] = -d_near;
}

void gn_cluster_bounds(const gn_cluster_grid *g, uint32_t index, float mn[3], float mx[3])
{
    gn_froxel f;
    gn_cluster_froxel(g, index, &f);
    gn_cluster_froxel_bounds(&f, f.near_depth, f.far_depth, mn, mx);
}

/* m * (p, w) written out in one order, as the GLSL does (a matrix product's order is the
 * compiler's choice). */
static void gn_cluster_to_view(const float m[16], const float p[3], float w, float out[3])
{
    for (int r = 0; r < 3; r++) out[r] = ((m[r] * p[0] + m[4 + r] * p[1]) + m[8 + r] * p[2]) + m[12 + r] * w;
}

static float gn_cluster_clamp(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }

bool gn_cluster_light_hits(const gn_froxel *f, const gn_gpu_light *l, const float view[16])
{
    float c[3];
    gn_cluster_to_view(view, l->position_radius, 1.0f, c);
    float r = l->position_radius[3];

    /* Only the depths the sphere spans (a little wider, for rounding) can be lit. */
    float reach = r * (1.0f + GN_CLUSTER_PAD_DEPTH);
    float d_near = fmaxf(f->near_depth, -c[2] - reach), d_far = fminf(f->far_depth, -c[2] + reach);
    if (!(d_near <= d_far)) return false;
    float mn[3], mx[3];
    gn_cluster_froxel_bounds(f, d_near, d_far, mn, mx);

    /* Sphere vs box: the box's point closest to the centre. Falloff is 0 from the radius on. */
    float q0 = gn_cluster_clamp(c[0], mn[0], mx[0]) - c[0];
    float q1 = gn_cluster_clamp(c[1], mn[1], mx[1]) - c[1];
    float q2 = gn_cluster_clamp(c[2], mn[2], mx[2]) - c[2];
    if (!(q0 * q0 + q1 * q1 + q2 * q2 <= r * r)) return false;
    if (!(l->color_type[3] > 0.5f)) return true; /* a point light */

    /* Spot: the box's bounding sphere against the cone (Wronski, "Cull that cone!", 2016): the
     * sphere misses the cone when cos(a) |w| - h sin(a) > R, with h the centre's distance
     * along the axis and |w| its distance from the axis. That is the distance to the cone's
     * surface line, never more than to the cone, so the test only errs towards keeping. */
    float a[3];
    gn_cluster_to_view(view, l->direction_cos, 0.0f, a);
    float e0 = (mx[0] - mn[0]) * 0.5f, e1 = (mx[1] - mn[1]) * 0.5f, e2 = (mx[2] - mn[2]) * 0.5f;
    float v0 = (mn[0] + mx[0]) * 0.5f - c[0], v1 = (mn[1] + mx[1]) * 0.5f - c[1],
          v2 = (mn[2] + mx[2]) * 0.5f - c[2];
    /* R without a square root: for a >= b >= c >= 0, |(a,b,c)| <= a + (b + c) / 2 because
     * a (b + c) >= b^2 + c^2. */
    float big = fmaxf(fmaxf(e0, e1), e2);
    float radius = (big + ((e0 + e1 + e2) - big) * 0.5f) * (1.0f + GN_CLUSTER_RADIUS_SLACK);
    float h = v0 * a[0] + v1 * a[1] + v2 * a[2];
    float w0 = v0 - h * a[0], w1 = v1 - h * a[1], w2 = v2 - h * a[2];
    float slack = (fabsf(v0) + fabsf(v1) + fabsf(v2)) * GN_CLUSTER_CONE_SLACK;
    float s = (radius + slack) + h * l->params[2];
    if (s < 0.0f) return false; /* wholly behind the apex, beyond the cone's back side */
    float cos_outer = l->direction_cos[3];
    return !(cos_outer * cos_outer * (w0 * w0 + w1 * w1 + w2 * w2) > s * s);
}

uint32_t gn_cluster_bin_froxel(const gn_cluster_grid *g, uint32_t index, const gn_gpu_light *lights,
                               uint32_t count, const float view[16], uint32_t *slot)
{
    gn_froxel f;
    gn_cluster_froxel(g, index, &f);
    uint32_t n = 0, overflow = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (!gn_cluster_light_hits(&f, &lights[i], view)) continue;
        if (n < g->max_lights)
            slot[1 + n++] = i;
        else
            overflow++;
    }
    slot[0] = n;
    return overflow;
}

void gn_cluster_bin(const gn_cluster_grid *g, const gn_gpu_light *lights, uint32_t count,
                    const float view[16], uint32_t *out, uint32_t *overflow)
{
    uint32_t total = 0, n = gn_cluster_count(g);
    for (uint32_t i = 0; i < n; i++)
        total += gn_cluster_bin_froxel(g, i, lights, count, view, out + (size_t)i * (g->max_lights + 1));
    *overflow = total;
}
