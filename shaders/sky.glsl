// The sky's radiance (nits) along a direction: the atmosphere's sky-view table (the sun's and
// the moon's in-scattering, shaders/atmo_skyview.comp), the ground below the horizon and the
// night sky's glow; the discs and the stars apart (gn_sky_discs, gn_sky_stars), since the sun
// and the moon reach surfaces as the key light. Shared by the sky pass and the environment map
// the image-based light is made from (shaders/ibl_sky.comp), so the two agree. Needs `frame`,
// atmosphere.glsl and the table as `sky_view`.
#ifndef GN_SKY_GLSL
#define GN_SKY_GLSL

// The table, wrapped in azimuth by hand (its sampler clamps: the elevation must not wrap).
vec3 gn_sky_lut(vec2 uv)
{
    const float w = float(GN_GPU_ATMO_SKYVIEW_W);
    float x = uv.x * w;
    if (x > 0.5 && x < w - 0.5) return textureLod(sky_view, uv, 0.0).rgb;
    float f = x < 0.5 ? x + 0.5 : x - (w - 0.5); // from the last column's centre to the first's
    vec3 last = textureLod(sky_view, vec2((w - 0.5) / w, uv.y), 0.0).rgb;
    vec3 first = textureLod(sky_view, vec2(0.5 / w, uv.y), 0.0).rgb;
    return mix(last, first, f);
}

vec3 gn_sky_radiance(vec3 dir)
{
    if (frame.ibl.y > 0.0) return vec3(frame.ibl.y); // a test's uniform sky
    float r = frame.atmo_body.w;
    // the air the table holds, in front of the night sky's glow or, below the horizon, of the
    // planet's ground (lit by the sun, the moon and the sky, as the CPU's summary has it)
    // (its tint GN_NIGHT_SKY_TINT of decide/sun.h)
    bool ground = gn_atmo_hits_ground(gn_atmo_clamp_r(r), dir.y);
    vec3 glow = frame.atmo_albedo.w * vec3(0.78, 1.0, 1.57);
    return gn_sky_lut(gn_atmo_skyview_uv(r, dir)) + (ground ? frame.sky_ground.rgb : glow);
}

// The sun's disc with limb darkening (linear, u = 0.6) and the moon's, lit by the sun as a
// Lambertian sphere (its phase), each through the air's transmittance towards it.
vec3 gn_sky_discs(sampler2D t_table, vec3 dir)
{
    if (frame.ibl.y > 0.0) return vec3(0.0);
    float r = gn_atmo_clamp_r(frame.atmo_body.w);
    if (gn_atmo_hits_ground(r, dir.y)) return vec3(0.0);
    vec3 L = vec3(0.0);
    for (int k = 0; k < 2; k++) {
        vec3 to = frame.sky_light[k].xyz;
        float c = dot(dir, to), cos_r = frame.sky_light_disc[k].x;
        if (c <= cos_r) continue;
        float sin_r = sqrt(max(1.0 - cos_r * cos_r, 1e-12));
        float omega = 2.0 * 3.14159265 * (1.0 - cos_r);
        vec3 o = (dir - to * c) / sin_r; // on the disc, 0 at the centre, 1 at the rim
        float rho2 = min(dot(o, o), 1.0), mu = sqrt(1.0 - rho2);
        float shade;
        if (k == 0) {
            shade = (1.0 - 0.6 * (1.0 - mu)) / (1.0 - 0.6 / 3.0);
        } else {
            vec3 n = o - to * mu; // the moon's surface normal, facing the eye
            vec3 sun = frame.sky_light[0].xyz;
            float ca = clamp(dot(sun, -to), -1.0, 1.0), a = acos(ca);
            // the Lambertian sphere's mean brightness over its disc at phase angle a
            float mean = max(2.0 / 3.0 * (sin(a) + (3.14159265 - a) * ca) / 3.14159265, 1e-3);
            shade = max(dot(n, sun), 0.0) / mean;
        }
        L += frame.sky_light[k].w / omega * shade * gn_atmo_transmittance(t_table, r, dir.y);
    }
    return L;
}

uint gn_hash(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// The stars: one in about 40 cells of a 512^2 octahedral map fixed to the sky, at a random
// place in its cell, magnitudes -1 .. 6 with the faint ones the most; turning about the
// celestial pole (frame.atmo_aerial.w) at the latitude's elevation (frame.fog_params.z).
// A magnitude-0 star gives 2.1e-6 lux.
vec3 gn_sky_stars(sampler2D t_table, vec3 dir)
{
    if (frame.atmo_aerial.z < 0.5 || frame.ibl.y > 0.0) return vec3(0.0);
    float r = gn_atmo_clamp_r(frame.atmo_body.w);
    if (gn_atmo_hits_ground(r, dir.y)) return vec3(0.0);
    float lat = frame.fog_params.z;
    vec3 pole = vec3(0.0, sin(lat), -cos(lat));
    float a = -frame.atmo_aerial.w, ca = cos(a), sa = sin(a);
    vec3 d = dir * ca + cross(pole, dir) * sa + pole * dot(pole, dir) * (1.0 - ca); // Rodrigues
    const float cells = 512.0;
    vec2 p = gn_oct_encode(d) * cells;
    vec2 cell = floor(p);
    uint h = gn_hash(uint(cell.x) * 7919u + uint(cell.y) * 104729u);
    if ((h & 63u) > 1u) return vec3(0.0);
    vec2 at = vec2(float((h >> 8) & 255u), float((h >> 16) & 255u)) / 255.0 * 0.6 + 0.2;
    float mag = 6.0 - 7.0 * pow(float(h >> 24) / 255.0, 3.0);
    float lux = 2.1e-6 * pow(10.0, -0.4 * mag);
    // the cell's solid angle, and the star's share of it: a gaussian spot 0.1 cells wide
    float omega_cell = 4.0 * 3.14159265 / (cells * cells);
    float s = 0.1, d2 = dot(p - cell - at, p - cell - at);
    float spot = exp(-d2 / (s * s)) / (3.14159265 * s * s);
    vec3 tint = mix(vec3(1.0, 0.85, 0.7), vec3(0.75, 0.85, 1.0), float((h >> 4) & 15u) / 15.0);
    return lux / omega_cell * spot * tint * gn_atmo_transmittance(t_table, r, dir.y);
}
#endif
