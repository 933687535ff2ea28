/* Depth of field's state (src/passes/dof.c). */
#ifndef GN_PASSES_DOF_H
#define GN_PASSES_DOF_H

#include "renderer.h"

enum { GN_DOF_STEPS = 3 }; /* down, blur x, blur y */

typedef struct gn_dof_gpu {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    VkPipeline pipeline;
    VkDescriptorSet set[GN_DOF_STEPS];
    gn_vk_image copy[2]; /* half size: [0] the blurred result (down, then y), [1] blurred along x */
    bool on;
} gn_dof_gpu;

/* The blurred copy the tone map blends in (its uses name it, also when off). */
gn_vk_image *gn_dof_output(gn_renderer *r);

#endif
