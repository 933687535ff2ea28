/* glTF material extensions read from the JSON (src/formats/gltf_ext.c): the hand-written
 * tests/scene/data/specular.gltf holds a gold metal with KHR_materials_specular's factor 0 and
 * ior 1, a tinted dielectric (specular 0.5, colour (1, .5, .25), ior 2) whose five maps each
 * carry a KHR_texture_transform or a texCoord, and a plain material. The loaded materials must
 * hold the F0 and F90 and the matrices worked by hand below; its checker image is missing (a
 * warning), which leaves the materials' transforms as the file says. The glaze's
 * KHR_materials_specular textures name specular_half.png (read twice: linear for specularTexture,
 * sRGB for specularColorTexture); the gold's specularColorTexture names texture 7 of 2 (a warning,
 * no texture). No device needed. */
#include "scene/gltf_scene.h"
#include "scene/scene.h"
#include "scene_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef GN_SPECULAR_GLTF
#define GN_SPECULAR_GLTF "tests/scene/data/specular.gltf"
#endif
#define GN_EPS 1e-6f /* float rounding of the file's values; CHECK returns 1 on failure */

static int bad_index_warnings, not_read_warnings; /* counted by log_line */

static void log_line(gn_log_level level, const char *msg, void *user)
{
    (void)level, (void)user;
    printf("  log: %s\n", msg);
    if (strstr(msg, "specularColorTexture not read (its texture index is not one of the file's textures)"))
        bad_index_warnings++;
    if (strstr(msg, "textures are not read")) not_read_warnings++;
}

static bool near(const float *a, const float *want, int n)
{
    for (int k = 0; k < n; k++)
        if (!(fabsf(a[k] - want[k]) < GN_EPS)) return false;
    return true;
}

static const gn_material *by_colour(const gn_scene *s, float r)
{
    for (uint32_t i = 0; i < s->material_count; i++)
        if (fabsf(s->materials[i].base_color[0] - r) < GN_EPS) return &s->materials[i];
    return NULL;
}

