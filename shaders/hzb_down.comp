#version 450
// A level of the HZB from the one below (gn_hzb_build): a texel past the edge repeats one that
// exists, which leaves the minimum unchanged.
#include "hzb.glsl"

void main()
{
    uvec2 t = gl_GlobalInvocationID.xy;
    if (t.x >= pc.dst.x || t.y >= pc.dst.y) return;
    uint x0 = 2u * t.x, y0 = 2u * t.y;
    uint x1 = x0 + 1u < pc.src.x ? x0 + 1u : x0, y1 = y0 + 1u < pc.src.y ? y0 + 1u : y0;
    uint s = pc.src.z;
    float a = hzb[s + y0 * pc.src.x + x0], b = hzb[s + y0 * pc.src.x + x1], c = hzb[s + y1 * pc.src.x + x0],
          d = hzb[s + y1 * pc.src.x + x1];
    float m = a < b ? a : b, n = c < d ? c : d;
    hzb[pc.dst.z + t.y * pc.dst.x + t.x] = m < n ? m : n;
}
