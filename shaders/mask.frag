#version 450
// Alpha test for the depth-only passes: a fragment of an alpha-tested material whose alpha
// (base colour alpha times the base texture's) is below the cutoff writes no depth, so the
// prepass, the sun's cascades and the lights' shadow layers all see the same cut-out.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_BASE) uniform sampler2D base_tex;
layout(location = 0) in vec2 in_uv; // already through the material's uv transform (the vertex shaders)
layout(location = 1) flat in uint in_material;

void main()
{
    gn_gpu_material m = materials[in_material];
    float alpha = m.base_color.a;
    if (m.pbr.z > 0.5) alpha *= texture(base_tex, in_uv).a;
    if (alpha < m.lighting.z) discard;
}
