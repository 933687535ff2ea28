#version 450
// The image-based light's environment, levels 1..5 (src/passes/ibl.c): each atlas texel
// prefiltered from level 0 for GGX roughness k / 5 (Karis 2013: n = v = r, 64 importance
// samples weighted by n.l), over the atlas rectangle the push constant names (the whole atlas,
// or one level: a moving sun's refresh takes a level a frame).
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"
#include "octa.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_PREFILTER_SOURCE) uniform sampler2D source;
layout(set = 0, binding = GN_BIND_PREFILTER_ATLAS, rgba16f) uniform writeonly image2D atlas;
layout(push_constant) uniform Push { ivec4 rect; } push; // x, y, width, height of the texels to make
#include "ibl_levels.glsl"

#define GN_PI 3.14159265358979
#define GN_PREFILTER_SAMPLES 64u

float radical_inverse(uint i)
{
    i = (i << 16u) | (i >> 16u);
    i = ((i & 0x55555555u) << 1u) | ((i & 0xaaaaaaaau) >> 1u);
    i = ((i & 0x33333333u) << 2u) | ((i & 0xccccccccu) >> 2u);
    i = ((i & 0x0f0f0f0fu) << 4u) | ((i & 0xf0f0f0f0u) >> 4u);
    i = ((i & 0x00ff00ffu) << 8u) | ((i & 0xff00ff00u) >> 8u);
    return float(i) * 2.3283064365386963e-10;
}

void main()
{
    ivec2 g = ivec2(gl_GlobalInvocationID.xy);
    if (g.x >= push.rect.z || g.y >= push.rect.w) return;
    ivec2 q = push.rect.xy + g;
    int k = gn_ibl_level_at(q);
    if (k < 1) return;
    ivec4 r = GN_IBL_RECT[k];
    vec3 n = gn_oct_decode((vec2(q - r.xy) + 0.5) / float(r.z));
    float rough = float(k) / float(GN_GPU_IBL_LEVELS - 1), alpha = rough * rough;
    vec3 up = abs(n.y) < 0.999 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 tx = normalize(cross(up, n)), ty = cross(n, tx);
    vec3 sum = vec3(0.0);
    float weight = 0.0;
    for (uint i = 0u; i < GN_PREFILTER_SAMPLES; i++) {
        float u1 = (float(i) + 0.5) / float(GN_PREFILTER_SAMPLES), u2 = radical_inverse(i);
        float phi = 2.0 * GN_PI * u2;
        float cos_t = sqrt((1.0 - u1) / (1.0 + (alpha * alpha - 1.0) * u1)), sin_t = sqrt(1.0 - cos_t * cos_t);
        vec3 h = tx * (sin_t * cos(phi)) + ty * (sin_t * sin(phi)) + n * cos_t;
        vec3 l = 2.0 * dot(n, h) * h - n;
        float n_dot_l = dot(n, l);
        if (n_dot_l <= 0.0) continue;
        sum += gn_ibl_sample0(source, l) * n_dot_l;
        weight += n_dot_l;
    }
    imageStore(atlas, q, vec4(weight > 0.0 ? sum / weight : vec3(0.0), 1.0));
}
