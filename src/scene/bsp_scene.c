/* A Quake 3 map as a gn_scene: a mesh and a static instance a face, so the frame can cull
 * faces by PVS and frustum (the map stays with the scene as a gn_world), while the draw list
 * still draws every face of a texture in one indirect call (faces of one material are one
 * batch). Textures come from the archives (TGA, JPEG or PNG through stb_image, by the shader
 * name plus an extension); a shader with no image gets a visible checker and one warning.
 * Lightmaps go into one RGB9E5 atlas (scene/bsp_atlas.c) that the faces' second uv set
 * addresses; faces without one are lit by the map's light grid (scene/world.c). */
#include "scene/bsp_scene.h"
#include "base/alloc.h"
#include "base/error.h"
#include "decide/q3_material.h"
#include "formats/bsp.h"
#include "formats/bsp_light.h"
#include "formats/q3shader.h"
#include "scene/bsp_atlas.h"
#include "scene/bsp_fog.h"
#include "scene/md3_model.h"
#include "scene/scene.h"
#include "scene/world.h"

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

/* Caps on a map's images, read from each image's header (stbi_info) before it is decoded, so
 * that a small archive cannot make a large allocation: a PNG of zeros compresses about 1000:1,
 * so 256 KB can claim 16384^2 pixels (1 GiB as RGBA). Quake 3's textures are at most 1024-2048
 * a side; 4096 leaves room for upscaled texture packs. Larger images are skipped (a checker and
 * a warning). A map's decoded images together are capped at 1 GiB, a fixed cap rather than one
 * that scales with the map (the heaviest of OpenArena's pak1-maps decodes to 27.6 MiB): beyond
 * it the load fails. The cap counts what each image's header claims, charged before it decodes. */
#define GN_BSP_MAX_TEXTURE_SIDE 4096u
#define GN_BSP_MAX_TEXTURE_PIXELS (4096u * 4096u) /* 16 Mi pixels: 64 MiB as RGBA */
#define GN_BSP_MAX_DECODED (1ull << 30)           /* bytes as RGBA, all of one map's images */

/* One image file (its resolved name in the archives) and its texture id, 0 when it did not
 * decode or was refused: each file is read and decoded at most once a map load. */
typedef struct image_slot {
    char *path;
    uint32_t id;
} image_slot;

typedef struct image_cache {
    image_slot *slots;
    uint32_t mask;    /* slots - 1, a power of two over twice the most files looked up */
    uint64_t decoded; /* bytes (RGBA) the decoded images' headers claimed */
    uint32_t refused; /* images over the per-image cap */
    gn_pak *pak;
    const char *map;
    const gn_load_desc *desc;
} image_cache;

/* A warning line through the caller's log, else stderr. */
static void warn(const gn_load_desc *d, const char *line)
{
    if (d->log)
        d->log(GN_LOG_WARN, line, d->log_user);
    else
        fprintf(stderr, "gnomon: %s\n", line);
}

