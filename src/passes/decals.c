/* Screen-space decals (a feature; docs/EFFECTS.md, "Decals"): after the opaque forward pass and
 * before the blended one, each decal in view draws its box's back faces over the multisampled
 * HDR colour with no depth attachment (so the camera may stand inside a box, and no depth test
 * hides a box's back face behind the very surface it decorates); the fragment reads the resolved
 * depth (sample 0's: a texture here, since no pass holds it as an attachment meanwhile), finds the
 * surface there, and blends the decal's texel lit like that surface (shaders/decal.glsl). Each
 * pixel is shaded once, at its centre, and blends into all of its samples: seed 000 does the
 * same, and at an MSAA edge the decal follows sample 0's surface.
 *
 * What to draw is decided on the CPU (src/decide/decal.h): the decals in the view's frustum,
 * grouped by texture set, their records written into the ring; one instanced draw a set, its
 * firstInstance the set's first record. The pipeline layout is the forward pass's (set 0 the
 * frame, 2..6 the sun technique's, the lights', the screen passes', the image-based light's and
 * volumetric fog's receivers) with set 1 the decal's own: the depth, the records, the set's base
 * colour and normal map. One pipeline a sun technique, made the first time a frame draws decals
 * under it. */
#include "decide/camera.h"
#include "decide/decal.h"
#include "passes/passes.h"

#include <string.h>

enum { SUN_COUNT = 3 }; /* gn_forward_technique's */

static const char *const SHADER[SUN_COUNT] = {"decal_none.frag", "decal_csm.frag", "decal_vsm.frag"};

#define FS VK_SHADER_STAGE_FRAGMENT_BIT
#define VS VK_SHADER_STAGE_VERTEX_BIT
static const gn_vk_binding BINDINGS[GN_BIND_DECAL_COUNT] = {
    [GN_BIND_DECAL_DEPTH] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
    [GN_BIND_DECAL_RECORDS] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, VS | FS},
    [GN_BIND_DECAL_BASE] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
    [GN_BIND_DECAL_NORMAL] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, FS},
};

typedef struct decals_state {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout[SUN_COUNT];
    VkPipeline pipeline[SUN_COUNT];
    /* a set a texture set, remade when the scene's decals, its textures on the GPU or the depth
       target changed */
    VkDescriptorPool pool;
    VkDescriptorSet sets[GN_DECAL_MAX_SETS];
    uint32_t set_count;
    gn_scene_stamp stamp;      /* the GPU scene's when the sets were written */
    uint32_t decal_generation; /* the scene's decals then */
    const gn_vk_image *depth;  /* the depth target they name */
    VkImageView depth_view;
    /* this frame */
    uint32_t sun;
    uint32_t order[GN_DECAL_MAX];
    gn_decal_batch batches[GN_DECAL_MAX_SETS];
    uint32_t batch_count, drawn;
    VkDeviceSize records; /* the records' offset in the ring */
} decals_state;

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    decals_state *s = self;
    return gn_vk_set_layout(&r->vk, BINDINGS, GN_BIND_DECAL_COUNT, "decal", &s->set_layout, err);
}

/* The technique's layout and pipeline, the first time a frame draws decals under it. */
static gn_result ensure_pipeline(gn_renderer *r, decals_state *s, uint32_t sun, gn_error *err)
{
    if (s->pipeline[sun]) return GN_OK;
    gn_result res = GN_OK;
    if (!s->layout[sun]) {
        gn_receiver rc[GN_FORWARD_SETS - 2];
        gn_forward_receivers(r, sun, rc);
        VkDescriptorSetLayout sets[GN_FORWARD_SETS] = {r->pipes.frame_layout, s->set_layout};
        for (uint32_t k = 2; k < GN_FORWARD_SETS; k++) sets[k] = rc[k - 2].layout;
        res = gn_vk_pipeline_layout(&r->vk, sets, GN_FORWARD_SETS, sizeof(gn_gpu_decal_push), "decal",
                                    &s->layout[sun], err);
    }
    gn_vk_graphics_desc g = {
        .vert = "decal.vert",
        .frag = SHADER[sun],
        .layout = s->layout[sun],
        .color_format = VK_FORMAT_R16G16B16A16_SFLOAT,
        .samples = r->msaa,
        .cull = VK_CULL_MODE_FRONT_BIT, /* the box's back faces: one fragment a pixel, inside or out */
        .blend = {GN_VK_BLEND_ALPHA},
        .name = "decal",
    };
    if (!res) res = gn_vk_graphics_pipeline(&r->vk, &g, &s->pipeline[sun], err);
    return res;
}

