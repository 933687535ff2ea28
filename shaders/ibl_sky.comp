#version 450
// The image-based light's environment, level 0 (src/passes/ibl.c): the sky's radiance
// (shaders/sky.glsl: the atmosphere's sky view, in nits, not pre-exposed) in its octahedral map.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"
#include "octa.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_ENV_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(set = 0, binding = GN_BIND_ENV_LEVEL0, rgba16f) uniform writeonly image2D level0;
layout(set = 0, binding = GN_BIND_ENV_SKYVIEW) uniform sampler2D sky_view;
#include "atmosphere.glsl"
#include "sky.glsl"

void main()
{
    ivec2 q = ivec2(gl_GlobalInvocationID.xy);
    if (q.x >= GN_GPU_IBL_SIZE || q.y >= GN_GPU_IBL_SIZE) return;
    vec3 dir = gn_oct_decode((vec2(q) + 0.5) / float(GN_GPU_IBL_SIZE));
    imageStore(level0, q, vec4(gn_sky_radiance(dir), 1.0));
}
