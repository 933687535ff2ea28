// The atmosphere on the GPU: the twin of src/decide/atmosphere.c (same formulas, same order,
// same sample counts), held to it by tests/gpu/gpu_atmosphere.c. The medium's parameters come
// from the frame constants (atmo_*: km and per km); needs `frame`. The tables are passed in as
// samplers (the transmittance and the multiple scattering, clamped linear).
#ifndef GN_ATMOSPHERE_GLSL
#define GN_ATMOSPHERE_GLSL

#define GN_ATMO_PI 3.14159265358979

float gn_atmo_bottom() { return frame.atmo_body.x; }
float gn_atmo_top() { return frame.atmo_body.y; }

// Scattering (Rayleigh rgb in .rgb of ray, Mie in mie) and extinction at radius r.
void gn_atmo_media(float r, out vec3 ray, out float mie, out vec3 ext)
{
    float h = max(r - gn_atmo_bottom(), 0.0);
    float dr = exp(-h / frame.atmo_rayleigh.w);
    float dm = exp(-h / frame.atmo_mie.z);
    float dozone = max(0.0, 1.0 - abs(h - frame.atmo_ozone.w) / (0.5 * frame.atmo_body.z));
    mie = frame.atmo_mie.x * dm;
    ray = frame.atmo_rayleigh.rgb * dr;
    ext = ray + (frame.atmo_mie.x + frame.atmo_mie.y) * dm + frame.atmo_ozone.rgb * dozone;
}

float gn_atmo_rayleigh_phase(float c) { return 3.0 / (16.0 * GN_ATMO_PI) * (1.0 + c * c); }

float gn_atmo_mie_phase(float g, float c)
{
    float k = 3.0 / (8.0 * GN_ATMO_PI) * (1.0 - g * g) / (2.0 + g * g);
    return k * (1.0 + c * c) / pow(max(1.0 + g * g - 2.0 * g * c, 1e-6), 1.5);
}

// r^2 (mu^2 - 1) + R^2 without cancellation (gn_atmo's sphere_disc says why).
float gn_atmo_sphere_disc(float r, float mu, float radius) { return (r * mu) * (r * mu) - (r - radius) * (r + radius); }

float gn_atmo_ray_sphere(float r, float mu, float radius)
{
    float disc = gn_atmo_sphere_disc(r, mu, radius);
    if (disc < 0.0) return -1.0;
    float s = sqrt(disc);
    float t0 = -r * mu - s, t1 = -r * mu + s;
    return t0 > 0.0 ? t0 : t1 > 0.0 ? t1 : -1.0;
}

bool gn_atmo_hits_ground(float r, float mu)
{
    return mu < 0.0 && gn_atmo_sphere_disc(r, mu, gn_atmo_bottom()) >= 0.0;
}

vec2 gn_atmo_transmittance_uv(float r, float mu)
{
    float b = gn_atmo_bottom(), t = gn_atmo_top();
    float H = sqrt(t * t - b * b);
    float rho = sqrt(max((r - b) * (r + b), 0.0));
    float disc = gn_atmo_sphere_disc(r, mu, t);
    float d = max(-r * mu + sqrt(max(disc, 0.0)), 0.0);
    float d_min = t - r, d_max = rho + H;
    return clamp(vec2((d - d_min) / (d_max - d_min), rho / H), 0.0, 1.0);
}

void gn_atmo_transmittance_rmu(vec2 uv, out float r, out float mu)
{
    float b = gn_atmo_bottom(), t = gn_atmo_top();
    float H = sqrt(t * t - b * b);
    float rho = H * uv.y;
    r = sqrt(rho * rho + b * b);
    float d_min = t - r, d_max = rho + H;
    float d = d_min + uv.x * (d_max - d_min);
    mu = d == 0.0 ? 1.0 : clamp((H * H - rho * rho - d * d) / (2.0 * r * d), -1.0, 1.0);
}

vec3 gn_atmo_transmittance(sampler2D table, float r, float mu)
{
    return textureLod(table, gn_atmo_transmittance_uv(r, mu), 0.0).rgb;
}

vec3 gn_atmo_multiscatter(sampler2D table, float r, float mu_sun)
{
    vec2 uv = clamp(vec2(mu_sun * 0.5 + 0.5, (r - gn_atmo_bottom()) / (gn_atmo_top() - gn_atmo_bottom())), 0.0, 1.0);
    return textureLod(table, uv, 0.0).rgb;
}

// The sun's light reaching radius r: the table's transmittance, 0 in the planet's shadow.
vec3 gn_atmo_sun_light(sampler2D table, float r, float mu_sun)
{
    return gn_atmo_hits_ground(r, mu_sun) ? vec3(0.0) : gn_atmo_transmittance(table, r, mu_sun);
}

float gn_atmo_clamp_r(float r)
{
    return clamp(r, gn_atmo_bottom() + GN_GPU_ATMO_MIN_ALTITUDE, gn_atmo_top() - GN_GPU_ATMO_MIN_ALTITUDE);
}

