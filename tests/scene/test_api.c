/* The scene store's public API: validation, computed attributes, dynamic instances. */
#include "scene/scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene_check.h"

/* A unit quad in the XY plane facing +Z, two triangles. */
static const float quad_pos[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
static const float quad_uv[] = {0, 1, 1, 1, 1, 0, 0, 0};
static const uint32_t quad_idx[] = {0, 1, 2, 0, 2, 3};

static int test_add_mesh_rejects(void)
{
    gn_scene *s;
    gn_error e = {0};
    CHECK(gn_scene_create(&s, &e) == GN_OK, "%s", e.message);

    uint32_t bad_idx[] = {0, 1, 7};
    gn_mesh_desc d = {
        .positions = quad_pos, .vertex_count = 4, .indices = bad_idx, .index_count = 3, .label = "crate"};
    gn_result r = gn_scene_add_mesh(s, &d, NULL, &e);
    CHECK(r == GN_ERROR_BAD_DATA, "out-of-range index gave %s", gn_result_name(r));
    CHECK(strstr(e.message, "crate") && strstr(e.message, "out of range"), "message: %s", e.message);

    d.indices = quad_idx, d.index_count = 5;
    r = gn_scene_add_mesh(s, &d, NULL, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT, "5 indices gave %s", gn_result_name(r));
    CHECK(strstr(e.message, "multiple of 3") && strstr(e.message, "crate"), "message: %s", e.message);

    float nan_pos[12];
    memcpy(nan_pos, quad_pos, sizeof nan_pos);
    nan_pos[4] = NAN;
    d.positions = nan_pos, d.index_count = 6;
    r = gn_scene_add_mesh(s, &d, NULL, &e);
    CHECK(r == GN_ERROR_BAD_DATA, "NaN position gave %s", gn_result_name(r));
    CHECK(strstr(e.message, "non-finite") && strstr(e.message, "vertex 1"), "message: %s", e.message);

    d.positions = NULL;
    r = gn_scene_add_mesh(s, &d, NULL, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && e.message[0], "NULL positions gave %s", gn_result_name(r));

    gn_scene_info info;
    gn_scene_get_info(s, &info);
    CHECK(info.meshes == 0 && s->vertex_count == 0 && s->index_count == 0,
          "a rejected mesh left %u meshes, %u vertices", info.meshes, s->vertex_count);
    gn_scene_destroy(s);
    return 0;
}

static int test_computed_attributes(void)
{
    gn_scene *s;
    gn_error e = {0};
    CHECK(gn_scene_create(&s, &e) == GN_OK, "%s", e.message);
    gn_mesh_desc d = {.positions = quad_pos,
                      .uvs = quad_uv,
                      .vertex_count = 4,
                      .indices = quad_idx,
                      .index_count = 6,
                      .label = "quad"};
    uint32_t id;
    CHECK(gn_scene_add_mesh(s, &d, &id, &e) == GN_OK, "%s", e.message);
    for (uint32_t i = 0; i < 4; i++) {
        const gn_vertex *v = &s->vertices[i];
        CHECK(fabsf(v->normal[2] - 1) < 1e-5f, "normal %u = %g %g %g", i, v->normal[0], v->normal[1],
              v->normal[2]);
        CHECK(fabsf(v->tangent[0] - 1) < 1e-5f, "tangent %u = %g %g %g", i, v->tangent[0], v->tangent[1],
              v->tangent[2]);
        /* v grows downwards (uv 0,0 at the top-left), so the glTF bitangent is +Y: w = +1. */
        CHECK(v->tangent[3] == 1.0f, "tangent w %u = %g", i, v->tangent[3]);
    }
    const gn_mesh *m = &s->meshes[id];
    CHECK(fabsf(m->radius - sqrtf(0.5f)) < 1e-5f && fabsf(m->center[0] - 0.5f) < 1e-6f, "sphere %g",
          m->radius);

    /* Without uvs any tangent perpendicular to the normal will do. */
    d.uvs = NULL;
    CHECK(gn_scene_add_mesh(s, &d, &id, &e) == GN_OK, "%s", e.message);
    for (uint32_t i = 4; i < 8; i++) {
        const gn_vertex *v = &s->vertices[i];
        float dot =
            v->normal[0] * v->tangent[0] + v->normal[1] * v->tangent[1] + v->normal[2] * v->tangent[2];
        float len = sqrtf(v->tangent[0] * v->tangent[0] + v->tangent[1] * v->tangent[1] +
                          v->tangent[2] * v->tangent[2]);
        CHECK(fabsf(dot) < 1e-5f && fabsf(len - 1) < 1e-5f, "tangent %u: dot %g len %g", i, dot, len);
    }
    gn_scene_destroy(s);
    return 0;
}

static int test_materials_textures(void)
{
    gn_scene *s;
    gn_error e = {0};
    CHECK(gn_scene_create(&s, &e) == GN_OK, "%s", e.message);
    gn_material_desc md = {.label = "plain"};
    uint32_t id;
    CHECK(gn_scene_add_material(s, &md, &id, &e) == GN_OK, "%s", e.message);
    const gn_material *m = &s->materials[id];
    CHECK(m->base_color[0] == 0.8f && m->base_color[3] == 1.0f && m->roughness == 0.5f, "defaults %g %g",
          m->base_color[0], m->roughness);
    CHECK(m->base_color_texture == GN_NO_TEXTURE && m->normal_texture == GN_NO_TEXTURE &&
              m->lightmap_texture == GN_NO_TEXTURE && m->metallic_roughness_texture == GN_NO_TEXTURE &&
              m->occlusion_texture == GN_NO_TEXTURE && m->emissive_texture == GN_NO_TEXTURE,
          "texture ids 0 are not read as none");
    CHECK(m->alpha_cutoff == 0.5f, "alpha cutoff 0 reads %g, not 0.5", m->alpha_cutoff);
    /* the smoothest roughness the BRDF has is given as it is; so is a cutoff */
    md.roughness = GN_MATERIAL_MIN_ROUGHNESS, md.alpha_mode = GN_ALPHA_MASK, md.alpha_cutoff = 0.25f;
    CHECK(gn_scene_add_material(s, &md, &id, &e) == GN_OK &&
              s->materials[id].roughness == GN_MATERIAL_MIN_ROUGHNESS &&
              s->materials[id].alpha_cutoff == 0.25f,
          "roughness %g cutoff %g", s->materials[id].roughness, s->materials[id].alpha_cutoff);
    md.base_color_texture = 1; /* no texture yet */
    gn_result r = gn_scene_add_material(s, &md, &id, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "plain"), "missing texture: %s %s",
          gn_result_name(r), e.message);

    uint8_t px[16] = {0};
    gn_texture_desc td = {.width = 2, .height = 2, .rgba8 = px, .srgb = true, .label = "tiny"};
    CHECK(gn_scene_add_texture(s, &td, &id, &e) == GN_OK && id == 1, "first texture id %u, want 1", id);
    CHECK(gn_scene_add_texture(s, &td, &id, &e) == GN_OK && id == 2, "second texture id %u, want 2", id);
    md.normal_texture = 2;
    CHECK(gn_scene_add_material(s, &md, &id, &e) == GN_OK, "%s", e.message);
    m = &s->materials[id];
    CHECK(m->base_color_texture == 0 && m->normal_texture == 1 && m->lightmap_texture == GN_NO_TEXTURE,
          "public ids 1, 2 stored as %u, %u (want the store's 0, 1)", m->base_color_texture,
          m->normal_texture);
    md.normal_texture = 3;
    r = gn_scene_add_material(s, &md, &id, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "normal texture 3"), "id past the end: %s %s",
          gn_result_name(r), e.message);
    md.normal_texture = 0, md.lightmap_texture = 1; /* an RGBA8 texture is no lightmap */
    r = gn_scene_add_material(s, &md, &id, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "RGB9E5"), "RGBA8 lightmap: %s %s",
          gn_result_name(r), e.message);
    td.width = GN_TEXTURE_MAX_SIZE + 1;
    r = gn_scene_add_texture(s, &td, &id, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "tiny"), "oversized texture: %s %s",
          gn_result_name(r), e.message);
    gn_scene_destroy(s);
    return 0;
}

