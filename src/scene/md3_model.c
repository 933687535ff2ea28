/* A Quake 3 player (lower, upper and head .md3, animation.cfg, .skin files) as a gn_anim_model whose
 * meshes and materials go into a scene (md3_model.h). The frames become morph targets, the tags
 * translation and rotation channels of the attached nodes, animation.cfg's animations clips. */
#include "scene/md3_model.h"

#include "base/alloc.h"
#include "base/error.h"
#include "scene/scene.h"

#include <math.h>
#include <stb_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest .md3 read: the game's caps allow far more (1024 frames of 32 surfaces of 4096
 * vertices, 1 GiB), but OpenArena's largest player part (angelyss's lower.md3) is 4.3 MiB. */
#define MD3_FILE_CAP (64u << 20)
#define TEXT_CAP (1u << 20)        /* animation.cfg and .skin: md3_player.h's own cap */
#define IMAGE_FILE_CAP (32u << 20) /* an image file, as a map's (bsp_scene.c) */
#define IMAGE_SIDE_CAP 4096u       /* pixels a side: a skin is 256 to 1024 */
#define PART_COUNT 3               /* lower, upper, head */
#define MAX_IMAGES (PART_COUNT * GN_MD3_MAX_SURFACES)

static const char *const part_file[PART_COUNT] = {"lower", "upper", "head"};

typedef struct image_slot {
    char name[GN_MD3_NAME_MAX]; /* without its extension */
    uint32_t tex;               /* public texture id; 0: no file decoded */
} image_slot;

typedef struct loader {
    gn_scene *s;
    gn_pak *pak;
    const char *dir, *skin_name;
    gn_md3 *md3[PART_COUNT];
    gn_md3_skin skin[PART_COUNT];
    bool has_skin[PART_COUNT];
    gn_md3_anim_cfg cfg;
    int32_t torso_tag, head_tag; /* lower's tag_torso, upper's tag_head */
    /* each part's morph sets (lower and upper: one a non-empty surface) */
    uint32_t first_morph[PART_COUNT], morph_n[PART_COUNT];
    image_slot images[MAX_IMAGES];
    uint32_t image_count;
    gn_md3_player_info info;
} loader;

/* (x, y, z) Quake -> (x, z, -y): bsp.h's axis swap, a proper rotation. */
static void swap_axes(const float q[3], float out[3])
{
    float x = q[0], y = q[1], z = q[2];
    out[0] = x, out[1] = z, out[2] = -y;
}

static gn_result read_file(loader *L, const char *file, size_t cap, uint8_t **data, size_t *size,
                           gn_error *err)
{
    char path[256];
    if (snprintf(path, sizeof path, "%s/%s", L->dir, file) >= (int)sizeof path)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "%s/%s: path too long", L->dir, file);
    return gn_pak_read(L->pak, path, cap, data, size, err);
}

/* ---- images ----------------------------------------------------------------------------------- */

/* One image file decoded into a texture; *tex 0 when it does not decode or is over the caps.
 * Fails only when out of memory (which must not pass for a missing image). */
static gn_result decode_image(loader *L, const char *path, uint32_t *tex, gn_error *err)
{
    uint8_t *data = NULL;
    size_t size = 0;
    gn_error read_err = {0};
    gn_result res = gn_pak_read(L->pak, path, IMAGE_FILE_CAP, &data, &size, &read_err);
    if (res == GN_ERROR_OUT_OF_MEMORY) return gn_fail(err, res, "%s", read_err.message);
    if (res) return GN_OK;
    int w = 0, h = 0, n = 0;
    /* the header's size checked before decoding: a small file cannot claim a large allocation */
    if (size <= (size_t)INT32_MAX && stbi_info_from_memory(data, (int)size, &w, &h, &n) &&
        (uint32_t)w <= IMAGE_SIDE_CAP && (uint32_t)h <= IMAGE_SIDE_CAP) {
        uint8_t *px = stbi_load_from_memory(data, (int)size, &w, &h, &n, 4);
        const char *why = px ? NULL : stbi_failure_reason();
        if (why && strcmp(why, "outofmem") == 0)
            res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory decoding %s (%dx%d)", path, w, h);
        gn_texture_desc td = {
            .width = (uint32_t)w, .height = (uint32_t)h, .rgba8 = px, .srgb = true, .label = path};
        gn_error add_err = {0};
        gn_result added = px ? gn_scene_add_texture(L->s, &td, tex, &add_err) : GN_OK;
        if (added == GN_ERROR_OUT_OF_MEMORY) res = gn_fail(err, added, "%s: %s", path, add_err.message);
        if (added) *tex = 0; /* refused (a size the scene does not take): drawn plain, counted */
        stbi_image_free(px);
    }
    free(data);
    return res;
}

