// What the air does between the eye and a point: the atmosphere's aerial perspective (the
// froxel atlas of shaders/atmo_aerial.comp) and seed 002's two exponential height fogs,
// integrated in closed form along the ray and lit by the key light through a Henyey-Greenstein
// phase and by the sky's ambient. The CPU twin of the fog is gn_fog_* in src/decide/fog.c.
// Needs `frame`, atmosphere.glsl and the aerial atlas as `aerial_atlas`.
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

// The fogs along a ray: rgb in-scattering (nits), a transmittance.
vec4 gn_fog(vec3 eye, vec3 dir, float metres)
{
    if (frame.fog[0].x <= 0.0 && frame.fog[1].x <= 0.0) return vec4(0.0, 0.0, 0.0, 1.0);
    float T = exp(-gn_fog_depth(eye, dir, metres));
    vec3 ambient = 0.5 * (frame.ambient_sky.rgb + frame.ambient_ground.rgb);
    vec3 light = frame.sun_color.rgb * gn_hg_phase(frame.fog_params.y, dot(dir, frame.sun_dir.xyz)) + ambient;
    return vec4((1.0 - T) * frame.fog_params.x * light, T);
}

// A surface's colour (nits) seen through the air: the aerial perspective, then the fogs.
// The fog view's: what the air adds, and how much it hides.
vec3 gn_air_apply(vec3 color, vec3 world, vec2 uv, out vec3 added, out float hidden)
{
    vec3 d = world - frame.camera_pos.xyz;
    float metres = length(d);
    vec3 dir = metres > 0.0 ? d / metres : vec3(0.0, 1.0, 0.0);
    vec4 air = gn_aerial(uv, metres * 1e-3);
    vec4 fog = gn_fog(frame.camera_pos.xyz, dir, metres);
    added = air.rgb * fog.a + fog.rgb;
    hidden = 1.0 - air.a * fog.a;
    return color * air.a * fog.a + added;
}
#endif
