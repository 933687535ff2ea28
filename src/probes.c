/* Local reflection probes (docs/SKY.md, "Reflection probes"; seed 001's cubemap probes): made
 * when a renderer first draws a scene, and again when the key light has moved by
 * GN_PROBES_RECAPTURE_DEG, changed (the sun and the moon) or changed its strength by 2x.
 *
 * Made in four steps, all but one on the CPU: (1) places: the scene's probe sites (a map's
 * spawn points and items), else its street light sites, else a grid, nearest the camera first;
 * each probe's box fitted to the first surfaces (decide/probes.c) by ray casts through a BVH
 * of the static triangles (decide/bvh.c); (2) the six faces of each, rendered with the whole
 * frame (shadows, lights, sky, fog, AO) by a second renderer of the same device at
 * GN_PROBES_FACE texels a side, at a fixed exposure, without the sun's and moon's discs (the
 * key light's highlight is the BRDF's); (3) into an octahedral map, its five GGX levels and its
 * harmonics, as the sky's environment is filtered (decide/ibl.c, the twin of the shaders);
 * (4) per instance, the nearest probe its side can see. The maps go to the GPU through the IBL
 * feature, the choice through the instances' flags. */
#include "decide/probes.h"
#include "base/alloc.h"
#include "base/half.h"
#include "decide/bvh.h"
#include "decide/exposure.h"
#include "decide/ibl.h"
#include "passes/exposure.h"
#include "passes/ibl.h"
#include "renderer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gn_probes {
    uint64_t scene_uid; /* the scene they were made for, at this generation */
    uint32_t scene_generation;
    bool made, failed;         /* failed: the probes' renderer could not be made: none, said once */
    float key_dir[3], key_lux; /* the key light the last rendering (or refresh) started under */
    gn_bvh *bvh;               /* the scene's static triangles, kept while the scene is the same */
    gn_renderer *cap;          /* renders the faces; kept while the scene is the same */
    gn_probe probe[GN_PROBES_MAX];
    uint32_t count;
    uint8_t *of; /* per instance: its probe + 1, 0 none */
    uint32_t of_count;
    uint32_t generation; /* bumped with every new choice */
    uint32_t next;       /* refreshing after the key light moved: the next probe to render, else count */
    uint64_t rendered;   /* probes rendered so far */
    double made_ms;      /* the last placing and rendering of them all */
    /* the maps and records as uploaded (GN_GPU_PROBES layers), and scratch for one probe */
    uint16_t *level0, *atlas;
    gn_gpu_probe gpu[GN_GPU_PROBES];
    float *faces, *oct, *level;
    uint16_t *halves;
};

uint32_t gn_probe_of(const gn_renderer *r, uint32_t instance)
{
    const struct gn_probes *p = r->probes;
    return p && instance < p->of_count ? p->of[instance] : 0u;
}

uint32_t gn_probe_generation(const gn_renderer *r) { return r->probes ? r->probes->generation : 0u; }

uint32_t gn_probes_placed(const gn_renderer *r, gn_probe *out)
{
    uint32_t n = r->probes ? r->probes->count : 0u;
    if (n) memcpy(out, r->probes->probe, n * sizeof *out);
    return n;
}

static void drop_capture(gn_renderer *r, struct gn_probes *p)
{
    if (!p->cap) return;
    r->extra_validation += gn_renderer_validation_messages(p->cap);
    gn_renderer_destroy(p->cap);
    p->cap = NULL;
}

void gn_probes_free(gn_renderer *r)
{
    struct gn_probes *p = r->probes;
    if (!p) return;
    drop_capture(r, p);
    gn_bvh_free(p->bvh);
    free(p->of), free(p->level0), free(p->atlas), free(p->faces), free(p->oct), free(p->level),
        free(p->halves);
    free(p);
    r->probes = NULL;
}

uint32_t gn_probes_validation_messages(const gn_renderer *r)
{
    return r->probes && r->probes->cap ? gn_renderer_validation_messages(r->probes->cap) : 0u;
}

