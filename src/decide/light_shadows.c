#include "decide/light_shadows.h"

#include "decide/camera.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef gn_light_shadow_candidate candidate;

static int by_distance(const void *a, const void *b)
{
    const candidate *x = a, *y = b;
    if (x->distance != y->distance) return x->distance < y->distance ? -1 : 1;
    return x->light < y->light ? -1 : x->light > y->light;
}

uint32_t gn_light_shadows_choose(const gn_light_desc *lights, uint32_t count, float night_level,
                                 const float camera_pos[3], const gn_frustum *camera, uint32_t max_lights,
                                 uint32_t max_layers, gn_light_shadow *out, uint32_t *candidates,
                                 gn_light_shadow_candidate *scratch)
{
    *candidates = 0;
    candidate *c = scratch;
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; i++) {
        const gn_light_desc *l = &lights[i];
        if (!l->cast_shadows || (l->night && !(night_level > 0.0f))) continue;
        if (camera && !gn_frustum_test_sphere(camera, l->position, l->radius)) continue;
        float d[3] = {l->position[0] - camera_pos[0], l->position[1] - camera_pos[1],
                      l->position[2] - camera_pos[2]};
        c[n++] = (candidate){sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), i};
    }
    *candidates = n;
    if (n) qsort(c, n, sizeof *c, by_distance); /* c may be NULL when there are no lights */
    uint32_t picked = 0, layers = 0;
    for (uint32_t k = 0; k < n && picked < max_lights; k++) {
        uint32_t need = lights[c[k].light].type == GN_LIGHT_SPOT ? 1u : 6u;
        if (layers + need > max_layers) continue; /* a spot further away may still fit */
        out[picked++] = (gn_light_shadow){c[k].light, layers, need};
        layers += need;
    }
    return picked;
}

/* Perspective with standard depth (0 at near, 1 at far), Vulkan clip with y flipped like
 * gn_camera_projection, square aspect. */
static void perspective(float fov_y, float near_plane, float far_plane, float out[16])
{
    memset(out, 0, 16 * sizeof *out);
    float f = 1.0f / tanf(0.5f * fov_y);
    out[0] = f;
    out[5] = -f;
    out[10] = far_plane / (near_plane - far_plane);
    out[11] = -1.0f;
    out[14] = near_plane * far_plane / (near_plane - far_plane);
}

/* World -> view looking from eye along dir with the given up (not parallel to dir). */
static void look(const float eye[3], const float dir[3], const float up[3], float out[16])
{
    float f[3] = {dir[0], dir[1], dir[2]};
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++) f[i] /= fl;
    float s[3] = {f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2], f[0] * up[1] - f[1] * up[0]};
    float sl = sqrtf(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    for (int i = 0; i < 3; i++) s[i] /= sl;
    float u[3] = {s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]};
    memset(out, 0, 16 * sizeof *out);
    for (int i = 0; i < 3; i++) {
        out[i * 4 + 0] = s[i];
        out[i * 4 + 1] = u[i];
        out[i * 4 + 2] = -f[i];
    }
    out[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    out[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    out[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
    out[15] = 1.0f;
}

void gn_light_shadow_matrix(const gn_light_desc *l, uint32_t face, uint32_t resolution, float out[16])
{
    /* widen the field of view by two texels on each side so 2x2 filtering at the edge of a
     * face or cone stays inside the layer */
    float margin = 1.0f + 4.0f / (float)(resolution ? resolution : 512);
    float fov, dir[3], up[3];
    if (l->type == GN_LIGHT_SPOT) {
        float outer = l->outer_angle > 0 ? l->outer_angle : 30.0f;
        if (outer > 89.0f) outer = 89.0f;
        fov = 2.0f * atanf(tanf(outer * 0.017453293f) * margin);
        memcpy(dir, l->direction, sizeof dir);
        if (dir[0] == 0 && dir[1] == 0 && dir[2] == 0) dir[1] = -1.0f;
        /* any up not parallel to the axis: the layer is sampled with this same matrix */
        bool vertical = fabsf(dir[1]) > 0.9f * sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
        up[0] = 0, up[1] = vertical ? 0.0f : 1.0f, up[2] = vertical ? 1.0f : 0.0f;
    } else {
        static const float dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        fov = 2.0f * atanf(margin);
        uint32_t k = face < 6 ? face : 0;
        memcpy(dir, dirs[k], sizeof dir);
        up[0] = 0, up[1] = k == 2 || k == 3 ? 0.0f : 1.0f, up[2] = k == 2 || k == 3 ? 1.0f : 0.0f;
    }
    float view[16], proj[16];
    look(l->position, dir, up, view);
    perspective(fov, GN_LIGHT_SHADOW_NEAR,
                l->radius > GN_LIGHT_SHADOW_NEAR * 2 ? l->radius : GN_LIGHT_SHADOW_NEAR * 2, proj);
    gn_mat4_mul(proj, view, out);
}

uint32_t gn_light_shadow_face(const float d[3])
{
    float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]);
    if (ax >= ay && ax >= az) return d[0] >= 0 ? 0u : 1u;
    if (ay >= az) return d[1] >= 0 ? 2u : 3u;
    return d[2] >= 0 ? 4u : 5u;
}
