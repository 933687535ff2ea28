/* The atmosphere's tables and ray marches (decide/atmosphere.h), in float, written so that a GPU
 * twin can run the same formulas in the same order and be held to these. */
#include "decide/atmosphere.h"

#include <math.h>
#include <string.h>

#define PI_F 3.14159265358979f

void gn_atmo_earth(gn_atmo_params *out)
{
    /* Hillaire 2020, table 1 (and UE5's SkyAtmosphere defaults), in km and per km. */
    *out = (gn_atmo_params){.bottom_km = 6360.0f,
                            .top_km = 6460.0f,
                            .rayleigh = {5.802e-3f, 13.558e-3f, 33.1e-3f},
                            .rayleigh_height_km = 8.0f,
                            .mie_scattering = 3.996e-3f,
                            .mie_absorption = 0.444e-3f,
                            .mie_height_km = 1.2f,
                            .mie_g = 0.8f,
                            .ozone = {0.650e-3f, 1.881e-3f, 0.085e-3f},
                            .ozone_center_km = 25.0f,
                            .ozone_width_km = 30.0f,
                            .ground_albedo = {0.3f, 0.3f, 0.3f}};
}

static float clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

void gn_atmo_media(const gn_atmo_params *p, float r_km, float rayleigh[3], float *mie, float extinction[3])
{
    float h = fmaxf(r_km - p->bottom_km, 0.0f);
    float dr = expf(-h / p->rayleigh_height_km);
    float dm = expf(-h / p->mie_height_km);
    float dozone = fmaxf(0.0f, 1.0f - fabsf(h - p->ozone_center_km) / (0.5f * p->ozone_width_km));
    *mie = p->mie_scattering * dm;
    for (int c = 0; c < 3; c++) {
        rayleigh[c] = p->rayleigh[c] * dr;
        extinction[c] = rayleigh[c] + (p->mie_scattering + p->mie_absorption) * dm + p->ozone[c] * dozone;
    }
}

float gn_atmo_rayleigh_phase(float c) { return 3.0f / (16.0f * PI_F) * (1.0f + c * c); }

float gn_atmo_mie_phase(float g, float c)
{
    float k = 3.0f / (8.0f * PI_F) * (1.0f - g * g) / (2.0f + g * g);
    return k * (1.0f + c * c) / powf(fmaxf(1.0f + g * g - 2.0f * g * c, 1e-6f), 1.5f);
}

/* r^2 (mu^2 - 1) + R^2, written so that nothing cancels: at 6,360 km a float's r^2 has a
 * resolution of ~4 km^2, more than the whole term a few metres above the ground; r - R is
 * exact (Sterbenz) and (r mu)^2 small there. */
static float sphere_disc(float r, float mu, float radius)
{
    return (r * mu) * (r * mu) - (r - radius) * (r + radius);
}

float gn_atmo_ray_sphere(float r, float mu, float radius)
{
    float disc = sphere_disc(r, mu, radius);
    if (disc < 0.0f) return -1.0f;
    float s = sqrtf(disc);
    float t0 = -r * mu - s, t1 = -r * mu + s;
    return t0 > 0.0f ? t0 : t1 > 0.0f ? t1 : -1.0f;
}

/* The ray (r, mu) meets the ground ahead (a grazing ray just above the horizon does not). */
static int hits_ground(const gn_atmo_params *p, float r, float mu)
{
    return mu < 0.0f && sphere_disc(r, mu, p->bottom_km) >= 0.0f;
}

void gn_atmo_transmittance_direct(const gn_atmo_params *p, float r_km, float mu, uint32_t steps, float out[3])
{
    if (hits_ground(p, r_km, mu)) {
        out[0] = out[1] = out[2] = 0.0f;
        return;
    }
    float d = fmaxf(gn_atmo_ray_sphere(r_km, mu, p->top_km), 0.0f), dt = d / (float)steps;
    float depth[3] = {0, 0, 0};
    for (uint32_t i = 0; i < steps; i++) {
        float t = ((float)i + 0.5f) * dt;
        float r = sqrtf(r_km * r_km + t * t + 2.0f * r_km * mu * t);
        float ray[3], mie, ext[3];
        gn_atmo_media(p, r, ray, &mie, ext);
        for (int c = 0; c < 3; c++) depth[c] += ext[c] * dt;
    }
    for (int c = 0; c < 3; c++) out[c] = expf(-depth[c]);
}

