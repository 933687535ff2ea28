#version 450
// The sky where nothing was drawn (shaders/sky.glsl): the atmosphere's sky view, the sun's and
// the moon's discs, the stars, and the height fogs in front of it all.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "sky_set.glsl"

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
    vec3 sky = gn_sky_radiance(dir) + gn_sky_discs(transmittance_table, dir) + gn_sky_stars(transmittance_table, dir);
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
