#version 450
// Copies each page RENDER drew this frame from its staging layer into its atlas tile (which
// only ALLOC knows): one instance a page of ALLOC's list, drawn indirectly with its count, two
// triangles over the tile; vsm_copy.frag writes every texel's depth. Every other tile keeps its
// depth.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(set = GN_SET_FRAME, binding = GN_BIND_FRAME_CONSTANTS) uniform FrameBlock { gn_gpu_frame frame; };
layout(std430, set = GN_SET_VSM_DRAW, binding = GN_BIND_VSM_DRAW_RENDER) readonly buffer Render { uvec4 render_head; gn_gpu_vsm_render entries[]; };
layout(location = 0) flat out ivec3 out_origin; // the tile's first texel, the staging layer

void main()
{
    const vec2 corners[6] = vec2[6](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 0), vec2(1, 1), vec2(0, 1));
    uint per_row = uint(frame.vsm_params.z), tile = entries[gl_InstanceIndex].page.y;
    float texels = float(frame.vsm_info.y); // a page's side
    vec2 origin = vec2(tile % per_row, tile / per_row) * texels;
    out_origin = ivec3(ivec2(origin), gl_InstanceIndex);
    gl_Position = vec4((origin + corners[gl_VertexIndex] * texels) / float(frame.vsm_info.z) * 2.0 - 1.0, 0.0, 1.0);
}