/* The texture of a skin's image name, looked up as the game does (R_FindImageFile): the name
 * without its extension, then .tga, .jpg, .png; each name decoded once a model. */
static gn_result skin_texture(loader *L, const char *image, uint32_t *tex, gn_error *err)
{
    char name[GN_MD3_NAME_MAX];
    snprintf(name, sizeof name, "%s", image);
    char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
    if (dot && (!slash || dot > slash)) *dot = '\0';
    for (uint32_t i = 0; i < L->image_count; i++)
        if (strcmp(L->images[i].name, name) == 0) return *tex = L->images[i].tex, GN_OK;
    static const char *const ext[] = {".tga", ".jpg", ".png"};
    gn_result res = GN_OK;
    *tex = 0;
    for (int e = 0; !res && !*tex && e < 3; e++) {
        char path[GN_MD3_NAME_MAX + 8];
        snprintf(path, sizeof path, "%s%s", name, ext[e]);
        if (gn_pak_exists(L->pak, path)) res = decode_image(L, path, tex, err);
    }
    if (!res && L->image_count < MAX_IMAGES) {
        image_slot *slot = &L->images[L->image_count++];
        memcpy(slot->name, name, sizeof name);
        slot->tex = *tex;
    }
    return res;
}

/* ---- files -------------------------------------------------------------------------------------- */

static gn_result read_parts(loader *L, gn_error *err)
{
    gn_result res = GN_OK;
    for (int p = 0; !res && p < PART_COUNT; p++) {
        char file[160], label[320];
        snprintf(file, sizeof file, "%s.md3", part_file[p]);
        snprintf(label, sizeof label, "%s/%s", L->dir, file);
        uint8_t *data = NULL;
        size_t size = 0;
        res = read_file(L, file, MD3_FILE_CAP, &data, &size, err);
        if (!res) res = gn_md3_parse(data, size, label, &L->md3[p], err);
        free(data);
        if (!res) L->info.frames[p] = L->md3[p]->frame_count;
        /* the skin: without one, each surface takes the image its MD3 names */
        snprintf(file, sizeof file, "%s_%s.skin", part_file[p], L->skin_name);
        snprintf(label, sizeof label, "%s/%s", L->dir, file);
        gn_error skin_err = {0};
        if (!res && read_file(L, file, TEXT_CAP, &data, &size, &skin_err) == GN_OK) {
            res = gn_md3_skin_parse((const char *)data, size, label, &L->skin[p], err);
            L->has_skin[p] = !res;
            free(data);
        } else if (skin_err.code == GN_ERROR_OUT_OF_MEMORY) {
            res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s", skin_err.message);
        }
    }
    if (res) return res;
    char label[256];
    snprintf(label, sizeof label, "%s/animation.cfg", L->dir);
    uint8_t *data = NULL;
    size_t size = 0;
    res = read_file(L, "animation.cfg", TEXT_CAP, &data, &size, err);
    if (!res) res = gn_md3_anim_cfg_parse((const char *)data, size, label, &L->cfg, err);
    free(data);
    if (!res)
        res = gn_md3_anim_cfg_check(&L->cfg, L->md3[0]->frame_count, L->md3[1]->frame_count, label, err);
    if (res) return res;
    L->torso_tag = gn_md3_tag_index(L->md3[0], "tag_torso");
    L->head_tag = gn_md3_tag_index(L->md3[1], "tag_head");
    if (L->torso_tag < 0) return gn_fail(err, GN_ERROR_BAD_DATA, "%s/lower.md3: no tag_torso", L->dir);
    if (L->head_tag < 0) return gn_fail(err, GN_ERROR_BAD_DATA, "%s/upper.md3: no tag_head", L->dir);
    return GN_OK;
}

