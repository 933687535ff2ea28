#version 450
// Ambient occlusion, step 3: the bilateral blur, along x (pc.pass.x 0: raw into tmp) then y
// (1: tmp into raw), each tap cut by its distance from the pixel's tangent plane (decide/ao.c,
// gn_ao_blur, says why).
#include "ao.glsl"

#define GN_AO_BLUR_RADIUS 3
#define GN_AO_BLUR_STEP 2
#define GN_AO_BLUR_EDGE 40.0
const float GN_AO_GAUSS[GN_AO_BLUR_RADIUS + 1] = float[](1.0, 0.80073740, 0.41111229, 0.13533528);

float gn_ao_src(bool along_y, uint at) { return along_y ? tmp[at] : raw[at]; }

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = ivec2(pc.level[0].xy);
    if (p.x >= size.x || p.y >= size.y) return;
    bool along_y = pc.pass.x != 0u;
    ivec2 dir = along_y ? ivec2(0, 1) : ivec2(1, 0);
    uint at = uint(p.y) * pc.level[0].x + uint(p.x);
    float zc = gn_ao_z0(p);
    float result = 1.0;
    if (zc < 0.5 * GN_AO_SKY_Z) {
        vec3 c = gn_ao_point(p, zc);
        vec3 n = gn_ao_normal(p, c);
        float sum = gn_ao_src(along_y, at) * GN_AO_GAUSS[0], weight = GN_AO_GAUSS[0];
        for (int k = -GN_AO_BLUR_RADIUS; k <= GN_AO_BLUR_RADIUS; k++) {
            if (k == 0) continue;
            ivec2 q = p + dir * (k * GN_AO_BLUR_STEP);
            if (q.x < 0 || q.y < 0 || q.x >= size.x || q.y >= size.y) continue;
            // the tap's distance from the pixel's tangent plane, over the pixel's distance
            float off = abs(dot(gn_ao_point(q, gn_ao_z0(q)) - c, n)) / zc;
            float w = GN_AO_GAUSS[abs(k)] * max(0.0, 1.0 - GN_AO_BLUR_EDGE * off);
            sum += gn_ao_src(along_y, uint(q.y) * pc.level[0].x + uint(q.x)) * w;
            weight += w;
        }
        result = sum / weight;
    }
    if (along_y) raw[at] = result;
    else tmp[at] = result;
}
