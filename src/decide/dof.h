/* Depth of field's decision per pixel, the CPU reference of shaders/tonemap.comp's (docs/POST.md):
 * how much of the blurred half-size copy a pixel turns into. Geometry at distance d (camera-space
 * Z, metres): BACK saturate((d - focus) / range), FRONT saturate((focus - d) / range), BOTH the
 * larger, times the strength. The sky (no depth) is blurred like geometry at infinity when
 * blur_sky; otherwise only beside geometry: by the average distance of the geometry among
 * GN_DOF_SKY_TAPS neighbours GN_DOF_SKY_REACH pixels away, and at half strength for the share of
 * those that are sky, so silhouettes against it soften while open sky stays sharp. */
#ifndef GN_DECIDE_DOF_H
#define GN_DECIDE_DOF_H

#include "gnomon.h"

#include <stdbool.h>
#include <stdint.h>

#define GN_DOF_SKY_TAPS 8  /* the ring of neighbours a sky pixel looks at */
#define GN_DOF_SKY_REACH 3 /* pixels */

typedef struct gn_dof_params {
    float focus, range, strength; /* metres, metres, 0..1 (0: off) */
    gn_dof_mode mode;
    bool blur_sky;
} gn_dof_params;

/* The blend of geometry at distance d (metres; INFINITY for the sky when it blurs). */
float gn_dof_coc(const gn_dof_params *p, float d);

/* The blend of pixel (x, y) from camera-space Z (width*height; 0 or below where nothing was
 * drawn), the sky rule included. */
float gn_dof_pixel(const gn_dof_params *p, const float *z, uint32_t width, uint32_t height, uint32_t x,
                   uint32_t y);

/* The ring's offsets: GN_DOF_SKY_TAPS (dx, dy) pairs. */
extern const int gn_dof_sky_ring[GN_DOF_SKY_TAPS][2];

#endif