/* ---- tags ------------------------------------------------------------------------------------- */

bool gn_md3_tag_to_trs(const gn_md3_tag *tag, float t[3], float r[4])
{
    /* the tag's columns (axis[0..2]) in the renderer's frame: R = M A M^T, M the axis swap; so
       R's column j is M times A's column M^T e_j: axis[0], axis[2], -axis[1] */
    float c[3][3];
    swap_axes(tag->axis[0], c[0]);
    swap_axes(tag->axis[2], c[1]);
    swap_axes(tag->axis[1], c[2]);
    for (int i = 0; i < 3; i++) c[2][i] = -c[2][i];
    swap_axes(tag->origin, t);
    for (int i = 0; i < 3; i++) t[i] *= GN_BSP_UNIT;
    float det = c[0][0] * (c[1][1] * c[2][2] - c[2][1] * c[1][2]) -
                c[1][0] * (c[0][1] * c[2][2] - c[2][1] * c[0][2]) +
                c[2][0] * (c[0][1] * c[1][2] - c[1][1] * c[0][2]);
    if (!(det > 0)) return false;
    /* Shepperd's method: the largest of w, x, y, z found first keeps the division away from 0 */
    float m[3][3], q[4]; /* m[row][col] */
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++) m[row][col] = c[col][row];
    float tr = m[0][0] + m[1][1] + m[2][2];
    if (tr > 0) {
        float k = sqrtf(tr + 1) * 2;
        q[3] = k / 4, q[0] = (m[2][1] - m[1][2]) / k, q[1] = (m[0][2] - m[2][0]) / k;
        q[2] = (m[1][0] - m[0][1]) / k;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        float k = sqrtf(1 + m[0][0] - m[1][1] - m[2][2]) * 2;
        q[3] = (m[2][1] - m[1][2]) / k, q[0] = k / 4, q[1] = (m[0][1] + m[1][0]) / k;
        q[2] = (m[0][2] + m[2][0]) / k;
    } else if (m[1][1] > m[2][2]) {
        float k = sqrtf(1 + m[1][1] - m[0][0] - m[2][2]) * 2;
        q[3] = (m[0][2] - m[2][0]) / k, q[0] = (m[0][1] + m[1][0]) / k, q[1] = k / 4;
        q[2] = (m[1][2] + m[2][1]) / k;
    } else {
        float k = sqrtf(1 + m[2][2] - m[0][0] - m[1][1]) * 2;
        q[3] = (m[1][0] - m[0][1]) / k, q[0] = (m[0][2] + m[2][0]) / k, q[1] = (m[1][2] + m[2][1]) / k;
        q[2] = k / 4;
    }
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++) r[i] = q[i] / len;
    return true;
}

/* Tag `tag` of part p's frame f, made orthonormal (md3_anim.c) and in the model's frame. */
static gn_result frame_tag(const loader *L, uint32_t p, int32_t tag, uint32_t f, float t[3], float r[4],
                           gn_error *err)
{
    gn_md3_tag tg;
    gn_md3_lerp_tag(L->md3[p], (uint32_t)tag, (gn_md3_blend){f, f, 0.0f}, &tg);
    if (!gn_md3_tag_to_trs(&tg, t, r))
        return gn_fail(err, GN_ERROR_BAD_DATA, "%s/%s.md3: %s of frame %u is mirrored", L->dir, part_file[p],
                       tg.name, f);
    return GN_OK;
}

/* ---- meshes, materials and morph sets ------------------------------------------------------ */

/* Surface i of part p: its frame 0 as a mesh (metres, Y up, counter-clockwise), its material, and
 * for lower and upper its frames as the morph set `morph`. */
