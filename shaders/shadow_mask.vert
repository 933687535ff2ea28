#version 450
// Alpha-tested shadow casters (sun cascades and local lights' layers): csm.vert's position,
// plus the uv and the material for mask.frag.
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_shader_draw_parameters : require // gl_BaseVertexARB: a sprite finds its quad
#include "common.glsl"

layout(location = 0) in vec3 in_pos;
layout(location = 3) in vec2 in_uv;
layout(location = 4) in vec2 in_uv2;
layout(push_constant) uniform Push { mat4 view_proj; } pc;
layout(location = 0) out vec2 out_uv;
layout(location = 1) flat out uint out_material;

void main()
{
    gn_gpu_instance inst = instances[visible[gl_InstanceIndex]];
    gl_Position = pc.view_proj * vec4(gn_world_at(inst, in_pos, uint(gl_VertexIndex), uint(gl_BaseVertexARB)), 1.0);
    // the base colour's uv through its transform here: affine, so interpolating it is exact
    out_uv = gn_material_uv(materials[inst.info.x], GN_GPU_UV_BASE, in_uv, in_uv2);
    out_material = inst.info.x;
}
