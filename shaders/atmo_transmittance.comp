#version 450
// The transmittance table (gn_atmo_build's first half): texel (i, j) is the ray (r, mu) of
// Bruneton's mapping at its centre, marched GN_GPU_ATMO_T_STEPS even steps to the top.
#include "atmo_pass.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_ATMO_T_OUT, rgba16f) uniform writeonly image2D t_out;

void main()
{
    ivec2 q = ivec2(gl_GlobalInvocationID.xy);
    if (q.x >= GN_GPU_ATMO_T_W || q.y >= GN_GPU_ATMO_T_H) return;
    float r, mu;
    gn_atmo_transmittance_rmu((vec2(q) + 0.5) / vec2(GN_GPU_ATMO_T_W, GN_GPU_ATMO_T_H), r, mu);
    vec3 T = vec3(0.0);
    if (!gn_atmo_hits_ground(r, mu)) {
        float d = max(gn_atmo_ray_sphere(r, mu, gn_atmo_top()), 0.0), dt = d / float(GN_GPU_ATMO_T_STEPS);
        vec3 depth = vec3(0.0);
        for (int i = 0; i < GN_GPU_ATMO_T_STEPS; i++) {
            float t = (float(i) + 0.5) * dt;
            float rr = sqrt(r * r + t * t + 2.0 * r * mu * t);
            vec3 ray, ext;
            float mie;
            gn_atmo_media(rr, ray, mie, ext);
            depth += ext * dt;
        }
        T = exp(-depth);
    }
    imageStore(t_out, q, vec4(T, 1.0));
}