static gn_result add_surface(loader *L, gn_anim_model *m, uint32_t p, uint32_t i, int32_t morph,
                             gn_error *err)
{
    const gn_md3 *md3 = L->md3[p];
    const gn_md3_surface *sf = &md3->surfaces[i];
    uint32_t nv = sf->vertex_count, ni = sf->triangle_count * 3;
    float *pos = gn_malloc((size_t)nv * 3 * sizeof *pos), *nrm = gn_malloc((size_t)nv * 3 * sizeof *nrm);
    uint32_t *idx = gn_malloc((size_t)ni * sizeof *idx);
    gn_result res = GN_OK;
    if (!pos || !nrm || !idx) res = gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", L->dir);
    for (uint32_t v = 0; !res && v < nv; v++) {
        swap_axes(&sf->positions[v * 3], &pos[v * 3]);
        swap_axes(&sf->normals[v * 3], &nrm[v * 3]);
        for (int k = 0; k < 3; k++) pos[v * 3 + k] *= GN_BSP_UNIT;
    }
    /* the game's triangles are clockwise seen from the front; gnomon culls clockwise ones */
    for (uint32_t t = 0; !res && t < sf->triangle_count; t++) {
        idx[t * 3] = sf->indices[t * 3];
        idx[t * 3 + 1] = sf->indices[t * 3 + 2];
        idx[t * 3 + 2] = sf->indices[t * 3 + 1];
    }
    char label[160];
    snprintf(label, sizeof label, "%s/%s.md3: %s", L->dir, part_file[p], sf->name);
    uint32_t mesh = 0, material = 0;
    if (!res) {
        gn_mesh_desc md = {.positions = pos,
                           .normals = nrm,
                           .uvs = sf->texcoords,
                           .vertex_count = nv,
                           .indices = idx,
                           .index_count = ni,
                           .label = label};
        res = gn_scene_add_mesh(L->s, &md, &mesh, err);
    }
    free(pos);
    free(nrm);
    free(idx);
    /* the image: the skin's entry for the surface, else the shader the MD3 names */
    const char *image = L->has_skin[p]     ? gn_md3_skin_image(&L->skin[p], sf->name)
                        : sf->shader_count ? sf->shaders[0].name
                                           : NULL;
    uint32_t tex = 0;
    if (!res && image && image[0]) res = skin_texture(L, image, &tex, err);
    if (!res && !tex && L->info.missing_images++ == 0)
        snprintf(L->info.first_missing, sizeof L->info.first_missing, "%s",
                 image && image[0] ? image : sf->name);
    if (!res) {
        gn_material_desc md = {
            .base_color = {1, 1, 1, 1}, .roughness = 0.7f, .base_color_texture = tex, .label = label};
        if (!tex) md.base_color[0] = md.base_color[1] = md.base_color[2] = 0.6f;
        res = gn_scene_add_material(L->s, &md, &material, err);
    }
    if (res) return res;
    m->parts[m->part_count++] = (gn_anim_part){.mesh = mesh,
                                               .material = material,
                                               .node = GN_MD3_NODE_LOWER + p,
                                               .vertex_count = nv,
                                               .morph = morph};
    L->info.surfaces++, L->info.vertices += nv, L->info.triangles += sf->triangle_count;
    if (morph < 0) return GN_OK;
    /* frame f's target: its positions and normals less frame 0's, in the model's frame */
    gn_morph_set *ms = &m->morphs[morph];
    uint32_t frames = md3->frame_count;
    ms->vertex_count = nv, ms->target_count = frames;
    ms->deltas = gn_malloc((size_t)frames * nv * 6 * sizeof *ms->deltas);
    ms->default_weights = gn_calloc(frames, sizeof *ms->default_weights);
    if (!ms->deltas || !ms->default_weights)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %s's %u frames", L->dir, sf->name,
                       frames);
    L->info.morph_bytes += (size_t)frames * nv * 6 * sizeof *ms->deltas;
    float longest = 0;
    for (uint32_t f = 0; f < frames; f++)
        for (uint32_t v = 0; v < nv; v++) {
            const float *p0 = &sf->positions[(size_t)v * 3], *pf = &sf->positions[((size_t)f * nv + v) * 3];
            const float *n0 = &sf->normals[(size_t)v * 3], *nf = &sf->normals[((size_t)f * nv + v) * 3];
            float dp[3] = {pf[0] - p0[0], pf[1] - p0[1], pf[2] - p0[2]};
            float dn[3] = {nf[0] - n0[0], nf[1] - n0[1], nf[2] - n0[2]};
            float *out = &ms->deltas[((size_t)f * nv + v) * 6];
            swap_axes(dp, out);
            swap_axes(dn, out + 3);
            for (int k = 0; k < 3; k++) out[k] *= GN_BSP_UNIT;
            longest = fmaxf(longest, sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]));
        }
    ms->max_delta = longest;
    return GN_OK;
}

