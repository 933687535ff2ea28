// Where the environment's levels are (shaders/shared/gpu_types.h, GN_GPU_IBL_*): level 0 its own
// map, levels 1..5 rectangles of the atlas; and bilinear lookups that stay inside a level.
#ifndef GN_IBL_LEVELS_GLSL
#define GN_IBL_LEVELS_GLSL

const ivec4 GN_IBL_RECT[GN_GPU_IBL_LEVELS] = ivec4[](ivec4(0, 0, 128, 128), ivec4(0, 0, 64, 64), ivec4(64, 0, 32, 32),
                                                     ivec4(64, 32, 16, 16), ivec4(80, 32, 8, 8), ivec4(88, 32, 4, 4));

// The atlas level (1..5) whose rectangle holds texel q, or 0.
int gn_ibl_level_at(ivec2 q)
{
    for (int k = 1; k < GN_GPU_IBL_LEVELS; k++) {
        ivec4 r = GN_IBL_RECT[k];
        if (q.x >= r.x && q.y >= r.y && q.x < r.x + r.z && q.y < r.y + r.w) return k;
    }
    return 0;
}

vec3 gn_ibl_sample0(sampler2D map0, vec3 dir)
{
    float half_texel = 0.5 / float(GN_GPU_IBL_SIZE);
    return textureLod(map0, clamp(gn_oct_encode(dir), half_texel, 1.0 - half_texel), 0.0).rgb;
}

vec3 gn_ibl_sample_level(sampler2D map0, sampler2D atlas_map, int k, vec3 dir)
{
    if (k == 0) return gn_ibl_sample0(map0, dir);
    ivec4 r = GN_IBL_RECT[k];
    vec2 uv = clamp(gn_oct_encode(dir), 0.5 / float(r.z), 1.0 - 0.5 / float(r.z));
    return textureLod(atlas_map, (vec2(r.xy) + uv * vec2(r.zw)) / vec2(GN_GPU_IBL_ATLAS_W, GN_GPU_IBL_ATLAS_H), 0.0).rgb;
}

// The prefiltered radiance along dir for a perceptual roughness: between the two levels around
// roughness * 5.
vec3 gn_ibl_specular(sampler2D map0, sampler2D atlas_map, vec3 dir, float roughness)
{
    float lod = clamp(roughness, 0.0, 1.0) * float(GN_GPU_IBL_LEVELS - 1);
    int k = min(int(lod), GN_GPU_IBL_LEVELS - 2);
    return mix(gn_ibl_sample_level(map0, atlas_map, k, dir), gn_ibl_sample_level(map0, atlas_map, k + 1, dir),
               lod - float(k));
}

// Irradiance from the 9 spherical-harmonic coefficients of the radiance (Ramamoorthi and
// Hanrahan 2001: the cosine lobe's bands pi, 2 pi / 3, pi / 4), mirrored by gn_sh9_irradiance.
vec3 gn_sh9_irradiance(vec4 sh[GN_GPU_IBL_SH], vec3 n)
{
    const float a0 = 3.14159265, a1 = 2.09439510, a2 = 0.78539816;
    vec3 e = a0 * 0.282095 * sh[0].rgb;
    e += a1 * 0.488603 * (sh[1].rgb * n.y + sh[2].rgb * n.z + sh[3].rgb * n.x);
    e += a2 * (1.092548 * (sh[4].rgb * n.x * n.y + sh[5].rgb * n.y * n.z + sh[7].rgb * n.x * n.z) +
               0.315392 * sh[6].rgb * (3.0 * n.z * n.z - 1.0) + 0.546274 * sh[8].rgb * (n.x * n.x - n.y * n.y));
    return max(e, vec3(0.0));
}
#endif
