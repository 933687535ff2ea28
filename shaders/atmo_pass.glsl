// The atmosphere's table passes (src/passes/atmosphere.c): their one set. Each shader names only
// the bindings it uses.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(set = 0, binding = GN_BIND_ATMO_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
#include "atmosphere.glsl"
