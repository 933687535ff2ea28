/* The pure parts of the floors (src/floors.c, gn_measure_floors): the screen-filling grid the
 * triangle floor draws, how many full-screen layers the fill floor draws, and the median the
 * figures are taken as. No Vulkan: unit-tested in tests/unit/test_floors.c. */
#ifndef GN_DECIDE_FLOORS_H
#define GN_DECIDE_FLOORS_H

#include <stddef.h>
#include <stdint.h>

/* Quads a side of the triangle floor's grid: 1024^2 quads are 2,097,152 triangles, enough that a
 * GPU's pass lasts about a millisecond (timestamps resolve microseconds) and, at 1920x1080, about
 * one triangle a pixel: small triangles, as a dense scene's are. */
#define GN_FLOOR_GRID_SIDE 1024u
/* Samples the fill floor writes at least (layers of full-screen triangles over the target), so
 * that a small target still takes long enough to time: 2^25, 5 layers at 1920x1080 with 4x MSAA. */
#define GN_FLOOR_FILL_SAMPLES (1u << 25)
#define GN_FLOOR_FILL_MAX_LAYERS 1024u /* a 16x16 target still finishes in one short pass */

static inline uint32_t gn_floor_grid_vertices(uint32_t side) { return (side + 1) * (side + 1); }
static inline uint64_t gn_floor_grid_triangles(uint32_t side) { return 2ull * side * side; }

/* The grid over the whole of clip space, x and y in [-1, 1] at depth z (w = 1): (side + 1)^2
 * positions, `stride` floats apart from `positions` (x, y, z each), and 6 * side^2 indices, two
 * triangles a quad, counter-clockwise in Vulkan's framebuffer (y down), so front-facing under
 * VK_FRONT_FACE_COUNTER_CLOCKWISE. Every point of the screen lies in exactly one triangle. */
void gn_floor_grid(uint32_t side, float z, float *positions, size_t stride, uint32_t *indices);

/* Full-screen layers the fill floor draws over a width x height target of `samples` samples:
 * enough for GN_FLOOR_FILL_SAMPLES samples, 1 .. GN_FLOOR_FILL_MAX_LAYERS. */
uint32_t gn_floor_fill_layers(uint32_t width, uint32_t height, uint32_t samples);

/* The median of n values (sorted in place): the middle one, or the mean of the middle two; NAN
 * for none. */
double gn_floor_median(double *v, uint32_t n);

#endif