static gn_result add_surfaces(loader *L, gn_anim_model *m, gn_error *err)
{
    uint32_t sets = 0, parts = 0;
    for (int p = 0; p < PART_COUNT; p++)
        for (uint32_t i = 0; i < L->md3[p]->surface_count; i++) {
            bool drawn = L->md3[p]->surfaces[i].vertex_count && L->md3[p]->surfaces[i].triangle_count;
            parts += drawn;
            sets += drawn && p < 2;
        }
    m->parts = gn_calloc(parts ? parts : 1, sizeof *m->parts);
    m->morphs = gn_calloc(sets ? sets : 1, sizeof *m->morphs);
    if (!m->parts || !m->morphs) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", L->dir);
    gn_result res = GN_OK;
    for (uint32_t p = 0; !res && p < PART_COUNT; p++) {
        L->first_morph[p] = m->morph_count;
        for (uint32_t i = 0; !res && i < L->md3[p]->surface_count; i++) {
            const gn_md3_surface *sf = &L->md3[p]->surfaces[i];
            if (!sf->vertex_count || !sf->triangle_count) continue; /* nothing to draw */
            /* head.md3 does not animate in the game (its frame 0 is drawn): a rigid part */
            int32_t morph = p < 2 ? (int32_t)m->morph_count++ : -1;
            res = add_surface(L, m, p, i, morph, err);
        }
        L->morph_n[p] = m->morph_count - L->first_morph[p];
    }
    return res;
}

/* ---- clips ------------------------------------------------------------------------------------- */

/* A clip's parts loop together over the least common multiple of their cycles (the game runs the
 * legs and the torso on clocks of their own), unless that is longer than this; then over the longest
 * cycle, the others cut where the clip starts again. */
#define CLIP_MAX_MS 10000u

/* One part playing one animation within a clip: its surfaces' weights and, on the node it carries
 * (lower carries upper, upper carries head), its tag's translation and rotation. */
typedef struct track {
    uint32_t part; /* 0 lower, 1 upper */
    const gn_md3_clip *clip;
    uint32_t repeats; /* a looping animation's cycles in the clip (make_clip) */
} track;

/* A looping animation is the cycle the game repeats: its last loop_frames, then one keyframe more
 * holding the loop's first frame again, so the last frame blends into it as CG_RunLerpFrame does;
 * the rig loops the clip over its duration. The lead-in (the numFrames - loopingFrames frames the
 * game plays once before the loop: OpenArena's liz and smarine walk and run with one) is left out.
 * Any other animation plays its frames once and holds the last. */
static bool track_loops(const gn_md3_clip *c) { return c->frame_count > 1 && c->loop_frames; }

/* Milliseconds: a looping animation's cycle, any other's frames once; a frame lasts frame_ms whole
 * milliseconds, the game's frameLerp. */
static uint64_t track_ms(const gn_md3_clip *c)
{
    if (c->frame_count <= 1) return 0;
    return (uint64_t)(track_loops(c) ? c->loop_frames : c->frame_count) * c->frame_ms;
}

static uint32_t track_keys(const track *t)
{
    const gn_md3_clip *c = t->clip;
    if (c->frame_count <= 1) return 1;
    return track_loops(c) ? c->loop_frames * t->repeats + 1 : c->frame_count;
}

/* The MD3 frame of keyframe k (a backwards animation runs from its last frame down). */
static uint32_t track_frame(const gn_md3_clip *c, uint32_t k)
{
    uint32_t n = c->frame_count, loop = c->loop_frames;
    if (n == 0) return c->first_frame;
    uint32_t i = track_loops(c) ? n - loop + k % loop : k;
    return c->first_frame + (c->reversed ? n - 1 - i : i);
}

static size_t track_floats(const loader *L, const track *tr)
{
    size_t keys = track_keys(tr), n = keys + keys * 7; /* times, translations and rotations */
    for (uint32_t k = 0; k < L->morph_n[tr->part]; k++) n += keys * L->md3[tr->part]->frame_count;
    return n;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b, b = r;
    }
    return a;
}