static int test_instances_and_animation(void)
{
    gn_scene *s;
    gn_error e = {0};
    CHECK(gn_scene_create(&s, &e) == GN_OK, "%s", e.message);
    gn_mesh_desc d = {
        .positions = quad_pos, .vertex_count = 4, .indices = quad_idx, .index_count = 6, .label = "quad"};
    uint32_t mesh, mat, st, dy;
    gn_material_desc md = {0};
    CHECK(gn_scene_add_mesh(s, &d, &mesh, &e) == GN_OK, "%s", e.message);
    CHECK(gn_scene_add_material(s, &md, &mat, &e) == GN_OK, "%s", e.message);

    gn_instance_desc in = {.mesh = mesh + 1, .material = mat};
    gn_result r = gn_scene_add_instance(s, &in, &st, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "mesh"), "bad mesh id: %s", e.message);
    in.mesh = mesh;
    CHECK(gn_scene_add_instance(s, &in, &st, &e) == GN_OK, "%s", e.message);
    CHECK(s->instances[st].transform[0] == 1 && s->instances[st].transform[15] == 1,
          "zero transform is not identity");
    in.flags = GN_INSTANCE_DYNAMIC;
    in.transform[0] = in.transform[5] = in.transform[10] = 2, in.transform[15] = 1, in.transform[12] = 10;
    CHECK(gn_scene_add_instance(s, &in, &dy, &e) == GN_OK, "%s", e.message);
    const float *sp = s->instances[dy].sphere;
    CHECK(fabsf(sp[0] - 11) < 1e-5f && fabsf(sp[3] - 2 * sqrtf(0.5f)) < 1e-5f, "world sphere %g %g", sp[0],
          sp[3]);

    float t[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1};
    /* moving a static instance is an edit: logged with its bounds before and after */
    float was[4];
    memcpy(was, s->instances[st].sphere, sizeof was);
    CHECK(gn_scene_set_transform(s, st, t, &e) == GN_OK && s->edit_count == 1, "%s", e.message);
    const struct gn_scene_edit *ed = &s->edits[0];
    CHECK(ed->instance == st && memcmp(ed->before, was, sizeof was) == 0 && ed->after[0] == was[0] + 5 &&
              ed->after[3] == was[3],
          "edit of a static move: instance %u, before x %g, after x %g", ed->instance, ed->before[0],
          ed->after[0]);
    uint32_t gen = s->dynamic_generation;
    CHECK(gn_scene_set_transform(s, dy, t, &e) == GN_OK && s->dynamic_generation != gen, "%s", e.message);

    gn_orbit o = {.instance = dy, .center = {0, 3, 0}, .radius = 10, .speed = 1, .phase = 0, .bob = 0};
    CHECK(gn_scene_add_orbit(s, &o, &e) == GN_OK, "%s", e.message);
    o.instance = st;
    CHECK(gn_scene_add_orbit(s, &o, &e) == GN_ERROR_INVALID_ARGUMENT, "orbit on a static instance accepted");
    float before[16];
    memcpy(before, s->instances[st].transform, sizeof before);
    gn_scene_animate(s, 0.5);
    const float *m = s->instances[dy].transform;
    CHECK(fabsf(m[12] - 10 * cosf(0.5f)) < 1e-4f && fabsf(m[14] - 10 * sinf(0.5f)) < 1e-4f &&
              fabsf(m[13] - 3) < 1e-5f,
          "orbit position %g %g %g", m[12], m[13], m[14]);
    /* Facing along the path: local +X is the velocity direction (-sin, 0, cos). */
    CHECK(fabsf(m[0] + sinf(0.5f)) < 1e-4f && fabsf(m[2] - cosf(0.5f)) < 1e-4f, "facing %g %g", m[0], m[2]);
    CHECK(memcmp(before, s->instances[st].transform, sizeof before) == 0, "animate moved a static instance");
    gn_scene_animate(s, 1.5);
    CHECK(fabsf(s->instances[dy].transform[12] - 10 * cosf(1.5f)) < 1e-4f, "second step did not move");

    /* removal: logged with no bounds after; the id stays taken and cannot be moved or removed again */
    CHECK(gn_scene_remove_instance(s, st, &e) == GN_OK && s->edit_count == 2 && s->edits[1].after[3] == 0.0f,
          "%s", e.message);
    CHECK(gn_scene_remove_instance(s, st, &e) == GN_ERROR_INVALID_ARGUMENT, "removed twice");
    CHECK(gn_scene_set_transform(s, st, t, &e) == GN_ERROR_INVALID_ARGUMENT, "a removed instance moved");
    CHECK(gn_scene_remove_instance(s, 99, &e) == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "99"),
          "unknown id: %s", e.message);

    gn_scene_info info;
    gn_scene_get_info(s, &info);
    CHECK(info.instances == 2 && info.dynamic_instances == 1 && info.triangles == 4 &&
              info.unique_triangles == 2,
          "info %u %u %llu %llu", info.instances, info.dynamic_instances, (unsigned long long)info.triangles,
          (unsigned long long)info.unique_triangles);
    gn_scene_destroy(s);
    return 0;
}