// gn_atmo_sky: in-scattering along view from radius r with the light towards sun, per unit
// illuminance; max_km > 0 ends the march there (an aerial perspective segment, even steps).
vec3 gn_atmo_sky(sampler2D t_table, sampler2D ms_table, float r_in, vec3 view, vec3 sun, float max_km,
                 out vec3 T)
{
    float r = gn_atmo_clamp_r(r_in);
    float mu = view.y;
    float tmax = gn_atmo_hits_ground(r, mu) ? gn_atmo_ray_sphere(r, mu, gn_atmo_bottom())
                                            : gn_atmo_ray_sphere(r, mu, gn_atmo_top());
    tmax = max(tmax, 0.0);
    bool segment = max_km > 0.0;
    int steps = segment ? GN_GPU_ATMO_SKY_STEPS / 4 : GN_GPU_ATMO_SKY_STEPS;
    if (segment) tmax = min(max(gn_atmo_ray_sphere(r, mu, gn_atmo_top()), 0.0), max_km);
    float cos_theta = dot(view, sun);
    float phase_r = gn_atmo_rayleigh_phase(cos_theta), phase_m = gn_atmo_mie_phase(frame.atmo_mie.w, cos_theta);
    T = vec3(1.0);
    vec3 L = vec3(0.0);
    for (int s = 0; s < steps; s++) {
        float u0 = float(s) / float(steps), u1 = float(s + 1) / float(steps);
        float t0 = segment ? u0 * tmax : u0 * u0 * tmax, t1 = segment ? u1 * tmax : u1 * u1 * tmax;
        float dt = t1 - t0, t = t0 + 0.5 * dt;
        vec3 pos = vec3(view.x * t, r + view.y * t, view.z * t);
        float rr = length(pos);
        float mus = dot(pos, sun) / rr;
        vec3 ray, ext;
        float mie;
        gn_atmo_media(rr, ray, mie, ext);
        vec3 ts = gn_atmo_sun_light(t_table, rr, mus);
        vec3 ms = gn_atmo_multiscatter(ms_table, rr, mus);
        vec3 s_in = (ray * phase_r + mie * phase_m) * ts + (ray + mie) * ms;
        vec3 stp = exp(-ext * dt);
        L += T * s_in * (1.0 - stp) / ext;
        T *= stp;
    }
    return L;
}

// Both sky lights' in-scattering (nits); T the first light's march's.
vec3 gn_atmo_sky_lights(sampler2D t_table, sampler2D ms_table, float r, vec3 view, float max_km, out vec3 T)
{
    vec3 L = gn_atmo_sky(t_table, ms_table, r, view, frame.sky_light[0].xyz, max_km, T) * frame.sky_light[0].w;
    if (frame.sky_light[1].w > 0.0) {
        vec3 t2;
        L += gn_atmo_sky(t_table, ms_table, r, view, frame.sky_light[1].xyz, max_km, t2) * frame.sky_light[1].w;
    }
    return L;
}

// The sky-view table's mapping (gn_atmo_skyview_dir / _uv).
float gn_atmo_horizon_zenith(float r) { return GN_ATMO_PI - asin(clamp(gn_atmo_bottom() / r, 0.0, 1.0)); }

vec3 gn_atmo_skyview_dir(float r_in, vec2 uv)
{
    float r = gn_atmo_clamp_r(r_in);
    float zh = gn_atmo_horizon_zenith(r), zenith;
    if (uv.y < 0.5) {
        float x = 1.0 - 2.0 * uv.y;
        zenith = zh * (1.0 - x * x);
    } else {
        float x = 2.0 * uv.y - 1.0;
        zenith = zh + (GN_ATMO_PI - zh) * x * x;
    }
    float az = uv.x * 2.0 * GN_ATMO_PI;
    return vec3(sin(zenith) * cos(az), cos(zenith), sin(zenith) * sin(az));
}

vec2 gn_atmo_skyview_uv(float r_in, vec3 dir)
{
    float r = gn_atmo_clamp_r(r_in);
    float zh = gn_atmo_horizon_zenith(r);
    float zenith = acos(clamp(dir.y, -1.0, 1.0));
    float v = zenith < zh ? 0.5 * (1.0 - sqrt(max(1.0 - zenith / zh, 0.0)))
                          : 0.5 * (1.0 + sqrt(max((zenith - zh) / (GN_ATMO_PI - zh), 0.0)));
    float az = atan(dir.z, dir.x);
    if (az < 0.0) az += 2.0 * GN_ATMO_PI;
    return vec2(az / (2.0 * GN_ATMO_PI), v);
}

// The aerial volume's slice k (0-based) ends at this distance (km): quadratic, dense near the eye.
float gn_atmo_aerial_km(float k)
{
    float u = (k + 1.0) / float(GN_GPU_ATMO_AERIAL);
    return frame.atmo_aerial.y * u * u;
}
#endif