/* A set a texture set: the depth, the records' window in the ring, the set's images. */
static gn_result write_sets(gn_renderer *r, decals_state *s, const gn_scene *scene, gn_error *err)
{
    gn_vk *vk = &r->vk;
    gn_vk_image *depth = r->targets.depth;
    bool same = s->pool && s->decal_generation == scene->decal_generation && s->depth == depth &&
                s->depth_view == depth->view && s->stamp.uid == r->scene.stamp.uid &&
                s->stamp.generation == r->scene.stamp.generation;
    if (same) return GN_OK;
    /* frames in flight keep the old sets: the pool goes with the deferred releases */
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)s->pool);
    s->pool = VK_NULL_HANDLE;
    s->set_count = 0;
    gn_result res = gn_vk_descriptor_pool(vk, GN_DECAL_MAX_SETS, "decal", &s->pool, err);
    for (uint32_t k = 0; k < scene->decal_set_count && !res; k++) {
        res = gn_vk_alloc_set(vk, s->pool, s->set_layout, "decal", &s->sets[k], err);
        if (res) break;
        const gn_decal_textures *t = &scene->decal_sets[k];
        gn_vk_write w[GN_BIND_DECAL_COUNT] = {
            gn_write_sampled(GN_BIND_DECAL_DEPTH, depth, r->pipes.clamp),
            {.binding = GN_BIND_DECAL_RECORDS,
             .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
             .buffer = vk->ring.buffer,
             .range = GN_DECAL_MAX * sizeof(gn_gpu_decal)},
            gn_write_sampled(GN_BIND_DECAL_BASE, &r->scene.textures[t->base], r->pipes.repeat),
            gn_write_sampled(GN_BIND_DECAL_NORMAL,
                             t->normal != GN_DECAL_NO_TEXTURE ? &r->scene.textures[t->normal]
                                                              : &r->scene.flat_normal,
                             r->pipes.repeat),
        };
        gn_vk_write_set(vk, s->sets[k], w, GN_BIND_DECAL_COUNT);
        s->set_count = k + 1;
    }
    if (res) return res;
    s->decal_generation = scene->decal_generation;
    s->depth = depth;
    s->depth_view = depth->view;
    s->stamp = r->scene.stamp;
    return GN_OK;
}

static void pack(const gn_scene *scene, const gn_decal *d, gn_gpu_decal *g)
{
    memcpy(g->box_to_world, d->transform, sizeof g->box_to_world);
    memcpy(g->world_to_box, d->inverse, sizeof g->world_to_box);
    for (int i = 0; i < 3; i++) g->axis[i] = d->axis[i], g->tangent[i] = d->tangent[i];
    g->axis[3] = d->fade_start;
    g->tangent[3] = d->fade_end;
    memcpy(g->color, d->color, sizeof g->color);
    bool normal_map = scene->decal_sets[d->texture_set].normal != GN_DECAL_NO_TEXTURE;
    g->params[0] = d->opacity;
    g->params[1] = d->roughness;
    g->params[2] = d->metallic;
    g->params[3] = normal_map ? (float)GN_GPU_DECAL_NORMAL_MAP : 0.0f;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *scene, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    decals_state *s = self;
    (void)g;
    r->plan.decals = false;
    s->batch_count = s->drawn = 0;
    /* debug views show the surfaces' own values: decals draw in the final image only */
    if (!scene->decal_count || in->debug_view != GN_VIEW_FINAL) return GN_OK;
    s->sun = gn_forward_technique(in->shadows);
    gn_result res = ensure_pipeline(r, s, s->sun, err);
    if (!res) res = write_sets(r, s, scene, err);
    if (res) return res;
    gn_frustum f;
    gn_frustum_from_view_proj(in->view_proj, &f);
    uint32_t drawn = 0;
    s->batch_count =
        gn_decal_batch_frame(scene->decals, scene->decal_count, &f, s->order, s->batches, &drawn);
    s->drawn = drawn;
    gn_frame_stats *rec = gn_frame_record(r);
    rec->decals_drawn = drawn;
    rec->decals_culled = scene->decal_count - drawn;
    if (!drawn) {
        s->batch_count = 0;
        return GN_OK;
    }
    gn_gpu_decal *out;
    res = gn_vk_ring_alloc_window(&r->vk, drawn * sizeof *out, GN_DECAL_MAX * sizeof *out,
                                  gn_vk_storage_align(&r->vk), &s->records, (void **)&out, err);
    if (res) return res;
    for (uint32_t i = 0; i < drawn; i++) pack(scene, &scene->decals[s->order[i]], &out[i]);
    r->plan.decals = true;
    return GN_OK;
}

