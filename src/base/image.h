/* Pure image helpers: mip chains for uploaded textures. */
#ifndef GN_BASE_IMAGE_H
#define GN_BASE_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

/* Levels of a full mip chain for a w x h image (1 for 1x1). */
uint32_t gn_mip_levels(uint32_t w, uint32_t h);

/* Halves an RGBA8 image (2x2 box filter; odd edges clamp). sRGB colour is averaged in
 * linear light so distant surfaces keep their brightness; alpha and non-colour data (normal
 * maps) are averaged as stored. dst holds max(w/2,1) * max(h/2,1) * 4 bytes. */
void gn_mip_down(const uint8_t *src, uint32_t w, uint32_t h, bool srgb, uint8_t *dst);

#endif
