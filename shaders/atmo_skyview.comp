#version 450
// The sky-view table (Hillaire 2020, section 5.3; gn_atmo_skyview): each texel's direction
// (absolute azimuth, elevation squared towards the horizon) marched from the eye's altitude with
// both sky lights, in nits. Remade every frame: it follows the sun, the moon and the eye.
#include "atmo_pass.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_ATMO_SKYVIEW_OUT, rgba16f) uniform writeonly image2D skyview_out;
layout(set = 0, binding = GN_BIND_ATMO_T) uniform sampler2D t_table;
layout(set = 0, binding = GN_BIND_ATMO_MS) uniform sampler2D ms_table;

void main()
{
    ivec2 q = ivec2(gl_GlobalInvocationID.xy);
    if (q.x >= GN_GPU_ATMO_SKYVIEW_W || q.y >= GN_GPU_ATMO_SKYVIEW_H) return;
    float r = frame.atmo_body.w;
    vec3 dir = gn_atmo_skyview_dir(r, (vec2(q) + 0.5) / vec2(GN_GPU_ATMO_SKYVIEW_W, GN_GPU_ATMO_SKYVIEW_H));
    vec3 T;
    vec3 L = gn_atmo_sky_lights(t_table, ms_table, r, dir, 0.0, T);
    imageStore(skyview_out, q, vec4(L, 1.0));
}
