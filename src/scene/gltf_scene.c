/* A glTF file as part of a scene (gltf_scene.h). */
#include "scene/gltf_scene.h"

#include "base/gmath.h"

#include <math.h>
#include <string.h>

/* The file's caps never let through what the scene would refuse for being too large. */
_Static_assert(GN_GLTF_MAX_MESHES <= GN_SCENE_MAX_MESHES, "glTF mesh cap above the scene's");
_Static_assert(GN_GLTF_MAX_MESH_INDICES <= GN_SCENE_MAX_INDICES, "glTF index cap above the scene's");
_Static_assert(GN_GLTF_MAX_MATERIALS <= GN_SCENE_MAX_MATERIALS, "glTF material cap above the scene's");
_Static_assert(GN_GLTF_MAX_TEXTURE_SIDE <= GN_TEXTURE_MAX_SIZE, "glTF images fitted above the scene's size");
_Static_assert(GN_GLTF_MAX_LIGHTS <= GN_MAX_LIGHTS, "glTF light cap above the scene's");

#define GN_FRAME_INTERIOR_MIN_SIDE 8.0f  /* metres: smaller bounds are an object, however flat */
#define GN_FRAME_INTERIOR_MAX_RATIO 0.6f /* interiors: height at most this times the longest side */
#define GN_FRAME_EYE_HEIGHT 1.7f         /* metres above the floor (the bounds' bottom) */
#define GN_FRAME_FOV_Y 60.0f             /* the renderer's default vertical field of view */

void gn_view_frame_bounds(const float lo[3], const float hi[3], float out[5])
{
    float ext[3], ctr[3], r2 = 0;
    for (int k = 0; k < 3; k++) {
        ext[k] = hi[k] - lo[k], ctr[k] = 0.5f * (lo[k] + hi[k]);
        r2 += 0.25f * ext[k] * ext[k];
    }
    float side = fmaxf(ext[0], ext[2]);
    if (side >= GN_FRAME_INTERIOR_MIN_SIDE && ext[1] <= GN_FRAME_INTERIOR_MAX_RATIO * side) {
        /* inside, at eye height (half the height in a low space), looking down the long axis:
         * towards -X (yaw 90) or -Z (yaw 0), level */
        out[0] = ctr[0], out[1] = lo[1] + fminf(GN_FRAME_EYE_HEIGHT, 0.5f * ext[1]), out[2] = ctr[2];
        out[3] = ext[0] >= ext[2] ? 90.0f : 0.0f, out[4] = 0.0f;
        return;
    }
    /* outside, from the +Z side ~17 degrees up, where the bounding sphere fits the field */
    float radius = fmaxf(sqrtf(r2), 0.05f);
    float dist = radius / sinf(0.5f * GN_FRAME_FOV_Y * GN_PI / 180.0f) * 1.05f;
    const float dir[3] = {0.0f, 0.3f, 0.954f}; /* unit */
    float look[3];
    for (int k = 0; k < 3; k++) out[k] = ctr[k] + dir[k] * dist, look[k] = -dir[k];
    gn_view_yaw_pitch(look, &out[3], &out[4]);
}

/* The world bounds of instances first.. of s; false when there are none. */
static bool gn_gltf_bounds(const gn_scene *s, uint32_t first, float lo[3], float hi[3])
{
    for (int k = 0; k < 3; k++) lo[k] = INFINITY, hi[k] = -INFINITY;
    for (uint32_t i = first; i < s->instance_count; i++) {
        const gn_instance *in = &s->instances[i];
        const gn_mesh *m = &s->meshes[in->mesh];
        for (int corner = 0; corner < 8; corner++) {
            float p[3] = {corner & 1 ? m->aabb_max[0] : m->aabb_min[0],
                          corner & 2 ? m->aabb_max[1] : m->aabb_min[1],
                          corner & 4 ? m->aabb_max[2] : m->aabb_min[2]};
            float w[3];
            gn_mat4_point(in->transform, p, w);
            for (int k = 0; k < 3; k++) lo[k] = fminf(lo[k], w[k]), hi[k] = fmaxf(hi[k], w[k]);
        }
    }
    return lo[0] <= hi[0];
}

gn_result gn_gltf_scene_load(gn_scene *s, const char *path, const gn_gltf_desc *d, gn_error *err)
{
    if (!s) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_gltf_scene_load: NULL scene");
    gn_scene_mark mark = gn_scene_mark_now(s);
    /* the mark leaves lights alone: a failed load drops those it added here */
    uint32_t lights = s->light_count, motions = s->light_motion_count;
    gn_gltf_stats st;
    gn_gltf_desc gd = d ? *d : (gn_gltf_desc){0};
    gd.stats = &st; /* the camera comes back in the stats */
    gn_result r = gn_gltf_load(s, path, &gd, err);
    if (d && d->stats) *d->stats = st;
    if (r != GN_OK) {
        gn_scene_rollback(s, &mark);
        if (s->light_count != lights) gn_scene_truncate_lights(s, lights, motions);
        return r;
    }
    float lo[3], hi[3];
    if (st.camera.found) {
        memcpy(s->default_camera, st.camera.position, sizeof st.camera.position);
        s->default_camera[3] = st.camera.yaw, s->default_camera[4] = st.camera.pitch;
        s->default_fov_y = st.camera.fov_y;
    } else if (gn_gltf_bounds(s, mark.instances, lo, hi)) {
        gn_view_frame_bounds(lo, hi, s->default_camera);
        s->default_fov_y = 0.0f;
    }
    return GN_OK;
}
