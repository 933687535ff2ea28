// Quake 3 fog volumes (`fogparms`; src/decide/q3_fog.c is the CPU twin and docs/MATERIALS.md the
// description): what is seen through L metres of a volume is covered by its colour by
// f = sqrt(min(L / opaque, 1)), the game's curve, L the length of the view ray inside the volume
// (slab clipping against its box and its slanted sides). Needs `frame` (common.glsl) and GN_Q3_NITS
// (q3_stages.glsl).
#ifndef GN_Q3_FOG_GLSL
#define GN_Q3_FOG_GLSL

layout(std430, set = GN_SET_FRAME, binding = GN_BIND_FRAME_FOGS) readonly buffer Q3FogBlock {
    uvec4 q3_fog_head; // x: the volumes' count
    gn_gpu_q3_fog q3_fogs[];
};

// Narrows [t0, t1] to where dot(n, o + t dir) <= w.
void gn_q3_fog_clip(vec3 n, float w, vec3 o, vec3 dir, inout float t0, inout float t1)
{
    float num = w - dot(n, o), den = dot(n, dir);
    if (den == 0.0) {
        if (num < 0.0) t1 = -1.0; // parallel and outside: nothing
    } else if (den > 0.0) {
        t1 = min(t1, num / den);
    } else {
        t0 = max(t0, num / den);
    }
}

// Metres of o + t dir, t in [0, t_max], inside volume i (dir need not be unit).
float gn_q3_fog_inside(uint i, vec3 o, vec3 dir, float t_max)
{
    float t0 = 0.0, t1 = t_max;
    vec3 lo = q3_fogs[i].box_min.xyz, hi = q3_fogs[i].box_max.xyz;
    for (int a = 0; a < 3; a++) {
        vec3 e = vec3(0.0);
        e[a] = 1.0;
        gn_q3_fog_clip(e, hi[a], o, dir, t0, t1);
        gn_q3_fog_clip(-e, -lo[a], o, dir, t0, t1);
    }
    uint planes = min(uint(q3_fogs[i].box_min.w), uint(GN_GPU_Q3_FOG_PLANES));
    for (uint k = 0u; k < planes && t0 < t1; k++)
        gn_q3_fog_clip(q3_fogs[i].planes[k].xyz, q3_fogs[i].planes[k].w, o, dir, t0, t1);
    return t1 > t0 ? (t1 - t0) * length(dir) : 0.0;
}

// What is seen along o + t dir (t in [0, t_max]) through every volume it crosses, as a map
// fb * d + p that the caller's blend applies: opaque surfaces have d = 0. The fog covers the surface
// and what the surface lets through alike, so with T = 1 - f
//     T (d B + p) + f F = d (T B + f F) + T p + f (1 - d) F
// where T B + f F is what lies behind, already fogged on its own way to the eye (exactly so for a
// fog that multiplies transmittance; the game's curve does not, and the error is small): d is kept
// and p becomes T p + f (1 - d) F. F is the fog's colour at the lightmaps' scale (GN_Q3_NITS).
// Volumes are applied in the map's order.
vec3 gn_q3_fog_ray(vec3 p, vec3 d, vec3 o, vec3 dir, float t_max)
{
    uint n = min(q3_fog_head.x, uint(GN_GPU_Q3_FOGS));
    for (uint i = 0u; i < n; i++) {
        float inside = gn_q3_fog_inside(i, o, dir, t_max);
        if (inside <= 1e-3) continue; // under a millimetre is none (GN_Q3_FOG_MIN_LENGTH: a face's own float error)
        float f = sqrt(min(inside * q3_fogs[i].color.w, 1.0));
        p = p * (1.0 - f) + f * (1.0 - d) * q3_fogs[i].color.rgb * GN_Q3_NITS;
    }
    return p;
}

// A surface at `point` seen from the camera.
vec3 gn_q3_fog_surface(vec3 p, vec3 d, vec3 point)
{
    return gn_q3_fog_ray(p, d, frame.camera_pos.xyz, point - frame.camera_pos.xyz, 1.0);
}

// The sky along a unit direction: the ray to infinity (a volume is bounded, so only its part counts).
vec3 gn_q3_fog_sky(vec3 sky, vec3 dir) { return gn_q3_fog_ray(sky, vec3(0.0), frame.camera_pos.xyz, dir, 1e9); }
#endif
