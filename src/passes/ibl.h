/* Image-based light's state and its test hooks (src/passes/ibl.c). */
#ifndef GN_PASSES_IBL_H
#define GN_PASSES_IBL_H

#include "renderer.h"

#define GN_IBL_DFG_SIZE 32     /* the DFG table's side: n.v across, roughness down */
#define GN_IBL_DFG_SAMPLES 512 /* visible-GGX samples a texel (the table is made once) */
/* A cut, after which the environment is made whole at once: the sky changed with the sun still
 * (the camera's height, a test's sky), or the sun moved by GN_IBL_FULL_DEG or a sky colour by
 * GN_IBL_FULL_SKY of itself since the environment was last made (a new time of day); a sun
 * moving by less (0.004 degrees a frame at 20x) makes one prefiltered level a frame. */
#define GN_IBL_FULL_DEG 1.0f
#define GN_IBL_FULL_SKY 0.05f
#define GN_IBL_ALL_LEVELS 0x3eu /* bits 1..5: the prefiltered levels */

typedef struct gn_ibl_gpu {
    VkDescriptorSetLayout set_layout, sky_layout, prefilter_layout, receiver_layout;
    VkPipelineLayout layout, sky_pipeline_layout, prefilter_pipeline_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set, sky_set, prefilter_set, receiver; /* receiver: the forward pass's set 5 */
    VkPipeline dfg_pipeline, sky_pipeline, prefilter_pipeline, sh_pipeline;
    gn_vk_image dfg;              /* rgba16f: A, B */
    gn_vk_image level0;           /* the environment's octahedral map (rgba16f, nits) */
    gn_vk_image atlas;            /* its prefiltered levels 1..5 */
    gn_vk_buffer sh;              /* 9 vec4 */
    bool dfg_recorded, dfg_built; /* recorded in this frame; a submitted frame made it */
    bool on;                      /* this frame's ambient comes from the environment */
    /* the sky the environment was last made from (zenith, horizon, ground rgb), and this frame's */
    float built_sky[9], sky[9];
    bool env_recorded, env_built;
    uint32_t stale;                     /* bits 1..5: levels made from an older level 0 than the current */
    uint32_t recorded_stale;            /* what this frame leaves stale, once it is submitted */
    uint32_t next_level, recorded_next; /* the level a refresh looks at first (1..5), in turn */
    float sun_dir[3]; /* this frame's sun, and the sun the environment was last made under */
    float built_sun_dir[3];
    float test_uniform; /* test-only: > 0 makes the sky (and so the environment) this many nits */
    /* the reflection probes (src/probes.c): level 0 and the prefiltered levels of each in a
     * layer, and their records (set 5); made at full size once, so the set never changes */
    gn_vk_image probe_level0, probe_atlas;
    gn_vk_buffer probe_buffer;
    uint32_t probe_count; /* uploaded and in use */
    struct gn_ibl_probe_upload {
        uint16_t *level0, *atlas; /* GN_GPU_PROBES layers each, rgba halves */
        gn_gpu_probe probes[GN_GPU_PROBES];
        uint32_t count;
        bool pending; /* the next frame uploads them */
    } upload;
    bool probes_on; /* this frame's surfaces reflect their probes */
} gn_ibl_gpu;

/* Hands the probes (src/probes.c) to the next frame to upload, copied: count (<= GN_GPU_PROBES)
 * probes' level 0 (GN_GPU_PROBE_SIZE^2 texels of 4 halves each, one after the other), their
 * prefiltered atlases (GN_GPU_PROBE_ATLAS_W x _H each) and records. count 0: none. */
gn_result gn_ibl_set_probes(gn_renderer *r, uint32_t count, const uint16_t *level0, const uint16_t *atlas,
                            const gn_gpu_probe *probes, gn_error *err);
/* The probes in use (uploaded by a frame). */
uint32_t gn_ibl_probe_count(const gn_renderer *r);

/* Waits for the GPU and copies the environment's level 0 (GN_GPU_IBL_SIZE^2 texels of 4
 * halves) and its harmonics (9 vec4 floats); either may be NULL. Fails until a frame made them. */
gn_result gn_ibl_read_env(gn_renderer *r, uint16_t *level0, float *sh, gn_error *err);
/* Waits for the GPU and copies the prefiltered levels' atlas (GN_GPU_IBL_ATLAS_W x _H texels of 4
 * halves). Fails until a frame made the environment. */
gn_result gn_ibl_read_atlas(gn_renderer *r, uint16_t *atlas, gn_error *err);
/* Test-only: the sky of every later frame is a uniform `nits` in every direction (0: the sky again),
 * for a white furnace. */
void gn_ibl_test_uniform_sky(gn_renderer *r, float nits);
/* Waits for the GPU and copies the DFG table (GN_IBL_DFG_SIZE^2 texels of 4 halves, n.v fastest).
 * Fails until a frame has made it. */
gn_result gn_ibl_read_dfg(gn_renderer *r, uint16_t *out, gn_error *err);

#endif
