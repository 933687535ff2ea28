#version 450
// Clears the tiles of the VSM pages rendered this frame, and only those: one instance a page
// of ALLOC's list (drawn indirectly with its count), two triangles over the page's tile at
// depth 1 (the far plane), written with the depth test off. Every other tile keeps its depth.
#extension GL_GOOGLE_include_directive : require
#include "shared/gpu_types.h"

layout(set = 0, binding = 0) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = 2, binding = 0) readonly buffer Render { uvec4 render_head; gn_gpu_vsm_render entries[]; };

void main()
{
    const vec2 corners[6] = vec2[6](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 0), vec2(1, 1), vec2(0, 1));
    uint per_row = uint(frame.vsm_params.z), tile = entries[gl_InstanceIndex].page.y;
    vec2 texel = (vec2(tile % per_row, tile / per_row) + corners[gl_VertexIndex]) * 128.0;
    gl_Position = vec4(texel / float(frame.vsm_info.z) * 2.0 - 1.0, 1.0, 1.0);
}
