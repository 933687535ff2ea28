#version 450
// The aerial perspective (Hillaire 2020, section 5.4): a 32^3 froxel volume over the view, slice
// k ending gn_atmo_aerial_km(k) from the eye; each froxel the in-scattering (rgb, nits) and the
// mean transmittance (a) of the air from the eye to its slice, marched as gn_atmo_sky's segment.
// Slice k is the atlas's columns [32 k, 32 k + 32).
#include "atmo_pass.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_ATMO_AERIAL_OUT, rgba16f) uniform writeonly image2D aerial_out;
layout(set = 0, binding = GN_BIND_ATMO_T) uniform sampler2D t_table;
layout(set = 0, binding = GN_BIND_ATMO_MS) uniform sampler2D ms_table;

void main()
{
    ivec2 q = ivec2(gl_GlobalInvocationID.xy);
    if (q.x >= GN_GPU_ATMO_AERIAL * GN_GPU_ATMO_AERIAL || q.y >= GN_GPU_ATMO_AERIAL) return;
    int slice = q.x / GN_GPU_ATMO_AERIAL, x = q.x % GN_GPU_ATMO_AERIAL;
    // the froxel column's centre on the screen (y down, as the frame's pixels) to a world ray
    vec2 ndc = (vec2(x, q.y) + 0.5) / float(GN_GPU_ATMO_AERIAL) * 2.0 - 1.0;
    vec4 far_point = frame.inv_view_proj * vec4(ndc, 1e-7, 1.0);
    vec3 dir = normalize(far_point.xyz / far_point.w - frame.camera_pos.xyz);
    vec3 T;
    vec3 L = gn_atmo_sky_lights(t_table, ms_table, frame.atmo_body.w, dir, gn_atmo_aerial_km(float(slice)), T);
    imageStore(aerial_out, q, vec4(L, dot(T, vec3(1.0 / 3.0))));
}
