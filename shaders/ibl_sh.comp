#version 450
// The environment's radiance as 9 spherical-harmonic coefficients (src/passes/ibl.c), from level
// 0: 64 threads a share of its texels each, every texel weighted by its solid angle (1 / |p|^3
// on the octahedron), then a tree sum in shared memory; no atomics, the same every run. The
// twin of gn_sh9_project (src/decide/ibl.c).
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"
#include "octa.glsl"

#define THREADS 64
layout(local_size_x = THREADS) in;
layout(set = 0, binding = GN_BIND_PREFILTER_SOURCE) uniform sampler2D source;
layout(std430, set = 0, binding = GN_BIND_PREFILTER_SH) writeonly buffer ShBlock { vec4 sh[GN_GPU_IBL_SH]; };

shared vec4 part[THREADS][GN_GPU_IBL_SH + 1]; // 9 coefficients (rgb), then the weight in [9].x

void main()
{
    uint t = gl_LocalInvocationIndex;
    vec3 c[GN_GPU_IBL_SH];
    for (int i = 0; i < GN_GPU_IBL_SH; i++) c[i] = vec3(0.0);
    float wsum = 0.0;
    const uint n = GN_GPU_IBL_SIZE * GN_GPU_IBL_SIZE;
    for (uint k = t; k < n; k += THREADS) {
        ivec2 q = ivec2(k % GN_GPU_IBL_SIZE, k / GN_GPU_IBL_SIZE);
        vec3 p = gn_oct_point((vec2(q) + 0.5) / float(GN_GPU_IBL_SIZE));
        float len = length(p), w = 1.0 / (len * len * len);
        vec3 d = p / len, l = texelFetch(source, q, 0).rgb * w;
        c[0] += l * 0.282095;
        c[1] += l * 0.488603 * d.y;
        c[2] += l * 0.488603 * d.z;
        c[3] += l * 0.488603 * d.x;
        c[4] += l * 1.092548 * d.x * d.y;
        c[5] += l * 1.092548 * d.y * d.z;
        c[6] += l * 0.315392 * (3.0 * d.z * d.z - 1.0);
        c[7] += l * 1.092548 * d.x * d.z;
        c[8] += l * 0.546274 * (d.x * d.x - d.y * d.y);
        wsum += w;
    }
    for (int i = 0; i < GN_GPU_IBL_SH; i++) part[t][i] = vec4(c[i], 0.0);
    part[t][GN_GPU_IBL_SH] = vec4(wsum);
    barrier();
    for (uint s = THREADS / 2u; s > 0u; s >>= 1u) {
        if (t < s)
            for (int i = 0; i <= GN_GPU_IBL_SH; i++) part[t][i] += part[t + s][i];
        barrier();
    }
    if (t == 0u) {
        float norm = 4.0 * 3.14159265 / part[0][GN_GPU_IBL_SH].x; // the weights sum to the sphere
        for (int i = 0; i < GN_GPU_IBL_SH; i++) sh[i] = vec4(part[0][i].rgb * norm, 0.0);
    }
}