static int test_builtin_names(void)
{
    gn_scene *s = (gn_scene *)1;
    gn_error e = {0};
    gn_builtin_desc d = {.name = "castle"};
    gn_result r = gn_scene_create_builtin(&d, &s, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && s == NULL, "unknown scene gave %s", gn_result_name(r));
    CHECK(strcmp(e.message, "unknown built-in scene 'castle' (known: town)") == 0, "message: %s", e.message);
    CHECK(strcmp(gn_result_name(GN_ERROR_DEVICE_LOST), "GN_ERROR_DEVICE_LOST") == 0, "result name");
    return 0;
}

/* A scene made after another was destroyed, often at the same address, is another scene to
 * the renderer's caches: they compare uids (gpu_alpha's four scenes once shared a stale VSM). */
static int test_scene_identity(void)
{
    gn_scene *a = NULL, *b = NULL;
    gn_error e = {0};
    CHECK(gn_scene_create(&a, &e) == GN_OK, "%s", e.message);
    uint64_t first = a->uid;
    gn_scene_destroy(a);
    CHECK(gn_scene_create(&b, &e) == GN_OK, "%s", e.message);
    CHECK(b->uid != first, "a new scene has the destroyed one's identity %llu", (unsigned long long)first);
    gn_scene_destroy(b);
    return 0;
}

