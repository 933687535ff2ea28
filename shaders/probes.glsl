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

// 1 inside the box by the fade or more, falling linearly to 0 at its faces, 0 outside.
float gn_probe_weight(gn_gpu_probe p, vec3 x)
{
    vec3 m3 = min(x - p.box_min.xyz, p.box_max.xyz - x);
    float m = min(m3.x, min(m3.y, m3.z));
    if (m < 0.0) return 0.0;
    return p.position.w > 0.0 ? min(m / p.position.w, 1.0) : 1.0;
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