/* The clip's length in milliseconds, and each looping track's cycles in it. */
static uint64_t clip_ms(track *tracks, uint32_t n)
{
    uint64_t common = 1, longest_loop = 0, once = 0;
    for (uint32_t t = 0; t < n; t++) {
        uint64_t ms = track_ms(tracks[t].clip);
        if (!track_loops(tracks[t].clip)) {
            once = ms > once ? ms : once;
            continue;
        }
        longest_loop = ms > longest_loop ? ms : longest_loop;
        if (common <= CLIP_MAX_MS) common = common / gcd(common, ms) * ms;
    }
    uint64_t loop = !longest_loop ? 0 : common <= CLIP_MAX_MS ? common : longest_loop;
    uint64_t total = loop > once ? loop : once;
    for (uint32_t t = 0; t < n; t++) {
        uint64_t ms = track_ms(tracks[t].clip);
        tracks[t].repeats = track_loops(tracks[t].clip) ? (uint32_t)((total + ms - 1) / ms) : 1;
    }
    return total;
}

static gn_result make_clip(loader *L, gn_anim_clip *c, const char *name, track *tracks, uint32_t n,
                           gn_error *err)
{
    snprintf(c->name, sizeof c->name, "%s", name);
    c->duration = (float)clip_ms(tracks, n) * 0.001f;
    size_t floats = 0;
    uint32_t channels = 0;
    for (uint32_t t = 0; t < n; t++) {
        floats += track_floats(L, &tracks[t]);
        channels += L->morph_n[tracks[t].part] + 2;
    }
    c->data = gn_malloc(floats * sizeof *c->data);
    c->channels = gn_calloc(channels, sizeof *c->channels);
    if (!c->data || !c->channels)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for clip %s (%zu floats)", L->dir,
                       name, floats);
    L->info.clip_bytes += floats * sizeof *c->data;
    float *at = c->data;
    for (uint32_t t = 0; t < n; t++) {
        const gn_md3_clip *clip = tracks[t].clip;
        uint32_t p = tracks[t].part, keys = track_keys(&tracks[t]), targets = L->md3[p]->frame_count;
        float *times = at;
        at += keys;
        for (uint32_t k = 0; k < keys; k++) times[k] = (float)((uint64_t)k * clip->frame_ms) * 0.001f;
        /* each surface's weights, one-hot: keyframe k is its frame at weight 1, so LINEAR
           sampling between two keyframes is the game's lerp between the two frames */
        for (uint32_t s = 0; s < L->morph_n[p]; s++) {
            float *w = at;
            at += (size_t)keys * targets;
            memset(w, 0, (size_t)keys * targets * sizeof *w);
            for (uint32_t k = 0; k < keys; k++) w[(size_t)k * targets + track_frame(clip, k)] = 1.0f;
            c->channels[c->channel_count++] =
                (gn_anim_channel){L->first_morph[p] + s,
                                  GN_ANIM_PATH_WEIGHTS,
                                  {times, w, keys, targets, GN_ANIM_LINEAR, false}};
        }
        /* the carried node on the part's tag: LINEAR translations and slerped rotations between
           frames, where the game lerps the tag's axes and renormalises (a difference of second
           order in the few degrees between frames) */
        float *tv = at, *rv = at + keys * 3;
        at += keys * 7;
        int32_t tag = p == 0 ? L->torso_tag : L->head_tag;
        for (uint32_t k = 0; k < keys; k++) {
            gn_result res = frame_tag(L, p, tag, track_frame(clip, k), &tv[k * 3], &rv[k * 4], err);
            if (res) return res;
            /* one hemisphere along the keys: slerp takes the shorter arc anyway, this keeps them readable */
            float dot = 0;
            for (int i = 0; k && i < 4; i++) dot += rv[k * 4 + i] * rv[(k - 1) * 4 + i];
            for (int i = 0; dot < 0 && i < 4; i++) rv[k * 4 + i] = -rv[k * 4 + i];
        }
        uint32_t node = p == 0 ? GN_MD3_NODE_UPPER : GN_MD3_NODE_HEAD;
        c->channels[c->channel_count++] =
            (gn_anim_channel){node, GN_ANIM_PATH_TRANSLATION, {times, tv, keys, 3, GN_ANIM_LINEAR, false}};
        c->channels[c->channel_count++] =
            (gn_anim_channel){node, GN_ANIM_PATH_ROTATION, {times, rv, keys, 4, GN_ANIM_LINEAR, true}};
    }
    return GN_OK;
}