/* Bruneton and Neyret 2008 / Bruneton 2017: the distance to the top, normalised between its
 * least and most at that altitude, and the altitude as the horizon distance. Every uv is a ray
 * that does not meet the ground. */
void gn_atmo_transmittance_uv(const gn_atmo_params *p, float r_km, float mu, float uv[2])
{
    float H = sqrtf(p->top_km * p->top_km - p->bottom_km * p->bottom_km);
    float rho = sqrtf(fmaxf((r_km - p->bottom_km) * (r_km + p->bottom_km), 0.0f));
    float disc = sphere_disc(r_km, mu, p->top_km);
    float d = fmaxf(-r_km * mu + sqrtf(fmaxf(disc, 0.0f)), 0.0f);
    float d_min = p->top_km - r_km, d_max = rho + H;
    uv[0] = clampf((d - d_min) / (d_max - d_min), 0.0f, 1.0f);
    uv[1] = clampf(rho / H, 0.0f, 1.0f);
}

void gn_atmo_transmittance_rmu(const gn_atmo_params *p, const float uv[2], float *r_km, float *mu)
{
    float H = sqrtf(p->top_km * p->top_km - p->bottom_km * p->bottom_km);
    float rho = H * uv[1];
    float r = sqrtf(rho * rho + p->bottom_km * p->bottom_km);
    float d_min = p->top_km - r, d_max = rho + H;
    float d = d_min + uv[0] * (d_max - d_min);
    *r_km = r;
    *mu = d == 0.0f ? 1.0f : clampf((H * H - rho * rho - d * d) / (2.0f * r * d), -1.0f, 1.0f);
}

/* A table's texel value at uv, bilinear between texel centres, clamped (a sampler's
 * CLAMP_TO_EDGE with LINEAR filtering). */
static void bilinear(const float *t, int w, int h, const float uv[2], float out[3])
{
    float x = clampf(uv[0] * (float)w - 0.5f, 0.0f, (float)(w - 1));
    float y = clampf(uv[1] * (float)h - 0.5f, 0.0f, (float)(h - 1));
    int x0 = (int)x, y0 = (int)y;
    int x1 = x0 + 1 < w ? x0 + 1 : x0, y1 = y0 + 1 < h ? y0 + 1 : y0;
    float fx = x - (float)x0, fy = y - (float)y0;
    for (int c = 0; c < 3; c++) {
        float a = t[(y0 * w + x0) * 3 + c] + (t[(y0 * w + x1) * 3 + c] - t[(y0 * w + x0) * 3 + c]) * fx;
        float b = t[(y1 * w + x0) * 3 + c] + (t[(y1 * w + x1) * 3 + c] - t[(y1 * w + x0) * 3 + c]) * fx;
        out[c] = a + (b - a) * fy;
    }
}

void gn_atmo_transmittance(const gn_atmosphere *a, float r_km, float mu, float out[3])
{
    float uv[2];
    gn_atmo_transmittance_uv(&a->p, r_km, mu, uv);
    bilinear(&a->transmittance[0][0][0], GN_ATMO_TRANSMITTANCE_W, GN_ATMO_TRANSMITTANCE_H, uv, out);
}

void gn_atmo_multiscatter(const gn_atmosphere *a, float r_km, float mu_sun, float out[3])
{
    float uv[2] = {clampf(mu_sun * 0.5f + 0.5f, 0.0f, 1.0f),
                   clampf((r_km - a->p.bottom_km) / (a->p.top_km - a->p.bottom_km), 0.0f, 1.0f)};
    bilinear(&a->ms[0][0][0], GN_ATMO_MS_SIZE, GN_ATMO_MS_SIZE, uv, out);
}

/* The sun's light reaching radius r with cos sun zenith mu_sun: the table's transmittance, 0 in
 * the planet's shadow. */
