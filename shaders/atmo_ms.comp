#version 450
// The multiple-scattering table (Hillaire 2020, section 5.2; gn_atmo_build's second half): from
// each (r, mu_sun), 8 x 8 directions marched with the sun's single scattering through an
// isotropic phase and the ground's bounce (L2), and the fraction the medium scatters back (f);
// every order >= 2 is L2 / (1 - f).
#include "atmo_pass.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_ATMO_MS_OUT, rgba16f) uniform writeonly image2D ms_out;
layout(set = 0, binding = GN_BIND_ATMO_T) uniform sampler2D t_table;

void main()
{
    ivec2 q = ivec2(gl_GlobalInvocationID.xy);
    if (q.x >= GN_GPU_ATMO_MS || q.y >= GN_GPU_ATMO_MS) return;
    float mu_sun = (float(q.x) + 0.5) / float(GN_GPU_ATMO_MS) * 2.0 - 1.0;
    float r = gn_atmo_bottom() + (float(q.y) + 0.5) / float(GN_GPU_ATMO_MS) * (gn_atmo_top() - gn_atmo_bottom());
    const float iso = 1.0 / (4.0 * GN_ATMO_PI);
    const float n = float(GN_GPU_ATMO_MS_DIRS * GN_GPU_ATMO_MS_DIRS);
    vec3 sun = vec3(sqrt(max(1.0 - mu_sun * mu_sun, 0.0)), mu_sun, 0.0);
    vec3 l2 = vec3(0.0), f = vec3(0.0);
    for (int i = 0; i < GN_GPU_ATMO_MS_DIRS; i++) {
        for (int j = 0; j < GN_GPU_ATMO_MS_DIRS; j++) {
            float theta = 2.0 * GN_ATMO_PI * (float(i) + 0.5) / float(GN_GPU_ATMO_MS_DIRS);
            float phi = acos(1.0 - 2.0 * (float(j) + 0.5) / float(GN_GPU_ATMO_MS_DIRS));
            vec3 dir = vec3(cos(theta) * sin(phi), cos(phi), sin(theta) * sin(phi));
            float mu = dir.y;
            bool ground = gn_atmo_hits_ground(r, mu);
            float tmax = ground ? gn_atmo_ray_sphere(r, mu, gn_atmo_bottom()) : gn_atmo_ray_sphere(r, mu, gn_atmo_top());
            tmax = max(tmax, 0.0);
            float dt = tmax / float(GN_GPU_ATMO_MS_STEPS);
            vec3 T = vec3(1.0), L = vec3(0.0), F = vec3(0.0);
            for (int s = 0; s < GN_GPU_ATMO_MS_STEPS; s++) {
                float t = (float(s) + 0.5) * dt;
                vec3 pos = vec3(dir.x * t, r + dir.y * t, dir.z * t);
                float rr = length(pos);
                float mus = (pos.x * sun.x + pos.y * sun.y) / rr;
                vec3 ray, ext;
                float mie;
                gn_atmo_media(rr, ray, mie, ext);
                vec3 ts = gn_atmo_sun_light(t_table, rr, mus);
                vec3 scat = ray + mie, stp = exp(-ext * dt);
                vec3 integ = (1.0 - stp) / ext;
                L += T * scat * ts * iso * integ;
                F += T * scat * integ;
                T *= stp;
            }
            if (ground) {
                vec3 pos = vec3(dir.x * tmax, r + dir.y * tmax, dir.z * tmax);
                float rr = length(pos);
                float mus = (pos.x * sun.x + pos.y * sun.y) / rr;
                vec3 ts = gn_atmo_sun_light(t_table, rr, mus);
                L += T * ts * max(mus, 0.0) * frame.atmo_albedo.rgb / GN_ATMO_PI;
            }
            l2 += L / n;
            f += F / n * iso * 4.0 * GN_ATMO_PI;
        }
    }
    imageStore(ms_out, q, vec4(l2 / (1.0 - min(f, vec3(0.999))), 1.0));
}
