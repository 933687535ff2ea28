#version 450
// The split sum's DFG table (src/passes/ibl.c): texel (i, j) holds A and B at n.v = (i + 0.5) / N
// and perceptual roughness (j + 0.5) / N, so the specular lobe's directional albedo is F0 A + B.
// The twin of gn_brdf_dfg (src/decide/brdf.c): visible-GGX Hammersley samples, weight G2 / G1(v).
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

#define GN_PI 3.14159265358979
#define GN_BRDF_MIN_ROUGHNESS 0.045
#define GN_BRDF_MIN_N_DOT_V 1e-4

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_DFG_TABLE, rgba16f) uniform writeonly image2D table;

float radical_inverse(uint i)
{
    i = (i << 16u) | (i >> 16u);
    i = ((i & 0x55555555u) << 1u) | ((i & 0xaaaaaaaau) >> 1u);
    i = ((i & 0x33333333u) << 2u) | ((i & 0xccccccccu) >> 2u);
    i = ((i & 0x0f0f0f0fu) << 4u) | ((i & 0xf0f0f0f0u) >> 4u);
    i = ((i & 0x00ff00ffu) << 8u) | ((i & 0xff00ff00u) >> 8u);
    return float(i) * 2.3283064365386963e-10;
}

float g1(float n_dot_w, float a2) { return 2.0 * n_dot_w / (n_dot_w + sqrt(a2 + (1.0 - a2) * n_dot_w * n_dot_w)); }

float v_smith(float n_dot_v, float n_dot_l, float alpha)
{
    float a2 = alpha * alpha;
    float gv = n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2);
    float gl = n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2);
    return 0.5 / (gv + gl);
}

// Heitz 2018, as gn_brdf_sample_vndf.
vec3 sample_vndf(vec3 v, float alpha, float u1, float u2)
{
    vec3 vh = normalize(vec3(alpha * v.x, alpha * v.y, v.z));
    float lensq = vh.x * vh.x + vh.y * vh.y;
    vec3 t1v = lensq > 0.0 ? vec3(-vh.y, vh.x, 0.0) / sqrt(lensq) : vec3(1.0, 0.0, 0.0);
    vec3 t2v = cross(vh, t1v);
    float r = sqrt(u1), phi = 2.0 * GN_PI * u2;
    float t1 = r * cos(phi), t2 = r * sin(phi), s = 0.5 * (1.0 + vh.z);
    t2 = (1.0 - s) * sqrt(max(1.0 - t1 * t1, 0.0)) + s * t2;
    float tz = sqrt(max(1.0 - t1 * t1 - t2 * t2, 0.0));
    vec3 nh = t1 * t1v + t2 * t2v + tz * vh;
    return normalize(vec3(alpha * nh.x, alpha * nh.y, max(nh.z, 0.0)));
}

layout(push_constant) uniform Push { uvec4 p; } pc; // x table side, y samples

void main()
{
    uvec2 q = gl_GlobalInvocationID.xy;
    uint n = pc.p.x, samples = pc.p.y;
    if (q.x >= n || q.y >= n) return;
    float n_dot_v = max((float(q.x) + 0.5) / float(n), GN_BRDF_MIN_N_DOT_V);
    float rough = max((float(q.y) + 0.5) / float(n), GN_BRDF_MIN_ROUGHNESS);
    float alpha = rough * rough, a2 = alpha * alpha, g1_v = g1(n_dot_v, a2);
    vec3 v = vec3(sqrt(max(1.0 - n_dot_v * n_dot_v, 0.0)), 0.0, n_dot_v);
    float a = 0.0, b = 0.0;
    for (uint i = 0u; i < samples; i++) {
        vec3 h = sample_vndf(v, alpha, (float(i) + 0.5) / float(samples), radical_inverse(i));
        float v_dot_h = dot(v, h), l_z = 2.0 * v_dot_h * h.z - v.z;
        if (!(l_z > 0.0 && v_dot_h > 0.0)) continue;
        float g = 4.0 * n_dot_v * l_z * v_smith(n_dot_v, l_z, alpha) / g1_v;
        float x = 1.0 - v_dot_h, fc = x * x * x * x * x;
        a += (1.0 - fc) * g;
        b += fc * g;
    }
    imageStore(table, ivec2(q), vec4(a / float(samples), b / float(samples), 0.0, 1.0));
}
