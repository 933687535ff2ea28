#version 450
// Opaque casters into the VSM pages rendered this frame (vsm_page.glsl).
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_shader_draw_parameters : require // gl_BaseVertexARB: a sprite finds its quad
#include "vsm_page.glsl"

layout(location = 0) in vec3 in_pos;

void main()
{
    uvec2 pair = pairs[gl_InstanceIndex];
    gl_Position = gn_vsm_page_position(pair, gn_world_at(instances[pair.x], in_pos, uint(gl_VertexIndex), uint(gl_BaseVertexARB)));
}
