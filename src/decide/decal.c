/* Screen-space decals: the CPU reference of what shaders/decal.glsl decides per pixel, and the
 * frame's culling and batches (src/decide/decal.h). */
#include "decide/decal.h"
#include "decide/camera.h"
#include "shared/decal.h"

#include <math.h>
#include <string.h>

_Static_assert(sizeof(gn_gpu_decal) == 2 * 64 + 4 * 16, "gn_gpu_decal: two mat4, four vec4");
_Static_assert(sizeof(gn_gpu_decal_push) == 16, "gn_gpu_decal_push: one vec4");

static float dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3(const float a[3], const float b[3], float out[3])
{
    float c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(out, c, sizeof c);
}

bool gn_decal_place(const float transform[16], gn_decal *d)
{
    for (int i = 0; i < 16; i++)
        if (!isfinite(transform[i])) return false;
    if (transform[3] != 0.0f || transform[7] != 0.0f || transform[11] != 0.0f || transform[15] != 1.0f)
        return false;
    float len[3];
    for (int c = 0; c < 3; c++) {
        len[c] = sqrtf(dot3(transform + 4 * c, transform + 4 * c));
        if (!(len[c] >= GN_DECAL_MIN_SIZE)) return false;
    }
    /* the edges' volume against the product of their lengths: the sine of how far the third
       leaves the plane of the other two; below 1e-3 the box is a sheet. Negative: a mirroring
       transform, which would turn the box's faces inside out (the pass draws its back faces) */
    float c01[3];
    cross3(transform, transform + 4, c01);
    if (!(dot3(c01, transform + 8) >= 1e-3f * len[0] * len[1] * len[2])) return false;
    float inv[16];
    if (!gn_mat4_inverse(transform, inv)) return false;
    memcpy(d->transform, transform, sizeof d->transform);
    memcpy(d->inverse, inv, sizeof d->inverse);
    for (int i = 0; i < 3; i++) {
        d->tangent[i] = transform[i] / len[0];
        d->axis[i] = transform[8 + i] / len[2];
    }
    return true;
}

bool gn_decal_world_point(const float inv_view_proj[16], float ndc_x, float ndc_y, float depth, float out[3])
{
    if (!(depth > 0.0f)) return false;
    float p[3] = {ndc_x, ndc_y, depth}, c[4];
    gn_mat4_transform_point(inv_view_proj, p, c);
    if (c[3] == 0.0f) return false;
    for (int i = 0; i < 3; i++) out[i] = c[i] / c[3];
    return true;
}

bool gn_decal_box_local(const gn_decal *d, const float world[3], float local[3])
{
    float c[4];
    gn_mat4_transform_point(d->inverse, world, c);
    memcpy(local, c, sizeof(float) * 3);
    return fabsf(c[0]) <= 0.5f && fabsf(c[1]) <= 0.5f && fabsf(c[2]) <= 0.5f;
}

void gn_decal_uv(const float local[3], float uv[2])
{
    uv[0] = local[0] + 0.5f;
    uv[1] = 0.5f - local[1];
}

float gn_decal_angle_fade(const gn_decal *d, const float normal[3])
{
    float u = (dot3(normal, d->axis) - d->fade_end) / (d->fade_start - d->fade_end);
    u = u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u;
    return u * u * (3.0f - 2.0f * u);
}

float gn_decal_weight(const gn_decal *d, float texture_alpha, float fade)
{
    float alpha = texture_alpha * d->color[3];
    if (alpha < GN_DECAL_ALPHA_TEST) return 0.0f;
    return alpha * d->opacity * fade;
}

/* ---- the surface behind a pixel: shaders/depth_surface.glsl's, line for line ------------- */
static float depth_at(const gn_decal_depth *v, int x, int y)
{
    if (x < 0 || y < 0 || x >= (int)v->width || y >= (int)v->height) return 0.0f;
    return v->depth[(size_t)y * v->width + (size_t)x];
}

/* The depth's change a pixel along (sx, sy), on the side whose two neighbours extrapolate best
 * to the pixel's depth d (the nearer neighbour where a side has only one); 0 where neither
 * neighbour is surface. */
static float depth_slope(const gn_decal_depth *v, int x, int y, int sx, int sy, float d)
{
    float a1 = depth_at(v, x + sx, y + sy), a2 = depth_at(v, x + 2 * sx, y + 2 * sy);
    float b1 = depth_at(v, x - sx, y - sy), b2 = depth_at(v, x - 2 * sx, y - 2 * sy);
    float ea = a2 > 0.0f ? fabsf(2.0f * a1 - a2 - d) : fabsf(a1 - d);
    float eb = b2 > 0.0f ? fabsf(2.0f * b1 - b2 - d) : fabsf(b1 - d);
    if (a1 > 0.0f && (b1 <= 0.0f || ea <= eb)) return a1 - d;
    return b1 > 0.0f ? d - b1 : 0.0f;
}