static gn_result make_clips(loader *L, gn_anim_model *m, gn_error *err)
{
    const gn_md3_clip *a = L->cfg.clips;
    /* what the game plays together: its legs' and its torso's animations */
    static const struct {
        const char *name;
        gn_md3_anim legs, torso;
    } pairs[] = {{"idle", GN_MD3_LEGS_IDLE, GN_MD3_TORSO_STAND},
                 {"walk", GN_MD3_LEGS_WALK, GN_MD3_TORSO_STAND},
                 {"run", GN_MD3_LEGS_RUN, GN_MD3_TORSO_STAND},
                 {"attack", GN_MD3_LEGS_IDLE, GN_MD3_TORSO_ATTACK}};
    enum { PAIRS = sizeof pairs / sizeof pairs[0] };
    m->clips = gn_calloc(PAIRS + GN_MD3_ANIM_COUNT, sizeof *m->clips);
    if (!m->clips) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory for clips", L->dir);
    gn_result res = GN_OK;
    for (uint32_t i = 0; !res && i < PAIRS; i++) {
        track tr[2] = {{0, &a[pairs[i].legs]}, {1, &a[pairs[i].torso]}};
        res = make_clip(L, &m->clips[m->clip_count++], pairs[i].name, tr, 2, err);
    }
    for (uint32_t i = 0; !res && i < GN_MD3_ANIM_COUNT; i++) {
        gn_md3_part part = gn_md3_anim_part((gn_md3_anim)i);
        track tr[2] = {{0, &a[i]}, {1, &a[i]}};
        track *first = part == GN_MD3_PART_TORSO ? &tr[1] : &tr[0];
        res = make_clip(L, &m->clips[m->clip_count++], gn_md3_anim_name((gn_md3_anim)i), first,
                        part == GN_MD3_PART_BOTH ? 2 : 1, err);
    }
    return res;
}

/* ---- the model -------------------------------------------------------------------------------- */

/* The node tree: root, lower, upper, head, each the child of the one before; the root turned so
 * that the game's forward (+X, after the axis swap still +X) faces +Z. */
static gn_result make_nodes(loader *L, gn_anim_model *m, gn_error *err)
{
    gn_skeleton *sk = &m->skeleton;
    sk->nodes = gn_calloc(GN_MD3_NODES, sizeof *sk->nodes);
    if (!sk->nodes) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", L->dir);
    sk->node_count = GN_MD3_NODES;
    static const char *const names[GN_MD3_NODES] = {"root", "lower", "upper", "head"};
    for (int n = 0; n < GN_MD3_NODES; n++) {
        gn_skel_node *nd = &sk->nodes[n];
        nd->parent = n - 1;
        nd->r[3] = 1, nd->s[0] = nd->s[1] = nd->s[2] = 1;
        snprintf(nd->name, sizeof nd->name, "%s", names[n]);
    }
    /* -90 degrees about +Y takes +X to +Z; upper's and head's rest come from the standing pose */
    sk->nodes[GN_MD3_NODE_ROOT].r[1] = -sqrtf(0.5f), sk->nodes[GN_MD3_NODE_ROOT].r[3] = sqrtf(0.5f);
    return GN_OK;
}

/* The rest pose: the game's standing pose, "idle"'s first frame (LEGS_IDLE's legs, TORSO_STAND's
 * torso; frame 0 is BOTH_DEATH1's first, often already falling) as every set's default weights and
 * the upper and head nodes' rest; then the root lifted so that the pose's lowest vertex is at
 * y = 0, the feet on the ground. Its height into info. */
