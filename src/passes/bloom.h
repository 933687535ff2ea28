/* Bloom's state and its test hooks (src/passes/bloom.c). */
#ifndef GN_PASSES_BLOOM_H
#define GN_PASSES_BLOOM_H

#include "renderer.h"

typedef struct gn_bloom_gpu {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    VkPipeline pipeline;
    VkDescriptorSet down_set[GN_GPU_BLOOM_MAX_LEVELS], up_set[GN_GPU_BLOOM_MAX_LEVELS];
    gn_vk_image level[GN_GPU_BLOOM_MAX_LEVELS]; /* level k: the output's size >> (k + 1) */
    uint32_t levels;
    bool on; /* this frame blooms */
} gn_bloom_gpu;

/* Levels of the chain at an output size: halving until the smaller side would fall under 16. */
uint32_t gn_bloom_levels_for(uint32_t width, uint32_t height);
/* The chain's level 0 after a frame: what the tone map blends in (its uses name it). */
gn_vk_image *gn_bloom_output(gn_renderer *r);
/* Waits for the GPU and copies a level (rgba16f, its width * height * 4 halves). */
gn_result gn_bloom_read(gn_renderer *r, uint32_t level, uint16_t *out, gn_error *err);

#endif