/* The slot of a file name: its own, or the empty one where it goes (FNV-1a, linear probing). */
static image_slot *image_slot_of(image_cache *c, const char *path)
{
    uint32_t h = 2166136261u;
    for (const char *p = path; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    for (;; h++) {
        image_slot *slot = &c->slots[h & c->mask];
        if (!slot->path || strcmp(slot->path, path) == 0) return slot;
    }
}

/* Reads and decodes one file after checking its header against the caps; *id 0 when it does
 * not decode or is refused. Fails only when the map's images go over GN_BSP_MAX_DECODED or
 * when out of memory (which must not pass for a missing image). */
static gn_result decode_image(image_cache *c, gn_scene *s, const char *path, const char *label, uint32_t *id,
                              gn_error *err)
{
    *id = 0;
    uint8_t *data;
    size_t size;
    gn_error read_err = {0};
    gn_result res = gn_pak_read(c->pak, path, GN_BSP_MAX_TEXTURE, &data, &size, &read_err);
    if (res == GN_ERROR_OUT_OF_MEMORY) return gn_fail(err, res, "%s: %s", c->map, read_err.message);
    if (res) {
        /* a corrupted archive (CRC), an image over the file cap: not used, and said so */
        char line[sizeof read_err.message + 32];
        snprintf(line, sizeof line, "%s; skipped (drawn as a checker)", read_err.message);
        warn(c->desc, line);
        return GN_OK;
    }
    int w = 0, h = 0, n = 0;
    bool known = size <= (size_t)INT32_MAX && stbi_info_from_memory(data, (int)size, &w, &h, &n);
    uint64_t pixels = (uint64_t)w * (uint64_t)h;
    if (!known) {
        /* not an image stb_image reads: it would not decode either */
    } else if ((uint32_t)w > GN_BSP_MAX_TEXTURE_SIDE || (uint32_t)h > GN_BSP_MAX_TEXTURE_SIDE ||
               pixels > GN_BSP_MAX_TEXTURE_PIXELS) {
        c->refused++;
        char line[512];
        snprintf(line, sizeof line,
                 "%s: %s is %dx%d, over the map texture cap of %u a side; skipped (drawn as a checker)",
                 gn_pak_origin(c->pak, path), path, w, h, GN_BSP_MAX_TEXTURE_SIDE);
        warn(c->desc, line);
    } else if (c->decoded + pixels * 4 > GN_BSP_MAX_DECODED) {
        res = gn_fail(err, GN_ERROR_BAD_DATA,
                      "%s: the map's images decode to over %llu MiB (the cap): %llu MiB with %s (%dx%d)",
                      c->map, GN_BSP_MAX_DECODED >> 20, (unsigned long long)((c->decoded + pixels * 4) >> 20),
                      path, w, h);
    } else {
        c->decoded += pixels * 4;
        uint8_t *px = stbi_load_from_memory(data, (int)size, &w, &h, &n, 4);
        gn_texture_desc d = {
            .width = (uint32_t)w, .height = (uint32_t)h, .rgba8 = px, .srgb = true, .label = label};
        /* stb_image's own allocations (libstb's, not gnomon's hook) report "outofmem" */
        const char *why = px ? NULL : stbi_failure_reason();
        if (why && strcmp(why, "outofmem") == 0)
            res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory decoding %s (%dx%d)", c->map, path,
                          w, h);
        gn_error add_err = {0};
        gn_result added = px ? gn_scene_add_texture(s, &d, id, &add_err) : GN_OK;
        if (added == GN_ERROR_OUT_OF_MEMORY) res = gn_fail(err, added, "%s: %s", c->map, add_err.message);
        if (added) *id = 0;
        stbi_image_free(px);
    }
    free(data);
    return res;
}

/* The image of a shader name (a public texture id, shared by every shader naming the same
 * file), or 0 when no file decodes. */
static gn_result load_texture(image_cache *c, gn_scene *s, const char *name, uint32_t *id, gn_error *err)
{
    static const char *ext[] = {".tga", ".jpg", ".png"};
    *id = 0;
    gn_result res = GN_OK;
    for (int e = 0; !res && !*id && c->pak && e < 3; e++) {
        char path[128];
        snprintf(path, sizeof path, "%s%s", name, ext[e]);
        if (!gn_pak_exists(c->pak, path)) continue;
        image_slot *slot = image_slot_of(c, path);
        if (!slot->path) {
            if (!(slot->path = gn_malloc(strlen(path) + 1)))
                return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", c->map);
            strcpy(slot->path, path);
            res = decode_image(c, s, path, name, &slot->id, err);
        }
        *id = slot->id;
    }
    return res;
}

/* A Quake 3 shader's compiled stages into the scene (s->q3), their images loaded from the
 * archives (the names without their extension, as the game looks them up); an image no archive
 * holds leaves its slot white and counts in *missing. *index: the scene's q3 entry, or GN_NO_Q3
 * when the shader did not compile (a warning; the surface draws its image instead). */
static gn_result add_q3(image_cache *c, gn_scene *s, const gn_q3_shader *sh, uint32_t *index,
                        uint32_t *missing, gn_error *err)
{
    *index = GN_NO_Q3;
    gn_q3_material *m = gn_malloc(sizeof *m);
    if (!m) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for shader %s", c->map, sh->name);
    char why[256];
    if (!gn_q3_material_compile(sh, m, why, sizeof why)) {
        char line[320];
        snprintf(line, sizeof line, "%s: %s; drawn as its image", c->map, why);
        warn(c->desc, line);
        free(m);
        return GN_OK;
    }
    if (!gn_grow((void **)&s->q3, &s->q3_cap, (uint64_t)s->q3_count + 1, sizeof *s->q3,
                 GN_SCENE_MAX_MATERIALS)) {
        free(m);
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for shader %s", c->map, sh->name);
    }
    gn_scene_q3 *q = &s->q3[s->q3_count];
    q->mat = m;
    gn_result res = GN_OK;
    for (uint32_t k = 0; !res && k < m->slot_count; k++) {
        char name[GN_Q3_NAME_MAX];
        snprintf(name, sizeof name, "%s", m->slots[k]);
        char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
        if (dot && (!slash || dot > slash)) *dot = 0;
        uint32_t tex = 0;
        res = load_texture(c, s, name, &tex, err);
        if (!res && !tex) (*missing)++;
        q->slot_texture[k] = tex ? tex - 1 : GN_NO_TEXTURE; /* public ids count from 1 */
    }
    if (res) {
        free(m);
        return res;
    }
    *index = s->q3_count++;
    return GN_OK;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The first image a shader's stages read (its albedo in debug views and its alpha in the depth
 * and shadow passes), as a public texture id; 0 when none. */