uint64_t gn_probes_rendered(const gn_renderer *r) { return r->probes ? r->probes->rendered : 0u; }

void gn_renderer_probes(const gn_renderer *r, gn_probes_info *out)
{
    const struct gn_probes *p = r ? r->probes : NULL;
    *out = (gn_probes_info){0};
    if (!p) return;
    *out = (gn_probes_info){.count = p->count,
                            .rendered = p->rendered,
                            .made_ms = p->made_ms,
                            .ray_triangles = p->bvh ? gn_bvh_triangle_count(p->bvh) : 0u};
}

static float bvh_ray(void *user, const float o[3], const float d[3], float tmax, bool *back)
{
    return gn_bvh_ray(user, o, d, tmax, back);
}

/* The static, drawn instances' triangles in world space (dynamic ones move: no probe sees them
 * where they are), 9 floats each. */
static gn_bvh *build_bvh(const gn_scene *s, gn_error *err)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < s->instance_count; i++) {
        const gn_instance *in = &s->instances[i];
        if (in->flags & (GN_INSTANCE_DYNAMIC | GN_INSTANCE_REMOVED)) continue;
        if (s->materials[in->material].alpha_mode == GN_ALPHA_BLEND) continue; /* glass: seen through */
        n += s->meshes[in->mesh].index_count / 3;
    }
    if (n == 0 || n > GN_BVH_MAX_TRIANGLES) {
        if (n)
            gn_fail(err, GN_ERROR_INVALID_ARGUMENT, "probes: %llu triangles, over the ray caster's %u",
                    (unsigned long long)n, GN_BVH_MAX_TRIANGLES);
        return NULL;
    }
    float *tri = gn_malloc((size_t)n * 9 * sizeof(float));
    if (!tri) {
        gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "probes: out of memory for %llu triangles",
                (unsigned long long)n);
        return NULL;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < s->instance_count; i++) {
        const gn_instance *in = &s->instances[i];
        if (in->flags & (GN_INSTANCE_DYNAMIC | GN_INSTANCE_REMOVED)) continue;
        if (s->materials[in->material].alpha_mode == GN_ALPHA_BLEND) continue;
        const gn_mesh *m = &s->meshes[in->mesh];
        const float *t = in->transform;
        for (uint32_t j = 0; j + 2 < m->index_count; j += 3)
            for (int c = 0; c < 3; c++) {
                const float *p = s->vertices[m->first_vertex + s->indices[m->first_index + j + c]].pos;
                for (int a = 0; a < 3; a++)
                    tri[k++] = t[a] * p[0] + t[4 + a] * p[1] + t[8 + a] * p[2] + t[12 + a];
            }
    }
    gn_bvh *b = gn_bvh_build(tri, (uint32_t)n);
    free(tri);
    if (!b) gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "probes: out of memory for the ray caster");
    return b;
}

typedef struct candidate {
    float pos[3], d2;
} candidate;

static int by_distance(const void *a, const void *b)
{
    float x = ((const candidate *)a)->d2, y = ((const candidate *)b)->d2;
    return x < y ? -1 : x > y;
}

/* The probes' places, nearest the camera first: the scene's sites; else the street light sites
 * (the town), 2.5 m up; else none (the caller's grid). *out is allocated. */
