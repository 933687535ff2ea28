/* The occlusion debug view (a feature, `--view occlusion`): after the tone map, the frame half
 * blended with the HZB's level 2 (texels of 8x8 pixels; white near, black at infinity), and a
 * red outline around the sphere's rectangle of every instance in the view that two-phase
 * occlusion culling left out this frame (shaders/occlusion_view.comp, occlusion_rects.comp).
 * It reads the cull feature's buffers through its set; with occlusion culling off (or on the
 * CPU path) the output is the frame alone. */
#include "passes/cull.h"

#include <string.h>

#define CS VK_SHADER_STAGE_COMPUTE_BIT

typedef struct occlusion_view {
    VkDescriptorSetLayout layout; /* set 1: the output */
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkPipeline blend, rects;
    bool run;
} occlusion_view;

static gn_result write_set(gn_renderer *r, void *self, gn_error *err)
{
    (void)err;
    occlusion_view *v = self;
    gn_vk_write w = gn_write_storage_image(0, gn_target(r, GN_TARGET_OUTPUT));
    gn_vk_write_set(&r->vk, v->set, &w, 1);
    return GN_OK;
}

static gn_result create(gn_renderer *r, void *self, const gn_renderer_desc *d, gn_error *err)
{
    (void)d;
    occlusion_view *v = self;
    gn_vk *vk = &r->vk;
    const gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    const gn_vk_binding b[1] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, CS}};
    gn_result res = gn_vk_set_layout(vk, b, 1, "occlusion view output", &v->layout, err);
    VkDescriptorSetLayout sets[2] = {c->layout, v->layout};
    if (!res)
        res = gn_vk_pipeline_layout(vk, sets, 2, sizeof(gn_gpu_cull_push), "occlusion view",
                                    &v->pipeline_layout, err);
    if (!res) res = gn_vk_descriptor_pool(vk, 1, "occlusion view", &v->pool, err);
    if (!res) res = gn_vk_alloc_set(vk, v->pool, v->layout, "occlusion view output", &v->set, err);
    if (!res)
        res = gn_vk_compute_pipeline(vk, "occlusion_view.comp", v->pipeline_layout, "occlusion_view.comp",
                                     &v->blend, err);
    if (!res)
        res = gn_vk_compute_pipeline(vk, "occlusion_rects.comp", v->pipeline_layout, "occlusion_rects.comp",
                                     &v->rects, err);
    if (!res) res = write_set(r, self, err);
    return res;
}

static gn_result plan(gn_renderer *r, void *self, const gn_scene *s, const gn_frame_inputs *in,
                      gn_gpu_frame *g, gn_error *err)
{
    (void)s, (void)g, (void)err;
    occlusion_view *v = self;
    v->run = in->debug_view == GN_VIEW_OCCLUSION && r->plan.occlusion;
    return GN_OK;
}

static void release(gn_renderer *r, void *self)
{
    occlusion_view *v = self;
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)v->blend);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)v->rects);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)v->pipeline_layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)(uintptr_t)v->layout);
    gn_vk_release(&r->vk, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)(uintptr_t)v->pool);
}

const gn_feature gn_feature_occlusion_view = {.name = "occlusion view",
                                              .size = sizeof(occlusion_view),
                                              .create = create,
                                              .resize = write_set,
                                              .plan = plan,
                                              .release = release};

uint32_t gn_occlusion_view_runs(const gn_renderer *r, const void *self)
{
    (void)r;
    return ((const occlusion_view *)self)->run ? 1 : 0;
}

uint32_t gn_occlusion_view_uses(gn_renderer *r, void *self, uint32_t run, gn_vk_use *out)
{
    (void)self, (void)run;
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    out[0] = (gn_vk_use){.image = gn_target(r, GN_TARGET_OUTPUT), .access = GN_ACCESS_COMPUTE_WRITE};
    /* the culling's set: what its dispatches wrote, read here (its uses, as reads) */
    uint32_t n = 1 + gn_cull_uses(r, c, 0, out + 1);
    for (uint32_t i = 1; i < n; i++) out[i].access = GN_ACCESS_SHADER_READ;
    return n;
}

gn_pass_work gn_occlusion_view_record(gn_renderer *r, void *self, uint32_t run)
{
    (void)run;
    occlusion_view *v = self;
    gn_cull_gpu *c = gn_feature_state(r, GN_FEATURE_CULL);
    gn_vk *vk = &r->vk;
    VkDescriptorSet sets[2] = {c->set, v->set};
    gn_vk_cmd_bind_sets(vk, true, v->pipeline_layout, 0, 2, sets, 0, NULL);
    gn_gpu_cull_push push = c->camera;
    push.sizes[0] = c->slots;
    push.where[2] = c->history_half ? c->slots : 0; /* the half this frame's final list wrote */
    gn_vk_cmd_push(vk, v->pipeline_layout, sizeof push, &push);
    gn_vk_cmd_bind_pipeline(vk, true, v->blend);
    gn_vk_cmd_dispatch(vk, (r->width + 7) / 8, (r->height + 7) / 8, 1);
    gn_vk_use output = {.image = gn_target(r, GN_TARGET_OUTPUT), .access = GN_ACCESS_COMPUTE_WRITE};
    gn_vk_barriers(vk, vk->cur->cmd, &output, 1);
    gn_vk_cmd_bind_pipeline(vk, true, v->rects);
    gn_vk_cmd_dispatch(vk, (c->slots + 255) / 256, 1, 1);
    return (gn_pass_work){0, 0};
}