static uint32_t q3_base_texture(const gn_scene_q3 *q)
{
    for (uint32_t k = 0; k < q->mat->stage_count; k++) {
        const gn_q3_mat_stage *st = &q->mat->stages[k];
        if (st->source == GN_Q3_SOURCE_IMAGE && q->slot_texture[st->slot] != GN_NO_TEXTURE)
            return q->slot_texture[st->slot] + 1;
    }
    return 0;
}

/* One face as a mesh of its own and a static instance. */
static gn_result add_face(gn_scene *s, const gn_bsp_mesh *m, uint32_t face, uint32_t material,
                          const gn_bsp_atlas *atlas, int32_t lightmap, const char *label, uint32_t *instance,
                          gn_error *err)
{
    const gn_bsp_face_range *fr = &m->faces[face];
    uint32_t n = fr->index_count;
    float *pos = gn_malloc((size_t)n * 3 * sizeof *pos), *nrm = gn_malloc((size_t)n * 3 * sizeof *nrm),
          *uv = gn_malloc((size_t)n * 2 * sizeof *uv), *lm = gn_malloc((size_t)n * 2 * sizeof *lm);
    uint32_t *idx = gn_malloc((size_t)n * sizeof *idx);
    gn_result res = GN_OK;
    if (!pos || !nrm || !uv || !lm || !idx)
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
    /* the face's own vertices, in first-use order (a face indexes a small range) */
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t k = 0; !res && k < n; k++) {
        uint32_t v = m->indices[fr->first_index + k];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    uint32_t nv = 0;
    if (!res) {
        uint32_t span = hi - lo + 1;
        uint32_t *map = gn_malloc((size_t)span * sizeof *map);
        if (!map) res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", label);
        for (uint32_t k = 0; !res && k < span; k++) map[k] = UINT32_MAX;
        for (uint32_t k = 0; !res && k < n; k++) {
            uint32_t v = m->indices[fr->first_index + k];
            if (map[v - lo] == UINT32_MAX) {
                const gn_bsp_mesh_vertex *mv = &m->vertices[v];
                memcpy(&pos[nv * 3], mv->pos, sizeof mv->pos);
                memcpy(&nrm[nv * 3], mv->normal, sizeof mv->normal);
                memcpy(&uv[nv * 2], mv->uv, sizeof mv->uv);
                if (lightmap >= 0)
                    gn_bsp_lightmap_uv(atlas, (uint32_t)lightmap, mv->lm_uv, &lm[nv * 2]);
                else
                    lm[nv * 2] = lm[nv * 2 + 1] = 0.0f;
                map[v - lo] = nv++;
            }
            idx[k] = map[v - lo];
        }
        free(map);
    }
    if (!res) {
        gn_mesh_desc md = {.positions = pos,
                           .normals = nrm,
                           .uvs = uv,
                           .lightmap_uvs = lm,
                           .vertex_count = nv,
                           .indices = idx,
                           .index_count = n,
                           .label = label};
        uint32_t mesh;
        res = gn_scene_add_mesh(s, &md, &mesh, err);
        gn_instance_desc in = {.mesh = mesh, .material = material};
        if (!res) res = gn_scene_add_instance(s, &in, instance, err);
    }
    free(pos);
    free(nrm);
    free(uv);
    free(lm);
    free(idx);
    return res;
}

