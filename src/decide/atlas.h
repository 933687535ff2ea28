/* Packing rectangles (lightmaps) into one atlas: a deterministic shelf packer. Rectangles go
 * in by decreasing height (ties by index), left to right on shelves, each with `padding`
 * texels around it; the atlas grows by powers of two until everything fits. Pure. */
#ifndef GN_DECIDE_ATLAS_H
#define GN_DECIDE_ATLAS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gn_atlas_rect {
    uint32_t w, h; /* in: size */
    uint32_t x, y; /* out: top-left texel of the rectangle itself (inside its padding) */
} gn_atlas_rect;

/* Packs count rectangles into the smallest power-of-two square (then 2:1) atlas of at most
 * max_side texels a side; false when they do not fit. scratch holds count uint32_t. */
bool gn_atlas_pack(gn_atlas_rect *rects, uint32_t count, uint32_t padding, uint32_t max_side, uint32_t *width,
                   uint32_t *height, uint32_t *scratch);

/* A uv over rectangle r (u, v in 0..1 from its first texel's outer edge to its last's) mapped
 * into the atlas, clamped half a texel inside the rectangle so that bilinear filtering never
 * reads its padding or a neighbour. */
void gn_atlas_uv(const gn_atlas_rect *r, uint32_t width, uint32_t height, float u, float v, float out[2]);

/* RGB9E5 (VK_FORMAT_E5B9G9R9_UFLOAT_PACK32): three 9-bit mantissas sharing a 5-bit exponent,
 * for linear HDR light in 4 bytes. Negative and NaN inputs encode as 0, huge ones clamp. */
uint32_t gn_rgb9e5_encode(const float rgb[3]);
void gn_rgb9e5_decode(uint32_t packed, float rgb[3]);

#endif