static uint32_t candidates(const gn_scene *s, const float eye[3], float (**out)[3])
{
    uint32_t n = s->probe_site_count;
    bool streets = n == 0;
    if (streets)
        for (uint32_t i = 0; i < s->light_site_count; i++)
            n += s->light_sites[i].kind == GN_LIGHT_SITE_STREET ||
                 s->light_sites[i].kind == GN_LIGHT_SITE_CROSSING;
    *out = NULL;
    candidate *c = n ? gn_malloc((size_t)n * sizeof *c) : NULL;
    float(*pts)[3] = n ? gn_malloc((size_t)n * sizeof *pts) : NULL;
    if (!c || !pts) {
        free(c);
        free(pts);
        return 0;
    }
    uint32_t k = 0;
    if (!streets)
        for (uint32_t i = 0; i < s->probe_site_count; i++)
            memcpy(c[k++].pos, s->probe_sites[i], sizeof c->pos);
    else
        for (uint32_t i = 0; i < s->light_site_count; i++) {
            const gn_light_site *site = &s->light_sites[i];
            if (site->kind != GN_LIGHT_SITE_STREET && site->kind != GN_LIGHT_SITE_CROSSING) continue;
            c[k].pos[0] = site->pos[0], c[k].pos[1] = site->pos[1] + 2.5f, c[k].pos[2] = site->pos[2];
            k++;
        }
    for (uint32_t i = 0; i < k; i++) {
        float d0 = c[i].pos[0] - eye[0], d1 = c[i].pos[1] - eye[1], d2 = c[i].pos[2] - eye[2];
        c[i].d2 = d0 * d0 + d1 * d1 + d2 * d2;
    }
    qsort(c, k, sizeof *c, by_distance);
    for (uint32_t i = 0; i < k; i++) memcpy(pts[i], c[i].pos, sizeof pts[i]);
    free(c);
    *out = pts;
    return k;
}

/* The static instances' bounds (for a grid): their meshes' boxes' corners in world space (a
 * bounding sphere would reach metres below the floor). */
static void scene_bounds(const gn_scene *s, float lo[3], float hi[3])
{
    for (int a = 0; a < 3; a++) lo[a] = INFINITY, hi[a] = -INFINITY;
    for (uint32_t i = 0; i < s->instance_count; i++) {
        const gn_instance *in = &s->instances[i];
        if (in->flags & (GN_INSTANCE_DYNAMIC | GN_INSTANCE_REMOVED)) continue;
        const gn_mesh *m = &s->meshes[in->mesh];
        const float *t = in->transform;
        for (int k = 0; k < 8; k++) {
            float c[3] = {k & 1 ? m->aabb_max[0] : m->aabb_min[0], k & 2 ? m->aabb_max[1] : m->aabb_min[1],
                          k & 4 ? m->aabb_max[2] : m->aabb_min[2]};
            for (int a = 0; a < 3; a++) {
                float w = t[a] * c[0] + t[4 + a] * c[1] + t[8 + a] * c[2] + t[12 + a];
                lo[a] = fminf(lo[a], w), hi[a] = fmaxf(hi[a], w);
            }
        }
    }
    if (!(lo[0] <= hi[0]))
        for (int a = 0; a < 3; a++) lo[a] = hi[a] = 0.0f;
}

/* The six faces' cameras: -Z, -X, +Z, +X (yaw 0, 90, 180, 270), up and down. */
static const float FACE_YAW[6] = {0, 90, 180, 270, 0, 0}, FACE_PITCH[6] = {0, 0, 0, 0, 90, -90};

/* Renders probe i's six faces with the probes' renderer and turns them into its layer of the
 * maps and its record: radiance (the HDR target over the fixed exposure), clamped below
 * rgba16f's largest value. */
