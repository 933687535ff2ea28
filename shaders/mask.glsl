// Alpha test for the depth-only passes: a fragment of an alpha-tested material whose alpha
// (base colour alpha times the base texture's) is below the cutoff writes no depth, so the
// prepass, the sun's cascades and the lights' shadow layers all see the same cut-out.
// With GN_MASK_A2C (mask_a2c.frag: the prepass under MSAA with alpha to coverage) it discards
// nothing: the alpha written at location 0 covers that share of the pixel's samples, sharpened so
// the cutoff falls mid-pixel and the ramp spans about one pixel,
//   a' = (a - cutoff) / max(fwidth(a), 1e-4) + 0.5
// (a plain alpha would blur the edge over the texture's whole alpha gradient, and cover a
// quarter of the samples at a = 0.25 where the test keeps none). The pipeline has no colour
// attachment: the write is dropped, its coverage is not.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(set = GN_SET_MATERIAL, binding = GN_BIND_MATERIAL_BASE) uniform sampler2D base_tex;
layout(location = 0) in vec2 in_uv; // already through the material's uv transform (the vertex shaders)
layout(location = 1) flat in uint in_material;
#if defined(GN_MASK_A2C)
layout(location = 0) out vec4 out_coverage;
#endif

void main()
{
    gn_gpu_material m = materials[in_material];
    float alpha = m.base_color.a;
    if (m.pbr.z > 0.5) alpha *= texture(base_tex, in_uv).a;
#if defined(GN_MASK_A2C)
    // the alpha's change over a pixel from two more taps a pixel away along the uv's derivatives:
    // fwidth(alpha) itself, the derivative of a texture result, came out wrong on lavapipe where
    // a triangle covers part of a 2x2 quad (along a quad's diagonal the coverage stayed near half
    // whatever the alpha, gpu_alpha_coverage); the interpolated uv's derivatives are right there
    float ax = alpha, ay = alpha;
    if (m.pbr.z > 0.5) {
        ax = m.base_color.a * texture(base_tex, in_uv + dFdx(in_uv)).a;
        ay = m.base_color.a * texture(base_tex, in_uv + dFdy(in_uv)).a;
    }
    float width = abs(ax - alpha) + abs(ay - alpha);
    out_coverage = vec4(0.0, 0.0, 0.0, clamp((alpha - m.lighting.z) / max(width, 1e-4) + 0.5, 0.0, 1.0));
#else
    if (alpha < m.lighting.z) discard;
#endif
}
