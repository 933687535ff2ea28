/* Shared helpers of the GPU tests: a validated renderer, PNG in/out, image comparison.
 * Every GPU test runs with VK_LAYER_KHRONOS_validation and synchronization validation, and
 * fails on any message. */
#ifndef GN_TESTS_GPU_UTIL_H
#define GN_TESTS_GPU_UTIL_H

#include "gnomon.h"

#include <stdbool.h>
#include <stdint.h>

#include "../unit/check.h"

/* Creates a renderer with validation on; exits the test (code 1) with a message on failure. */
gn_renderer *gt_renderer(uint32_t w, uint32_t h, uint32_t msaa);
/* The built-in town (scale 1) of a seed and its three viewpoints (street, rooftop, overview);
 * exits the test with a message on failure. */
gn_scene *gt_town(uint32_t seed, float viewpoints[3][5]);
/* A unit sphere at the origin (seg_u x seg_v quads, normals and uvs) into s: its mesh id; exits
 * the test on failure. */
uint32_t gt_add_sphere(gn_scene *s, uint32_t seg_u, uint32_t seg_v);
/* A box mesh of half-extents sx, sy, sz about the origin (24 vertices, outward normals); exits on failure. */
uint32_t gt_add_box(gn_scene *s, float sx, float sy, float sz);
/* A square quad of half side `half` in the plane z = `z`, facing +z, u along +x and v down (texel
 * row 0 at the top); its mesh id (exits on failure, as gt_add_box). */
uint32_t gt_add_quad(gn_scene *s, float half, float z);
/* Renders one frame and reads it back into a malloc'd RGBA8 buffer. With the default shadows
 * (virtual shadow maps) it renders until the page cache has settled, as `gnomon render` does. */
uint8_t *gt_render(gn_renderer *r, gn_scene *s, const gn_frame_desc *f);
/* A VSM frame of the town: the camera 6 m up at (x, z), turned yaw degrees, 12 degrees down,
 * at that hour of the day. */
gn_frame_desc gt_vsm_at(float x, float z, float yaw, float hours);
/* The last rendered frame read back into a malloc'd RGBA8 buffer; exits the test on an error. */
uint8_t *gt_pixels(gn_renderer *r);
/* Renders one frame, waits for it and returns its statistics; exits the test on an error. */
gn_frame_stats gt_frame(gn_renderer *r, gn_scene *s, const gn_frame_desc *f);
/* Whether the frame recorded a pass of that name. */
bool gt_ran(const gn_frame_stats *st, const char *name);
/* Renders until the virtual shadow map's cache has settled (a frame renders no page and none
 * waits); returns the frames it took, 0 when it did not within 200. */
uint32_t gt_vsm_settle(gn_renderer *r, gn_scene *s, const gn_frame_desc *f);
/* True on Mesa lavapipe, where output is byte-identical run to run. */
bool gt_is_lavapipe(const gn_renderer *r);
bool gt_write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h);
uint8_t *gt_read_png(const char *path, uint32_t *w, uint32_t *h);
uint64_t gt_hash(const uint8_t *data, size_t n); /* FNV-1a 64 */
float gt_half_to_float(uint16_t h);              /* an IEEE half (rgba16f readbacks) as a float */
/* A frame from a viewpoint (x, y, z, yaw, pitch: gn_scene_info.viewpoints) at an hour. */
gn_frame_desc gt_at(const float vp[5], float hours);
/* The small tests' lighting: the sun at `hours` on 21 June at 45 degrees north, the sun's cascades,
 * a fixed sunny exposure, the clip tone curve, no bloom or dither; the camera is the caller's. */
gn_frame_desc gt_sunny_csm(gn_camera camera, float hours);

typedef struct gt_diff {
    uint32_t max_channel; /* largest per-channel difference, 0..255 */
    double over_share;    /* share of pixels with a channel off by more than the tolerance */
    double mean_abs;      /* mean absolute channel difference */
} gt_diff;
gt_diff gt_compare(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, uint32_t tolerance);

/* Compares an image against tests/golden/<name>.png. On lavapipe the images must be
 * identical; elsewhere within GT_GOLDEN_TOLERANCE per channel on all but GT_GOLDEN_SHARE of the
 * pixels. GNOMON_UPDATE_GOLDEN=1 rewrites the golden file instead. On a mismatch the image
 * is written to <name>.actual.png in the working directory. */
#define GT_GOLDEN_TOLERANCE 8
#define GT_GOLDEN_SHARE 0.01
bool gt_golden(const gn_renderer *r, const char *name, const uint8_t *rgba, uint32_t w, uint32_t h);

/* Fails the test when the renderer has seen validation messages. */
#define GT_CHECK_VALIDATION(r, when)                                                                         \
    CHECK(gn_renderer_validation_messages(r) == 0, "%u validation message(s) %s",                            \
          gn_renderer_validation_messages(r), when)

#endif
