// The HZB's build (src/decide/hzb.h): each dispatch writes one level, a thread a texel, the
// minimum (farthest, reversed-Z) of the up to 2x2 texels or pixels below it that exist.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, set = 0, binding = GN_BIND_HZB_TEXELS) buffer HzbBlock { float hzb[]; };
layout(push_constant) uniform Push { gn_gpu_hzb_push pc; };
