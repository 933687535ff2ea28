/* A Quake 3 map's baked light in the renderer's terms: light bytes as linear multipliers (what
 * the lightmap atlas, src/scene/bsp_atlas.c, is made of), the light grid sampled at a point,
 * and light entities as point lights. Pure data conversion (no Vulkan, no I/O), deterministic.
 *
 * Light values: Q3 stores lightmap and grid bytes for a display that multiplies them by 4
 * (one bit of overbright shifted into the data at load, one more by the gamma ramp), in
 * display (gamma) space. So a byte b is the display factor d = 4 b / 255, and the linear
 * multiplier of the surface's base colour is d^2.2 (docs/WORLDS.md). 1.0 showed a surface at
 * its base colour; values above 1 are kept (HDR) rather than clamped as Q3's 8-bit frame did.
 * In physical units (docs/POST.md) that multiplier is a luminance: 1.0 is GN_BSP_LIGHT_NITS,
 * a white wall indoors under bright artificial light (~300 lux). */
#ifndef GN_FORMATS_BSP_LIGHT_H
#define GN_FORMATS_BSP_LIGHT_H

#include "formats/bsp.h"

#define GN_BSP_LIGHT_GAMMA 2.2f
#define GN_BSP_LIGHT_NITS 100.0f /* the luminance of a white surface at Q3's light level 1.0 */

/* One Q3 light byte triple as the luminance (nits) of a white surface it lights (see above). */
void gn_bsp_light_to_linear(const uint8_t rgb[3], float out[3]);

/* The light grid at a renderer-frame point: trilinear over the eight cells around it, leaving
 * out cells with no light at all (inside walls) and renormalising, as Q3 lights its models.
 * ambient and directed are linear multipliers like a lightmap's; dir is the unit direction
 * towards the dominant light, renderer frame. false (outputs zeroed) without a grid or when
 * every cell around the point is dark. */
bool gn_bsp_light_grid_sample(const gn_bsp *b, const float p[3], float ambient[3], float directed[3],
                              float dir[3]);

/* The map's "light" entities as point lights: position, colour, and a radius where Q3's
 * linear falloff (intensity - distance, in units) reaches zero. scale multiplies intensities
 * (1: a Q3 light of 300 lights a white surface 1 m away at about the noon sun's level).
 * Returns the count written (at most max); *total gets how many the map has. */
uint32_t gn_bsp_light_entities(const gn_bsp *b, float scale, gn_light_desc *out, uint32_t max,
                               uint32_t *total);

#endif
