#version 450
// The distance debug view (src/passes/depth_view.c, a feature of its own): each pixel's linear
// distance from the camera, reconstructed from the resolved depth (reversed-Z, infinite far:
// depth = near / view depth). Grey falls linearly from white at the camera to black at
// frame.debug.x metres, with a dark line every frame.debug.y metres (both chosen from the camera
// and the scene's bounds: src/passes/depth_view.c), so distances can be read off the picture; the sky (depth 0)
// is dark blue.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_DEPTH_VIEW_DEPTH) uniform sampler2D depth;
layout(set = 0, binding = GN_BIND_DEPTH_VIEW_OUTPUT, rgba8) uniform writeonly image2D ldr;
layout(set = 0, binding = GN_BIND_DEPTH_VIEW_FRAME) uniform FrameBlock { gn_gpu_frame frame; };

// View depth in metres at a pixel (clamped to the image); 0 where nothing was drawn.
float distance_at(ivec2 p)
{
    p = clamp(p, ivec2(0), ivec2(frame.mode.zw) - 1);
    float d = texelFetch(depth, p, 0).r;
    return d > 0.0 ? frame.camera_pos.w / d : 0.0;
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(frame.mode.z) || p.y >= int(frame.mode.w)) return;
    float dist = distance_at(p);
    vec3 rgb = vec3(0.02, 0.03, 0.12);
    if (dist > 0.0) {
        float range = frame.debug.x, step = frame.debug.y;
        rgb = vec3(1.0 - clamp(dist / range, 0.0, 1.0));
        // a contour where a multiple of step lies between this pixel and its right or lower
        // neighbour on the same surface: about a pixel wide at every distance. Neighbours farther
        // apart than half a step or a tenth of the distance are a silhouette, one surface hiding
        // another, not a surface passing the distance: no contour there
        float right = distance_at(p + ivec2(1, 0)), down = distance_at(p + ivec2(0, 1));
        float band = floor(dist / step), near_enough = min(0.5 * step, 0.1 * dist);
        bool crosses = (right > 0.0 && abs(right - dist) < near_enough && floor(right / step) != band) ||
                       (down > 0.0 && abs(down - dist) < near_enough && floor(down / step) != band);
        if (crosses) rgb *= 0.35;
    }
    imageStore(ldr, p, vec4(rgb, 1.0));
}
