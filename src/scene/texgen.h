/* Procedural surface textures for built-in scenes: a base colour image (sRGB) and a matching
 * tangent-space normal map (linear, n * 0.5 + 0.5, +Z out of the surface, green = image up,
 * the glTF convention that scene tangents follow). One image covers one metre at the uv
 * scale meshgen uses, and tiles seamlessly. Deterministic for a given seed. */
#ifndef GN_TEXGEN_H
#define GN_TEXGEN_H

#include <stdbool.h>
#include <stdint.h>

typedef enum gn_texgen_kind {
    GN_TEX_PLASTER,    /* near white, mottled: tinted by the material's base colour */
    GN_TEX_BRICK,      /* red-brown bricks in running bond, light mortar */
    GN_TEX_ROOF_TILES, /* neutral pan tiles in overlapping rows: tinted by the material */
    GN_TEX_COBBLE,     /* irregular grey-brown setts with dark joints */
    GN_TEX_PAVING,     /* large pale slabs */
    GN_TEX_BARK,       /* brown, furrowed along v */
    GN_TEX_GRASS,      /* green, low contrast so a one-metre repeat does not show */
    GN_TEX_KIND_COUNT
} gn_texgen_kind;

const char *gn_texgen_name(gn_texgen_kind kind); /* "plaster", ... for labels */

/* Fills color and normal, each size * size * 4 bytes; size is a power of two >= 16.
 * Returns false on a bad argument or when scratch memory cannot be allocated. */
bool gn_texgen(gn_texgen_kind kind, uint32_t size, uint32_t seed, uint8_t *color, uint8_t *normal);

#endif