static gn_result render_probe(struct gn_probes *p, gn_scene *s, const gn_frame_desc *f,
                              const gn_frame_inputs *in, uint32_t i, float fade, gn_error *err)
{
    const uint32_t F = GN_PROBES_FACE, N = GN_GPU_PROBE_SIZE;
    const gn_probe *pr = &p->probe[i];
    /* a fixed exposure that keeps the scene inside rgba16f: what auto exposure would guess */
    static const float luma[3] = {GN_LUMA_R, GN_LUMA_G, GN_LUMA_B};
    float sky_l = 0.0f;
    for (int c = 0; c < 3; c++) sky_l += 0.5f * (in->sky.zenith[c] + in->sky.horizon[c]) * luma[c];
    float ev100 = gn_ev100_from_luminance(sky_l > 1e-4f ? sky_l : 1e-4f);
    float scale = 1.0f / gn_exposure_from_ev100(ev100);
    float vp[6][16];
    const float *face_of[6];
    for (int k = 0; k < 6; k++) {
        gn_frame_desc fd = *f;
        fd.camera = (gn_camera){.position = {pr->position[0], pr->position[1], pr->position[2]},
                                .yaw = FACE_YAW[k],
                                .pitch = FACE_PITCH[k],
                                .fov_y = 90.0f,
                                .near_plane = 0.05f};
        fd.view = GN_VIEW_FINAL;
        if (fd.shadows != GN_SHADOWS_NONE)
            fd.shadows = GN_SHADOWS_CSM; /* whole in one frame: no page cache */
        fd.camera_exposure = (gn_exposure_desc){.mode = GN_EXPOSURE_FIXED, .ev100 = ev100};
        fd.exposure = 0.0f;
        fd.no_volumetric = true; /* a froxel history per face would be another camera's */
        fd.bloom.off = true;
        fd.dof.strength = 0.0f;
        fd.overlay = NULL;
        gn_frame_view view;
        gn_result res = gn_render(p->cap, s, &fd, err);
        if (!res) res = gn_exposure_read_hdr(p->cap, p->halves, err);
        if (!res) res = gn_get_frame_view(p->cap, &view, err);
        if (res) return res;
        memcpy(vp[k], view.view_proj, sizeof vp[k]);
        float *dst = p->faces + (size_t)k * F * F * 4;
        for (size_t t = 0; t < (size_t)F * F * 4; t++) dst[t] = gn_half_to_float(p->halves[t]) * scale;
        face_of[k] = dst;
    }
    gn_oct_from_faces(face_of, F, (const float(*)[16])vp, N, p->oct);
    float sh[GN_SH9][3];
    gn_sh9_project(p->oct, N, sh);
    uint16_t *level0 = p->level0 + (size_t)N * N * 4 * i;
    uint16_t *atlas = p->atlas + (size_t)GN_GPU_PROBE_ATLAS_W * GN_GPU_PROBE_ATLAS_H * 4 * i;
    for (size_t t = 0; t < (size_t)N * N * 4; t++) level0[t] = gn_half_from_float(fminf(p->oct[t], 60000.0f));
    /* levels 1..5 at the environment's atlas rectangles halved (shaders/ibl_levels.glsl) */
    static const uint32_t RECT[GN_GPU_IBL_LEVELS][3] = {{0, 0, 0},   {0, 0, 32},  {32, 0, 16},
                                                        {32, 16, 8}, {40, 16, 4}, {44, 16, 2}};
    for (uint32_t k = 1; k < GN_GPU_IBL_LEVELS; k++) {
        uint32_t size = RECT[k][2];
        gn_ibl_prefilter(p->oct, N, (float)k / (float)(GN_GPU_IBL_LEVELS - 1), size, p->level);
        for (uint32_t y = 0; y < size; y++)
            for (uint32_t x = 0; x < size; x++)
                for (int c = 0; c < 4; c++)
                    atlas[(((size_t)(RECT[k][1] + y) * GN_GPU_PROBE_ATLAS_W) + RECT[k][0] + x) * 4 + c] =
                        gn_half_from_float(fminf(p->level[((size_t)y * size + x) * 4 + c], 60000.0f));
    }
    gn_gpu_probe *out = &p->gpu[i];
    memset(out, 0, sizeof *out);
    for (int a = 0; a < 3; a++) {
        out->position[a] = pr->position[a];
        out->box_min[a] = pr->box_min[a];
        out->box_max[a] = pr->box_max[a];
    }
    out->position[3] = fade;
    for (int t = 0; t < GN_SH9; t++)
        for (int c = 0; c < 3; c++) out->sh[t][c] = sh[t][c];
    p->rendered++;
    return GN_OK;
}