static void sun_light(const gn_atmosphere *a, float r, float mu_sun, float out[3])
{
    if (hits_ground(&a->p, r, mu_sun)) {
        out[0] = out[1] = out[2] = 0.0f;
        return;
    }
    gn_atmo_transmittance(a, r, mu_sun, out);
}

/* Hillaire's multiple scattering: from (r, mu_sun), 64 directions on the sphere, each marched
 * to the ground or the top with the sun's single scattering through an isotropic phase and the
 * ground's Lambertian bounce (L2), and the energy the medium scatters (f); all orders >= 2
 * are L2 / (1 - f). */
static void multiscatter_texel(const gn_atmosphere *a, float r, float mu_sun, float out[3])
{
    const gn_atmo_params *p = &a->p;
    const float iso = 1.0f / (4.0f * PI_F);
    float sun[3] = {sqrtf(fmaxf(1.0f - mu_sun * mu_sun, 0.0f)), mu_sun, 0.0f};
    float l2[3] = {0, 0, 0}, f[3] = {0, 0, 0};
    for (int i = 0; i < GN_ATMO_MS_DIRS; i++) {
        for (int j = 0; j < GN_ATMO_MS_DIRS; j++) {
            float theta = 2.0f * PI_F * ((float)i + 0.5f) / GN_ATMO_MS_DIRS;
            float phi = acosf(1.0f - 2.0f * ((float)j + 0.5f) / GN_ATMO_MS_DIRS);
            float dir[3] = {cosf(theta) * sinf(phi), cosf(phi), sinf(theta) * sinf(phi)};
            float mu = dir[1];
            int ground = hits_ground(p, r, mu);
            float tmax =
                ground ? gn_atmo_ray_sphere(r, mu, p->bottom_km) : gn_atmo_ray_sphere(r, mu, p->top_km);
            tmax = fmaxf(tmax, 0.0f);
            float dt = tmax / GN_ATMO_MS_STEPS, T[3] = {1, 1, 1}, L[3] = {0, 0, 0}, F[3] = {0, 0, 0};
            for (int s = 0; s < GN_ATMO_MS_STEPS; s++) {
                float t = ((float)s + 0.5f) * dt;
                float pos[3] = {dir[0] * t, r + dir[1] * t, dir[2] * t};
                float rr = sqrtf(pos[0] * pos[0] + pos[1] * pos[1] + pos[2] * pos[2]);
                float mus = (pos[0] * sun[0] + pos[1] * sun[1]) / rr;
                float ray[3], mie, ext[3], ts[3];
                gn_atmo_media(p, rr, ray, &mie, ext);
                sun_light(a, rr, mus, ts);
                for (int c = 0; c < 3; c++) {
                    float scat = ray[c] + mie, step = expf(-ext[c] * dt);
                    float integ = (1.0f - step) / ext[c]; /* the step's in-scattering, analytic */
                    L[c] += T[c] * scat * ts[c] * iso * integ;
                    F[c] += T[c] * scat * integ;
                    T[c] *= step;
                }
            }
            if (ground) {
                float pos[3] = {dir[0] * tmax, r + dir[1] * tmax, dir[2] * tmax};
                float rr = sqrtf(pos[0] * pos[0] + pos[1] * pos[1] + pos[2] * pos[2]);
                float mus = (pos[0] * sun[0] + pos[1] * sun[1]) / rr, ts[3];
                sun_light(a, rr, mus, ts);
                for (int c = 0; c < 3; c++)
                    L[c] += T[c] * ts[c] * fmaxf(mus, 0.0f) * p->ground_albedo[c] / PI_F;
            }
            /* each direction's solid angle 4 pi / 64 times the isotropic phase 1 / (4 pi) */
            for (int c = 0; c < 3; c++) {
                l2[c] += L[c] / (GN_ATMO_MS_DIRS * GN_ATMO_MS_DIRS);
                f[c] += F[c] / (GN_ATMO_MS_DIRS * GN_ATMO_MS_DIRS) * iso * 4.0f * PI_F;
            }
        }
    }
    for (int c = 0; c < 3; c++) out[c] = l2[c] / (1.0f - fminf(f[c], 0.999f));
}

