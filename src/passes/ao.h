/* Ambient occlusion's state and its test hooks (src/passes/ao.c). */
#ifndef GN_PASSES_AO_H
#define GN_PASSES_AO_H

#include "decide/ao.h"
#include "renderer.h"

typedef struct gn_ao_gpu {
    VkDescriptorSetLayout set_layout, receiver_layout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet set, receiver; /* the passes' set; the forward pass's set 4 */
    VkPipeline z_pipeline, estimate, blur;
    gn_vk_buffer z, raw, tmp; /* the Z pyramid; the estimate (then the result); the x-blurred one */
    gn_ao_layout levels;
    bool on;        /* this frame has ambient occlusion */
    bool skip_blur; /* test-only: the result is the raw estimate */
} gn_ao_gpu;

/* Waits for the GPU and copies the last frame's Z pyramid (levels.texels floats) and its result
 * (width*height floats: the blurred estimate, or the raw one under gn_ao_skip_blur). Either
 * pointer may be NULL. */
gn_result gn_ao_read(gn_renderer *r, float *z, float *result, gn_error *err);
/* Whether the last planned frame had ambient occlusion. */
bool gn_ao_was_on(const gn_renderer *r);
/* Test-only: the next frames stop after the estimate (no blur), so raw can be read. */
void gn_ao_skip_blur(gn_renderer *r, bool skip);

#endif
