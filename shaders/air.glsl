// What the air does between the eye and a point: the atmosphere's aerial perspective (the
// froxel atlas of shaders/atmo_aerial.comp) and seed 002's two exponential height fogs,
// integrated in closed form along the ray and lit by the key light through a Henyey-Greenstein
// phase and by the sky's ambient. The CPU twin of the fog is gn_fog_* in src/decide/fog.c.
// Needs `frame`, atmosphere.glsl, volumetric.glsl, the aerial atlas as `aerial_atlas` and the
// integrated volumetric froxels as `volume_integrated`.
#ifndef GN_AIR_GLSL
#define GN_AIR_GLSL

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

// The fogs' optical depth along dir (unit) for `metres` from the eye.
float gn_fog_depth(vec3 eye, vec3 dir, float metres)
{
    float tau = 0.0;
    for (int k = 0; k < 2; k++) {
        vec4 f = frame.fog[k];
        if (f.x <= 0.0) continue;
        float fall = f.z * 1e-3; // per metre
        // the density's exponent at both ends, the larger factored out (src/decide/fog.c)
        float e0 = -(eye.y - f.y) * fall, e1 = e0 - fall * dir.y * metres;
        float m = max(e0, e1), x = e0 - e1;
        float g = abs(x) < 1e-4 ? exp(0.5 * (e0 + e1) - m) : (exp(e0 - m) - exp(e1 - m)) / x;
        tau += f.x * metres * exp(min(m, 80.0)) * g;
    }
    return tau;
}

float gn_hg_phase(float g, float c)
{
    float d = 1.0 + g * g - 2.0 * g * c;
    return (1.0 - g * g) / (4.0 * 3.14159265 * d * sqrt(d));
}

// What a fog scatters towards the eye along dir, per unit of (1 - transmittance): the albedo
// times the key light through the phase and the sky's mean radiance.
vec3 gn_fog_light(vec3 dir)
{
    vec3 ambient = 0.5 * (frame.ambient_sky.rgb + frame.ambient_ground.rgb);
    return frame.fog_params.x * (frame.sun_color.rgb * gn_hg_phase(frame.fog_params.y, dot(dir, frame.sun_dir.xyz)) + ambient);
}

// The fogs along a ray: rgb in-scattering (nits), a transmittance.
vec4 gn_fog(vec3 eye, vec3 dir, float metres)
{
    if (frame.fog[0].x <= 0.0 && frame.fog[1].x <= 0.0) return vec4(0.0, 0.0, 0.0, 1.0);
    float T = exp(-gn_fog_depth(eye, dir, metres));
    return vec4((1.0 - T) * gn_fog_light(dir), T);
}

// A surface's colour (nits) seen through the air: the aerial perspective, the height fogs and,
// with volumetric fog, the froxels in front of it (the fogs beyond the volume's far end stay
// analytic). The fog view's: what the air adds, and how much it hides.
vec3 gn_air_apply(vec3 color, vec3 world, vec2 uv, out vec3 added, out float hidden)
{
    vec3 d = world - frame.camera_pos.xyz;
    float metres = length(d);
    vec3 dir = metres > 0.0 ? d / metres : vec3(0.0, 1.0, 0.0);
    vec4 air = gn_aerial(uv, metres * 1e-3);
    vec4 fog, vol = vec4(0.0, 0.0, 0.0, 1.0);
    if (frame.volumetric.x > 0.5) {
        float depth = dot(d, frame.camera_forward.xyz);
        vol = gn_vol_integrated(volume_integrated, uv, depth);
        // the analytic fogs from the volume's far end on (none for a surface inside it)
        fog = vec4(0.0, 0.0, 0.0, 1.0);
        if (depth > frame.volumetric.z) {
            float near = frame.volumetric.z * metres / depth;
            float tau_full = gn_fog_depth(frame.camera_pos.xyz, dir, metres);
            float T = exp(-max(tau_full - gn_fog_depth(frame.camera_pos.xyz, dir, near), 0.0));
            fog = vec4((1.0 - T) * gn_fog_light(dir), T);
        }
    } else {
        fog = gn_fog(frame.camera_pos.xyz, dir, metres);
    }
    added = (air.rgb * fog.a + fog.rgb) * vol.a + vol.rgb;
    hidden = 1.0 - air.a * fog.a * vol.a;
    return color * air.a * fog.a * vol.a + added;
}
#endif
