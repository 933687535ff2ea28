/* How well a rendered shadow view agrees with the ray-traced truth mask (truth.h). Pure: no
 * Embree, no Vulkan, no I/O, so tests/cli checks it on made-up images. */
#ifndef GN_CLI_SHADOWCMP_H
#define GN_CLI_SHADOWCMP_H

#include <stdbool.h>
#include <stdint.h>

/* Pixels within this Euclidean distance of a truth shadow edge are left out of the
 * off-edge agreement: a shadow map's texels and filtering move an edge by a pixel or two
 * without being wrong in any way worth measuring. */
#define GN_SHADOW_EDGE_RADIUS 2

/* Shares are of surface pixels (truth mask not GN_TRUTH_SKY), 0..1; all 0 when there are none. */
typedef struct gn_shadow_agreement {
    double agreement_all;      /* lit state of render and truth match */
    double agreement_off_edge; /* the same, over pixels farther than the edge radius from an edge */
    double false_lit;          /* truth shadowed, rendered lit (share of all surface pixels) */
    double false_shadow;       /* truth lit, rendered shadowed (share of all surface pixels) */
    uint64_t pixels;           /* surface pixels */
    uint64_t pixels_off_edge;
} gn_shadow_agreement;

/* rendered_rgba is the GN_VIEW_SHADOW image (RGBA8): R is the shadow factor, lit at 128 and
 * above. An edge pixel is a surface pixel with a 4-neighbour surface pixel of the other
 * truth state. Returns false (out zeroed) if the scratch memory cannot be had. */
bool gn_shadow_compare(const uint8_t *truth_mask, const uint8_t *rendered_rgba, uint32_t w, uint32_t h,
                       gn_shadow_agreement *out);

/* Colour pictures for --out-dir, RGBA8 into rgba (w*h*4 bytes):
 * the mask as grey (white lit, black shadowed, mid-grey sky), and the agreement: green lit
 * in both, dark grey shadowed in both, red false lit, blue false shadow, mid-grey sky. */
void gn_shadow_mask_rgba(const uint8_t *truth_mask, uint32_t w, uint32_t h, uint8_t *rgba);
void gn_shadow_diff_rgba(const uint8_t *truth_mask, const uint8_t *rendered_rgba, uint32_t w, uint32_t h,
                         uint8_t *rgba);

#endif
