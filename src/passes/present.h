/* Presenting to a window: the feature's state (src/passes/present.c, src/vk/swapchain.c). */
#ifndef GN_PASSES_PRESENT_H
#define GN_PASSES_PRESENT_H

#include "passes/passes.h"

/* Presenting to a window (src/passes/present.c, src/vk/swapchain.c). */
typedef struct gn_present_gpu {
    bool created; /* the pipeline and targets below exist (a surface was attached once) */
    gn_vk_swapchain swapchain;
    gn_vk_image composed;                      /* the output with the overlay blended over it */
    gn_vk_buffer overlay[GN_FRAMES_IN_FLIGHT]; /* the frame's overlay, a word a pixel, a slot each */
    VkDescriptorSetLayout layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool pool;
    VkDescriptorSet sets[GN_FRAMES_IN_FLIGHT];
    VkPipeline pipeline;
    /* this frame: the swapchain image acquired (NULL: nothing to present), the overlay */
    gn_vk_image *target;
    bool overlay_now;
} gn_present_gpu;

static inline gn_present_gpu *gn_present_of(const gn_renderer *r)
{
    return gn_feature_state(r, GN_FEATURE_PRESENT);
}
gn_result gn_present_attach(gn_renderer *r, VkSurfaceKHR surface, bool vsync, gn_error *err);

#endif
