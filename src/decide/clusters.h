/* The froxel grid of Forward+ (docs/LIGHTING.md; seed 003, "Forward+"): x columns by y rows of
 * screen tiles, independent of the screen size, by z exponential depth slices
 * (slice = floor(log2(view depth) * scale + bias), Olsson et al. 2012 / Doom 2016), each with
 * a fixed slot of max_lights light indices. The CPU mirror of shaders/clusters.glsl: the
 * reference binning here does exactly what the compute shader does, one froxel at a time and
 * the lights in order, with only +, -, * and comparisons on values the CPU computed (they
 * travel in gn_gpu_frame), so the GPU's lists can be held to these to the bit.
 * View space as in decide/camera.h: looks down -Z, +Y up; view depth = -z_view > 0. */
#ifndef GN_DECIDE_CLUSTERS_H
#define GN_DECIDE_CLUSTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "shared/gpu_types.h"

#define GN_CLUSTER_DEFAULT_NEAR 0.1f          /* metres: the camera's default near plane */
#define GN_CLUSTER_DEFAULT_FAR 1000.0f        /* metres: beyond it street lights are a few pixels */
#define GN_CLUSTER_HORIZON 1.0e7f             /* metres: the last slice's bounds reach this far */
#define GN_CLUSTER_PAD_TILE (1.0f / 1024.0f)  /* froxel bounds grow by this much of a tile ... */
#define GN_CLUSTER_PAD_DEPTH (1.0f / 2048.0f) /* ... and of their depth, covering rounding */
#define GN_CLUSTER_MIN_DEPTH 1e-30f           /* log2 of a depth <= 0 would be -inf or NaN */

typedef struct gn_cluster_grid {
    uint32_t x, y, z, max_lights;
    float near_depth, far_depth; /* slices cover near..far; nearer depths fall in slice 0, farther in z-1 */
    float scale, bias;           /* slice = floor(log2(depth) * scale + bias) */
    /* Projection scale: proj[0] and |proj[5]| of gn_camera_projection, so a view-space point
     * (x, y, -depth) is at ndc (x * proj_x / depth, -y * proj_y / depth) (y flipped). */
    float proj_x, proj_y;
    /* Derived, for the bounds: the view-space slope (x / depth, y / depth) one column / row
     * spans, 2 / (x * proj_x) and 2 / (y * proj_y); the depth ratio of consecutive slice
     * boundaries, exp2(1 / scale) = (far / near)^(1 / z). */
    float step_x, step_y, ratio;
} gn_cluster_grid;

/* Zero counts and depths mean the defaults (GN_CLUSTER_X/Y/Z, GN_CLUSTER_MAX_LIGHTS,
 * GN_CLUSTER_DEFAULT_NEAR/FAR); far is kept above near and below GN_CLUSTER_HORIZON / 16.
 * proj is the camera's projection (decide/camera.h). */
void gn_cluster_grid_init(uint32_t x, uint32_t y, uint32_t z, uint32_t max_lights, float near_depth,
                          float far_depth, const float proj[16], gn_cluster_grid *out);
/* The grid as the shaders read it: gn_gpu_frame.cluster_grid, .cluster_depth, .cluster_proj. */
void gn_cluster_frame_params(const gn_cluster_grid *g, uint32_t grid[4], float depth[4], float proj[4]);
uint32_t gn_cluster_count(const gn_cluster_grid *g);                   /* x * y * z froxels */
uint32_t gn_cluster_slice(const gn_cluster_grid *g, float view_depth); /* 0..z-1 */
/* (slice * y + row) * x + col; frag_*_01 is the screen position 0..1, y down. */
uint32_t gn_cluster_index(const gn_cluster_grid *g, float frag_x_01, float frag_y_01, float view_depth);
/* One froxel as the binning sees it: the slopes (x / depth, y / depth) of its tile's edges and
 * its depth range, all slightly padded so that the froxel holds every point that
 * gn_cluster_index maps to it (slice 0 reaches depth 0, the last slice GN_CLUSTER_HORIZON). */
typedef struct gn_froxel {
    float x0, x1, y0, y1; /* view-space x / depth and y / depth of the tile's left, right, bottom, top */
    float near_depth, far_depth; /* view depth */
} gn_froxel;
void gn_cluster_froxel(const gn_cluster_grid *g, uint32_t index, gn_froxel *out);
/* The view-space AABB of the part of the froxel between view depths d_near and d_far. */
void gn_cluster_froxel_bounds(const gn_froxel *f, float d_near, float d_far, float mn[3], float mx[3]);
/* The froxel's whole view-space AABB (gn_cluster_froxel_bounds over its depth range). */
void gn_cluster_bounds(const gn_cluster_grid *g, uint32_t index, float mn[3], float mx[3]);
/* Conservative: false only if no point of the froxel gets light (falloff * spot > 0) from l.
 * The froxel is cut to the depths the light's sphere spans before its AABB is taken, which keeps
 * a small light out of the neighbours that the AABB of a whole, deep froxel would reach into.
 * view is the world-to-view matrix. */
bool gn_cluster_light_hits(const gn_froxel *f, const gn_gpu_light *l, const float view[16]);
/* One froxel, as one thread of the compute shader: slot[0] = lights written (<= max_lights),
 * then their indices in ascending order; returns the lights that did not fit. */
uint32_t gn_cluster_bin_froxel(const gn_cluster_grid *g, uint32_t index, const gn_gpu_light *lights,
                               uint32_t count, const float view[16], uint32_t *slot);
/* Every froxel: out holds gn_cluster_count(g) * (max_lights + 1) words, froxel i's slot at
 * out[i * (max_lights + 1)]; *overflow = lights that did not fit, summed over froxels. */
void gn_cluster_bin(const gn_cluster_grid *g, const gn_gpu_light *lights, uint32_t count,
                    const float view[16], uint32_t *out, uint32_t *overflow);

#endif
