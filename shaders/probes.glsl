// Local reflection probes (src/probes.c; docs/SKY.md, "Reflection probes"): the probe an
// instance reflects (bits 2..7 of its flags), faded at its box and looked up box-projected: the
// twins of gn_probe_weight and gn_probe_parallax (src/decide/probes.c). Each probe's level 0 is a
// layer of one array, its prefiltered levels 1..5 a layer of another laid out as the sky
// environment's atlas at half the size (ibl_levels.glsl).
#ifndef GN_PROBES_GLSL
#define GN_PROBES_GLSL

layout(set = GN_SET_IBL, binding = GN_BIND_IBL_PROBE_LEVEL0) uniform sampler2DArray probe_level0;
layout(set = GN_SET_IBL, binding = GN_BIND_IBL_PROBE_ATLAS) uniform sampler2DArray probe_atlas;
layout(std430, set = GN_SET_IBL, binding = GN_BIND_IBL_PROBES) readonly buffer ProbeBlock
{
    gn_gpu_probe probes[GN_GPU_PROBES];
};

// The probe an instance's flags name, plus one (0: the sky's environment), when probes are on.
uint gn_probe_index(uint flags)
{
    return frame.ibl.z > 0.5 ? (flags >> GN_GPU_INSTANCE_PROBE_SHIFT) & GN_GPU_INSTANCE_PROBE_MASK : 0u;
}

// 1 inside the box and on its faces (the surfaces it was fitted to), falling linearly to 0 at
// the fade (position.w) outside them.
float gn_probe_weight(gn_gpu_probe p, vec3 x)
{
    vec3 out3 = max(p.box_min.xyz - x, x - p.box_max.xyz);
    float out_m = max(out3.x, max(out3.y, out3.z));
    if (out_m <= 0.0) return 1.0;
    return p.position.w > 0.0 ? max(1.0 - out_m / p.position.w, 0.0) : 0.0;
}

// The probe a surface's point x reflects (plus one, 0 none; its weight in w): the instance's own
// where it weighs 1, else of all the probe whose box weighs x the most (the instance's winning a
// tie, then the nearer): the twin of gn_probe_at (src/decide/probes.c).
uint gn_probe_at(uint preferred, vec3 x, out float w)
{
    uint best = preferred;
    w = best > 0u ? gn_probe_weight(probes[best - 1u], x) : 0.0;
    if (w >= 1.0) return best;
    vec3 to = best > 0u ? probes[best - 1u].position.xyz - x : vec3(0.0);
    float best_d = best > 0u ? dot(to, to) : 3.0e38;
    uint n = min(uint(frame.ibl.w), uint(GN_GPU_PROBES));
    for (uint i = 0u; i < n; i++) {
        float wi = gn_probe_weight(probes[i], x);
        vec3 d = probes[i].position.xyz - x;
        float di = dot(d, d);
        if (wi > w || (wi == w && wi > 0.0 && di < best_d && best != preferred)) {
            best = i + 1u;
            w = wi;
            best_d = di;
        }
    }
    if (w <= 0.0) best = 0u;
    return best;
}

// The direction from the probe to where the ray x + t d leaves its box.
vec3 gn_probe_parallax(gn_gpu_probe p, vec3 x, vec3 d)
{
    float t = 1e30;
    for (int a = 0; a < 3; a++) {
        if (d[a] > 0.0) t = min(t, (p.box_max[a] - x[a]) / d[a]);
        if (d[a] < 0.0) t = min(t, (p.box_min[a] - x[a]) / d[a]);
    }
    t = t < 1e30 && t > 0.0 ? t : 0.0;
    vec3 o = x + t * d - p.position.xyz;
    float len = length(o);
    return len > 0.0 ? o / len : d;
}

vec3 gn_probe_level(int layer, int k, vec3 dir)
{
    if (k == 0) {
        float half_texel = 0.5 / float(GN_GPU_PROBE_SIZE);
        return textureLod(probe_level0, vec3(clamp(gn_oct_encode(dir), half_texel, 1.0 - half_texel), float(layer)), 0.0)
            .rgb;
    }
    ivec4 r = GN_IBL_RECT[k] / 2;
    vec2 uv = clamp(gn_oct_encode(dir), 0.5 / float(r.z), 1.0 - 0.5 / float(r.z));
    vec2 at = (vec2(r.xy) + uv * vec2(r.zw)) / vec2(GN_GPU_PROBE_ATLAS_W, GN_GPU_PROBE_ATLAS_H);
    return textureLod(probe_atlas, vec3(at, float(layer)), 0.0).rgb;
}

// The probe's radiance along dir prefiltered for a perceptual roughness, as gn_ibl_specular.
vec3 gn_probe_specular(int layer, vec3 dir, float roughness)
{
    float lod = clamp(roughness, 0.0, 1.0) * float(GN_GPU_IBL_LEVELS - 1);
    int k = min(int(lod), GN_GPU_IBL_LEVELS - 2);
    return mix(gn_probe_level(layer, k, dir), gn_probe_level(layer, k + 1, dir), lod - float(k));
}

// The probes view's colour of a probe: hues a golden angle apart.
vec3 gn_probe_tint(uint probe)
{
    float h = fract(float(probe) * 0.618034);
    return clamp(abs(fract(h + vec3(0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, 0.0, 1.0) * 0.8 + 0.2;
}
#endif