/* Huge bounds (positions near 3e38, a node scaled by 1e38) are refused at the door: they would
 * reach the shadow decisions as inf and NaN. */
static int test_huge_bounds_refused(void)
{
    gn_scene *s;
    gn_error e = {0};
    CHECK(gn_scene_create(&s, &e) == GN_OK, "%s", e.message);
    float far_pos[12];
    memcpy(far_pos, quad_pos, sizeof far_pos);
    far_pos[6] = 3e38f;
    gn_mesh_desc d = {
        .positions = far_pos, .vertex_count = 4, .indices = quad_idx, .index_count = 6, .label = "far"};
    gn_result r = gn_scene_add_mesh(s, &d, NULL, &e);
    CHECK(r == GN_ERROR_BAD_DATA, "a 3e38 position gave %s", gn_result_name(r));
    CHECK(strstr(e.message, "far") && strstr(e.message, "vertex 2") && strstr(e.message, "beyond"),
          "message: %s", e.message);
    far_pos[6] = -2e7f;
    r = gn_scene_add_mesh(s, &d, NULL, &e);
    CHECK(r == GN_ERROR_BAD_DATA, "a position at -2e7 m gave %s", gn_result_name(r));
    far_pos[6] = 9e6f; /* inside the cap */
    uint32_t mesh, mat, id;
    CHECK(gn_scene_add_mesh(s, &d, &mesh, &e) == GN_OK, "%s", e.message);
    gn_material_desc md = {0};
    CHECK(gn_scene_add_material(s, &md, &mat, &e) == GN_OK, "%s", e.message);

    gn_instance_desc in = {.mesh = mesh, .material = mat};
    in.transform[0] = in.transform[5] = in.transform[10] = 1e38f, in.transform[15] = 1;
    r = gn_scene_add_instance(s, &in, &id, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "beyond"), "scale 1e38 gave %s: %s",
          gn_result_name(r), e.message);
    in.transform[0] = in.transform[5] = in.transform[10] = 1, in.transform[12] = NAN;
    r = gn_scene_add_instance(s, &in, &id, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "not finite"), "a NaN translation gave %s: %s",
          gn_result_name(r), e.message);
    in.transform[12] = 0;
    CHECK(gn_scene_add_instance(s, &in, &id, &e) == GN_OK, "%s", e.message);
    float t[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1e9f, 0, 0, 1};
    r = gn_scene_set_transform(s, id, t, &e);
    CHECK(r == GN_ERROR_INVALID_ARGUMENT && strstr(e.message, "beyond"), "a move to 1e9 m gave %s: %s",
          gn_result_name(r), e.message);
    CHECK(s->instances[id].sphere[0] < 1e7f, "a refused move changed the bounds: x %g",
          s->instances[id].sphere[0]);
    gn_scene_info info;
    gn_scene_get_info(s, &info);
    CHECK(info.meshes == 1 && info.instances == 1, "%u meshes, %u instances after the refusals", info.meshes,
          info.instances);
    gn_scene_destroy(s);
    return 0;
}

int main(void)
{
    int fails = test_add_mesh_rejects() + test_computed_attributes() + test_materials_textures() +
                test_instances_and_animation() + test_builtin_names() + test_scene_identity() +
                test_huge_bounds_refused();
    if (!fails) printf("scene_api: ok\n");
    return fails ? 1 : 0;
}
