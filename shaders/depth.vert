#version 450
// Depth prepass: positions only. The forward pass tests EQUAL against this depth, so both
// vertex shaders compute gl_Position with gn_clip_position (common.glsl).
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_shader_draw_parameters : require // gl_BaseVertexARB: a sprite finds its quad
#include "common.glsl"

layout(location = 0) in vec3 in_pos;

void main()
{
    gn_gpu_instance inst = instances[visible[gl_InstanceIndex]];
    gl_Position = gn_clip_position_at(inst, in_pos, uint(gl_VertexIndex), uint(gl_BaseVertexARB));
}
