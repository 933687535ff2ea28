#version 450
// Volumetric fog's integration (src/passes/volumetric.c): each froxel column front to back, the
// light of each slice scattered towards the eye and its transmittance, energy-conserving within a
// slice (Hillaire 2015: S (1 - exp(-sigma d)) / sigma); a froxel holds the light and the
// transmittance from the volume's near end to its slice's far end.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_VOLINT_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(set = 0, binding = GN_BIND_VOLINT_INJECT) uniform sampler2D inject;
layout(set = 0, binding = GN_BIND_VOLINT_INTEGRATED, rgba16f) uniform writeonly image2D integrated;
#include "volumetric.glsl"

void main()
{
    ivec2 xy = ivec2(gl_GlobalInvocationID.xy);
    if (xy.x >= GN_GPU_VOL_X || xy.y >= GN_GPU_VOL_Y) return;
    float per_depth;
    gn_vol_ray(xy, per_depth);
    vec3 L = vec3(0.0);
    float T = 1.0;
    for (int k = 0; k < GN_GPU_VOL_Z; k++) {
        ivec2 q = gn_vol_texel(ivec3(xy, k));
        vec4 v = texelFetch(inject, q, 0);
        float d = (gn_vol_depth(float(k + 1)) - gn_vol_depth(float(k))) * per_depth;
        float stp = exp(-v.a * d);
        vec3 s = v.a > 1e-7 ? v.rgb * (1.0 - stp) / v.a : v.rgb * d;
        L += T * s;
        T *= stp;
        imageStore(integrated, q, vec4(L, T));
    }
}
