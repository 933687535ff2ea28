/* gnomon.h's "where a read-back depth was measured": the sample positions the renderer's own
 * passes use (decide/camera.h), so a caller reconstructs points exactly as the VSM resolve does. */
#include "decide/camera.h"
#include "gnomon.h"

void gn_depth_sample_position(uint32_t msaa, float *x, float *y) { gn_msaa_sample0(msaa, x, y); }
