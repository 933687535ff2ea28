/* The forward pass's test hook (src/passes/forward.c). */
#ifndef GN_PASSES_FORWARD_H
#define GN_PASSES_FORWARD_H

#include "renderer.h"

/* Waits for the GPU and copies the last frame's copies of the opaque scene (taken when it had
 * blended surfaces): colour rgba16f (width*height*4 halves), depth (width*height floats). Either
 * may be NULL. */
gn_result gn_forward_read_opaque(gn_renderer *r, uint16_t *color, float *depth, gn_error *err);

#endif
