#version 450
// Alpha-tested casters into the VSM pages rendered this frame: vsm_page.vert's position, plus
// the uv and the material for mask.frag.
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_shader_draw_parameters : require // gl_BaseVertexARB: a sprite finds its quad
#include "vsm_page.glsl"

layout(location = 0) in vec3 in_pos;
layout(location = 3) in vec2 in_uv;
layout(location = 4) in vec2 in_uv2;
layout(location = 0) out vec2 out_uv;
layout(location = 1) flat out uint out_material;

void main()
{
    uvec2 pair = pairs[gl_InstanceIndex];
    gn_gpu_instance inst = instances[pair.x];
    gl_Position = gn_vsm_page_position(pair, gn_world_at(inst, in_pos, uint(gl_VertexIndex), uint(gl_BaseVertexARB)));
    // the base colour's uv through its transform here: affine, so interpolating it is exact
    out_uv = gn_material_uv(materials[inst.info.x], GN_GPU_UV_BASE, in_uv, in_uv2);
    out_material = inst.info.x;
}
