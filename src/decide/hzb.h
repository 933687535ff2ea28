/* Occlusion culling's decisions, the CPU reference of the GPU's (shaders/hzb*.comp and the
 * occlusion modes of shaders/cull_test.comp, held to each other bit for bit by gpu_occlusion):
 * a hierarchical depth buffer (HZB) built from a reversed-Z depth image, and the test of a
 * bounding sphere against it.
 *
 * Reversed-Z: larger depth is nearer, 0 is infinitely far. Each HZB texel keeps the FARTHEST
 * (smallest) depth below it, so "everything in this texel is at least this near". Level 0 is
 * ceil(W/2) x ceil(H/2), each texel the minimum of the (up to) 2x2 pixels and all their
 * samples below it; every further level halves the previous one, rounding up, and takes the
 * minimum of the (up to) 2x2 texels below that exist, down to 1x1. A texel (x, y) of level k
 * thus covers exactly the pixels [x, x+1) * 2^(k+1) (each axis) that lie in the image: no
 * level drops a row or column at sizes that are not powers of two (the false culling Bevy
 * had at 3840x2160). */
#ifndef GN_DECIDE_HZB_H
#define GN_DECIDE_HZB_H

#include <stdbool.h>
#include <stdint.h>

#define GN_HZB_MAX_LEVELS 16u /* 1x1 is reached by 2^17 pixels a side */

typedef struct gn_hzb_layout {
    uint32_t width, height; /* the depth image's pixels */
    uint32_t levels;
    uint32_t w[GN_HZB_MAX_LEVELS], h[GN_HZB_MAX_LEVELS];
    uint32_t offset[GN_HZB_MAX_LEVELS]; /* each level's first texel in one array, level 0 first */
    uint32_t texels;                    /* all levels' */
} gn_hzb_layout;

/* The levels of a width x height image (both 1..65536). */
void gn_hzb_layout_make(uint32_t width, uint32_t height, gn_hzb_layout *out);

/* out[layout->texels] from depth[(y * width + x) * samples + s]. */
void gn_hzb_build(const gn_hzb_layout *l, const float *depth, uint32_t samples, float *out);

/* The same pyramid for a standard depth image (smaller is nearer: the shadow maps'), each
 * texel the MAXIMUM below it; one sample a pixel (decide/vsm_hzb.h). */
void gn_hzb_build_max(const gn_hzb_layout *l, const float *depth, float *out);

/* The farthest depth under the pixel rectangle [x0, x1] x [y0, y1] (inclusive, inside the
 * image): of the at most 2x2 texels of the finest level that cover it with them; max: the
 * pyramid is gn_hzb_build_max's. */
float gn_hzb_farthest(const gn_hzb_layout *l, const float *hzb, const uint32_t rect[4], bool max);

/* The camera the spheres are tested for: world -> view (column-major, the view looks down -z)
 * and the projection's x and y scales (p00 = f / aspect, p11 = -f for Vulkan's y down) and its
 * near plane: depth = near / distance. */
typedef struct gn_hzb_camera {
    float view[16];
    float p00, p11, near_plane;
} gn_hzb_camera;

/* The pixel rectangle [x0, x1] x [y0, y1] (inclusive, clamped to the image) that holds the
 * sphere's projection, and its nearest depth; false when the sphere reaches the near plane or
 * its rectangle misses the image (then nothing can be said). */
bool gn_hzb_sphere_rect(const gn_hzb_layout *l, const gn_hzb_camera *c, const float sphere[4],
                        uint32_t rect[4], float *nearest);

/* Whether the sphere is certainly hidden: its nearest depth is farther than the farthest depth
 * of the HZB texels (at most 2x2, of the finest level that covers its rectangle with them)
 * under its rectangle. Conservative: false whenever in doubt. */
bool gn_hzb_occluded(const gn_hzb_layout *l, const float *hzb, const gn_hzb_camera *c, const float sphere[4]);

#endif
