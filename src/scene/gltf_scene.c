/* A glTF file as part of a scene (gltf_scene.h). */
#include "scene/gltf_scene.h"

#include "base/gmath.h"

#include <math.h>

/* The file's caps never let through what the scene would refuse for being too large. */
_Static_assert(GN_GLTF_MAX_MESHES <= GN_SCENE_MAX_MESHES, "glTF mesh cap above the scene's");
_Static_assert(GN_GLTF_MAX_MESH_INDICES <= GN_SCENE_MAX_INDICES, "glTF index cap above the scene's");
_Static_assert(GN_GLTF_MAX_MATERIALS <= GN_SCENE_MAX_MATERIALS, "glTF material cap above the scene's");
_Static_assert(GN_GLTF_MAX_TEXTURE_SIDE <= GN_TEXTURE_MAX_SIZE, "glTF images fitted above the scene's size");

/* From the +Z side, raised ~17 degrees, far enough that the bounds' sphere fits the default
 * 60-degree vertical field of view. */
static void gn_gltf_camera(gn_scene *s, uint32_t first_instance)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = first_instance; i < s->instance_count; i++) {
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
    if (!(lo[0] <= hi[0])) return; /* nothing instanced: keep the scene's camera */
    float ctr[3], r2 = 0;
    for (int k = 0; k < 3; k++) {
        ctr[k] = 0.5f * (lo[k] + hi[k]);
        r2 += 0.25f * (hi[k] - lo[k]) * (hi[k] - lo[k]);
    }
    float radius = fmaxf(sqrtf(r2), 0.05f);
    float dist = radius / sinf(30.0f * 3.14159265f / 180.0f) * 1.05f;
    const float dir[3] = {0.0f, 0.3f, 0.954f}; /* unit: ~17 degrees above the horizon */
    for (int k = 0; k < 3; k++) s->default_camera[k] = ctr[k] + dir[k] * dist;
    s->default_camera[3] = 0.0f; /* yaw 0 looks down -Z, towards the centre */
    s->default_camera[4] = -atan2f(dir[1], dir[2]) * 180.0f / 3.14159265f;
}

gn_result gn_gltf_scene_load(gn_scene *s, const char *path, const gn_gltf_desc *d, gn_error *err)
{
    if (!s) return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "gn_gltf_scene_load: NULL scene");
    gn_scene_mark mark = gn_scene_mark_now(s);
    gn_result r = gn_gltf_load(s, path, d, err);
    if (r != GN_OK) {
        gn_scene_rollback(s, &mark);
        return r;
    }
    gn_gltf_camera(s, mark.instances);
    return GN_OK;
}
