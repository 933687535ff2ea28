/* A Quake 3 map as a gn_scene: the triangulated faces grouped by texture, one mesh and one
 * static instance a texture, so the world draws in about as many calls as it has
 * materials. Textures come from the archives (TGA or JPEG through stb_image, by the shader
 * name plus an extension); a shader with no image gets a visible checker and one warning.
 * Not yet: lightmaps, PVS culling at render time, brush-model instancing (docs/WORLDS.md). */
#include "scene/bsp_scene.h"
#include "base/bsp.h"
#include "base/error.h"
#include "scene/scene.h"

#include <stb_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GN_BSP_MAX_FILE (256u << 20)   /* the largest map read */
#define GN_BSP_MAX_TEXTURE (32u << 20) /* the largest image file read */

/* A magenta and black checker: impossible to mistake for a real surface. */
static gn_result add_checker(gn_scene *s, uint32_t *out, gn_error *err)
{
    enum { N = 64 };
    static uint8_t px[N * N * 4];
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            bool on = ((x / 8) + (y / 8)) % 2;
            uint8_t *p = &px[(y * N + x) * 4];
            p[0] = on ? 255 : 20, p[1] = 20, p[2] = on ? 255 : 20, p[3] = 255;
        }
    gn_texture_desc d = {.width = N, .height = N, .rgba8 = px, .srgb = true, .label = "missing texture"};
    return gn_scene_add_texture(s, &d, out, err);
}

/* The image of a shader name, or GN_NO_TEXTURE when no file decodes. */
static uint32_t load_texture(gn_scene *s, gn_pak *pak, const char *name)
{
    static const char *ext[] = {".tga", ".jpg", ".png"};
    for (int e = 0; pak && e < 3; e++) {
        char path[128];
        snprintf(path, sizeof path, "%s%s", name, ext[e]);
        uint8_t *data;
        size_t size;
        if (gn_pak_read(pak, path, GN_BSP_MAX_TEXTURE, &data, &size, NULL)) continue;
        int w = 0, h = 0, n = 0;
        uint8_t *px =
            size <= (size_t)INT32_MAX ? stbi_load_from_memory(data, (int)size, &w, &h, &n, 4) : NULL;
        free(data);
        if (!px) continue;
        uint32_t id = GN_NO_TEXTURE;
        gn_texture_desc d = {
            .width = (uint32_t)w, .height = (uint32_t)h, .rgba8 = px, .srgb = true, .label = name};
        if (gn_scene_add_texture(s, &d, &id, NULL)) id = GN_NO_TEXTURE;
        stbi_image_free(px);
        return id;
    }
    return GN_NO_TEXTURE;
}

/* One mesh of every face of one texture. */
static gn_result add_texture_mesh(gn_scene *s, const gn_bsp *b, const gn_bsp_mesh *m, int32_t texture,
                                  uint32_t material, gn_error *err)
{
    uint32_t tri = 0;
    for (uint32_t f = 0; f < m->face_count; f++)
        if (b->faces[f].texture == texture) tri += m->faces[f].index_count;
    if (!tri) return GN_OK;
    uint32_t *map = malloc((size_t)m->vertex_count * sizeof *map);
    float *pos = malloc((size_t)tri * 3 * sizeof *pos), *nrm = malloc((size_t)tri * 3 * sizeof *nrm),
          *uv = malloc((size_t)tri * 2 * sizeof *uv);
    uint32_t *idx = malloc((size_t)tri * sizeof *idx);
    gn_result res = GN_OK;
    if (!map || !pos || !nrm || !uv || !idx)
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", b->name);
    uint32_t nv = 0, ni = 0;
    if (!res) {
        memset(map, 0xff, (size_t)m->vertex_count * sizeof *map);
        for (uint32_t f = 0; f < m->face_count; f++) {
            if (b->faces[f].texture != texture) continue;
            const gn_bsp_face_range *fr = &m->faces[f];
            for (uint32_t k = 0; k < fr->index_count; k++) {
                uint32_t v = m->indices[fr->first_index + k];
                if (map[v] == UINT32_MAX) {
                    const gn_bsp_mesh_vertex *mv = &m->vertices[v];
                    memcpy(&pos[nv * 3], mv->pos, sizeof mv->pos);
                    memcpy(&nrm[nv * 3], mv->normal, sizeof mv->normal);
                    memcpy(&uv[nv * 2], mv->uv, sizeof mv->uv);
                    map[v] = nv++;
                }
                idx[ni++] = map[v];
            }
        }
        gn_mesh_desc md = {.positions = pos,
                           .normals = nrm,
                           .uvs = uv,
                           .vertex_count = nv,
                           .indices = idx,
                           .index_count = ni,
                           .label = b->textures[texture].name};
        uint32_t mesh;
        res = gn_scene_add_mesh(s, &md, &mesh, err);
        gn_instance_desc in = {.mesh = mesh, .material = material};
        if (!res) res = gn_scene_add_instance(s, &in, NULL, err);
    }
    free(map);
    free(pos);
    free(nrm);
    free(uv);
    free(idx);
    return res;
}

gn_result gn_bsp_scene_build(gn_scene *s, const uint8_t *data, size_t size, const char *name, gn_pak *pak,
                             uint32_t patch_level, gn_log_fn log, void *log_user, gn_error *err)
{
    gn_bsp b;
    gn_result res = gn_bsp_parse(data, size, name, NULL, &b, err);
    if (res) return res;
    gn_bsp_mesh m;
    gn_bsp_triangulate_desc td = {.patch_level = patch_level};
    res = gn_bsp_triangulate(&b, &td, &m, err);
    if (res) {
        gn_bsp_free(&b);
        return res;
    }
    uint32_t checker = GN_NO_TEXTURE, missing = 0;
    for (uint32_t t = 0; !res && t < b.texture_count; t++) {
        uint32_t tex = load_texture(s, pak, b.textures[t].name);
        if (tex == GN_NO_TEXTURE) {
            missing++;
            if (checker == GN_NO_TEXTURE) res = add_checker(s, &checker, err);
            tex = checker;
        }
        gn_material_desc md = {.base_color = {1, 1, 1, 1},
                               .roughness = 0.8f,
                               .base_color_texture = tex,
                               .normal_texture = GN_NO_TEXTURE,
                               .textures_set = true,
                               .label = b.textures[t].name};
        uint32_t mat;
        if (!res) res = gn_scene_add_material(s, &md, &mat, err);
        if (!res) res = add_texture_mesh(s, &b, &m, (int32_t)t, mat, err);
    }
    if (!res && missing) {
        char line[256];
        snprintf(line, sizeof line, "%s: %u of %u shaders have no image (drawn as a checker)", name, missing,
                 b.texture_count);
        if (log)
            log(GN_LOG_WARN, line, log_user);
        else
            fprintf(stderr, "gnomon: %s\n", line);
    }
    float eye[3], yaw = 0;
    if (!res && gn_bsp_default_camera(&b, eye, &yaw)) {
        memcpy(s->default_camera, eye, sizeof eye);
        s->default_camera[3] = yaw;
        s->default_camera[4] = 0.0f;
    }
    gn_bsp_mesh_free(&m);
    gn_bsp_free(&b);
    return res;
}
