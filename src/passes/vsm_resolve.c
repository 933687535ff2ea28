/* VSM RESOLVE (docs/SHADOWS.md): a compute pass computes the sun's visibility for every pixel
 * of the resolved depth into a mask the forward pass reads one texel of. The lookup is the one
 * the forward pass did (shaders/vsm.glsl); what RESOLVE adds is temporal accumulation: each
 * pixel is reprojected through the previous frame's view-projection into the previous frame's
 * mask, and where that frame saw the same surface in the same page, the two are blended and the
 * PCF is moved by a sub-texel offset that cycles over four frames. The two masks ping-pong:
 * one is written, the other is the history. A pixel without history gets no offset, so a
 * frame without any (the first, after a cut) is the forward pass's lookup. */
#include "decide/camera.h"
#include "passes/vsm.h"

#include <math.h>
#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

/* A camera that moved farther than this in one frame, or turned more than GN_RESOLVE_CUT_COS
 * allows, has cut: a walking or driving camera moves well under a metre and turns a few degrees
 * a frame. The per-pixel rejection would catch nearly all of a cut too; this keeps a teleport
 * from reusing a surface that only happens to lie at the same depth. */
#define GN_RESOLVE_CUT_METRES 10.0f
#define GN_RESOLVE_CUT_COS 0.7071f /* 45 degrees */

/* The PCF offsets (texels of the level sampled) of frames with history, in turn: a quarter
 * texel each way, so four frames sample the footprint at twice the page's resolution; they sum
 * to zero, so the mean filter stays centred where the single-frame one is. */
static const float OFFSETS[4][2] = {{0.25f, -0.25f}, {-0.25f, 0.25f}, {0.25f, 0.25f}, {-0.25f, -0.25f}};

gn_result gn_vsm_resolve_create(gn_renderer *r, gn_vsm_gpu *vsm, gn_error *err)
{
    gn_vsm_resolve_gpu *v = &vsm->resolve;
    gn_vk *vk = &r->vk;
    const VkDescriptorType IMG = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                           SSBO = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    const gn_vk_binding b[GN_BIND_RESOLVE_COUNT] = {
        [GN_BIND_RESOLVE_FRAME] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS},
        [GN_BIND_RESOLVE_DEPTH] = {IMG, CS},   /* resolved depth */
        [GN_BIND_RESOLVE_HISTORY] = {IMG, CS}, /* the previous frame's mask */
        [GN_BIND_RESOLVE_MASK] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},
        [GN_BIND_RESOLVE_TABLE] = {SSBO, CS},
        [GN_BIND_RESOLVE_VERSIONS] = {SSBO, CS},
        [GN_BIND_RESOLVE_ATLAS] = {IMG, CS}, /* comparison sampler */
    };
    gn_result res = gn_vk_set_layout(vk, b, GN_BIND_RESOLVE_COUNT, "vsm resolve set", &v->layout, err);
    if (!res) res = gn_vk_pipeline_layout(vk, &v->layout, 1, 0, "vsm resolve", &v->pipeline_layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 2, "vsm resolve", &v->pool, err);
    for (uint32_t k = 0; !res && k < 2; k++)
        res =
            gn_vk_alloc_set(vk, v->pool, v->layout, k ? "vsm resolve 1" : "vsm resolve 0", &v->sets[k], err);
    if (!res)
        res = gn_vk_compute_pipeline(vk, "vsm_resolve.comp", v->pipeline_layout, "vsm resolve", &v->pipeline,
                                     err);
    return res;
}

void gn_vsm_resolve_write_sets(gn_renderer *r, gn_vsm_gpu *vsm)
{
    gn_vsm_resolve_gpu *v = &vsm->resolve;
    for (uint32_t k = 0; k < 2; k++) {
        gn_vk_write w[GN_BIND_RESOLVE_COUNT] = {
            gn_write_frame(r, GN_BIND_RESOLVE_FRAME),
            gn_write_sampled(GN_BIND_RESOLVE_DEPTH, r->targets.depth, r->pipes.clamp),
            gn_write_sampled(GN_BIND_RESOLVE_HISTORY, gn_target(r, GN_TARGET_VSM_MASK0 + 1 - k),
                             r->pipes.clamp),
            gn_write_storage_image(GN_BIND_RESOLVE_MASK, gn_target(r, GN_TARGET_VSM_MASK0 + k)),
            gn_write_storage(GN_BIND_RESOLVE_TABLE, &vsm->table),
            gn_write_storage(GN_BIND_RESOLVE_VERSIONS, &vsm->versions_buf),
            gn_write_sampled(GN_BIND_RESOLVE_ATLAS, &vsm->atlas, vsm->atlas_sampler),
        };
        gn_vk_write_set(&r->vk, v->sets[k], w, GN_BIND_RESOLVE_COUNT);
    }
}

