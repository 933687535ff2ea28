#version 450
// The vsm-atlas debug view (a pass of the VSM feature, after the tone map): the physical page
// pool, scaled to fit the image's height, over the output.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_ATLAS_VIEW_ATLAS) uniform sampler2D vsm_atlas;
layout(set = 0, binding = GN_BIND_ATLAS_VIEW_OUTPUT, rgba8) uniform writeonly image2D ldr;
layout(set = 0, binding = GN_BIND_ATLAS_VIEW_FRAME) uniform FrameBlock { gn_gpu_frame frame; };

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(frame.mode.z) || p.y >= int(frame.mode.w)) return;
    vec3 out_rgb;
    {
        // the physical page pool, scaled to fit the image's height: light depth (0.5 at the
        // pivot, +-1000 m to 0 and 1) stretched around the pivot so that casters show, near
        // the sun dark; cleared texels (nothing cast) white; page borders in blue
        vec2 size = vec2(textureSize(vsm_atlas, 0));
        vec2 t = vec2(p) / float(frame.mode.w) * size.y;
        if (t.x >= size.x) {
            out_rgb = vec3(0.0);
        } else {
            float d = texelFetch(vsm_atlas, ivec2(t), 0).r;
            out_rgb = vec3(d >= 1.0 ? 1.0 : clamp((d - 0.5) * 25.0 + 0.5, 0.0, 0.9));
            float texels = float(frame.vsm_info.y);
            vec2 f = fract(t / texels) * texels;
            float texels_per_pixel = size.y / float(frame.mode.w);
            if (texels_per_pixel < 6.0 && min(f.x, f.y) < texels_per_pixel) out_rgb = vec3(0.1, 0.2, 0.7);
        }
    }
    imageStore(ldr, p, vec4(out_rgb, 1.0));
}
