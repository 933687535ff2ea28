// What the air does between the eye and a point: the atmosphere's aerial perspective (the
// froxel atlas of shaders/atmo_aerial.comp) and seed 002's two exponential height fogs,
// integrated in closed form along the ray and lit by the key light through a Henyey-Greenstein
// phase and by the sky's ambient (shaders/fog.glsl), and volumetric fog's froxels in front of them.
// Needs `frame`, atmosphere.glsl, volumetric.glsl, the aerial atlas as `aerial_atlas` and the
// integrated volumetric froxels as `volume_integrated`.
#ifndef GN_AIR_GLSL
#define GN_AIR_GLSL
#include "fog.glsl"

// One slice of the aerial atlas at a screen uv (clamped inside the slice's tile).
vec4 gn_aerial_slice(vec2 uv, float slice)
{
    const float n = float(GN_GPU_ATMO_AERIAL);
    vec2 t = clamp(uv, vec2(0.5 / n), vec2(1.0 - 0.5 / n));
    return textureLod(aerial_atlas, vec2((slice + t.x) / n, t.y), 0.0);
}

// The air from the eye to a point `km` away at screen uv: rgb in-scattering (nits), a transmittance.
vec4 gn_aerial(vec2 uv, float km)
{
    if (frame.atmo_aerial.x < 0.5) return vec4(0.0, 0.0, 0.0, 1.0);
    const float n = float(GN_GPU_ATMO_AERIAL);
    // slice k ends at far ((k + 1) / n)^2: the continuous slice index of a distance
    float s = sqrt(max(km, 0.0) / frame.atmo_aerial.y) * n - 1.0;
    if (s < 0.0) return mix(vec4(0.0, 0.0, 0.0, 1.0), gn_aerial_slice(uv, 0.0), s + 1.0);
    s = min(s, n - 1.0);
    float k = floor(s);
    return mix(gn_aerial_slice(uv, k), gn_aerial_slice(uv, min(k + 1.0, n - 1.0)), s - k);
}

// The fogs along a ray of `metres` whose view depth is `depth`, at screen uv: with volumetric fog
// the froxels in front and the closed form beyond the volume's far end (none for a point inside
// it), else the closed form all the way; rgb the light they add, a their transmittance.
vec4 gn_air_fogs(vec3 dir, float metres, float depth, vec2 uv)
{
    vec3 eye = frame.camera_pos.xyz;
    if (frame.volumetric.x < 0.5) return gn_fog(eye, dir, metres);
    vec4 vol = gn_vol_integrated(volume_integrated, uv, depth);
    vec4 fog = vec4(0.0, 0.0, 0.0, 1.0);
    if (depth > frame.volumetric.z) {
        float near = frame.volumetric.z * metres / depth;
        float T = exp(-max(gn_fog_depth(eye, dir, metres) - gn_fog_depth(eye, dir, near), 0.0));
        fog = vec4((1.0 - T) * gn_fog_light(dir), T);
    }
    return vec4(fog.rgb * vol.a + vol.rgb, fog.a * vol.a);
}

// A surface's colour (nits) seen through the air: the aerial perspective, then the fogs
// (gn_air_fogs). The fog view's: what the air adds, and how much it hides.
vec3 gn_air_apply(vec3 color, vec3 world, vec2 uv, out vec3 added, out float hidden)
{
    vec3 d = world - frame.camera_pos.xyz;
    float metres = length(d);
    vec3 dir = metres > 0.0 ? d / metres : vec3(0.0, 1.0, 0.0);
    vec4 air = gn_aerial(uv, metres * 1e-3);
    vec4 fogs = gn_air_fogs(dir, metres, dot(d, frame.camera_forward.xyz), uv);
    added = air.rgb * fogs.a + fogs.rgb;
    hidden = 1.0 - air.a * fogs.a;
    return color * air.a * fogs.a + added;
}
#endif