/* A renderer of this one's device for the faces: small, single-sampled, no probes of its own. */
static gn_result make_capture(gn_renderer *r, gn_renderer **out, gn_error *err)
{
    gn_renderer_desc d = r->desc;
    d.width = d.height = GN_PROBES_FACE;
    d.msaa = 1;
    d.device = r->vk.props.deviceName;
    d.presentable = false;
    d.instance_extensions = NULL;
    d.instance_extension_count = 0;
    d.probes.mode = GN_PROBES_OFF;
    gn_result res = gn_renderer_create(&d, out, err);
    if (!res) (*out)->capture = true;
    return res;
}

static gn_probe_settings settings(const gn_renderer *r)
{
    const gn_probes_desc *pd = &r->desc.probes;
    return gn_probe_settings_resolve(&(gn_probe_settings){.spacing = pd->spacing,
                                                          .max_extent = pd->max_extent,
                                                          .fade = pd->fade,
                                                          .max_probes = pd->max_probes});
}

/* Places, chooses and renders every probe for the scene as it is (see the top). */
static gn_result make(gn_renderer *r, struct gn_probes *p, gn_scene *s, const gn_frame_desc *f,
                      const gn_frame_inputs *in, gn_error *err)
{
    double t0 = gn_plan_now_ms();
    drop_capture(r, p); /* it holds the old scene's copy */
    gn_bvh_free(p->bvh);
    p->bvh = build_bvh(s, err);
    if (!p->bvh && err->code) return err->code;
    gn_probe_settings ps = settings(r);
    float(*sites)[3] = NULL;
    uint32_t site_count = candidates(s, in->position, &sites);
    float lo[3], hi[3];
    scene_bounds(s, lo, hi);
    p->count = p->bvh ? gn_probes_place(&ps, (const float(*)[3])sites, site_count, lo, hi, 2.0f, bvh_ray,
                                        p->bvh, p->probe)
                      : 0;
    free(sites);
    /* each instance: the nearest probe its side can see */
    uint8_t *of = gn_calloc(s->instance_count ? s->instance_count : 1, 1);
    if (!of)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "probes: out of memory for %u instances",
                       s->instance_count);
    for (uint32_t i = 0; i < s->instance_count && p->count; i++) {
        if (s->instances[i].flags & GN_INSTANCE_REMOVED) continue;
        of[i] = (uint8_t)(gn_probe_choose(p->probe, p->count, s->instances[i].sphere, bvh_ray, p->bvh) + 1);
    }
    free(p->of);
    p->of = of;
    p->of_count = s->instance_count;
    p->generation++;

    const uint32_t F = GN_PROBES_FACE, N = GN_GPU_PROBE_SIZE;
    size_t l0 = (size_t)N * N * 4, at = (size_t)GN_GPU_PROBE_ATLAS_W * GN_GPU_PROBE_ATLAS_H * 4;
    if (!p->level0) p->level0 = gn_calloc(l0 * GN_GPU_PROBES, sizeof *p->level0);
    if (!p->atlas) p->atlas = gn_calloc(at * GN_GPU_PROBES, sizeof *p->atlas);
    if (!p->faces) p->faces = gn_malloc((size_t)6 * F * F * 4 * sizeof(float));
    if (!p->halves) p->halves = gn_malloc((size_t)F * F * 4 * sizeof(uint16_t));
    if (!p->oct) p->oct = gn_malloc(l0 * sizeof(float));
    if (!p->level) p->level = gn_malloc((size_t)32 * 32 * 4 * sizeof(float));
    if (!p->level0 || !p->atlas || !p->faces || !p->halves || !p->oct || !p->level)
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "probes: out of memory for %u probes' maps", p->count);
    gn_result res = p->count ? make_capture(r, &p->cap, err) : GN_OK;
    for (uint32_t i = 0; i < p->count && !res; i++) res = render_probe(p, s, f, in, i, ps.fade, err);
    if (!res) res = gn_ibl_set_probes(r, p->count, p->level0, p->atlas, p->gpu, err);
    if (res) return res;
    p->next = p->count;
    p->made_ms = gn_plan_now_ms() - t0;
    gn_vk_log(&r->vk, GN_LOG_INFO, "reflection probes: %u placed and rendered (%u faces of %u^2) in %.0f ms",
              p->count, p->count * 6, F, p->made_ms);
    return GN_OK;
}

