// Scalable Ambient Obscurance's set and helpers (src/decide/ao.h says the method; decide/ao.c
// is the CPU reference, operation for operation).
#ifndef GN_AO_GLSL
#define GN_AO_GLSL
#extension GL_GOOGLE_include_directive : require
#include "shared/bindings.h"
#include "shared/gpu_types.h"

#define GN_AO_TAPS 11
#define GN_AO_TURNS 7
#define GN_AO_LOG_MAX_OFFSET 3
#define GN_AO_SKY_Z 1.0e6
#define GN_AO_TWO_PI 6.2831853

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = GN_BIND_AO_FRAME) uniform FrameBlock { gn_gpu_frame frame; };
layout(set = 0, binding = GN_BIND_AO_DEPTH) uniform sampler2D depth;
layout(std430, set = 0, binding = GN_BIND_AO_Z) buffer ZBlock { float z[]; };
layout(std430, set = 0, binding = GN_BIND_AO_RAW) buffer RawBlock { float raw[]; };
layout(std430, set = 0, binding = GN_BIND_AO_TMP) buffer TmpBlock { float tmp[]; };
layout(push_constant) uniform Push { gn_gpu_ao_push pc; };

float gn_ao_z0(ivec2 p) { return z[uint(p.y) * pc.level[0].x + uint(p.x)]; }

// The view-space point (x right, y down, z ahead) at pixel p and camera-space Z zv.
vec3 gn_ao_point(ivec2 p, float zv)
{
    precise float nx = (float(p.x) + frame.ao_proj.z) / float(pc.level[0].x) * 2.0 - 1.0;
    precise float ny = (float(p.y) + frame.ao_proj.w) / float(pc.level[0].y) * 2.0 - 1.0;
    precise vec3 q = vec3(nx * zv * frame.ao_proj.x, ny * zv * frame.ao_proj.y, zv);
    return q;
}
// The surface's normal at p from the depth, facing the camera (decide/ao.c, gn_ao_normal).
vec3 gn_ao_normal(ivec2 p, vec3 c)
{
    ivec2 lim = ivec2(pc.level[0].xy);
    vec3 d[2];
    for (int axis = 0; axis < 2; axis++) {
        ivec2 e = axis == 0 ? ivec2(1, 0) : ivec2(0, 1);
        int at = axis == 0 ? p.x : p.y;
        int size = axis == 0 ? lim.x : lim.y;
        bool has_a = at + 1 < size, has_b = at > 0;
        vec3 a = has_a ? gn_ao_point(p + e, gn_ao_z0(p + e)) : vec3(0.0);
        vec3 b = has_b ? gn_ao_point(p - e, gn_ao_z0(p - e)) : vec3(0.0);
        bool use_a = has_a && (!has_b || abs(a.z - c.z) <= abs(c.z - b.z));
        d[axis] = use_a ? a - c : has_b ? c - b : vec3(0.0);
    }
    vec3 n = cross(d[0], d[1]);
    float len = length(n);
    if (!(len > 0.0)) return vec3(0.0, 0.0, -1.0);
    return n * (dot(n, c) > 0.0 ? -1.0 / len : 1.0 / len);
}

#endif
