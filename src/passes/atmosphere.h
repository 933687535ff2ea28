/* The atmosphere's tables on the GPU (src/passes/atmosphere.c): their state, and the hooks its
 * readers (the image-based light's sets) and the tests use. */
#ifndef GN_PASSES_ATMOSPHERE_H
#define GN_PASSES_ATMOSPHERE_H

#include "renderer.h"

enum { GN_ATMO_IMAGE_T, GN_ATMO_IMAGE_MS, GN_ATMO_IMAGE_SKYVIEW, GN_ATMO_IMAGE_AERIAL, GN_ATMO_IMAGES };

typedef struct gn_atmosphere_gpu {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkPipeline transmittance, ms, skyview, aerial;
    gn_vk_image image[GN_ATMO_IMAGES]; /* rgba16f; the aerial froxels as one atlas of slices */
    bool luts_recorded,
        luts_built; /* the frame recorded the transmittance and MS; a submitted one made them */
    bool frame_recorded, frame_built; /* ... the sky view and the aerial volume */
#define GN_ATMO_INPUTS 29
    float want[GN_ATMO_INPUTS],
        built[GN_ATMO_INPUTS]; /* what this frame's and the built ones are made from */
} gn_atmosphere_gpu;

/* The atmosphere's image (GN_ATMO_IMAGE_*), for the sets that read it. */
gn_vk_image *gn_atmosphere_image(gn_renderer *r, uint32_t which);
/* Waits for the GPU and copies one table (rgba halves, row by row; bytes: w * h * 8). Fails until a
 * frame made it. */
gn_result gn_atmosphere_read(gn_renderer *r, uint32_t which, uint16_t *out, size_t bytes, gn_error *err);

#endif
