// Seed 002's two exponential height fogs (frame.fog[2]): the density at a point, the optical
// depth along a ray in closed form, Henyey-Greenstein's phase and the light a fog scatters
// towards the eye. The CPU twin is src/decide/fog.c. Needs `frame`.
#ifndef GN_FOG_GLSL
#define GN_FOG_GLSL

// The fogs' extinction at a point (per metre).
float gn_fog_density(vec3 p)
{
    float sigma = 0.0;
    for (int k = 0; k < 2; k++) {
        vec4 f = frame.fog[k];
        if (f.x > 0.0) sigma += f.x * exp(clamp(-(p.y - f.y) * f.z * 1e-3, -80.0, 80.0));
    }
    return sigma;
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

#endif
