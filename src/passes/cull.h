/* GPU culling of the camera's draw list: the feature's state (src/passes/cull.c). */
#ifndef GN_PASSES_CULL_H
#define GN_PASSES_CULL_H

#include "passes/passes.h"
#include "scene/stamp.h"

typedef struct gn_cull_gpu {
    VkDescriptorSetLayout layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkPipeline pipelines[3]; /* TEST, SCAN, WRITE */
    VkBuffer set_instances;  /* the instance buffer the set names */
    gn_vk_buffer counts;     /* visible instances, triangles, non-empty groups (host-visible) */
    /* the scene's static draw order, built once a scene */
    bool built;
    gn_scene_stamp stamp;
    gn_cull_item *items;
    gn_draw_list all; /* every instance not removed, in draw-key order: its groups and batches */
    gn_vk_buffer order, groups, local, blocks;
    gn_vk_buffer visible, commands; /* out: the camera's list and one command a group */
    VkDescriptorSet frame_set;      /* the scene passes' set 0 with `visible` as its list */
    uint32_t slots, block_count;
    /* this frame */
    bool run;
    gn_frustum frustum;
    uint32_t mask_words; /* the keep mask's first word in the ring; ~0u: none */
} gn_cull_gpu;

/* The camera's plan on the GPU path (gn_plan_camera calls it): the static order (re)built when
 * the scene changed, the ring laid out for the list and its commands, a world's keep mask. */
gn_result gn_cull_plan_camera(gn_renderer *r, const gn_scene *s, const gn_frustum *frustum, bool no_pvs,
                              gn_error *err);
/* The last submitted frame's visible list, as the GPU wrote it (waits for the GPU). */
gn_result gn_cull_read_visible(gn_renderer *r, uint32_t *out, uint32_t max, uint32_t *count, gn_error *err);

#endif
