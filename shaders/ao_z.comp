#version 450
// Ambient occlusion, step 1: camera-space Z (near / depth; GN_AO_SKY_Z where nothing was drawn)
// into level 0 (pc.pass.x 0), or level k from level k - 1 (pc.pass.x k) on a rotated grid: a
// real surface point of the 2 x 2 below, never an average (decide/ao.c, gn_ao_build_z).
#include "ao.glsl"

void main()
{
    uint k = pc.pass.x;
    uvec4 dst = pc.level[k];
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= dst.x || p.y >= dst.y) return;
    if (k == 0u) {
        float d = texelFetch(depth, ivec2(p), 0).r;
        z[p.y * dst.x + p.x] = d > 0.0 ? frame.camera_pos.w / d : GN_AO_SKY_Z;
        return;
    }
    uvec4 src = pc.level[k - 1u];
    int sx = clamp(int(2u * p.x + ((p.y & 1u) ^ 1u)), 0, int(src.x) - 1);
    int sy = clamp(int(2u * p.y + ((p.x & 1u) ^ 1u)), 0, int(src.y) - 1);
    z[dst.z + p.y * dst.x + p.x] = z[src.z + uint(sy) * src.x + uint(sx)];
}