void gn_vsm_resolve_release(gn_renderer *r, gn_vsm_gpu *vsm)
{
    gn_vsm_resolve_gpu *v = &vsm->resolve;
    gn_vk *vk = &r->vk;
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)v->pipeline);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)v->pipeline_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)v->layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)v->pool);
}

/* The camera cut between the last resolved frame and this one (see GN_RESOLVE_CUT_METRES). */
static bool camera_cut(const gn_vsm_resolve_gpu *v, const float camera[3], const float forward[3])
{
    float d2 = 0.0f, cos_turn = 0.0f;
    for (int i = 0; i < 3; i++) {
        float d = camera[i] - v->prev_camera[i];
        d2 += d * d;
        cos_turn += forward[i] * v->prev_forward[i];
    }
    /* written as "not within" so that a NaN camera counts as a cut */
    return !(d2 <= GN_RESOLVE_CUT_METRES * GN_RESOLVE_CUT_METRES && cos_turn >= GN_RESOLVE_CUT_COS);
}

void gn_vsm_resolve_plan(gn_renderer *r, gn_vsm_gpu *vsm, const gn_scene *s, gn_gpu_frame *g)
{
    gn_vsm_resolve_gpu *v = &vsm->resolve;
    v->run = vsm->active && !v->per_fragment;
    memcpy(g->prev_view_proj, g->view_proj, sizeof g->prev_view_proj);
    memset(g->vsm_resolve, 0, sizeof g->vsm_resolve);
    memset(g->vsm_resolve_params, 0, sizeof g->vsm_resolve_params);
    if (!v->run) {
        v->have_prev = false; /* a frame without RESOLVE leaves no history */
        return;
    }
    /* history: the other mask was written by the frame just before this one (every frame
     * since the targets were made ran RESOLVE), of this scene as it is, from a camera that
     * did not cut */
    bool history = v->have_prev && gn_scene_stamp_same_geometry(&v->prev_scene, s) &&
                   !camera_cut(v, g->camera_pos, g->camera_forward);
    v->current = (uint32_t)(v->counter & 1);
    if (history) memcpy(g->prev_view_proj, v->prev_view_proj, sizeof g->prev_view_proj);
    g->vsm_resolve[0] = v->current + 1;
    g->vsm_resolve[1] = history ? 1u : 0u;
    g->vsm_resolve[2] = v->accept_all ? 1u : 0u;
    const float *o = OFFSETS[v->counter % 4];
    g->vsm_resolve_params[0] = o[0];
    g->vsm_resolve_params[1] = o[1];
    /* the resolved depth is sample 0's: the surface RESOLVE reads lies under it */
    gn_msaa_sample0(r->msaa, &g->vsm_resolve_params[2], &g->vsm_resolve_params[3]);

    v->counter++;
    v->have_prev = true;
    memcpy(v->prev_view_proj, g->view_proj, sizeof v->prev_view_proj);
    memcpy(v->prev_camera, g->camera_pos, sizeof v->prev_camera);
    memcpy(v->prev_forward, g->camera_forward, sizeof v->prev_forward);
    v->prev_scene = gn_scene_stamp_of(s);
}

uint32_t gn_vsm_resolve_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const gn_vsm_gpu *)self)->resolve.run ? 1 : 0;
}

uint32_t gn_vsm_resolve_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)run;
    gn_vsm_gpu *vsm = self;
    uint32_t cur = vsm->resolve.current;
    out[0] = (gn_vk_use){.image = r->targets.depth, .access = GN_ACCESS_SHADER_READ};
    out[1] =
        (gn_vk_use){.image = gn_target(r, GN_TARGET_VSM_MASK0 + 1 - cur), .access = GN_ACCESS_SHADER_READ};
    out[2] = (gn_vk_use){.image = gn_target(r, GN_TARGET_VSM_MASK0 + cur), .access = GN_ACCESS_COMPUTE_WRITE};
    out[3] = (gn_vk_use){.buffer = &vsm->table, .access = GN_ACCESS_SHADER_READ};
    out[4] = (gn_vk_use){.buffer = &vsm->versions_buf, .access = GN_ACCESS_SHADER_READ};
    out[5] = (gn_vk_use){.image = &vsm->atlas, .access = GN_ACCESS_SHADER_READ};
    return 6;
}

gn_pass_work gn_vsm_resolve_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    gn_vsm_resolve_gpu *v = &((gn_vsm_gpu *)self)->resolve;
    gn_vk *vk = &r->vk;
    gn_vk_cmd_bind_pipeline(vk, true, v->pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, v->pipeline_layout, 0, 1, &v->sets[v->current], 1, &dyn);
    gn_vk_cmd_dispatch(vk, (r->width + 7) / 8, (r->height + 7) / 8, 1); /* 8x8 threads, one a pixel */
    return (gn_pass_work){0, 0};
}
