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
    vec4 fog = gn_fog(frame.camera_pos.xyz, dir, frame.atmo_aerial.y * 1e3);
    if (frame.volumetric.x > 0.5) {
        vec4 vol = gn_vol_integrated(volume_integrated, in_ndc * 0.5 + 0.5, frame.volumetric.z);
        float far = frame.atmo_aerial.y * 1e3;
        float near = min(far, frame.volumetric.z / max(dot(dir, frame.camera_forward.xyz), 1e-4));
        float tau = gn_fog_depth(frame.camera_pos.xyz, dir, far) - gn_fog_depth(frame.camera_pos.xyz, dir, near);
        float T = exp(-max(tau, 0.0)); // beyond the volume
        vec3 beyond = fog.a < 1.0 ? fog.rgb * (1.0 - T) / (1.0 - fog.a) : vec3(0.0);
        fog = vec4(beyond * vol.a + vol.rgb, T * vol.a);
    }
    if (view == GN_GPU_VIEW_FOG) {
        out_color = vec4(gn_stored_colour(gn_fog_view(fog.rgb, 1.0 - fog.a)), 1.0);
        return;
    }
    out_color = vec4(gn_stored_colour(sky * fog.a + fog.rgb), 1.0);
}
