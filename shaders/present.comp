#version 450
// The frame on its way to the window: the tone-mapped output with the caller's overlay
// (straight alpha, one RGBA8 word a pixel, top row first) blended over it. Both are sRGB-encoded
// bytes; blending them as they are is what a UI drawn in those bytes expects.
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_PRESENT_OUTPUT) uniform sampler2D frame_ldr;
layout(set = 0, binding = GN_BIND_PRESENT_OVERLAY) readonly buffer Overlay { uint texels[]; };
layout(set = 0, binding = GN_BIND_PRESENT_COMPOSED, rgba8) uniform writeonly image2D composed;
layout(push_constant) uniform Push { uvec2 size; } pc;

void main()
{
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= pc.size.x || p.y >= pc.size.y) return;
    vec4 base = texelFetch(frame_ldr, ivec2(p), 0);
    vec4 o = unpackUnorm4x8(texels[p.y * pc.size.x + p.x]);
    imageStore(composed, ivec2(p), vec4(mix(base.rgb, o.rgb, o.a), 1.0));
}
