/* The VSM's casters culled against the pages' own depth (seed 003's shadow HZB): the CPU
 * reference of shaders/vsm_hzb.glsl (the pyramid of a page) and shaders/vsm_hidden.glsl (the
 * test), held to the GPU's survivors by tests/gpu/gpu_vsm_occlusion.c.
 *
 * A page's depth is standard (0 nearest the sun, a caster's fragment is kept when LESS than
 * the stored depth), so each pyramid texel keeps the MAXIMUM of the texels below it
 * (gn_hzb_build_max over the page_texels^2 layer). A (caster, page) pair is hidden when the
 * nearest depth of the caster's sphere is farther, by a margin, than the farthest depth under
 * the sphere's footprint: every fragment it could write then fails the depth test, because
 *   - its vertices lie in the sphere (and a LOD's vertices are a subset of its mesh's),
 *   - the casters' depth bias (constant and slope, both positive) only moves them away, and
 *     depth clamping moves one below 0 up to 0 and one beyond 1 down to 1, which a footprint
 *     whose farthest depth is under the sphere's nearest cannot hold anyway,
 * so culling it leaves every texel's depth unchanged: exact, not an approximation.
 *
 * Two phases (docs/VISIBILITY.md): BIN tests each pair of a page whose tile still holds that
 * page's previous depth against that tile's pyramid (a predictor: it was rendered under an
 * older light), and the pairs it calls hidden wait; RENDER draws the rest, the pyramid of each
 * layer is built from what they drew, the waiting pairs are tested against it, and RENDER
 * draws the survivors over the same layers. */
#ifndef GN_DECIDE_VSM_HZB_H
#define GN_DECIDE_VSM_HZB_H

#include "decide/hzb.h"
#include "shared/gpu_types.h"

#include <stdbool.h>
#include <stdint.h>

/* The depth margin of the test, GN_VSM_HIDDEN_MARGIN of the light's depth span (1.5 cm at
 * the default +-500 m: against the rasteriser's rounding of a vertex's depth, about 2^-24), is
 * in shaders/shared/gpu_types.h for both sides. */

/* A page as RENDER draws it (gn_gpu_vsm_render.rect): its light-space corner (x0, y0, metres),
 * its size and 2 / size. */
typedef struct gn_vsm_page_rect {
    float x0, y0, size, scale;
} gn_vsm_page_rect;

/* The texel rectangle (inclusive, clamped to the page) that holds the footprint of a sphere
 * (light-space centre lp, radius r) in a page of `texels` a side, grown by half a texel each
 * way against rounding; false when it misses the page. */
bool gn_vsm_footprint(const gn_vsm_page_rect *p, uint32_t texels, const float lp[3], float r,
                      uint32_t rect[4]);

/* Whether a sphere (light-space centre lp, radius r) certainly draws nothing into a page whose
 * depth's pyramid is hzb (gn_hzb_build_max over l, the page's texels^2); depth_range: the
 * light's metres each side of its pivot (depth = (z + range) / (2 range)); compared in metres
 * (no division, which GPUs round their own way). Conservative. */
bool gn_vsm_hidden(const gn_hzb_layout *l, const float *hzb, const gn_vsm_page_rect *p, const float lp[3],
                   float r, float depth_range);

#endif
