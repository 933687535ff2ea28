/* Eye adaptation's state, for its tests (src/passes/exposure.c). */
#ifndef GN_PASSES_EXPOSURE_H
#define GN_PASSES_EXPOSURE_H

#include "renderer.h"

/* Waits for the GPU and copies the exposure state: after a frame, its histogram, what it
 * metered and the exposure it showed. */
gn_result gn_exposure_read(gn_renderer *r, gn_gpu_exposure *out, gn_error *err);
/* Waits for the GPU and copies the resolved HDR colour (rgba16f, width*height*4 halves, top
 * row first), as the forward pass stored it: times its pre-exposure. */
gn_result gn_exposure_read_hdr(gn_renderer *r, uint16_t *out, gn_error *err);

#endif
