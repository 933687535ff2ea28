/* The renderer's private state: the Vulkan context, render targets, the uploaded scene,
 * the passes, and the CPU decisions of the frame being built. */
#ifndef GN_RENDERER_H
#define GN_RENDERER_H

#include "decide/drawlist.h"
#include "scene/scene.h"
#include "vk/vk.h"

/* The scene as the GPU holds it (src/gpu_scene.c). */
typedef struct gn_gpu_scene {
    const gn_scene *source;
    uint32_t generation, dynamic_generation;
    gn_vk_buffer vertices, indices, instances, materials;
    gn_vk_image *textures;
    uint32_t texture_count;
    gn_vk_image white, flat_normal; /* bound where a material has no texture */
    VkDescriptorPool pool;
    VkDescriptorSet *material_sets;
    uint32_t material_count;
    uint32_t *dynamic_ids; /* instances whose transforms are re-uploaded when they move */
    uint32_t dynamic_count;
} gn_gpu_scene;

/* Render targets (src/targets.c). With msaa 1 the resolved targets alias the others. */
typedef struct gn_targets {
    gn_vk_image depth_ms, depth_resolved, hdr_ms, hdr_resolved, ldr;
    gn_vk_image *depth, *hdr; /* what later passes sample: resolved, or the single-sample one */
    gn_vk_buffer readback;
} gn_targets;

/* What the CPU decided for this frame, in the ring (src/frame.c). */
typedef struct gn_frame_plan {
    gn_draw_list list;
    gn_cull_item *items;
    uint32_t capacity;
    VkDeviceSize frame_offset, visible_offset, indirect_offset;
    uint64_t triangles; /* submitted per scene pass */
} gn_frame_plan;

typedef struct gn_pipelines {
    VkDescriptorSetLayout frame_layout, material_layout, tonemap_layout;
    VkPipelineLayout scene_layout, tonemap_layout_p;
    VkDescriptorPool pool;
    VkDescriptorSet frame_set, tonemap_set;
    VkSampler repeat, clamp;
    VkPipeline depth, forward, sky, tonemap;
} gn_pipelines;

struct gn_renderer {
    gn_vk vk;
    uint32_t width, height, msaa;
    gn_targets targets;
    gn_pipelines pipes;
    gn_gpu_scene scene;
    gn_frame_plan plan;
    bool frame_set_written;
    bool rendered; /* a frame has been submitted since the targets were made */
    gn_frame_view view; /* camera and sun of the last frame (gn_get_frame_view) */
};

/* gpu_scene.c */
gn_result gn_gpu_scene_sync(gn_renderer *r, const gn_scene *s, gn_error *err);
void gn_gpu_scene_release(gn_renderer *r);

/* targets.c */
gn_result gn_targets_create(gn_renderer *r, gn_error *err);
void gn_targets_release(gn_renderer *r);

/* passes/setup.c: layouts, samplers and pipelines of every pass */
gn_result gn_pipelines_create(gn_renderer *r, gn_error *err);
void gn_pipelines_release(gn_renderer *r);

/* the passes (src/passes/) */
void gn_pass_depth_prepass(gn_renderer *r);
void gn_pass_forward(gn_renderer *r);
void gn_pass_tonemap(gn_renderer *r);
/* draws the plan's visible instances; with materials, one indirect draw per batch */
void gn_scene_draw(gn_renderer *r, bool materials, uint32_t *draws);

/* frame.c */
void gn_frame_plan_free(gn_frame_plan *p);
gn_result gn_frame_run(gn_renderer *r, gn_scene *s, const gn_frame_desc *f, gn_error *err);

#endif
