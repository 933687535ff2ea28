#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_shader_draw_parameters : require // gl_BaseVertexARB: a sprite finds its quad
#include "common.glsl"

layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_tangent;
layout(location = 3) in vec2 in_uv;
layout(location = 4) in vec2 in_uv2;

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec4 out_tangent;
layout(location = 3) out vec2 out_uv;
layout(location = 4) out vec2 out_uv2;
layout(location = 5) flat out uvec3 out_grid; // the instance's light-grid sample (info.yzw)

void main()
{
    gn_gpu_instance inst = instances[visible[gl_InstanceIndex]];
    vec3 world = gn_to_world(inst, in_pos);
    vec3 normal = gn_normal_to_world(inst, in_normal);
    // a Quake 3 shader's deformVertexes move the vertex (and turn a sprite's normal)
    if (gn_q3_deforms(inst.info.x)) gn_deformed_vertex(inst, in_pos, uint(gl_VertexIndex), uint(gl_BaseVertexARB), world, normal);
    gl_Position = gn_clip_position_at(inst, in_pos, uint(gl_VertexIndex), uint(gl_BaseVertexARB));
    out_world = world;
    out_normal = normal;
    out_tangent = vec4(gn_dir_to_world(inst, in_tangent.xyz), in_tangent.w);
    out_uv = in_uv;
    out_uv2 = in_uv2;
    out_grid = inst.info.yzw;
}
