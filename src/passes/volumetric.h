/* Volumetric fog's state and its test hook (src/passes/volumetric.c). */
#ifndef GN_PASSES_VOLUMETRIC_H
#define GN_PASSES_VOLUMETRIC_H

#include "renderer.h"

#define GN_VOL_ATLAS_W (GN_GPU_VOL_X * GN_GPU_VOL_TILES_X)
#define GN_VOL_ATLAS_H (GN_GPU_VOL_Y * (GN_GPU_VOL_Z / GN_GPU_VOL_TILES_X))
#define GN_VOL_NEAR 0.5f    /* metres: the first slice's view depth */
#define GN_VOL_HISTORY 0.9f /* the last frame's share of a froxel */
#define GN_VOL_TECHNIQUES 3 /* one inject pipeline a sun technique: none, cascades, virtual shadow maps */

typedef struct gn_volumetric_gpu {
    VkDescriptorSetLayout receiver_layout, integrate_layout;
    VkPipelineLayout layout[GN_VOL_TECHNIQUES], integrate_pipeline_layout;
    VkPipeline inject[GN_VOL_TECHNIQUES], integrate;
    VkDescriptorPool pool;
    VkDescriptorSet receiver[2], integrate_set[2]; /* [i]: frame writing inject[i] */
    gn_vk_image injected[2];                       /* ping-pong: this frame's and the history */
    gn_vk_image integrated;
    bool on;                /* this frame has the volume */
    uint32_t cur;           /* the inject image this frame writes */
    uint32_t technique;     /* this frame's sun technique */
    bool recorded, history; /* this frame recorded the volume; the last submitted one did */
    uint32_t frame;         /* frames with the volume: the jitter's sequence */
    float prev_view_proj[16], view_proj[16];
} gn_volumetric_gpu;

/* Waits for the GPU and copies the integrated froxels (GN_VOL_ATLAS_W x _H rgba halves). Fails until a
 * frame made them. */
gn_result gn_volumetric_read(gn_renderer *r, uint16_t *out, gn_error *err);

#endif