void gn_atmo_build(const gn_atmo_params *p, gn_atmosphere *out)
{
    out->p = *p;
    for (int j = 0; j < GN_ATMO_TRANSMITTANCE_H; j++)
        for (int i = 0; i < GN_ATMO_TRANSMITTANCE_W; i++) {
            float uv[2] = {((float)i + 0.5f) / GN_ATMO_TRANSMITTANCE_W,
                           ((float)j + 0.5f) / GN_ATMO_TRANSMITTANCE_H};
            float r, mu;
            gn_atmo_transmittance_rmu(p, uv, &r, &mu);
            gn_atmo_transmittance_direct(p, r, mu, GN_ATMO_TRANSMITTANCE_STEPS, out->transmittance[j][i]);
        }
    for (int j = 0; j < GN_ATMO_MS_SIZE; j++)
        for (int i = 0; i < GN_ATMO_MS_SIZE; i++) {
            float mu_sun = ((float)i + 0.5f) / GN_ATMO_MS_SIZE * 2.0f - 1.0f;
            float r = p->bottom_km + ((float)j + 0.5f) / GN_ATMO_MS_SIZE * (p->top_km - p->bottom_km);
            multiscatter_texel(out, r, mu_sun, out->ms[j][i]);
        }
}

void gn_atmo_sky(const gn_atmosphere *a, float r_km, const float view[3], const float sun[3], float max_km,
                 float radiance[3], float transmittance[3])
{
    const gn_atmo_params *p = &a->p;
    float r = clampf(r_km, p->bottom_km + GN_ATMO_MIN_ALTITUDE_KM, p->top_km - GN_ATMO_MIN_ALTITUDE_KM);
    float mu = view[1];
    float tmax = hits_ground(p, r, mu) ? gn_atmo_ray_sphere(r, mu, p->bottom_km)
                                       : gn_atmo_ray_sphere(r, mu, p->top_km);
    tmax = fmaxf(tmax, 0.0f);
    /* the sky: samples spaced quadratically (dense near the eye, where the air is); a segment
     * (aerial perspective): evenly */
    int segment = max_km > 0.0f;
    int steps = segment ? GN_ATMO_SKY_STEPS / 4 : GN_ATMO_SKY_STEPS;
    /* a segment ends at a surface of the scene, which stands on the ground: the planet's ground
     * does not end it (air below the ground's radius is the ground's air) */
    if (segment) tmax = fminf(fmaxf(gn_atmo_ray_sphere(r, mu, p->top_km), 0.0f), max_km);
    float cos_theta = view[0] * sun[0] + view[1] * sun[1] + view[2] * sun[2];
    float phase_r = gn_atmo_rayleigh_phase(cos_theta), phase_m = gn_atmo_mie_phase(p->mie_g, cos_theta);
    float T[3] = {1, 1, 1}, L[3] = {0, 0, 0};
    for (int s = 0; s < steps; s++) {
        float u0 = (float)s / (float)steps, u1 = (float)(s + 1) / (float)steps;
        float t0 = segment ? u0 * tmax : u0 * u0 * tmax, t1 = segment ? u1 * tmax : u1 * u1 * tmax;
        float dt = t1 - t0, t = t0 + 0.5f * dt;
        float pos[3] = {view[0] * t, r + view[1] * t, view[2] * t};
        float rr = sqrtf(pos[0] * pos[0] + pos[1] * pos[1] + pos[2] * pos[2]);
        float mus = (pos[0] * sun[0] + pos[1] * sun[1] + pos[2] * sun[2]) / rr;
        float ray[3], mie, ext[3], ts[3], ms[3];
        gn_atmo_media(p, rr, ray, &mie, ext);
        sun_light(a, rr, mus, ts);
        gn_atmo_multiscatter(a, rr, mus, ms);
        for (int c = 0; c < 3; c++) {
            float s_in = (ray[c] * phase_r + mie * phase_m) * ts[c] + (ray[c] + mie) * ms[c];
            float step = expf(-ext[c] * dt);
            L[c] += T[c] * s_in * (1.0f - step) / ext[c];
            T[c] *= step;
        }
    }
    memcpy(radiance, L, sizeof L);
    if (transmittance) memcpy(transmittance, T, sizeof T);
}

