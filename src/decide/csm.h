/* Sun cascaded shadow maps: split distances, one stable orthographic view per cascade, caster
 * culling, the staggered update schedule and the receiver's cascade choice (the CPU mirror of
 * the shader). Seed 000 (sun shadow map) for the scheme, seed 002 (sun cascade shadows) for the
 * practical split blend and overlap, seed 003 section 3 for why a cached cascade "ticks" under a
 * moving sun unless its grid barely slides.
 *
 * Matrices are column-major float[16] (m[col*4+row]), as in decide/camera.h. Light clip space:
 * x, y in [-1,1] over the cascade with y flipped like gn_camera_projection; depth 0 nearest the
 * sun, 1 farthest (standard, not reversed): a receiver is lit when its depth - bias <= stored.
 * "View depth" is -z in camera view space (positive in front). */
#ifndef GN_DECIDE_CSM_H
#define GN_DECIDE_CSM_H

#include "decide/frustum.h"
#include "gnomon.h"

#include <stdbool.h>
#include <stdint.h>

#define GN_CSM_MAX 8

typedef struct gn_csm_settings {        /* resolved: no zero-means-default here */
    uint32_t cascades;                  /* 1..GN_CSM_MAX */
    uint32_t resolution;                /* texels per side */
    float near_plane;                   /* camera near plane, metres */
    float shadow_distance;              /* view depth where sun shadows end */
    float split_lambda;                 /* 0 uniform .. 1 logarithmic */
    bool explicit_splits;               /* true: splits[] below, else the lambda blend */
    float splits[GN_CSM_MAX];           /* far view depth of each cascade, increasing */
    float overlap;                      /* fraction of a cascade's depth range shared with the next */
    uint32_t update_period[GN_CSM_MAX]; /* frames between updates, >= 1 */
    float pivot_grid;                   /* metres; the light view turns about the camera rounded to this */
    float min_caster_texels;            /* casters smaller than this many texels are skipped */
    float caster_extension;             /* metres towards the sun that casters are looked for */
} gn_csm_settings;

typedef struct gn_csm_cascade {
    float view_proj[16];  /* world -> light clip: ortho, x,y in [-1,1] over the cascade, z 0 (sunward) .. 1 */
    float light_view[16]; /* world -> light space (rotation about the pivot), for reference */
    float center[3];      /* world centre of the slice's bounding sphere (unsnapped) */
    float radius;         /* half the ortho extent: the sphere's radius rounded UP (see csm.c) */
    float texel;          /* world size of one texel: 2 * radius / resolution */
    float near_depth, far_depth; /* the slice in view depth: [near_depth, far_depth] */
    float blend_end; /* far_depth + overlap band; receivers blend into the next over [far_depth, blend_end] */
    float depth_range; /* metres from z=0 to z=1 in light space (for bias in world units) */
} gn_csm_cascade;

/* Far view depth of each cascade: the practical log/uniform blend, or the explicit splits;
 * strictly increasing; the last equals shadow_distance. */
void gn_csm_split_distances(const gn_csm_settings *s, float out_far[GN_CSM_MAX]);
/* Rows right, up, forward (= -sun_dir) of a proper rotation; smooth for every sun above the
 * nadir, so a sun crossing the zenith or any horizon point turns the basis smoothly. */
void gn_csm_light_rotation(const float sun_dir[3], float out_rot[9]);
/* The camera position rounded to the nearest multiple of grid; grid <= 0 gives the origin. */
void gn_csm_pivot(const float camera_pos[3], float grid, float out[3]);
/* Fills out[0..s->cascades-1] (the rest zeroed). sun_dir: unit, towards the sun. */
void gn_csm_compute(const gn_csm_settings *s, const float camera_pos[3], const float camera_view[16],
                    float fov_y_rad, float aspect, const float sun_dir[3], gn_csm_cascade out[GN_CSM_MAX]);
/* The cascade's light-space box (x, y within the ortho extent, z from the caster extension to
 * the far end) as six planes: its casters are the spheres that reach it (gn_frustum_test_sphere),
 * the same test on the CPU and in GPU culling (shaders/cull_test.comp). */
void gn_csm_caster_frustum(const gn_csm_cascade *c, gn_frustum *out);
/* sphere = (world centre, radius): reaches the box and is at least min_diameter metres across
 * (min_caster_texels times the cascade's texel), in floats as the GPU's test. */
bool gn_csm_caster_in(const gn_frustum *box, float min_diameter, const float sphere[4]);
/* Both for one sphere (tests; a loop makes the box once). */
bool gn_csm_caster_visible(const gn_csm_cascade *c, const float sphere[4], float min_caster_texels);
/* Whether the cascade is re-rendered on this frame: due when (frame + cascade) % period == 0. */
bool gn_csm_due(const gn_csm_settings *s, uint32_t cascade, uint64_t frame);
/* Whether a cascade as it was rendered still covers this frame's slice of the camera frustum
 * (the slice of `now`, corners projected with the rendered matrix) with margin_texels to spare
 * for filtering. A staggered cascade that no longer covers its slice (a camera cut, a fast
 * move) is re-rendered this frame instead of being read outside its map. */
bool gn_csm_covers(const gn_csm_cascade *rendered, const gn_csm_cascade *now, const float camera_pos[3],
                   const float camera_view[16], float fov_y_rad, float aspect, float margin_texels);
/* The cascade a receiver at this view depth uses, and in *blend the weight (0..1) of the next
 * cascade inside the overlap band; count when beyond the shadow distance. */
uint32_t gn_csm_select(const gn_csm_cascade *c, uint32_t count, float view_depth, float *blend);
/* Shadow strength: 1 up to 0.9 * shadow_distance, falling linearly to 0 at shadow_distance. */
float gn_csm_fade(const gn_csm_settings *s, float view_depth);

/* Every default of gn_csm_desc, resolved here and nowhere else: the settings, the receivers'
 * normal offset (texels) and the casters' depth bias (constant, slope). */
void gn_csm_resolve(const gn_csm_desc *d, gn_csm_settings *s, float *normal_offset, float *bias_const,
                    float *bias_slope);

#endif
