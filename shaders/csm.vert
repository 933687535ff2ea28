#version 450
// A shadow cascade: casters' positions into the light's orthographic clip space. The matrix
// comes as a push constant so every cascade shares the pipeline.
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_shader_draw_parameters : require // gl_BaseVertexARB: a sprite finds its quad
#include "common.glsl"

layout(location = 0) in vec3 in_pos;
layout(push_constant) uniform Push { mat4 view_proj; } pc;

void main()
{
    gn_gpu_instance inst = instances[visible[gl_InstanceIndex]];
    gl_Position = pc.view_proj * vec4(gn_world_at(inst, in_pos, uint(gl_VertexIndex), uint(gl_BaseVertexARB)), 1.0);
}
