/* Screen-space decals (docs/EFFECTS.md, "Decals"; seed 000's "Decals"): a decal is an oriented
 * box, the unit cube [-0.5, 0.5]^3 placed in the world by a 4x4 transform, projecting its
 * texture along the box's local -Z onto whatever opaque surface lies inside it. Its local +Z
 * (`axis`) is the side the decal is seen from: a poster's box has +Z out of the wall, a road
 * marking's box has it turned to the world's +Y (up). The texture's u
 * runs along local +X and v along local -Y (the image's top row at local +Y), so a box with the
 * identity rotation shows the image upright to a viewer looking down -Z.
 *
 * Everything the decal shader decides per pixel has its CPU reference here: the surface point
 * from a reversed-Z infinite-far depth sample (src/decide/camera.h) and the inverse
 * view-projection, its normal from the neighbouring depths, the point-in-box test, the uv, the
 * angle fade, the alpha test and the blend weight; and what the frame decides per decal: the
 * frustum test and the batches, one instanced draw per texture set. No Vulkan, no globals. */
#ifndef GN_DECIDE_DECAL_H
#define GN_DECIDE_DECAL_H

#include "decide/frustum.h"
#include "shared/decal.h"

#include <stdbool.h>
#include <stdint.h>

#define GN_DECAL_MAX 16384u   /* decals a scene: 192 bytes each in the ring, 3 MiB a frame at most */
#define GN_DECAL_MAX_SETS 64u /* texture sets a scene: a descriptor set each, one draw each */
#define GN_DECAL_ALPHA_TEST ((float)GN_GPU_DECAL_ALPHA_TEST) /* shared/decal.h: the shader's */
#define GN_DECAL_NO_TEXTURE 0xffffffffu
/* The angle fade's defaults (cosines of the angle between the surface's normal and the axis):
 * full weight up to 60 degrees, none from 75 degrees on, so a wall at 90 degrees to a road
 * marking's projection shows none of it. */
#define GN_DECAL_FADE_START 0.5f
#define GN_DECAL_FADE_END 0.25f
/* A box edge shorter than this (metres) is degenerate. */
#define GN_DECAL_MIN_SIZE 1e-3f

/* A texture set: the images one instanced draw binds (scene texture indices from 0). */
typedef struct gn_decal_textures {
    uint32_t base;   /* RGBA8 base colour with alpha (never GN_DECAL_NO_TEXTURE) */
    uint32_t normal; /* tangent-space normal map, or GN_DECAL_NO_TEXTURE */
} gn_decal_textures;

/* A decal with every default resolved and its frame derived (gn_decal_place). */
typedef struct gn_decal {
    float transform[16];        /* the unit cube into the world, column-major, affine */
    float inverse[16];          /* the world into the unit cube */
    float axis[3];              /* local +Z in the world, unit: the decal faces it */
    float tangent[3];           /* local +X in the world, unit: the texture's u */
    float color[4];             /* tint: linear rgb, alpha */
    float opacity;              /* 0..1, scales the blend weight */
    float fade_start, fade_end; /* cosines, fade_start > fade_end: gn_decal_angle_fade */
    float roughness, metallic;
    uint32_t texture_set; /* index into the scene's gn_decal_textures */
} gn_decal;

/* Fills d's transform, inverse, axis and tangent from `transform` (its other fields untouched).
 * False when a value is not finite, the last row is not (0, 0, 0, 1), an edge of the box is
 * shorter than GN_DECAL_MIN_SIZE, the edges are (nearly) coplanar (the box has no inside) or
 * the transform mirrors (its faces would turn inside out). */
bool gn_decal_place(const float transform[16], gn_decal *d);

/* The world point a depth sample shows: clip (ndc_x, ndc_y, depth) through the inverse
 * view-projection. Reversed-Z with the far plane at infinity: depth 1 is the near plane, 0 is
 * infinitely far, so depth <= 0 (the sky, nothing drawn) has no point: false. */
bool gn_decal_world_point(const float inv_view_proj[16], float ndc_x, float ndc_y, float depth, float out[3]);

/* Where a world point lies in the box: local in [-0.5, 0.5]^3 when inside (true; the faces
 * count as inside). */
bool gn_decal_box_local(const gn_decal *d, const float world[3], float local[3]);

/* The texture coordinate of a point in the box: u = x + 0.5, v = 0.5 - y. */
void gn_decal_uv(const float local[3], float uv[2]);

/* The angle fade: smoothstep from fade_end to fade_start of dot(normal, axis). 1 on a surface
 * facing the decal's axis, 0 on one running along the projection (a wall under a road marking)
 * or facing away from it (the far side of a thin wall inside a poster's box). */
float gn_decal_angle_fade(const gn_decal *d, const float normal[3]);

/* The blend weight of a texel of alpha `texture_alpha` at angle fade `fade`: 0 where the tinted
 * alpha (texture_alpha * color alpha) is below GN_DECAL_ALPHA_TEST (the shader discards it),
 * else that alpha times opacity times fade. The colour is blended by this weight over the lit
 * surface (src over: weight * decal + (1 - weight) * surface). */
float gn_decal_weight(const gn_decal *d, float texture_alpha, float fade);

/* A resolved depth buffer as the decal pass reads it. */
typedef struct gn_decal_depth {
    const float *depth; /* width * height, rows top first; reversed-Z, 0 = nothing */
    uint32_t width, height;
    float inv_view_proj[16]; /* clip -> world */
    float sample0[2];        /* where the resolve's sample lies in its pixel (gn_msaa_sample0) */
    float camera[3];         /* the eye: a normal is turned to face it */
} gn_decal_depth;

/* The surface under pixel (x, y) as the shader reconstructs it: its point at the pixel's centre
 * (the depth, sample 0's, carried to the centre along the surface's own depth slopes) and its
 * geometric normal, across the plane those slopes span, facing the camera. Each slope is taken
 * on the side whose two neighbours extrapolate best to the pixel's depth (the neighbour
 * difference that stays on the pixel's own surface: screen-space derivatives of a 2x2 quad
 * would mix in the other side of a depth edge and bend the normal there). False over the sky. */
bool gn_decal_surface(const gn_decal_depth *v, uint32_t x, uint32_t y, float point[3], float normal[3]);

/* Everything the shader decides for decal d at pixel (x, y) short of sampling its texture:
 * true when the pixel's surface lies in the box, with its uv and angle fade. */
bool gn_decal_pixel(const gn_decal *d, const gn_decal_depth *v, uint32_t x, uint32_t y, float uv[2],
                    float *fade);

/* Whether the box may be in view: false only when the whole box lies outside one plane. */
bool gn_decal_visible(const gn_decal *d, const gn_frustum *f);

/* One instanced draw: `count` decals of texture set `texture_set`, at [first, first + count) of
 * the order gn_decal_batch writes. */
typedef struct gn_decal_batch {
    uint32_t texture_set, first, count;
} gn_decal_batch;

/* The frame's decals: those of decals[0..n) in view (gn_decal_visible) into order, grouped by
 * texture set (sets ascending; within a set, the scene's order, which is the order they blend
 * in), and one batch a set into batches (at most GN_DECAL_MAX_SETS). Returns the batches;
 * *drawn is how many decals the order holds (n - *drawn were culled). Sets at or beyond
 * GN_DECAL_MAX_SETS are never drawn (the scene refuses them). */
uint32_t gn_decal_batch_frame(const gn_decal *decals, uint32_t n, const gn_frustum *f, uint32_t *order,
                              gn_decal_batch *batches, uint32_t *drawn);

#endif
