#version 450
// VSM MARK: one thread a 2x2 block of the resolved depth. Each surface pixel's world position
// (the inverse view-projection, exactly as the CPU reference reconstructs it) names the page it
// needs (gn_vsm_mark); the thread sets each distinct page's bit once in this frame slot's
// request mask. Neighbours nearly always share a page, so this needs a quarter of the threads
// of one thread a pixel, and a subgroup whose pixels all need the same page sets it once: the
// same bits with a small share of the atomics.
// The sky (depth 0) needs none.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_MARK_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(set = 0, binding = GN_BIND_MARK_DEPTH) uniform sampler2D depth_tex;
layout(std430, set = 0, binding = GN_BIND_MARK_REQUESTS) buffer Requests { uint requests[]; };

#include "vsm_mark.glsl"

// The page bit a pixel needs, or ~0u (sky, or beyond the clipmap).
uint gn_mark_pixel(uvec2 px, uvec2 size)
{
    float depth = texelFetch(depth_tex, ivec2(px), 0).r;
    if (depth <= 0.0) return ~0u;
    // pixel centre in NDC; clip -> world through the inverse, summed in a fixed order
    precise float nx = (float(px.x) + 0.5) / float(size.x) * 2.0 - 1.0;
    precise float ny = (float(px.y) + 0.5) / float(size.y) * 2.0 - 1.0;
    mat4 m = frame.inv_view_proj;
    precise float wx = m[0][0] * nx + m[1][0] * ny + m[2][0] * depth + m[3][0];
    precise float wy = m[0][1] * nx + m[1][1] * ny + m[2][1] * depth + m[3][1];
    precise float wz = m[0][2] * nx + m[1][2] * ny + m[2][2] * depth + m[3][2];
    precise float ww = m[0][3] * nx + m[1][3] * ny + m[2][3] * depth + m[3][3];
    precise vec3 p = vec3(wx / ww, wy / ww, wz / ww);
    uint level, slot;
    if (!gn_vsm_mark(p, gn_vsm_to_light_now(p), level, slot)) return ~0u;
    uint n = frame.vsm_info.x;
    return level * n * n + slot;
}

void main()
{
    uvec2 size = frame.mode.zw;
    uvec2 base = gl_GlobalInvocationID.xy * 2u;
    uint last = ~0u;
    for (uint k = 0u; k < 4u; k++) {
        uvec2 px = base + uvec2(k & 1u, k >> 1u);
        uint bit = px.x < size.x && px.y < size.y ? gn_mark_pixel(px, size) : ~0u;
        // neighbours nearly always share a page: where the whole subgroup does, one atomic
        if (subgroupAllEqual(bit)) {
            if (bit != ~0u && bit != last && subgroupElect()) atomicOr(requests[bit >> 5u], 1u << (bit & 31u));
        } else if (bit != ~0u && bit != last) {
            atomicOr(requests[bit >> 5u], 1u << (bit & 31u));
        }
        if (bit != ~0u) last = bit;
    }
}
