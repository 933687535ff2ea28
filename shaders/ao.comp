#version 450
// Ambient occlusion, step 2: the SAO estimate of every pixel from the Z pyramid into raw
// (decide/ao.c, gn_ao_estimate, says each step and why).
#include "ao.glsl"

float gn_ao_rotation(uvec2 p)
{
    uint h = p.x * 0x8da6b343u ^ p.y * 0xd8163841u;
    h ^= h >> 15u;
    h *= 0x2c1b3c6du;
    h ^= h >> 12u;
    return float(h & 1023u) / 1024.0;
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = ivec2(pc.level[0].xy);
    if (p.x >= size.x || p.y >= size.y) return;
    uint at = uint(p.y) * pc.level[0].x + uint(p.x);
    float zc = gn_ao_z0(p);
    if (zc >= 0.5 * GN_AO_SKY_Z) {
        raw[at] = 1.0;
        return;
    }
    vec3 c = gn_ao_point(p, zc);
    vec3 n = gn_ao_normal(p, c);
    float radius = frame.ao.x, bias = frame.ao.y;
    float r2 = radius * radius;
    float disc = frame.ao.w * radius / zc;
    float phi = gn_ao_rotation(uvec2(p)) * GN_AO_TWO_PI;
    float sum = 0.0;
    for (int i = 0; i < GN_AO_TAPS; i++) {
        float alpha = (float(i) + 0.5) / float(GN_AO_TAPS);
        float angle = alpha * (float(GN_AO_TURNS) * GN_AO_TWO_PI) + phi;
        float ssr = alpha * disc;
        ivec2 q = clamp(p + ivec2(ssr * vec2(cos(angle), sin(angle))), ivec2(0), size - 1);
        int mip = ssr >= 1.0 ? clamp(findMSB(int(ssr)) - GN_AO_LOG_MAX_OFFSET, 0, GN_GPU_AO_LEVELS - 1) : 0;
        uvec4 l = pc.level[mip];
        ivec2 m = clamp(q >> mip, ivec2(0), ivec2(l.xy) - 1);
        float zq = z[l.z + uint(m.y) * l.x + uint(m.x)];
        // the pixel that texel's Z came from, down the rotated grid (decide/ao.c says why)
        for (int k = mip; k > 0; k--) {
            uvec4 below = pc.level[k - 1];
            int sx = clamp(2 * m.x + ((m.y & 1) ^ 1), 0, int(below.x) - 1);
            m.y = clamp(2 * m.y + ((m.x & 1) ^ 1), 0, int(below.y) - 1);
            m.x = sx;
        }
        vec3 v = gn_ao_point(m, zq) - c;
        float vv = dot(v, v);
        float vn = dot(v, n);
        float f = max(r2 - vv, 0.0) / r2;
        sum += f * f * f * radius * max(vn - bias, 0.0) / (vv + 0.01 * r2);
    }
    raw[at] = max(0.0, 1.0 - frame.ao.z * sum / float(GN_AO_TAPS));
}