static void pixel_world(const gn_decal_depth *v, float px, float py, float d, float out[3])
{
    float nx = px / (float)v->width * 2.0f - 1.0f, ny = py / (float)v->height * 2.0f - 1.0f;
    float p[3] = {nx, ny, d}, c[4];
    gn_mat4_transform_point(v->inv_view_proj, p, c);
    for (int i = 0; i < 3; i++) out[i] = c[i] / c[3];
}

bool gn_decal_surface(const gn_decal_depth *v, uint32_t x, uint32_t y, float point[3], float normal[3])
{
    float d0 = depth_at(v, (int)x, (int)y);
    if (!(d0 > 0.0f)) return false;
    float sx = depth_slope(v, (int)x, (int)y, 1, 0, d0), sy = depth_slope(v, (int)x, (int)y, 0, 1, d0);
    float cx = (float)x + 0.5f, cy = (float)y + 0.5f;
    float d = d0 + sx * (0.5f - v->sample0[0]) + sy * (0.5f - v->sample0[1]);
    float px[3], py[3], ex[3], ey[3];
    pixel_world(v, cx, cy, d, point);
    pixel_world(v, cx + 1.0f, cy, d + sx, px);
    pixel_world(v, cx, cy + 1.0f, d + sy, py);
    for (int i = 0; i < 3; i++) ex[i] = px[i] - point[i], ey[i] = py[i] - point[i];
    float to_camera[3] = {v->camera[0] - point[0], v->camera[1] - point[1], v->camera[2] - point[2]};
    cross3(ex, ey, normal);
    float len = sqrtf(dot3(normal, normal));
    if (len > 0.0f) {
        for (int i = 0; i < 3; i++) normal[i] /= len;
    } else {
        float lc = sqrtf(dot3(to_camera, to_camera));
        for (int i = 0; i < 3; i++) normal[i] = lc > 0.0f ? to_camera[i] / lc : 0.0f;
    }
    if (dot3(normal, to_camera) < 0.0f)
        for (int i = 0; i < 3; i++) normal[i] = -normal[i];
    return true;
}

bool gn_decal_pixel(const gn_decal *d, const gn_decal_depth *v, uint32_t x, uint32_t y, float uv[2],
                    float *fade)
{
    float p[3], n[3], local[3];
    if (!gn_decal_surface(v, x, y, p, n) || !gn_decal_box_local(d, p, local)) return false;
    gn_decal_uv(local, uv);
    *fade = gn_decal_angle_fade(d, n);
    return true;
}

/* ---- the frame: culling and batches -------------------------------------------------------- */
bool gn_decal_visible(const gn_decal *d, const gn_frustum *f)
{
    const float *m = d->transform;
    for (uint32_t i = 0; i < f->count; i++) {
        const float *pl = f->planes[i];
        /* the box's centre against the plane, and how far its half edges reach along the normal */
        float dist = dot3(pl, m + 12) + pl[3];
        float reach = 0.5f * (fabsf(dot3(pl, m)) + fabsf(dot3(pl, m + 4)) + fabsf(dot3(pl, m + 8)));
        if (dist < -reach) return false;
    }
    return true;
}

uint32_t gn_decal_batch_frame(const gn_decal *decals, uint32_t n, const gn_frustum *f, uint32_t *order,
                              gn_decal_batch *batches, uint32_t *drawn)
{
    /* a counting sort by texture set: stable, so each set keeps the scene's order */
    uint32_t count[GN_DECAL_MAX_SETS] = {0}, start[GN_DECAL_MAX_SETS];
    for (uint32_t i = 0; i < n; i++)
        if (decals[i].texture_set < GN_DECAL_MAX_SETS && gn_decal_visible(&decals[i], f))
            count[decals[i].texture_set]++;
    uint32_t total = 0, nb = 0;
    for (uint32_t s = 0; s < GN_DECAL_MAX_SETS; s++) {
        start[s] = total;
        if (count[s]) batches[nb++] = (gn_decal_batch){s, total, count[s]};
        total += count[s];
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s = decals[i].texture_set;
        if (s < GN_DECAL_MAX_SETS && gn_decal_visible(&decals[i], f)) order[start[s]++] = i;
    }
    *drawn = total;
    return nb;
}
