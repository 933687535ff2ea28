#version 450
// Analytic sky: a gradient from horizon to zenith, the ground below, and the sun's disc
// with a glow around it.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

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
    float h = dir.y;
    vec3 sky = h >= 0.0 ? mix(frame.sky_horizon.rgb, frame.sky_zenith.rgb, pow(clamp(h, 0.0, 1.0), 0.5))
                        : mix(frame.sky_horizon.rgb, frame.sky_ground.rgb, clamp(-h * 8.0, 0.0, 1.0));
    float c = dot(dir, frame.sun_dir.xyz);
    // the sun subtends about 0.53 degrees: cos(0.265 deg) = 0.999989
    float disc = smoothstep(0.99997, 0.999989, c);
    float glow = pow(max(c, 0.0), 64.0) * 0.5 + pow(max(c, 0.0), 8.0) * 0.08;
    sky += frame.sun_color.rgb * (glow + disc * 40.0);
    out_color = vec4(gn_stored_colour(sky), 1.0);
}
