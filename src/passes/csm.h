/* The sun's cascaded shadow maps: the feature's state (src/passes/csm.c), for it and its tests. */
#ifndef GN_PASSES_CSM_H
#define GN_PASSES_CSM_H

#include "decide/csm.h"
#include "renderer.h"

/* The sun's cascaded shadow maps (src/passes/csm.c). */
typedef struct gn_csm_gpu {
    gn_csm_settings settings; /* resolved from gn_csm_desc */
    float normal_offset_texels;
    float bias_constant, bias_slope;    /* depth bias of its casters' pipelines (VSM's too) */
    gn_vk_image map;                    /* D32 array, a layer per cascade */
    VkPipeline pipeline, mask_pipeline; /* opaque and alpha-tested casters */
    VkPipelineLayout layout;
    VkSampler sampler;                     /* linear, with comparison: hardware PCF */
    VkDescriptorSetLayout receiver_layout; /* the forward pass's set 2: the map */
    VkDescriptorPool pool;
    VkDescriptorSet receiver;
    gn_csm_cascade cascades[GN_CSM_MAX]; /* as each layer was last rendered */
    bool rendered[GN_CSM_MAX];
    uint64_t counter; /* frames rendered with CSM: the schedule's clock */
    /* this frame */
    uint32_t due_count, due[GN_CSM_MAX];
    gn_csm_cascade next[GN_CSM_MAX]; /* the matrices of the cascades due now */
    gn_view_draws draws[GN_CSM_MAX];
} gn_csm_gpu;

#endif
