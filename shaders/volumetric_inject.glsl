// Volumetric fog's inject pass (src/passes/volumetric.c): one fragment a froxel of the atlas,
// at a depth jittered within its slice each frame. The medium is the frame's height fogs; the
// light the key light through its shadows (the cascades or the virtual shadow map: the variant's
// technique, shaders/sun_shadow.glsl) and a Henyey-Greenstein phase, the sky's ambient, and the
// clustered local lights of the froxel through their shadow maps. Blended with the last frame's
// froxel at the same world point (reprojected) to hide the low resolution. Out: rgb the light
// scattered towards the eye per metre, a the extinction per metre.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "lights.glsl"
#include "clusters.glsl"
#include "light_shadow.glsl"
#include "sun_shadow.glsl"
#include "volumetric.glsl"
#include "fog.glsl"

layout(set = GN_SET_VOLUME, binding = GN_BIND_VOLUME_HISTORY) uniform sampler2D history;
layout(location = 0) in vec2 in_ndc;
layout(location = 0) out vec4 out_color;

void main()
{
    ivec2 t = ivec2(gl_FragCoord.xy);
    ivec2 xy = t % ivec2(GN_GPU_VOL_X, GN_GPU_VOL_Y);
    ivec2 tile = t / ivec2(GN_GPU_VOL_X, GN_GPU_VOL_Y);
    int k = tile.y * GN_GPU_VOL_TILES_X + tile.x;
    float per_depth;
    vec3 dir = gn_vol_ray(xy, per_depth);
    float depth = gn_vol_depth(float(k) + frame.volumetric.w);
    vec3 p = frame.camera_pos.xyz + dir * depth * per_depth;
    float sigma_t = gn_fog_density(p);
    vec3 light = vec3(0.0);
    if (sigma_t > 0.0) {
        float g = frame.fog_params.y;
        light = frame.sun_color.rgb * gn_key_shadow_point(p) * gn_hg_phase(g, dot(dir, frame.sun_dir.xyz));
        light += 0.5 * (frame.ambient_sky.rgb + frame.ambient_ground.rgb);
        uint count = frame.lights.x;
        if (count > 0u) {
            vec2 uv = (vec2(xy) + 0.5) / vec2(GN_GPU_VOL_X, GN_GPU_VOL_Y);
            uint slot = gn_cluster_index_frag(uv, depth) * (frame.cluster_grid.w + 1u);
            bool naive = frame.lights.y != 0u;
            uint listed = naive ? count : cluster_lists[slot];
            for (uint i = 0u; i < listed; i++) {
                uint li = naive ? i : cluster_lists[slot + 1u + i];
                vec4 pr = lights[li].position_radius;
                vec3 d = pr.xyz - p;
                if (dot(d, d) >= pr.w * pr.w) continue;
                vec3 to_light;
                vec3 radiance = gn_light_radiance(lights[li], p, to_light);
                if (lights[li].params.w > 0.5) radiance *= frame.night.x;
                if (radiance.r + radiance.g + radiance.b <= 0.0) continue;
                light += radiance * gn_light_shadow(lights[li], p, to_light) * gn_hg_phase(g, dot(to_light, dir));
            }
        }
    }
    vec4 now = vec4(light * sigma_t * frame.fog_params.x, sigma_t);
    // the last frame's froxel at this world point, where it was in the view
    if (frame.volumetric_params.x > 0.0) {
        vec4 c = frame.volumetric_prev * vec4(p, 1.0);
        if (c.w > 0.0) {
            vec2 uv = c.xy / c.w * 0.5 + 0.5;
            float s = gn_vol_slice(c.w) - frame.volumetric.w;
            if (all(greaterThanEqual(uv, vec2(0.0))) && all(lessThanEqual(uv, vec2(1.0))) && s >= 0.0 &&
                s < float(GN_GPU_VOL_Z)) {
                vec4 h = gn_vol_fetch(history, uv, floor(s + 0.5) < float(GN_GPU_VOL_Z) ? floor(s + 0.5) : float(GN_GPU_VOL_Z - 1));
                now = mix(now, h, frame.volumetric_params.x);
            }
        }
    }
    out_color = now;
}
