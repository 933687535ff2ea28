#version 450
// Light binning: one thread per froxel writes the froxel's lights into its own fixed slot
// (shaders/clusters.glsl; CPU reference gn_cluster_bin in src/decide/clusters.c). The only
// atomic sums the lights that did not fit, which the frame reports.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 64) in;
layout(set = 0, binding = GN_BIND_BIN_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = 0, binding = GN_BIND_BIN_LIGHTS) readonly buffer LightBlock { gn_gpu_light lights[]; };
layout(std430, set = 0, binding = GN_BIND_BIN_LISTS) writeonly buffer ClusterBlock { uint cluster_lists[]; };
layout(std430, set = 0, binding = GN_BIND_BIN_OVERFLOW) buffer OverflowBlock { uint overflow_total; };

#define GN_CLUSTER_BINNING
#include "clusters.glsl"

void main()
{
    uint index = gl_GlobalInvocationID.x;
    uint froxels = frame.cluster_grid.x * frame.cluster_grid.y * frame.cluster_grid.z;
    if (index >= froxels) return;
    uint overflow = gn_cluster_bin_froxel(index);
    if (overflow > 0u) atomicAdd(overflow_total, overflow);
}
