#version 450
// --view occlusion, first step: each pixel half the frame, half the grey of its HZB texel at the
// shown level (white near, black at infinity: a log of the distance over 1 km).
#include "occlusion_view.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

void main()
{
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= pc.hzb.x || p.y >= pc.hzb.y) return;
    uint k = shown_level(), w, h, at;
    hzb_level(k, w, h, at);
    float d = hzb[at + (p.y >> (k + 1u)) * w + (p.x >> (k + 1u))];
    float grey = d > 0.0 ? 1.0 - clamp(log2(1.0 + pc.proj.z / d) / log2(1001.0), 0.0, 1.0) : 0.0;
    vec4 frame = imageLoad(ldr, ivec2(p));
    imageStore(ldr, ivec2(p), vec4(mix(frame.rgb, vec3(grey), 0.5), 1.0));
}