/* The map's light entities as point lights, up to the scene's light cap. */
static gn_result add_map_lights(gn_scene *s, const gn_bsp *b, float scale, gn_error *err)
{
    gn_light_desc *lights = gn_malloc(GN_MAX_LIGHTS * sizeof *lights);
    if (!lights) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for lights", b->name);
    uint32_t total = 0, n = gn_bsp_light_entities(b, scale, lights, GN_MAX_LIGHTS - s->light_count, &total);
    gn_result res = GN_OK;
    for (uint32_t i = 0; !res && i < n; i++) res = gn_scene_add_light(s, &lights[i], NULL, err);
    free(lights);
    return res;
}

/* A failure's message names the map: the scene's own checks (gn_scene_add_mesh refusing a
 * vertex beyond the scene's cap) name only the mesh. The map's messages use its name cut to
 * the length gn_bsp keeps, so a prefix of that length counts. */
static void name_error(gn_error *err, const char *name)
{
    if (!err) return;
    size_t n = strlen(name), kept = sizeof(((gn_bsp *)0)->name) - 1;
    if (strncmp(err->message, name, n < kept ? n : kept) == 0) return;
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s: %s", name, err->message);
    memcpy(err->message, msg, sizeof msg);
}

gn_result gn_bsp_scene_build(gn_scene *s, const uint8_t *data, size_t size, const char *name, gn_pak *pak,
                             const gn_load_desc *d, gn_error *err)
{
    uint32_t patch_level = d->patch_level ? d->patch_level : 8;
    gn_world *w = gn_calloc(1, sizeof *w);
    if (!w) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
    gn_result res = gn_bsp_parse(data, size, name, NULL, &w->bsp, err);
    gn_bsp_triangulate_desc td = {.patch_level = patch_level};
    if (!res) res = gn_bsp_triangulate(&w->bsp, &td, &w->mesh, err);
    if (!res) res = gn_bsp_vis_create(&w->bsp, &w->mesh, &w->vis, err);
    const gn_bsp *b = &w->bsp;
    uint32_t faces = b->face_count;
    if (!res) {
        w->face_instance = gn_malloc((faces ? faces : 1) * sizeof *w->face_instance);
        w->vis_faces = gn_malloc((faces ? faces : 1) * sizeof *w->vis_faces);
        w->vis_seen = gn_calloc(GN_BSP_VIS_SEEN_WORDS(faces ? faces : 1), sizeof *w->vis_seen);
        if (!w->face_instance || !w->vis_faces || !w->vis_seen)
            res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %u faces", name, faces);
    }
    for (uint32_t i = 0; !res && i < faces; i++) w->face_instance[i] = UINT32_MAX;
    /* Two materials a texture: with the lightmap atlas (faces that have a lightmap) and
     * without (vertex-lit faces: the light grid lights them). Made in texture order, the
     * unlit one only when some face needs it, so the order is fixed by the map. */
    gn_bsp_atlas atlas = {0};
    if (!res) res = gn_bsp_lightmap_atlas(b, &atlas, err);
    uint32_t atlas_tex = 0;
    if (!res && atlas.count) {
        gn_texture_desc atlas_desc = {.width = atlas.width,
                                      .height = atlas.height,
                                      .format = GN_TEXTURE_RGB9E5,
                                      .rgb9e5 = atlas.texels,
                                      .label = "lightmap atlas"};
        res = gn_scene_add_texture(s, &atlas_desc, &atlas_tex, err);
    }
    uint32_t tcount = b->texture_count ? b->texture_count : 1;
    uint32_t *materials = res ? NULL : gn_malloc((size_t)tcount * 2 * sizeof *materials);
    uint8_t *needs = res ? NULL : gn_calloc((size_t)tcount * 2, 1); /* [t*2 + lit] */
    if (!res && (!materials || !needs)) res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
    for (uint32_t f = 0; !res && f < faces; f++)
        if (w->mesh.faces[f].index_count)
            needs[(uint32_t)b->faces[f].texture * 2 + (b->faces[f].lightmap >= 0 && atlas.count ? 1 : 0)] = 1;
    /* the archives' shader scripts: a surface's shader name resolves to its script, else to its image */
    gn_q3_library lib = {0};
    if (!res && pak && !d->no_shader_scripts) res = gn_q3_library_add_pak(&lib, pak, err);
    uint32_t q3_missing = 0, q3_shaders = 0, sky_material = UINT32_MAX;
    uint32_t checker = 0, missing = 0, slots = 16;
    /* up to 3 files an image, under half full: a texture's own image, or its shader's slots and a sky
       box (every lookup that misses takes a slot too) */
    while (slots < tcount * (GN_Q3_MAT_SLOTS + 1u) * 3u * 2u) slots *= 2;
    image_cache cache = {.mask = slots - 1, .pak = pak, .map = name, .desc = d};
    if (!res && !(cache.slots = gn_calloc(slots, sizeof *cache.slots)))
        res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
    /* each texture's shader compiled first (texture order), so that materials can be made in the
       order of their shaders' sort: blended surfaces draw in material order (the draw list's key),
       and Quake 3 draws them by sort (banners before additive effects before nearest) */
    uint32_t *q3_of = res ? NULL : gn_malloc((size_t)tcount * sizeof *q3_of);
    uint64_t *order = res ? NULL : gn_malloc((size_t)tcount * sizeof *order);
    if (!res && (!q3_of || !order)) res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
    for (uint32_t t = 0; !res && t < b->texture_count; t++) {
        q3_of[t] = GN_NO_Q3;
        const gn_q3_shader *sh = (needs[t * 2] || needs[t * 2 + 1]) && lib.shader_count
                                     ? gn_q3_library_find(&lib, b->textures[t].name)
                                     : NULL;
        if (sh) res = add_q3(&cache, s, sh, &q3_of[t], &q3_missing, err);
        order[t] = (uint64_t)gn_q3_sort_rank(q3_of[t] != GN_NO_Q3 ? s->q3[q3_of[t]].mat : NULL) << 32 | t;
    }
    if (!res && b->texture_count) qsort(order, b->texture_count, sizeof *order, cmp_u64);
    for (uint32_t i = 0; !res && i < b->texture_count; i++) {
        uint32_t t = (uint32_t)order[i];
        materials[t * 2] = materials[t * 2 + 1] = UINT32_MAX;
        if (!needs[t * 2] && !needs[t * 2 + 1]) continue;
        uint32_t q3 = q3_of[t];
        if (q3 != GN_NO_Q3) {
            q3_shaders++;
            uint32_t draw = s->q3[q3].mat->draw;
            if (draw == GN_Q3_DRAW_SKY && sky_material == UINT32_MAX) {
                /* the sky pass draws it (one sky a map, as in the game); its faces are not drawn */
                gn_material_desc md = {.base_color = {1, 1, 1, 1}, .label = b->textures[t].name};
                res = gn_scene_add_material(s, &md, &sky_material, err);
                if (!res) s->materials[sky_material].q3 = s->sky_q3 = q3;
            }
            if (draw == GN_Q3_DRAW_SKY || draw == GN_Q3_DRAW_NONE) continue;
            for (uint32_t lit = 0; !res && lit < 2; lit++) {
                if (!needs[t * 2 + lit]) continue;
                const gn_q3_mat_stage *st0 = &s->q3[q3].mat->stages[0];
                gn_material_desc md = {
                    .base_color = {1, 1, 1, 1},
                    .roughness = 0.8f,
                    .base_color_texture = q3_base_texture(&s->q3[q3]),
                    .lightmap_texture = lit ? atlas_tex : 0,
                    .alpha_mode = draw == GN_Q3_DRAW_BLEND  ? GN_ALPHA_BLEND
                                  : draw == GN_Q3_DRAW_MASK ? GN_ALPHA_MASK
                                                            : GN_ALPHA_OPAQUE,
                    /* GE128 at a half; GT0 just above 0 (LT128 is kept by the stages' own test) */
                    .alpha_cutoff = st0->alpha == GN_ALPHA_TEST_GT0 ? 1.0f / 255.0f : 0.5f,
                    .label = b->textures[t].name};
                res = gn_scene_add_material(s, &md, &materials[t * 2 + lit], err);
                if (!res) {
                    s->materials[materials[t * 2 + lit]].q3 = q3;
                    s->materials[materials[t * 2 + lit]].state = s->q3[q3].mat->state;
                    s->materials[materials[t * 2 + lit]].sort = s->q3[q3].mat->sort;
                }
            }
            continue;
        }
        uint32_t tex = 0;
        if (!res) res = load_texture(&cache, s, b->textures[t].name, &tex, err);
        if (!res && !tex) {
            missing++;
            if (!checker) res = add_checker(s, &checker, err);
            tex = checker;
        }
        for (uint32_t lit = 0; !res && lit < 2; lit++) {
            if (!needs[t * 2 + lit]) continue;
            gn_material_desc md = {.base_color = {1, 1, 1, 1},
                                   .roughness = 0.8f,
                                   .base_color_texture = tex,
                                   .lightmap_texture = lit ? atlas_tex : 0,
                                   .label = b->textures[t].name};
            res = gn_scene_add_material(s, &md, &materials[t * 2 + lit], err);
        }
    }
    free(q3_of);
    free(order);
    w->first_instance = s->instance_count;
    for (uint32_t f = 0; !res && f < faces; f++) {
        if (!w->mesh.faces[f].index_count) continue;
        const gn_bsp_face *bf = &b->faces[f];
        int32_t lightmap = bf->lightmap >= 0 && atlas.count ? bf->lightmap : -1;
        /* sky and nodraw surfaces: no face (the sky pass draws the sky; nothing casts from them) */
        if (materials[(uint32_t)bf->texture * 2 + (lightmap >= 0)] == UINT32_MAX) continue;
        res = add_face(s, &w->mesh, f, materials[(uint32_t)bf->texture * 2 + (lightmap >= 0)], &atlas,
                       lightmap, b->textures[bf->texture].name, &w->face_instance[f], err);
    }
    w->lightmaps = atlas.count;
    gn_bsp_atlas_free(&atlas);
    free(needs);
    w->instance_count = s->instance_count - w->first_instance;
    free(materials);
    for (uint32_t i = 0; cache.slots && i < slots; i++) free(cache.slots[i].path);
    free(cache.slots);
    if (!res) res = gn_bsp_fog_volumes(s, b, &lib, d, err); /* fogparms brushes (scene/bsp_fog.c) */
    if (!res && q3_shaders) {
        char line[320];
        snprintf(
            line, sizeof line,
            "%s: %u of %u shaders drawn by their scripts' stages (%u images they name are in no archive: "
            "white)",
            name, q3_shaders, b->texture_count, q3_missing);
        if (q3_missing) warn(d, line);
    }
    if (!res && s->q3_count) res = gn_scene_q3_build_array(s, err);
    s->q3_missing_images = q3_missing;
    s->q3_missing_shaders = missing;
    gn_q3_library_free(&lib);
    if (!res && missing) {
        char line[256], refused[64] = "";
        if (cache.refused) snprintf(refused, sizeof refused, "; %u images over the size cap", cache.refused);
        snprintf(line, sizeof line, "%s: %u of %u shaders have no image (drawn as a checker%s)", name,
                 missing, b->texture_count, refused);
        warn(d, line);
    }
    if (!res && d->map_lights)
        res = add_map_lights(s, b, d->map_light_scale > 0 ? d->map_light_scale : 1.0f, err);
    /* reflection probes' places: where players spawn and where items wait, a metre up (the
     * places a map's players see most) */
    gn_bsp_entity_cursor cur = {0};
    gn_bsp_entity e;
    while (!res && gn_bsp_entity_next(b, NULL, &cur, &e)) {
        static const char *const kinds[] = {"info_player_", "item_", "weapon_", "ammo_", "holdable_"};
        bool site = false;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            site |= strncmp(e.classname, kinds[k], strlen(kinds[k])) == 0;
        if (!site || !e.has_origin) continue;
        float at[3] = {e.origin[0], e.origin[1] + 1.0f, e.origin[2]};
        res = gn_scene_add_probe_site(s, at, err);
    }
    /* animated player models standing at the spawn points (scene/md3_characters.c) */
    if (!res && d->characters) res = gn_md3_characters(s, pak, b, d, err);
    float eye[3], yaw = 0;
    if (!res && gn_bsp_default_camera(b, eye, &yaw)) {
        memcpy(s->default_camera, eye, sizeof eye);
        s->default_camera[3] = yaw;
        s->default_camera[4] = 0.0f;
        /* the scenic viewpoints: the next spawn points (--viewpoint 1..3) */
        for (uint32_t v = 0; v < 3; v++) {
            float at[3], turn;
            if (!gn_bsp_spawn_camera(b, v + 1, at, &turn)) break;
            memcpy(s->viewpoints[v], at, sizeof at);
            s->viewpoints[v][3] = turn;
            s->viewpoints[v][4] = 0.0f;
        }
    }
    if (res) {
        gn_world_free(w);
        name_error(err, name);
        return res;
    }
    /* objects without a lightmap take their light from the grid, now that the map is there */
    gn_scene_set_world(s, w);
    return GN_OK;
}
