/* VSM RESOLVE (docs/SHADOWS.md): a compute pass computes the sun's visibility for every pixel
 * of the resolved depth into a mask the forward pass reads one texel of. The lookup is the one
 * the forward pass did (shaders/vsm.glsl); what RESOLVE adds is temporal accumulation: each
 * pixel is reprojected through the previous frame's view-projection into the previous frame's
 * mask, and where that frame saw the same surface in the same page, the two are blended and the
 * PCF is moved by a sub-texel offset that cycles over four frames. The two masks ping-pong:
 * one is written, the other is the history. A pixel without history gets no offset, so a
 * frame without any (the first, after a cut) is the forward pass's lookup. */
#include "decide/camera.h"
#include "renderer.h"

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

gn_result gn_vsm_resolve_create(gn_renderer *r, gn_error *err)
{
    gn_vsm_resolve_gpu *v = &r->vsm_resolve;
    gn_vk *vk = &r->vk;
    const gn_vk_binding b[] = {
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, CS}, /* gn_gpu_frame */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS}, /* resolved depth */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS}, /* the previous frame's mask (history) */
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS},          /* this frame's mask */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},         /* VSM page table */
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, CS},         /* VSM light versions */
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CS}, /* VSM page atlas, comparison sampler */
    };
    gn_result res = gn_vk_set_layout(vk, b, sizeof b / sizeof b[0], "vsm resolve set", &v->layout, err);
    if (!res) res = gn_vk_pipeline_layout(vk, &v->layout, 1, 0, "vsm resolve", &v->pipeline_layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 2, "vsm resolve", &v->pool, err);
    for (uint32_t k = 0; !res && k < 2; k++)
        res =
            gn_vk_alloc_set(vk, v->pool, v->layout, k ? "vsm resolve 1" : "vsm resolve 0", &v->sets[k], err);
    if (!res)
        res = gn_vk_compute_pipeline(vk, "vsm_resolve.comp", v->pipeline_layout, "vsm resolve", &v->pipeline,
                                     err);
    if (!res) gn_vsm_resolve_write_sets(r);
    return res;
}

void gn_vsm_resolve_write_sets(gn_renderer *r)
{
    gn_vsm_resolve_gpu *v = &r->vsm_resolve;
    for (uint32_t k = 0; k < 2; k++) {
        gn_vk_write w[7] = {
            gn_write_frame(r, 0),
            gn_write_sampled(1, r->targets.depth, r->pipes.clamp),
            gn_write_sampled(2, &r->targets.vsm_mask[1 - k], r->pipes.clamp),
            {.binding = 3,
             .type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
             .image = &r->targets.vsm_mask[k],
             .layout = VK_IMAGE_LAYOUT_GENERAL},
            {.binding = 4, .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .buffer = r->vsm.table.buffer},
            {.binding = 5, .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .buffer = r->vsm.versions_buf.buffer},
            gn_write_sampled(6, &r->vsm.atlas, r->vsm.atlas_sampler),
        };
        gn_vk_write_set(&r->vk, v->sets[k], w, 7);
    }
}

void gn_vsm_resolve_release(gn_renderer *r)
{
    gn_vsm_resolve_gpu *v = &r->vsm_resolve;
    gn_vk *vk = &r->vk;
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)v->pipeline);
    gn_vk_release(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)v->pipeline_layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)v->layout);
    gn_vk_release(vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)v->pool);
    memset(v, 0, sizeof *v);
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

void gn_plan_vsm_resolve(gn_renderer *r, const gn_scene *s, gn_gpu_frame *g)
{
    gn_vsm_resolve_gpu *v = &r->vsm_resolve;
    v->run = r->vsm.active && !v->per_fragment;
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
    bool history = v->have_prev && v->prev_scene == s && v->prev_generation == s->generation &&
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
    v->prev_scene = s;
    v->prev_generation = s->generation;
}

void gn_pass_vsm_resolve(gn_renderer *r)
{
    gn_vsm_resolve_gpu *v = &r->vsm_resolve;
    gn_vk *vk = &r->vk;
    if (!v->run) return;
    gn_vk_use uses[] = {
        {.image = r->targets.depth, .access = GN_ACCESS_SHADER_READ},
        {.image = &r->targets.vsm_mask[1 - v->current], .access = GN_ACCESS_SHADER_READ},
        {.image = &r->targets.vsm_mask[v->current], .access = GN_ACCESS_COMPUTE_WRITE},
        {.buffer = &r->vsm.table, .access = GN_ACCESS_SHADER_READ},
        {.buffer = &r->vsm.versions_buf, .access = GN_ACCESS_SHADER_READ},
        {.image = &r->vsm.atlas, .access = GN_ACCESS_SHADER_READ},
    };
    uint32_t pass = gn_vk_pass_begin(vk, "vsm resolve", uses, sizeof uses / sizeof uses[0]);
    gn_vk_cmd_bind_pipeline(vk, true, v->pipeline);
    uint32_t dyn = (uint32_t)r->plan.frame_offset;
    gn_vk_cmd_bind_sets(vk, true, v->pipeline_layout, 0, 1, &v->sets[v->current], 1, &dyn);
    gn_vk_cmd_dispatch(vk, (r->width + 7) / 8, (r->height + 7) / 8, 1); /* 8x8 threads, one a pixel */
    gn_vk_pass_end(vk, pass, 0, 0);
}