static gn_result stand(loader *L, gn_anim_model *m, gn_error *err)
{
    float *floats = gn_malloc(gn_anim_pose_floats(m) * sizeof *floats), world[GN_MD3_NODES][16];
    if (!floats) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", L->dir);
    gn_anim_pose pose;
    gn_anim_pose_bind(m, floats, &pose);
    gn_anim_pose_sample(m, 0, 0.0f, &pose); /* clip 0 is "idle" (make_clips) */
    const float *w = pose.weights;
    for (uint32_t k = 0; k < m->morph_count; k++) {
        memcpy(m->morphs[k].default_weights, w, m->morphs[k].target_count * sizeof *w);
        w += m->morphs[k].target_count;
    }
    for (int n = GN_MD3_NODE_UPPER; n <= GN_MD3_NODE_HEAD; n++) {
        memcpy(m->skeleton.nodes[n].t, pose.t[n], sizeof pose.t[n]);
        memcpy(m->skeleton.nodes[n].r, pose.r[n], sizeof pose.r[n]);
    }
    gn_anim_world(m, &pose, world);
    float lo = INFINITY, hi = -INFINITY;
    for (uint32_t p = 0; p < m->part_count; p++) {
        const gn_anim_part *part = &m->parts[p];
        const gn_mesh *mesh = &L->s->meshes[part->mesh];
        const gn_morph_set *ms = part->morph >= 0 ? &m->morphs[part->morph] : NULL;
        const float *wt = ms ? m->morphs[part->morph].default_weights : NULL, *nw = world[part->node];
        for (uint32_t v = 0; v < mesh->vertex_count; v++) {
            float x[3];
            memcpy(x, L->s->vertices[mesh->first_vertex + v].pos, sizeof x);
            for (uint32_t t = 0; ms && t < ms->target_count; t++)
                for (int i = 0; wt[t] != 0 && i < 3; i++)
                    x[i] += wt[t] * ms->deltas[((size_t)t * ms->vertex_count + v) * 6 + i];
            float y = nw[1] * x[0] + nw[5] * x[1] + nw[9] * x[2] + nw[13];
            lo = fminf(lo, y), hi = fmaxf(hi, y);
        }
    }
    free(floats);
    if (!(lo <= hi)) lo = hi = 0;
    m->skeleton.nodes[GN_MD3_NODE_ROOT].t[1] = -lo;
    L->info.lift = -lo;
    L->info.height = hi - lo;
    return GN_OK;
}

gn_result gn_md3_player_load(gn_scene *s, const gn_md3_player_desc *d, gn_anim_model *out,
                             gn_md3_player_info *info, gn_error *err)
{
    if (out) memset(out, 0, sizeof *out);
    if (info) memset(info, 0, sizeof *info);
    if (!s || !d || !d->pak || !d->model_dir || !out)
        return gn_fail(err, GN_ERROR_INVALID_ARGUMENT,
                       "gn_md3_player_load: NULL scene, archives, folder or model");
    loader *L = gn_calloc(1, sizeof *L); /* ~100 KiB of skins: not on the stack */
    if (!L) return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "%s: out of memory", d->model_dir);
    L->s = s, L->pak = d->pak, L->dir = d->model_dir;
    L->skin_name = d->skin && d->skin[0] ? d->skin : "default";
    gn_result res = read_parts(L, err);
    snprintf(out->name, sizeof out->name, "%s", L->dir);
    if (!res) res = make_nodes(L, out, err);
    if (!res) res = add_surfaces(L, out, err);
    if (!res) res = make_clips(L, out, err);
    if (!res) res = stand(L, out, err);
    char why[256];
    if (!res && !gn_anim_model_check(out, why, sizeof why))
        res = gn_fail(err, GN_ERROR_BAD_DATA, "%s: %s", L->dir, why);
    if (res) gn_anim_model_free(out);
    if (info) *info = L->info;
    for (int p = 0; p < PART_COUNT; p++) gn_md3_free(L->md3[p]);
    free(L);
    return res;
}

gn_result gn_md3_player_model(gn_scene *s, gn_pak *pak, const char *model_dir, const char *skin,
                              gn_anim_model *out, gn_error *err)
{
    gn_md3_player_desc d = {.pak = pak, .model_dir = model_dir, .skin = skin};
    return gn_md3_player_load(s, &d, out, NULL, err);
}