/* The sky-view table (Hillaire section 5.3): u the azimuth from the sun's, v the elevation
 * from the horizon's (which sinks below 0 as the eye rises), squared towards the horizon so
 * that its band gets the texels: v = 0.5 +- 0.5 sqrt(|angle| / the side's range). */
static float horizon_zenith(const gn_atmo_params *p, float r)
{
    float s = clampf(p->bottom_km / r, 0.0f, 1.0f);
    return PI_F - asinf(s); /* the zenith angle of the horizon: past pi / 2 above the ground */
}

void gn_atmo_skyview_dir(const gn_atmo_params *p, float r_km, const float uv[2], float dir[3])
{
    float r = clampf(r_km, p->bottom_km + GN_ATMO_MIN_ALTITUDE_KM, p->top_km - GN_ATMO_MIN_ALTITUDE_KM);
    float zh = horizon_zenith(p, r), zenith;
    if (uv[1] < 0.5f) {
        float x = 1.0f - 2.0f * uv[1]; /* 1 at the zenith, 0 at the horizon */
        zenith = zh * (1.0f - x * x);
    } else {
        float x = 2.0f * uv[1] - 1.0f; /* 0 at the horizon, 1 at the nadir */
        zenith = zh + (PI_F - zh) * x * x;
    }
    float az = uv[0] * 2.0f * PI_F;
    dir[0] = sinf(zenith) * cosf(az);
    dir[1] = cosf(zenith);
    dir[2] = sinf(zenith) * sinf(az);
}

void gn_atmo_skyview_uv(const gn_atmo_params *p, float r_km, const float dir[3], float uv[2])
{
    float r = clampf(r_km, p->bottom_km + GN_ATMO_MIN_ALTITUDE_KM, p->top_km - GN_ATMO_MIN_ALTITUDE_KM);
    float zh = horizon_zenith(p, r);
    float zenith = acosf(clampf(dir[1], -1.0f, 1.0f));
    if (zenith < zh)
        uv[1] = 0.5f * (1.0f - sqrtf(fmaxf(1.0f - zenith / zh, 0.0f)));
    else
        uv[1] = 0.5f * (1.0f + sqrtf(fmaxf((zenith - zh) / (PI_F - zh), 0.0f)));
    float az = atan2f(dir[2], dir[0]);
    if (az < 0.0f) az += 2.0f * PI_F;
    uv[0] = az / (2.0f * PI_F);
}

void gn_atmo_sky_lights(const gn_atmosphere *a, float r_km, const float view[3],
                        const gn_atmo_light lights[2], float max_km, float radiance[3],
                        float transmittance[3])
{
    float l[3], t[3];
    gn_atmo_sky(a, r_km, view, lights[0].dir, max_km, l, transmittance);
    for (int c = 0; c < 3; c++) radiance[c] = l[c] * lights[0].illuminance * lights[0].color[c];
    if (lights[1].illuminance > 0.0f) {
        gn_atmo_sky(a, r_km, view, lights[1].dir, max_km, l, t);
        for (int c = 0; c < 3; c++) radiance[c] += l[c] * lights[1].illuminance * lights[1].color[c];
    }
}

void gn_atmo_skyview(const gn_atmosphere *a, float r_km, const gn_atmo_light lights[2], float *out)
{
    for (int j = 0; j < GN_ATMO_SKYVIEW_H; j++)
        for (int i = 0; i < GN_ATMO_SKYVIEW_W; i++) {
            float uv[2] = {((float)i + 0.5f) / GN_ATMO_SKYVIEW_W, ((float)j + 0.5f) / GN_ATMO_SKYVIEW_H};
            float dir[3], t[3];
            gn_atmo_skyview_dir(&a->p, r_km, uv, dir);
            gn_atmo_sky_lights(a, r_km, dir, lights, 0.0f, &out[(j * GN_ATMO_SKYVIEW_W + i) * 3], t);
        }
}

float gn_atmo_aerial_km(uint32_t slice)
{
    float u = ((float)slice + 1.0f) / GN_ATMO_AERIAL_SIZE;
    return GN_ATMO_AERIAL_KM * u * u;
}