static bool probes_wanted(const gn_renderer *r)
{
    if (r->capture) return false;
    gn_probes_mode m = r->desc.probes.mode;
    return m == GN_PROBES_ON || (m == GN_PROBES_DEFAULT && !gn_vk_is_cpu(&r->vk));
}

/* Whether the key light came up or went down, moved by GN_PROBES_RECAPTURE_DEG or changed its
 * strength by 2x since the probes were last rendered (no key light, a moonless night, is the
 * same night however the hours pass). */
static bool light_changed(const struct gn_probes *p, const gn_sun *key)
{
    float lux = key->illuminance, ratio = p->key_lux > 0.0f && lux > 0.0f ? lux / p->key_lux : 1.0f;
    float cos_moved = key->direction[0] * p->key_dir[0] + key->direction[1] * p->key_dir[1] +
                      key->direction[2] * p->key_dir[2];
    if ((lux > 0.0f) != (p->key_lux > 0.0f)) return true;
    return lux > 0.0f &&
           (cos_moved < cosf(GN_PROBES_RECAPTURE_DEG * 0.017453293f) || ratio < 0.5f || ratio > 2.0f);
}

gn_result gn_probes_sync(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, gn_error *err)
{
    (void)err; /* a failure turns the probes off (said once); the frame goes on */
    r->probes_ms = 0.0;
    r->probes_rendered = 0;
    if (!probes_wanted(r)) return GN_OK;
    if (!r->probes && !(r->probes = gn_calloc(1, sizeof *r->probes)))
        return gn_fail(err, GN_ERROR_OUT_OF_MEMORY, "out of memory for the reflection probes");
    struct gn_probes *p = r->probes;
    if (p->failed) return GN_OK;
    /* this frame's key light, as the frame will resolve it */
    gn_frame_inputs in;
    const float scene_camera[6] = {s->default_camera[0], s->default_camera[1], s->default_camera[2],
                                   s->default_camera[3], s->default_camera[4], s->default_fov_y};
    gn_frame_inputs_resolve(f, scene_camera, r->width, r->height, r->atmosphere, &in);
    bool scene_new = !p->made || p->scene_uid != s->uid || p->scene_generation != s->generation;
    double t0 = gn_plan_now_ms();
    uint64_t rendered0 = p->rendered;
    gn_error local = {0};
    gn_result res = GN_OK;
    bool started = false;
    if (scene_new) {
        res = make(r, p, s, f, &in, &local);
        p->made = true;
        p->scene_uid = s->uid;
        p->scene_generation = s->generation;
    } else {
        /* the key light moved: the probes again, one a frame (the rest keep their light until
         * their turn), so that a moving sun never costs every probe in one frame */
        started = p->next >= p->count && p->count > 0 && light_changed(p, &in.key);
        if (started) p->next = 0;
        if (p->next < p->count) {
            res = render_probe(p, s, f, &in, p->next, settings(r).fade, &local);
            if (!res) res = gn_ibl_set_probes(r, p->count, p->level0, p->atlas, p->gpu, &local);
            p->next++;
        }
    }
    r->probes_ms = gn_plan_now_ms() - t0;
    r->probes_rendered = (uint32_t)(p->rendered - rendered0);
    if (scene_new || started) { /* the light a rendering started under */
        memcpy(p->key_dir, in.key.direction, sizeof p->key_dir);
        p->key_lux = in.key.illuminance;
    }
    if (res) {
        gn_vk_log(&r->vk, GN_LOG_WARN, "reflection probes are off: %s", local.message);
        p->failed = true;
        p->count = p->next = 0;
        free(p->of);
        p->of = NULL;
        p->of_count = 0;
        p->generation++;
        drop_capture(r, p);
        gn_ibl_set_probes(r, 0, NULL, NULL, NULL, NULL);
    }
    return GN_OK;
}
