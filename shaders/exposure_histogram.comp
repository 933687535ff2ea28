#version 450
// Eye adaptation, step 1: every pixel's luminance (the resolved HDR colour over its
// pre-exposure) into GN_GPU_EXPOSURE_BINS bins of EV100, counted in shared memory a 16x16 tile,
// then added into the state's bins (the adapt pass meters them; the histogram pass cleared
// them before this). Integer atomics: the counts are exact and deterministic.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"
#include "exposure.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = GN_BIND_EXPOSURE_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(set = 0, binding = GN_BIND_EXPOSURE_HDR) uniform sampler2D hdr;
layout(std430, set = 0, binding = GN_BIND_EXPOSURE_STATE) buffer ExposureBlock { gn_gpu_exposure e; };

shared uint tile[GN_GPU_EXPOSURE_BINS];

void main()
{
    uint t = gl_LocalInvocationIndex;
    if (t < GN_GPU_EXPOSURE_BINS) tile[t] = 0u;
    barrier();
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x < int(frame.mode.z) && p.y < int(frame.mode.w)) {
        float pre = gn_stored_exposure(frame.exposure, e.pre.x);
        precise float luminance = dot(texelFetch(hdr, p, 0).rgb, GN_LUMA) / pre;
        atomicAdd(tile[gn_exposure_bin(luminance, frame.exposure_meter.x, frame.exposure_meter.y)], 1u);
    }
    barrier();
    if (t < GN_GPU_EXPOSURE_BINS && tile[t] != 0u) atomicAdd(e.bins[t / 4u][t % 4u], tile[t]);
}
