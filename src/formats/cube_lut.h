/* Colour-grading lookup tables in the Adobe/Resolve .cube text format (Adobe's "Cube LUT
 * Specification" 1.0): 3D tables only, read whole from memory and checked line by line. Pure C
 * with no Vulkan: the renderer uploads rgb as a 3D texture, and gn_cube_lut_sample is the CPU
 * reference its filtered sample is tested against. */
#ifndef GN_FORMATS_CUBE_LUT_H
#define GN_FORMATS_CUBE_LUT_H

#include "gnomon.h"

#include <stddef.h>
#include <stdint.h>

#define GN_CUBE_LUT_MAX_SIZE 64u          /* LUT_3D_SIZE cap: a 64^3 rgba16f 3D texture is 2 MiB */
#define GN_CUBE_LUT_MAX_BYTES (64u << 20) /* a file larger than this is refused before reading */

typedef struct gn_cube_lut {
    uint32_t size;                      /* entries per axis, 2..GN_CUBE_LUT_MAX_SIZE */
    float domain_min[3], domain_max[3]; /* DOMAIN_MIN/MAX, default 0 and 1 */
    float *rgb;      /* size^3 * 3 floats, red index fastest, then green, then blue (the file's order) */
    char title[128]; /* TITLE, or empty; a longer one is cut to 127 bytes (it only labels) */
} gn_cube_lut;

/* Parses len bytes of .cube text (not NUL-terminated; never read past len). name labels the
 * messages ("luts/warm.cube: line 12: ..."). Malformed text is GN_ERROR_BAD_DATA with one line
 * naming the file, the line and the fault; on any failure *out is left zeroed. */
gn_result gn_cube_lut_parse(const char *text, size_t len, const char *name, gn_cube_lut *out, gn_error *err);
/* Reads and parses the regular file at path (GN_ERROR_IO when it cannot be read, GN_ERROR_BAD_DATA
 * over GN_CUBE_LUT_MAX_BYTES, before any of it is read). */
gn_result gn_cube_lut_load(const char *path, gn_cube_lut *out, gn_error *err);
gn_result gn_cube_lut_identity(uint32_t size, gn_cube_lut *out, gn_error *err); /* out = in, domain 0..1 */
void gn_cube_lut_free(gn_cube_lut *l); /* zeroes *l; NULL and a zeroed table are fine */
/* Trilinear lookup of an input colour (clamped to the domain first): the CPU reference the GPU's
 * 3D-texture sample is held to. A zeroed table gives out = in. */
void gn_cube_lut_sample(const gn_cube_lut *l, const float in[3], float out[3]);

#endif
