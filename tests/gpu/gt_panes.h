/* The scene of gpu_blend_order and gpu_oit: six overlapping coloured glass panes (half transparent,
 * each its own material) in front of a grey wall, the camera looking through all of them, one pane
 * in an earlier layer (sort 6). */
#ifndef GN_TESTS_GPU_PANES_H
#define GN_TESTS_GPU_PANES_H

#include "gnomon.h"

#include <stdbool.h>

#define GT_PANES 6
#define GT_PANES_CAM_Z 3.2f  /* the camera on the z axis, looking down -z ... */
#define GT_PANES_FOV_Y 40.0f /* ... with this field of view (degrees) */

typedef struct gt_pane {
    float x, y, z, half; /* a square of half side `half` at (x, y) in the plane z */
    float rgba[4];
    float sort; /* its material's layer */
} gt_pane;

/* Far to near by z, but for pane 5 (sort 6: drawn before all the others, though it is nearest but
 * one). */
extern const gt_pane gt_panes[GT_PANES];

/* A frame through the panes: no shadows, no bloom, AO or air, clip tone curve, fixed exposure. */
gn_frame_desc gt_panes_frame(bool cpu_culling);
/* The wall, then the panes in `order` (mask: which panes; NULL order: 0..5): each pane's material
 * and mesh made just before its instance, so the materials' ids follow the order too. layered:
 * each pane in its own layer (gt_pane.sort), else all in layer 0. Exits the test on failure. */
gn_scene *gt_panes_build(const int *order, unsigned mask, bool layered);
/* Pane i's edge distance in pixels at (px, py) of a w x h image (> 0 inside). */
float gt_panes_edge_distance(int i, float px, float py, int w, int h);
/* How many panes cover pixel (x, y)'s centre, or -1 when it lies within 1.5 px of a pane's edge
 * (where MSAA mixes a pane with what is beside it). */
int gt_panes_cover(int x, int y, int w, int h);

#endif
