#version 450
// Analytic sky (shaders/sky.glsl): a gradient from horizon to zenith, the ground below, and the
// sun's disc with a glow around it.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "sky.glsl"

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
    out_color = vec4(gn_stored_colour(gn_sky_radiance(dir) + gn_sun_radiance(dir)), 1.0);
}