static void release(gn_renderer *r, void *self)
{
    decals_state *s = self;
    gn_vk *vk = &r->vk;
    for (uint32_t k = 0; k < SUN_COUNT; k++) {
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)s->pipeline[k]);
        gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)s->layout[k]);
    }
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)s->pool);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)s->set_layout);
}

const gn_feature gn_feature_decals = {
    .name = "decals", .size = sizeof(decals_state), .create = create, .plan = plan, .release = release};

uint32_t gn_decals_runs(const gn_renderer *r, const void *self)
{
    (void)self;
    return r->plan.decals ? 1 : 0;
}

uint32_t gn_decals_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    decals_state *s = self;
    bool ms = r->msaa > 1;
    uint32_t n = 0;
    out[n++] = (gn_vk_use){.image = gn_target(r, GN_TARGET_HDR_MS), .access = GN_ACCESS_COLOR_WRITE};
    out[n++] = (gn_vk_use){.image = ms ? gn_target(r, GN_TARGET_HDR_RESOLVED) : NULL,
                           .access = GN_ACCESS_COLOR_WRITE};
    out[n++] = (gn_vk_use){.image = r->targets.depth, .access = GN_ACCESS_SHADER_READ};
    out[n++] = (gn_vk_use){.buffer = &r->pipes.exposure, .access = GN_ACCESS_SHADER_READ}; /* pre-exposure */
    n += gn_forward_receiver_uses(r, s->sun, out + n);
    return n;
}

gn_pass_work gn_decals_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    decals_state *s = self;
    gn_vk *vk = &r->vk;
    bool ms = r->msaa > 1;
    /* the multisampled colour is kept for the blended pass when one follows; resolved either way */
    gn_vk_rendering ri = {
        .color = {.image = gn_target(r, GN_TARGET_HDR_MS),
                  .resolve = ms ? gn_target(r, GN_TARGET_HDR_RESOLVED) : NULL,
                  .discard = ms && !gn_forward_blended_runs(r, NULL)},
        .width = r->width,
        .height = r->height,
    };
    VkPipelineLayout layout = s->layout[s->sun];
    gn_vk_cmd_begin_rendering(vk, &ri);
    gn_vk_cmd_bind_pipeline(vk, false, s->pipeline[s->sun]);
    gn_bind_view_frame(r, layout, &r->plan.camera);
    gn_forward_bind_receivers(r, s->sun, layout);
    gn_gpu_decal_push push = {{0}};
    gn_msaa_sample0(r->msaa, &push.sample0[0], &push.sample0[1]);
    gn_vk_cmd_push(vk, layout, sizeof push, &push);
    uint32_t offset = (uint32_t)s->records;
    for (uint32_t b = 0; b < s->batch_count; b++) {
        const gn_decal_batch *bt = &s->batches[b];
        gn_vk_cmd_bind_sets(vk, false, layout, GN_SET_DECAL, 1, &s->sets[bt->texture_set], 1, &offset);
        gn_vk_cmd_draw_instances(vk, 36, bt->count, bt->first);
    }
    gn_vk_cmd_end_rendering(vk);
    return (gn_pass_work){s->batch_count, 12ull * s->drawn}; /* a box is 12 triangles */
}
