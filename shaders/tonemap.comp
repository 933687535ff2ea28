#version 450
// Exposure and a tone curve from the resolved HDR colour into the 8-bit sRGB output; the
// depth view is drawn here from the resolved depth.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_TONEMAP_HDR) uniform sampler2D hdr;
layout(set = 0, binding = GN_BIND_TONEMAP_DEPTH) uniform sampler2D depth;
layout(set = 0, binding = GN_BIND_TONEMAP_OUTPUT, rgba8) uniform writeonly image2D ldr;
layout(set = 0, binding = GN_BIND_TONEMAP_FRAME) uniform FrameBlock { gn_gpu_frame frame; };

// Narkowicz's fit of the ACES filmic curve.
vec3 aces(vec3 x) { return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0); }

vec3 srgb_encode(vec3 c)
{
    c = clamp(c, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c));
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(frame.mode.z) || p.y >= int(frame.mode.w)) return;
    uint view = frame.mode.x;
    vec3 out_rgb;
    if (view == GN_GPU_VIEW_DEPTH) {
        // reversed-Z infinite: depth = near / distance; shown on a log scale, near white,
        // the sky (depth 0) black
        float d = texelFetch(depth, p, 0).r;
        float dist = d > 0.0 ? frame.camera_pos.w / d : 1e9;
        float t = clamp(log2(max(dist, 1.0)) / 11.0, 0.0, 1.0); // 1 m white .. 2 km black
        out_rgb = vec3(1.0 - t);
    } else if (view == GN_GPU_VIEW_NORMALS || view == GN_GPU_VIEW_SHADOW || view == GN_GPU_VIEW_CASCADES ||
               view == GN_GPU_VIEW_LIGHT_HEATMAP || view == GN_GPU_VIEW_VSM_PAGES) {
        out_rgb = texelFetch(hdr, p, 0).rgb; // already a display value
    } else if (view == GN_GPU_VIEW_ALBEDO) {
        out_rgb = srgb_encode(texelFetch(hdr, p, 0).rgb);
    } else {
        vec3 c = texelFetch(hdr, p, 0).rgb * frame.exposure.x;
        uint curve = frame.mode.y;
        if (curve == GN_GPU_TONEMAP_REINHARD) c = c / (1.0 + c);
        else if (curve == GN_GPU_TONEMAP_ACES) c = aces(c);
        out_rgb = srgb_encode(c);
    }
    imageStore(ldr, p, vec4(out_rgb, 1.0));
}
