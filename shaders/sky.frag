#version 450
// The sky where nothing was drawn (shaders/sky.glsl): the atmosphere's sky view, the sun's and
// the moon's discs, the stars, and the height fogs in front of it all.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "sky_set.glsl"
#include "q3_stages.glsl"
#include "q3_fog.glsl"

// the Quake 3 sky's material (its skyparms box and cloud stages), or ~0u: the atmosphere's sky
layout(push_constant) uniform Push { uint material; } pc;

layout(location = 0) in vec2 in_ndc;
layout(location = 0) out vec4 out_color;

void main()
{
    vec4 far_point = frame.inv_view_proj * vec4(in_ndc, 1e-7, 1.0);
    vec3 dir = normalize(far_point.xyz / far_point.w - frame.camera_pos.xyz);
    uint view = frame.mode.x;
    if (view == GN_GPU_VIEW_NORMALS || view == GN_GPU_VIEW_ALBEDO || view == GN_GPU_VIEW_CASCADES ||
        view == GN_GPU_VIEW_LIGHT_HEATMAP) {
        out_color = vec4(0.0, 0.0, 0.0, 1.0);
        return;
    }
    if (view == GN_GPU_VIEW_SHADOW) { out_color = vec4(0.5, 0.5, 0.5, 1.0); return; } // no surface: mid-grey
    if (view == GN_GPU_VIEW_AO) { out_color = vec4(1.0); return; } // nothing occludes the sky
    if (view == GN_GPU_VIEW_SKY_LUT) {
        out_color = vec4(gn_stored_colour(gn_sky_lut_view(in_ndc * 0.5 + 0.5)), 1.0);
        return;
    }
    vec3 sky;
    if (pc.material != 0xffffffffu) {
        // a map's own sky: its far box (slots 0..5) under its cloud layers, each layer's stage over
        // the dome its cloud height above the eye (game units, mode.w's high bits), fullbright
        uint flags = q3_stages[pc.material * uint(GN_GPU_Q3_STAGES)].mode.w;
        vec3 box = vec3(0.0);
        if ((flags & GN_GPU_Q3_SKY_BOX) != 0u) {
            vec2 uv;
            uint face = gn_q3_box_uv(dir, uv) + (q3_stages[pc.material * uint(GN_GPU_Q3_STAGES)].mode.z >> 8u);
            box = gn_q3_sample(face, uv, vec2(0.0), vec2(0.0), true).rgb;
        }
        vec2 dome = gn_q3_dome_uv(dir, float(flags >> 8u));
        gn_q3_result q = gn_q3_compose(pc.material, dome, dome, dome, vec3(0.0), 0.0);
        // in physical units: a texel of 1 as bright as the atmosphere's zenith at this hour (so the sun
        // and the sky keep their ratio and the exposure meters a day), never dimmer than the
        // lightmaps' white (the map's own balance at night)
        float zenith = dot(gn_sky_radiance(vec3(0.0, 1.0, 0.0)), vec3(0.2126, 0.7152, 0.0722));
        sky = (box * q.d + q.pb + q.pa) * max(zenith, GN_Q3_NITS);
    } else {
        sky = gn_sky_radiance(dir) + gn_sky_discs(transmittance_table, dir) + gn_sky_stars(transmittance_table, dir);
    }
    // a Quake 3 map's fog volumes the ray to the sky crosses (q3_fog.glsl)
    sky = gn_q3_fog_sky(sky, dir);
    // the fogs (and the volumetric froxels) to the aerial volume's far end: the sky is behind all
    // of them; the aerial perspective is the sky view's own
    float metres = frame.atmo_aerial.y * 1e3;
    vec4 fog = gn_air_fogs(dir, metres, metres * max(dot(dir, frame.camera_forward.xyz), 1e-4), in_ndc * 0.5 + 0.5);
    if (view == GN_GPU_VIEW_FOG) {
        out_color = vec4(gn_stored_colour(gn_fog_view(fog.rgb, 1.0 - fog.a)), 1.0);
        return;
    }
    out_color = vec4(gn_stored_colour(sky * fog.a + fog.rgb), 1.0);
}