int main(void)
{
    gn_scene *s = NULL;
    gn_error err = {0};
    gn_gltf_stats st;
    CHECK(gn_scene_create(&s, &err) == GN_OK, "scene: %s", err.message);
    gn_gltf_desc d = {.log = log_line, .stats = &st};
    gn_result r = gn_gltf_scene_load(s, GN_SPECULAR_GLTF, &d, &err);
    CHECK(r == GN_OK, "load: %s", err.message);
    CHECK(st.materials == 3 && st.specular == 2 && st.uv_transformed == 1,
          "%u materials, %u with specular or ior, %u with uv transforms; want 3, 2, 1", st.materials,
          st.specular, st.uv_transformed);
    const gn_material *gold = by_colour(s, 1.0f), *glaze = by_colour(s, 0.2f), *plain = by_colour(s, 0.6f);
    CHECK(gold && glaze && plain, "materials by base colour: %p %p %p", (const void *)gold,
          (const void *)glaze, (const void *)plain);
    /* gold: specular 0 and ior 1 switch the dielectric off (F0 0, F90 0); metallic 1 keeps gold */
    CHECK(near(gold->specular, (const float[4]){0, 0, 0, 0}, 4), "gold: (%g %g %g %g)", gold->specular[0],
          gold->specular[1], gold->specular[2], gold->specular[3]);
    CHECK(gold->metallic == 1.0f, "gold metallic %g", gold->metallic);
    /* glaze: ((2 - 1) / (2 + 1))^2 = 1/9 times (1, .5, .25) times 0.5; F90 0.5 */
    CHECK(near(glaze->specular, (const float[4]){1.0f / 18, 1.0f / 36, 1.0f / 72, 0.5f}, 4),
          "glaze: (%g %g %g %g)", glaze->specular[0], glaze->specular[1], glaze->specular[2],
          glaze->specular[3]);
    /* plain: glTF's defaults, F0 0.04 and F90 1, and no transforms */
    CHECK(near(plain->specular, (const float[4]){0.04f, 0.04f, 0.04f, 1}, 4), "plain: (%g %g %g %g)",
          plain->specular[0], plain->specular[1], plain->specular[2], plain->specular[3]);
    for (int k = 0; k < GN_MATERIAL_MAPS; k++)
        CHECK(near(plain->uv_transform[k], (const float[6]){1, 0, 0, 0, 1, 0}, 6) && plain->uv_set[k] == 0,
              "plain: map %d transformed", k);
    /* base colour: offset (.25, .5), a quarter turn, scale (2, 3): T R S = rows (0, 3, .25), (-2, 0, .5) */
    CHECK(
        near(glaze->uv_transform[GN_MATERIAL_MAP_BASE_COLOR], (const float[6]){0, 3, 0.25f, -2, 0, 0.5f}, 6),
        "base: (%g %g %g; %g %g %g)", glaze->uv_transform[0][0], glaze->uv_transform[0][1],
        glaze->uv_transform[0][2], glaze->uv_transform[0][3], glaze->uv_transform[0][4],
        glaze->uv_transform[0][5]);
    CHECK(glaze->uv_set[GN_MATERIAL_MAP_BASE_COLOR] == 0, "base: uv set %u", glaze->uv_set[0]);
    /* normal: scale 4, the extension's texCoord 1 */
    CHECK(near(glaze->uv_transform[GN_MATERIAL_MAP_NORMAL], (const float[6]){4, 0, 0, 0, 4, 0}, 6) &&
              glaze->uv_set[GN_MATERIAL_MAP_NORMAL] == 1,
          "normal: scale 4 from set 1 (set %u)", glaze->uv_set[GN_MATERIAL_MAP_NORMAL]);
    /* metallic-roughness: the textureInfo's texCoord 1, no transform */
    CHECK(near(glaze->uv_transform[GN_MATERIAL_MAP_METALLIC_ROUGHNESS], (const float[6]){1, 0, 0, 0, 1, 0},
               6) &&
              glaze->uv_set[GN_MATERIAL_MAP_METALLIC_ROUGHNESS] == 1,
          "metallic-roughness: identity from set 1");
    /* occlusion: the extension's texCoord 0 overrides the textureInfo's 1 */
    CHECK(near(glaze->uv_transform[GN_MATERIAL_MAP_OCCLUSION], (const float[6]){1, 0, -1, 0, 1, 0}, 6) &&
              glaze->uv_set[GN_MATERIAL_MAP_OCCLUSION] == 0,
          "occlusion: offset (-1, 0) from set 0 (set %u)", glaze->uv_set[GN_MATERIAL_MAP_OCCLUSION]);
    /* emissive: rotation 0.5 rad: rows (cos, sin, 0), (-sin, cos, 0) */
    float c = cosf(0.5f), sn = sinf(0.5f);
    CHECK(near(glaze->uv_transform[GN_MATERIAL_MAP_EMISSIVE], (const float[6]){c, sn, 0, -sn, c, 0}, 6),
          "emissive: rotation 0.5");
    /* KHR_materials_specular's textures: the glaze's both read, each in its colour space; the
     * gold's bad index warned about once and left out; the old "not read" warning gone */
    CHECK(st.specular_mapped == 2, "%u specular maps read; want 2", st.specular_mapped);
    CHECK(glaze->specular_texture != GN_NO_TEXTURE && glaze->specular_color_texture != GN_NO_TEXTURE &&
              glaze->specular_texture != glaze->specular_color_texture &&
              glaze->specular_texture < s->texture_count && glaze->specular_color_texture < s->texture_count,
          "glaze: specular textures %u, %u of %u", glaze->specular_texture, glaze->specular_color_texture,
          s->texture_count);
    CHECK(!s->textures[glaze->specular_texture].srgb && s->textures[glaze->specular_color_texture].srgb,
          "glaze: specular texture sRGB %d, specular colour texture sRGB %d (want 0, 1)",
          s->textures[glaze->specular_texture].srgb, s->textures[glaze->specular_color_texture].srgb);
    CHECK(gold->specular_texture == GN_NO_TEXTURE && gold->specular_color_texture == GN_NO_TEXTURE &&
              plain->specular_texture == GN_NO_TEXTURE,
          "gold and plain: no specular textures");
    CHECK(bad_index_warnings == 1 && not_read_warnings == 0,
          "%d bad-index warnings (want 1), %d 'not read' (0)", bad_index_warnings, not_read_warnings);
    /* TEXCOORD_1 reached the vertices' second set (uv2), v as glTF has it */
    const gn_mesh *mesh = &s->meshes[0];
    const gn_vertex *v = &s->vertices[mesh->first_vertex];
    CHECK(mesh->vertex_count == 3 && near(v[1].uv2, (const float[2]){1, 0.5f}, 2) &&
              near(v[2].uv2, (const float[2]){0.5f, 1}, 2),
          "uv2 of vertex 1 (%g, %g), 2 (%g, %g)", v[1].uv2[0], v[1].uv2[1], v[2].uv2[0], v[2].uv2[1]);
    gn_scene_destroy(s);
    printf("test_gltf_ext: ok\n");
    return 0;
}
